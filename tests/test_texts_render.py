"""Every message kind the bot sends, rendered in ru and en, for BBCode and Markdown boards (issue 11, "Done
means"): no Python repr, no rule id, no gender hedge, plurals and agreement right for 1, 2, 5 and 21, a zone on
every time, and markup a real renderer turns into formatting with no tag left over."""

from __future__ import annotations

import hashlib
import html
import re
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

from forumbot.markup import ZWSP, escape_bbcode, escape_markdown
from forumbot.model import (
    Alias, EndPhase, Extend, Modkill, MoveKind, Pause, Rejection, Replace, Resume, Role, Say, SetVote, Special, Vote,
)
from forumbot.rules.base import DayOutcome, Kill, NightReport
from forumbot.texts import get_texts

bbcode = pytest.importorskip("bbcode")
markdown_it = pytest.importorskip("markdown_it")

MSK = timezone(timedelta(hours=3))
AT = datetime(2026, 12, 2, 22, 0, 0, 123456, tzinfo=MSK)  # microseconds that must never show
NAMES = ["Вася", "Петя", "Оля", "Кот Баюн", "Stand_by*Me"] + [f"Игрок{i}" for i in range(6, 22)]
SIZES = (1, 2, 5, 21)


def texts(language: str, markup: str, spoiler: str = ""):  # type: ignore[no-untyped-def]
    escape = escape_markdown if markup == "markdown" else escape_bbcode
    return get_texts(language, escape, "Europe/Moscow", markup, spoiler)


def revealed(role: Role | None):  # type: ignore[no-untyped-def]
    return lambda sid: (sid, role)


