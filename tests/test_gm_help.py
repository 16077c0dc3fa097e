"""GM `помощь|help` (DESIGN.md "GM commands", issue 11 item 3): a PM listing every GM command with an example.
It is answered like `статус` (C-9): by PM only, nothing changes, and it is no override an `отмена` would undo."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from gamekit import Game, plain  # noqa: E402

from forumbot.engine import make_table, step  # noqa: E402
from forumbot.engine.fold import play  # noqa: E402
from forumbot.engine.state import played  # noqa: E402
from forumbot.markup import escape_bbcode, escape_markdown  # noqa: E402
from forumbot.model import Help, Status  # noqa: E402
from forumbot.parse import NickMatcher, parse_command  # noqa: E402
from forumbot.parse.commands import COMMAND_WORDS  # noqa: E402
from forumbot.texts import get_texts  # noqa: E402

NICKS = ["Вася", "Петя", "Кот Баюн"]
RU_WORDS = ["статус", "модкилл", "замена", "продлить", "пауза", "продолжить", "конец-фазы", "голос", "алиас",
            "сказать", "отмена", "помощь"]
EN_WORDS = ["status", "modkill", "replace", "extend", "pause", "resume", "end-phase", "setvote", "alias", "say",
            "undo", "help"]


def cmd(text: str):  # type: ignore[no-untyped-def]
    return parse_command(text, NickMatcher(NICKS), everyone=NICKS, parse_vote=lambda t: Status())  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize("text", ["помощь", "help", "ПОМОЩЬ", "Help", "[b]Помощь[/b]", "  помощь  \nещё текст"])
def test_C9_issue11_item3_help_parses_in_both_languages_case_insensitive(text: str) -> None:
    assert cmd(text) == Help()


def test_C9_issue11_item3_help_is_a_listed_command_word() -> None:
    assert COMMAND_WORDS["help"] == ("help", "помощь")


@pytest.mark.parametrize("lang,words", [("ru", RU_WORDS), ("en", EN_WORDS)])
def test_issue11_item3_the_listing_names_every_command_word_each_with_its_line(lang: str, words: list[str]) -> None:
    text = plain(get_texts(lang, escape_bbcode, "Europe/Moscow").gm.gm_help())
    lines = text.splitlines()
    for word in words:
        assert sum(1 for ln in lines if re.match(rf"[«“]{re.escape(word)}\b", ln)) == 1, word
    # every command taking arguments carries an example; a nickname with spaces in double quotes
    assert '"Кот Баюн"' in text or '"Big Bob"' in text
    assert ("продлить 12ч" if lang == "ru" else "extend 12h") in text
    assert len([ln for ln in lines if "(например, " in ln or "(for example, " in ln]) == 6


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_issue11_item3_the_listing_is_bold_headed_in_bbcode_and_a_list_in_markdown(lang: str) -> None:
    bb = get_texts(lang, escape_bbcode, "Europe/Moscow", "bbcode", "spoiler").gm.gm_help()
    assert bb.startswith("[b]") and "[spoiler" not in bb  # read on request: never folded away
    md = get_texts(lang, escape_markdown, "Europe/Moscow", "markdown").gm.gm_help()
    assert md.startswith("**") and len([ln for ln in md.splitlines() if ln.startswith("- ")]) == 12
    markdown_it = pytest.importorskip("markdown_it")
    out = markdown_it.MarkdownIt("commonmark").render(md)
    assert out.count("<li>") == 12 and "<strong>" in out and "**" not in out and "<a " not in out
    assert "[причина]" in html.unescape(out) or "[reason]" in html.unescape(out)


def _fold_watching(g: Game, watched: str, until):  # type: ignore[no-untyped-def]
    """Fold the game, keeping the Game just before input `watched` and just after it, by one `step` (issue 19
    item 5); the log lines that step wrote."""
    setup = g.setup()
    inp = next(e for e in g.events if e.id == watched)
    before, _ = play(setup, [e for e in g.events if e.at < inp.at], inp.at)
    after, _, log = step(make_table(setup), before, inp)
    seen = {"before": (played(before), before.overrides, before.told, ()),
            "after": (played(after), after.overrides, after.told, log)}
    return play(setup, g.events, until)[1], seen


@pytest.mark.parametrize("word", ["помощь", "help"])
def test_C9_issue11_item3_gm_help_is_a_pm_listing_every_command_and_changes_nothing(word: str) -> None:
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 1ч")
    asked = g.gm("day 1", "+2h", word)
    run, seen = _fold_watching(g, asked.id, g.at("day 1", "+3h"))
    assert seen["before"] == seen["after"]  # state, overrides, log: nothing changed
    answers = [m for m in run.messages if m.key == f"gm/{asked.id}"]
    assert len(answers) == 1 and answers[0].where == "pm" and answers[0].to == "ГМ"
    for w in RU_WORDS:
        assert f"«{w}" in plain(answers[0].text), w
    # nothing else came of it: the same game without the help PM sends the same messages but that answer
    g.events.remove(asked)
    without = Game.moscow()
    without.events = list(g.events)
    other = without.run("day 1", "+3h").run
    assert [m for m in run.messages if m.key != f"gm/{asked.id}"] == list(other.messages)
    assert run.next_deadline == other.next_deadline == g.at("day 1", "+25h")


def test_C9_issue11_item3_undo_after_help_undoes_the_previous_override_not_the_help() -> None:
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 1ч")
    g.gm("day 1", "+2h", "помощь")
    undo = g.gm("day 1", "+3h", "отмена")
    r = g.run("day 1", "+4h")
    assert r.run.next_deadline == g.at("day 1", "+24h")  # the extend is gone
    notice = [plain(m.text) for m in r.run.messages if m.key == f"undo/{undo.id}"]
    assert len(notice) == 1 and "продление" in notice[0]
    assert r.pms("ГМ")[-1].startswith("Выполнено")


def test_C12_issue11_item3_a_players_help_is_not_a_gm_command() -> None:
    g = Game.moscow()
    g.pm("day 1", "+1h", "М1", "помощь")
    r = g.run("day 1", "+2h")
    reply = r.pms("М1")[-1]
    assert reply.startswith("Не понято: «помощь»")
    assert "Команды ведущего" not in r.text()
