"""What players and GMs read (issue 28 items 8 and 9): each line says what happened and what to do next.
Game stories told with tests/gamekit.py; the Moscow cast: Шериф, Дон, Маф1, Маф2, М1..М6."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gamekit import DAY, MOSCOW_CAST, START, Game, Result, plain  # noqa: E402

from forumbot.game import run  # noqa: E402
from forumbot.model import Role  # noqa: E402
from forumbot.parse.votes import HANG_ALL_WORDS, PARDON_ALL_WORDS  # noqa: E402
from forumbot.texts import TABLES  # noqa: E402


def test_C9_unknown_gm_command_repeats_the_line_read_and_points_at_help():
    g = Game.moscow()
    g.gm("day 1", "+2h", "[b]повестить[/b]   М4 срочно")
    r = g.run("day 1", "+3h")
    assert r.pms("ГМ")[-1] == ("Команда не выполнена: прочитано «повестить М4 срочно» — такой команды ведущего нет. "
                               "Список команд — в ответ на «помощь».")


def test_C9_unknown_gm_command_in_english():
    g = Game.moscow(language="en")
    g.gm("day 1", "+2h", "hang М4")
    r = g.run("day 1", "+3h")
    assert r.pms("ГМ")[-1] == ("Command not done: I read “hang М4”, which is no GM command. "
                               "Send “help” for the list of commands.")


def test_M1_status_names_the_nominated_don_instead_of_saying_none_is_chosen():
    cast = [(n, None) for n, _ in MOSCOW_CAST]
    drawn = Game("moscow", list(cast), seed=5).run("day 1", "+1h")
    mafia = [n for n, _ in cast if drawn.player(n).role in (Role.MAFIA, Role.DON)]
    g = Game("moscow", list(cast), seed=5)
    g.pm("setup", "-4h", mafia[0], f"дон {mafia[1]}")
    g.gm("setup", "-3h", "статус")
    r = g.run("setup", "-2h")
    status = r.pms("ГМ")[-1]
    assert "Дон ещё не выбран" not in status
    # the nick stands after a dash, in the nominative: «мафия выдвинула Оля» read as broken Russian (issue 28)
    assert f"Дон ещё не назначен; кандидат мафии в доны — {mafia[1]}; в силе последнее выдвижение до начала дня 1." \
        in status


def test_M10_a_bare_hang_in_a_hang_all_runoff_is_told_what_a_runoff_vote_looks_like():
    g = Game.moscow()
    for who in ("М1", "М2"):  # day 1 ties М3:М4 with ten alive: the runoff is hang-all vs pardon-all
        g.vote("day 1", "+1h", who, "М3")
    for who in ("М5", "М6"):
        g.vote("day 1", "+1h", who, "М4")
    g.vote(START + DAY + timedelta(hours=1), "", "М1", "повесить")
    g.vote(START + DAY + timedelta(hours=2), "", "М2", "М3")
    r = g.run("night 1", "+13h")
    said = "\n".join(plain(m.text) for m in r.run.messages if m.where == "vote")
    assert "«повесить» — это не голос: в этой перестрелке голосуют «повесить всех» или «помиловать всех»" in said
    assert "М2 «М3» — это не голос: в этой перестрелке голосуют «повесить всех» или «помиловать всех»" in said


def undo_notice(r) -> str:  # type: ignore[no-untyped-def]
    (notice,) = [plain(m.text) for m in r.run.messages if m.where == "game" and "Отменено" in m.text]
    return notice


def test_C9_an_undo_that_moved_no_deadline_does_not_announce_one():
    g = Game.moscow()
    g.gm("day 1", "+1h", "сказать Играем дальше")
    g.gm("day 1", "+2h", "отмена")
    r = g.run("day 1", "+3h")
    assert undo_notice(r) == "Отменено действие ведущего — объявление."


def test_C9_an_undone_extend_still_names_the_deadline_it_restored():
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 2ч")
    g.gm("day 1", "+2h", "отмена")
    r = g.run("day 1", "+3h")
    assert undo_notice(r).startswith("Отменено действие ведущего — продление: день 1 снова до ")


def test_C9_an_undone_replace_says_who_holds_the_seat_again():
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М2 Новичок")
    g.gm("day 1", "+2h", "отмена")
    r = g.run("day 1", "+3h")
    assert undo_notice(r) == "Отменено действие ведущего — замена: место снова занимает М2, Новичок в игре больше нет."


def test_M5_the_other_mafiosi_are_told_when_a_partner_changes_target():
    g = Game.moscow()
    for who in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", who, "убить М3")
    g.pm("night 1", "+2h", "Маф1", "убить М4")
    r = g.run("night 1", "+3h")
    for partner in ("Дон", "Маф2"):
        told = [plain(t) for t in r.pms(partner) if "новая цель" in t]
        assert told[-1] == ("Маф1 — новая цель: М4.\nЦели мафии сейчас: Дон — М3; Маф1 — М4; Маф2 — М3.\n"
                            "Выстрел состоится, только если все живые члены мафии назовут одну и ту же цель; "
                            "иначе — несострел."), told
    assert not [t for t in r.pms("Маф1") if "Маф1 — новая цель" in plain(t)]  # the sender has his own answer


VOTE_URL = "https://forum.example.org/viewtopic.php?t=102"


def test_C3_the_day_post_links_the_vote_thread():
    for language, line in (("ru", f"Голосование — в [url={VOTE_URL}]теме голосования[/url] до "),
                           ("en", f"Vote in [url={VOTE_URL}]the vote thread[/url] until ")):
        g = Game.moscow(language=language)
        r = Result(run(replace(g.setup(), vote_url=VOTE_URL), g.events, g.at("day 1", "+1h")))
        (opening,) = [m.text for m in r.run.messages if m.where == "game" and ("Наступил день 1" in m.text
                                                                                 or "Day 1 begins" in m.text)]
        assert line in opening


def test_C3_the_day_post_without_a_vote_thread_address_names_it_in_words():
    r = Game.moscow().run("day 1", "+1h")
    assert any("Голосование — в теме голосования до " in t for t in r.posts())


def test_m10_the_runoff_words_a_player_is_told_to_write_are_those_the_vote_parser_reads():
    """M-10: a hang-all/pardon-all runoff's hint and refusal quote the words the parser reads (in an English game
    too: it told players to write “hang all”, then refused it as no vote)."""
    for lang, table in TABLES.items():
        for key in ("reject.not_a_hang_all_vote", "reject.not_a_hang_all_vote.short", "runoff.hang_all"):
            quoted = re.findall(r"[“«]([^”»{}]+)[”»]", table[key])
            assert quoted and all(q in (*HANG_ALL_WORDS, *PARDON_ALL_WORDS) for q in quoted), (lang, key, quoted)