def every_message(t, k: int) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """One rendering of every text the engine builds, with `k` names wherever a list of names goes."""
    names = NAMES[:k]
    one = names[0]
    votes = {voter: (one if i % 2 == 0 else Special.NO_LYNCH) for i, voter in enumerate(names)}
    deaths = tuple(Kill(n, "runoff") for n in names)
    out = {
        "setup": t.phases.setup_post(names, AT, "ab" * 32),
        "role_pm": t.players.role_pm(Role.DON, names[1:], True, ["check", "shot", "shot_by"], example=one, me="Я"),
        "role_pm_civilian": t.players.role_pm(Role.CIVILIAN, [], False, [], example=one, me="Я"),
        "don": t.players.don_chosen(one, "lot"),
        "unconfirmed": t.phases.unconfirmed_to_gm(names),
        "day_opens": t.phases.day_opens(1, AT, names),
        "night_opens": t.phases.night_opens(1, AT, ["check", "shot", "heal", "hunt"]),
        "count": t.phases.vote_count(
            "day 1", votes, names, [(n, f"[quote][/quote]{n}", Rejection("not_a_vote", n)) for n in names],
            [(n, n, "limit") for n in names], [(n, n) for n in names], names, final=True,
            edited_kept=[(n, n) for n in names], deleted=[(n, n) for n in names],
            rough=[(one, one, AT - timedelta(seconds=5), AT + timedelta(seconds=55))],
        ),
        "count_tally": t.phases.vote_count("day 1", {v: one for v in names}, [], [], [], [], [], final=False),
        "day_result": t.phases.day_result(1, DayOutcome(deaths=(Kill(one, "vote"),), reason="vote"),
                                   [Kill(n, "autokill") for n in names], revealed(Role.MAFIA), AT,
                                   {n: ("agitation" if i % 2 else "no_vote") for i, n in enumerate(names)}),
        "day_tie": t.phases.day_result(1, DayOutcome(pardoned=tuple(names), reason="tie"), [], revealed(None), None),
        "day1_single": t.phases.day_result(1, DayOutcome(pardoned=(one,), reason="day1_single"), [], revealed(None), None),
        "modkill_day": t.phases.day_cancelled_by_modkill(1),
        "runoff_opens": t.phases.runoff_opens(1, names, k % 2 == 0, AT),
        "runoff_cancelled": t.phases.runoff_cancelled(1),
        "runoff_result": t.phases.runoff_result(1, DayOutcome(deaths=deaths, reason="hang_all"), lambda s: s, AT),
        "runoff_pardon": t.phases.runoff_result(1, DayOutcome(pardoned=tuple(names), reason="pardon_all"), lambda s: s, None),
        "runoff_second_tie": t.phases.runoff_result(1, DayOutcome(pardoned=tuple(names), reason="second_tie"), lambda s: s, None),
        "night_result": t.phases.night_result(1, NightReport(deaths=tuple(Kill(n, c) for n, c in zip(
            names, ["mafia", "maniac", "hunt", "failed_hunt", "mafia"] * 5))), revealed(Role.CIVILIAN), True, AT),
        "night_closed": t.phases.night_result(1, NightReport(deaths=(Kill(one, "mafia"),)), revealed(None), False, AT),
        "night_quiet": t.phases.night_result(1, NightReport(misfire=True), revealed(None), True, None),
        "check": t.phases.check_result(one, "town"),
        "check_don": t.phases.check_result(one, Role.SHERIFF),
        "game_over": t.ending.game_over("town", "misfires", [(n, Role.CIVILIAN, i % 2 == 0, n if i else "Старый")
                                                      for i, n in enumerate(names)], 42, "42:Старый=civilian"),
        "accepted": "\n".join(t.players.accepted(kind, one, extra) for kind, extra in (
            (MoveKind.CHECK, None), (MoveKind.SHOT, None), (MoveKind.SHOT, names[-1]), (MoveKind.HEAL, None),
            (MoveKind.HUNT, Role.MANIAC), (MoveKind.DON, None), (MoveKind.MODKILL, None))),
        "refused": "\n".join([t.players.refused("maniac_repeat", one), t.players.refused("no_ability", MoveKind.HEAL),
                              t.players.refused("maniac_self"), t.players.refused("maniac_executor"), t.players.hunting_closed()]),
        "rejected_line": t.players.rejected_line(f"привет {one}", Rejection("unknown_command"), ["check", "hunt"],
                                         example=one, me="Я", bare="check"),
        "rejected_not_alive": t.players.rejected_line(one, Rejection("not_alive", one), [], explain=False),
        "dead": t.players.you_are_dead(),
        "remind_vote": t.players.vote_reminder(AT, True),
        "remind_moves": t.players.move_reminder(AT, [MoveKind.CHECK, MoveKind.SHOT], ["check", "shot"]),
        "gm_dead_posted": t.gm.dead_player_posted(one, "p1"),
        "gm_runoff_post": t.gm.runoff_post_reported(one, "p2"),
        "gm_rejected": t.gm.command_rejected(Rejection("bad_duration", "2х")),
        "gm_refused": t.gm.command_refused("already_dead"),
        "gm_status": t.gm.status("day 1", AT, AT - timedelta(hours=3), names, votes, [(n, "check") for n in names]),
        "extended": t.gm.extended("day 1", AT, timedelta(minutes=2, microseconds=5)),
        "paused": t.gm.paused(),
        "resumed": t.gm.resumed("night 2", AT),
        "modkilled": t.gm.modkilled(one, Role.MAFIA, "«флуд»", tactical=False, cancels_vote=True),
        "replaced": t.gm.replaced(one, names[-1]),
        "undone": t.gm.undone("Extend", "day 1", AT),
        "undone_paused": t.gm.undone("Pause", "night 1", AT, paused=True),
        "undone_back": t.gm.undone("Modkill", "night 1", AT, back=names),
        "undo_done": t.gm.undo_done("Extend"),
        "rederived": t.gm.rederived(AT, "модкилл " + one, t.gm.command_refused("game_ended")),
        "rederived_post": t.gm.rederived_post(AT, t.gm.command_done(Modkill(one, '"флуд"'))),
    }
    for n, cmd in enumerate([
        Modkill(one, '"спам в личке"'), Replace(one, names[-1]), Extend(timedelta(hours=26, minutes=2)), Pause(),
        Resume(), EndPhase(), SetVote(one, Vote(one, Special.PARDON_ALL)), SetVote(one, Vote(Special.NO_LYNCH)),
        Alias("Васёк", one), Say("текст"),
    ]):
        out[f"done_{n}"] = t.gm.command_done(cmd, "day 1", AT)
    return out


CASES = [(lang, markup) for lang in ("ru", "en") for markup in ("bbcode", "markdown")]


@pytest.mark.parametrize("k", SIZES)
@pytest.mark.parametrize("lang,markup", CASES)
def test_issue11_items2_4_5_8_no_repr_no_rule_id_no_hedge_and_a_zone_on_every_time(lang: str, markup: str, k: int) -> None:
    for kind, text in every_message(texts(lang, markup), k).items():
        shown = text.replace(ZWSP, "")
        assert not re.search(r"\b[A-Z][a-zA-Z]*\(\w+=|\b(?:Role|MoveKind|Special|Where)\.|\bNone\b|datetime", shown), (kind, text)
        assert not re.search(r"\b\d+:\d\d:\d\d\.\d+|\.\d{6}\b|\b0:\d\d:\d\d\b", shown), (kind, text)  # timedelta, µs
        assert not re.search(r"\b[CMHR]-\d+\b", shown), (kind, text)  # no rule id in what players read
        assert "(а)" not in shown and "выбыл" not in shown and "(a)" not in shown, (kind, text)
        for m in re.finditer(r"\d\d\.\d\d \d\d:\d\d(?::\d\d)?", shown):
            assert shown[m.end():m.end() + 4] in (" МСК", " MSK"), (kind, text)  # C-1: times with their zone
        assert not re.search(r"\bextend\b|\bsetvote\b|\bEndPhase\b|\bundo Extend\b", shown), (kind, text)


@pytest.mark.parametrize("lang,markup", CASES)
def test_issue11_item2_plurals_and_verbs_agree_for_1_2_5_21(lang: str, markup: str) -> None:
    words = {"ru": {1: "голос", 2: "голоса", 5: "голосов", 21: "голос"}, "en": {1: "vote", 2: "votes", 5: "votes", 21: "votes"}}
    leaves = {"ru": ("покидает", "покидают"), "en": ("leaves", "leave")}
    players = {"ru": {1: "игрок", 2: "игрока", 5: "игроков", 21: "игрок"}, "en": {1: "player", 2: "players", 5: "players", 21: "players"}}
    for k in SIZES:
        t = texts(lang, markup)
        msgs = every_message(t, k)
        plain = re.sub(r"\[/?b\]|\*\*", "", msgs["count_tally"])
        assert f"— {k} {words[lang][k]}:" in plain
        runoff = re.sub(r"\[/?b\]|\*\*", "", msgs["runoff_result"])
        assert leaves[lang][k > 1] in runoff and (k == 1 or leaves[lang][0] + " " not in runoff.replace(leaves[lang][1], ""))
        assert f"{k} {players[lang][k]}" in re.sub(r"\[/?b\]|\*\*", "", msgs["day_opens"])
        names = re.sub(r"\[/?b\]|\*\*", "", msgs["day_tie"])
        if k == 2:
            assert ("Вася и Петя" if lang == "ru" else "Вася and Петя") in names
    t = texts("ru", "bbcode")
    assert [t.v.count(n, "vote") for n in (1, 2, 5, 11, 12, 21, 22, 25, 111)] == [
        "1 голос", "2 голоса", "5 голосов", "11 голосов", "12 голосов", "21 голос", "22 голоса", "25 голосов", "111 голосов"]
    assert t.v.duration(timedelta(days=1, hours=2, minutes=21)) == "1 день 2 часа 21 минута"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_issue11_item2_nicknames_only_where_the_nominative_fits(lang: str) -> None:
    """Принято: выстрел. Цель — Жора, стреляет Вера — never «выстрел в Жора» or «охота на Глеб»."""
    t = texts(lang, "bbcode")
    shot = t.players.accepted(MoveKind.SHOT, "Жора", "Вера")
    hunt = t.players.accepted(MoveKind.HUNT, "Глеб", Role.MAFIA)
    if lang == "ru":
        assert shot == "Принято: выстрел. Цель — [b]Жора[/b], стреляет [b]Вера[/b]."
        assert hunt == "Принято: охота. Цель — [b]Глеб[/b], статус — мафия."
        assert t.v.names(["Вася", "Петя"]) == "Вася и Петя"
    for text in every_message(t, 2).values():
        assert not re.search(r"\b(?:в|на|между|за|от|у) \[b\]", text), text  # a preposition before a name


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_issue11_item4_gm_answers_say_what_changed_in_words(lang: str) -> None:
    t = texts(lang, "bbcode")
    answer = t.gm.command_done(SetVote("judy", Vote("carol")), "day 1", AT)
    extend = t.gm.command_done(Extend(timedelta(minutes=2)), "day 1", AT)
    undo = t.gm.undone("Extend", "day 1", AT)
    if lang == "ru":
        assert answer == "Выполнено: голос игрока [b]judy[/b] засчитан; цель — [b]carol[/b]."
        assert extend == "Выполнено: продление на 2 минуты — день 1 теперь до 02.12 22:00 МСК."
        assert undo == "Отменено действие ведущего — продление: день 1 снова до 02.12 22:00 МСК."
        # an undone modkill: who is back is the news, not a deadline that never changed
        assert t.gm.undone("Modkill", "night 1", AT, back=["ёжик"]) == \
            "Отменено действие ведущего — модкилл: [b]ёжик[/b] снова в игре."
    else:
        assert extend == "Done: extended by 2 minutes — day 1 now until 02.12 22:00 MSK."
    modkill = t.gm.modkilled("Вася", None, '"флуд"', tactical=False, cancels_vote=False)
    assert "флуд" in modkill and '"' not in modkill and "«" not in modkill  # the reason without the GM's quotes


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_issue11_item4_a_quoted_or_repeated_post_is_shown_once_without_markup(lang: str) -> None:
    t = texts(lang, "bbcode")
    count = t.phases.vote_count("day 1", {}, [], [("М2", "[quote][/quote]Кот Баюн", Rejection("not_a_vote", "Кот Баюн")),
                                         ("М3", "Наташа, она врёт", Rejection("not_a_vote", "Наташа, она врёт"))],
                         [], [], [], final=True)
    shown = count.replace(ZWSP, "").lower().replace("with a quote", "").replace("no other words or quotes", "")
    assert "quote" not in shown
    assert count.count("Кот Баюн") == 1 and count.count("Наташа, она врёт") == 1
    assert ("(с цитатой)" if lang == "ru" else "(with a quote)") in count


def render_bbcode(text: str) -> str:
    parser = bbcode.Parser(replace_links=False)
    parser.add_simple_formatter("spoiler", "<details>%(value)s</details>")
    return parser.format(text)


@pytest.mark.parametrize("spoiler", ["", "spoiler"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_issue11_item1_bbcode_renders_with_no_tag_left_and_names_literal(lang: str, spoiler: str) -> None:
    hostile = "[url=http://evil.example]x[/url]"
    t = texts(lang, "bbcode", spoiler)
    for kind, text in every_message(t, 21).items():
        out = render_bbcode(text)
        assert not re.search(r"\[/?(?:b|code|spoiler|url|quote)\b", html.unescape(out)), (kind, out)
        if kind in ("count", "day_tie", "game_over"):
            assert "<strong>" in out
    hostile_text = t.phases.vote_count("day 1", {hostile: hostile}, [hostile], [], [], [], [], final=True)
    out = render_bbcode(hostile_text)
    assert "<a " not in out and "evil.example" in out.replace(ZWSP, "")
    assert "<strong>" in out and ("<details>" in render_bbcode(every_message(t, 21)["count"])) == bool(spoiler)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_issue11_item1_markdown_renders_bold_and_lists_with_nothing_literal(lang: str) -> None:
    md = markdown_it.MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    t = texts(lang, "markdown")
    for kind, text in every_message(t, 21).items():
        out = md.render(text)
        assert "**" not in out and "[b]" not in out, (kind, out)
        assert "<a " not in out, (kind, out)
        if kind in ("count", "day_tie"):
            assert "<strong>" in out, (kind, out)
    count = md.render(every_message(t, 5)["count_tally"])
    assert "<li>" in count  # one line per candidate survives Markdown's joining of lines
    nick = md.render(t.phases.vote_count("day 1", {"Stand_by*Me": "Кот [Баюн]"}, [], [], [], [], [], final=True))
    assert "Stand_by*Me" in html.unescape(nick).replace(ZWSP, "") and "Кот [Баюн]" in html.unescape(nick)


@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
def test_issue11_item7_the_end_post_prints_the_hashed_string_and_a_command_that_checks_it(markup: str) -> None:
    """C-2: the string in the end post, run through the printed command, gives the hash of the opening post."""
    from forumbot.engine.setup import commitment, commitment_text

    roles = {"Кот 'Баюн'": Role.MAFIA, "[b]Вася": Role.SHERIFF, "Оля": Role.CIVILIAN}
    drawn = commitment_text(7, roles)
    t = texts("ru", markup)
    end = t.ending.game_over("town", "", [(n, r, True, n) for n, r in roles.items()], 7, drawn)
    blocks = re.findall(r"\[code\](.*?)\[/code\]" if markup == "bbcode" else r"```\n(.*?)\n```", end, re.S)
    assert blocks[0].replace(ZWSP, "") == drawn
    assert hashlib.sha256(blocks[0].encode()).hexdigest() == commitment(7, roles)
    out = subprocess.run(["sh", "-c", blocks[1]], capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == commitment(7, roles)
    setup = t.phases.setup_post(list(roles), AT, commitment(7, roles))
    assert "#fb:" in setup  # the marker line is explained once, in the opening post


def test_C2_the_end_post_mentions_a_later_chosen_don_only_in_a_game_with_a_don() -> None:
    # seen on a live SMF Free Hunt game: its end post explained how "a Don chosen later" is written
    from forumbot.engine.setup import commitment_text

    t = texts("ru", "bbcode")
    hunt = {"Маша": Role.DOCTOR, "Оля": Role.MAFIA, "Вася": Role.CIVILIAN}
    end = t.ending.game_over("town", "", [(n, r, True, n) for n, r in hunt.items()], 7, commitment_text(7, hunt))
    assert "Проверка раздачи" in end and "дон" not in end.lower()
    moscow = {"Маша": Role.DON, "Оля": Role.MAFIA, "Вася": Role.SHERIFF}
    end = t.ending.game_over("town", "", [(n, r, True, n) for n, r in moscow.items()], 7, commitment_text(7, moscow))
    assert "дон, выбранный позже, записан как mafia" in end


def test_issue11_item1_the_engine_writes_the_boards_markup_and_its_spoiler() -> None:
    """The setup's `markup` decides the formatting of every post; option `spoiler` puts long lists in one."""
    from dataclasses import replace

    from gamekit import Game

    from forumbot.game import run

    g = Game.moscow()
    for n, who in enumerate(["Шериф", "Дон", "Маф1", "Маф2", "М1", "М2", "М3", "М4", "М5"]):
        g.vote("day 1", f"+{n + 1}m", who, f"{who} потому что")  # nine posts not counted: a long list
    base = g.setup()
    md = run(replace(base, markup="markdown", options={"spoiler": "details"}), g.events, None)
    bb = run(base, g.events, None)
    md_result = next(m.text for m in md.messages if m.key == "day 1/result")
    bb_result = next(m.text for m in bb.messages if m.key == "day 1/result")
    assert md_result.startswith("**Итоговый подсчёт голосов (день 1)**") and '[details="' in md_result
    assert bb_result.startswith("[b]Итоговый подсчёт голосов (день 1)[/b]") and "[details" not in bb_result
    assert "[spoiler" not in bb_result  # no spoiler unless the board has one (option spoiler)


def test_issue11_item6_one_post_per_deadline_results_then_what_opens_next() -> None:
    """A board's flood limit or MyBB's merging of consecutive posts cannot split the results from the opening."""
    from gamekit import Game, START

    g = Game.moscow()
    g.votes("day 1", {"М1": "М2", "М3": "М2"})
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить М4")
    r = g.run("day 2", "+1h")
    for deadline, result, heading in ((START + timedelta(hours=24), "Итоги дня 1.", "Наступила ночь 1"),
                                      (START + timedelta(hours=36), "Итоги ночи 1.", "Наступил день 2")):
        posts = [m for m in r.run.messages if m.where == "game" and m.at == deadline]
        assert len(posts) == 1, [m.key for m in posts]
        text = posts[0].text
        assert text.index(result) < text.index(heading)
    assert not [m for m in r.run.messages if m.key in ("night 1/opens", "day 2/opens")]
    assert [m.key for m in r.run.messages if m.key == "day 1/opens"]  # Day 1 opens alone: no results before it
