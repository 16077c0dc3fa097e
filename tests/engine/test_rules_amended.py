"""The amended clauses C-1 (rough forum times, issue 7 item 7), C-11 (edited and deleted vote posts), C-12 (move
grammar), H-7 (the mafia shot) and H-8 (the Maniac), each as a short game story through the whole engine.

Casts (tests/gamekit.py): Moscow Шериф, Дон, Маф1, Маф2, М1..М6; Free Hunt Ф1..Ф3, Док, Ман, Г1..Г7.
"""

from __future__ import annotations

import re
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import HUNT_CAST, Game, Result, plain  # noqa: E402

P = [n for n, _ in HUNT_CAST]


def final_count(r: Result, n: int = 1) -> str:
    """The day's final count (C-6), posted with its result or with the runoff it leads to."""
    heads = (f"Итоговый подсчёт голосов (день {n})", f"Final vote count (day {n})")
    return next(plain(m.text) for m in r.run.messages if m.where == "game" and plain(m.text).startswith(heads))


def pm_after(r: Result, to: str, inp) -> list[str]:  # type: ignore[no-untyped-def]
    return [plain(m.text) for m in r.run.messages if m.to == to and m.key == f"pm/{inp.id}"]


def ring(g: Game, phase: str, voters: list[str] | None = None, offset: str = "+1h") -> None:
    """Free Hunt: each voter votes for the next (an all-way tie: nobody leaves, nobody is a no-show)."""
    voters = list(P if voters is None else voters)
    for i, v in enumerate(voters):
        g.vote(phase, offset, v, voters[(i + 1) % len(voters)])


# ============================================================================ C-1: rough times (issue 7 item 7)


def _tie_broken_by_a_last_minute_vote(g: Game, earliest: str, latest: str):  # type: ignore[no-untyped-def]
    """М1, М2 vote М3; М4, М5 vote М6; then М6's vote for М3, as the forum showed it: from `earliest` to
    `latest` after Day 1 opened (Day 1 ends at +24h)."""
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М4": "М6", "М5": "М6"})
    return g.vote("day 1", earliest, "М6", "М3", at_latest=g.at("day 1", latest))


def test_C1_issue7_item7_a_rough_time_across_the_deadline_counts_as_before_it_and_the_count_marks_it():
    """MyBB's "1 минуту назад" read 1 min 49 s after the deadline: posted 11 s before to 49 s after it."""
    g = Game.moscow()
    _tie_broken_by_a_last_minute_vote(g, "+23h59m49s", "+24h0m49s")
    r = g.run("night 1", "+1h")
    assert r.died("М3") == ("day 1", "vote")  # counted: 3 to 2, no runoff
    count = final_count(r)
    assert "М3 — 3 голоса: М1, М2, М6" in count
    assert ("Время неточное: М6 «М3» — форум показал время лишь примерно (от 02.12 09:59:49 МСК до "
            "02.12 10:00:49 МСК); сообщение засчитано как написанное до срока.") in count


def test_C1_a_rough_time_wholly_at_or_after_the_deadline_is_late():
    g = Game.moscow()
    _tie_broken_by_a_last_minute_vote(g, "+24h", "+24h0m59s")  # "сегодня, 10:00": the deadline's own minute
    r = g.run("day 1", "+24h")
    assert "М3 — 2 голоса: М1, М2" in final_count(r)  # late: a 2-2 tie, and no mark
    assert "Время неточное" not in final_count(r)


def test_C1_a_rough_time_wholly_before_the_deadline_counts_unmarked():
    g = Game.moscow()
    _tie_broken_by_a_last_minute_vote(g, "+23h59m", "+23h59m59s")  # "сегодня, 09:59"
    r = g.run("night 1", "+1h")
    assert r.died("М3") == ("day 1", "vote")
    assert "Время неточное" not in final_count(r)


def test_C1_issue7_item7_free_hunt_a_last_minute_rough_vote_is_no_no_show():
    """The reported defect: the vote was judged late and its author autokilled (H-5)."""
    g = Game.free_hunt(language="en")
    voters = [p for p in P if p != "Г7"]
    ring(g, "day 1", voters)
    g.vote("day 1", "+23h59m30s", "Г7", "Г1", at_latest=g.at("day 1", "+24h0m30s"))
    r = g.run("night 1", "+1h")
    assert r.alive("Г7")
    assert "autokill" not in final_count(r).lower()
    assert "Rough time: Г7 “Г1”" in final_count(r)


def test_C1_a_rough_pm_across_the_night_deadline_is_a_move_for_that_night():
    g = Game.moscow()
    for m in ("Дон", "Маф1"):
        g.pm("night 1", "+1h", m, "убить М1")
    g.pm("night 1", "+11h59m30s", "Маф2", "убить М1", at_latest=g.at("night 1", "+12h0m30s"))
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("night 1", "mafia")


# ============================================================================ C-11: edited and deleted posts


def test_C11_a_vote_post_deleted_by_the_deadline_does_not_count_and_the_final_count_names_it():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М4": "М6"})
    g.vote("day 1", "+2h", "М5", "М6", deleted_at=g.at("day 1", "+24h"))
    g.vote("day 1", "+3h", "М6", "М6", deleted_at=g.at("day 1", "+24h"))
    r = g.run("night 1", "+1h")
    assert r.died("М3") == ("day 1", "vote")  # 2 to 1 without the two deleted posts
    count = final_count(r)
    assert "Не засчитано: М5 «М6» — сообщение удалено из темы." in count
    assert "Не засчитано: М6 «М6» — сообщение удалено из темы." in count
    assert "М6 — 1 голос: М4" in count


def test_C11_a_deleted_vote_post_does_not_use_up_a_vote_change():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2")
    g.vote("day 1", "+2h", "М1", "М3", deleted_at=g.at("day 1", "+24h"))  # would be his one change (M-8)
    g.vote("day 1", "+3h", "М1", "М4")  # so this is his change, and counts
    g.vote("day 1", "+3h", "М5", "М4")
    r = g.run("night 1", "+1h")
    assert r.died("М4") == ("day 1", "vote")
    assert "лимит смены голоса" not in final_count(r)


def test_C11_a_vote_post_deleted_after_the_deadline_changes_nothing():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М4": "М6"})
    g.vote("day 1", "+2h", "М5", "М3", deleted_at=g.at("night 1", "+2h"))
    r = g.run("night 1", "+3h")
    assert r.died("М3") == ("day 1", "vote")
    assert "удалено" not in final_count(r)


def test_C11_a_deleted_runoff_vote_does_not_count():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М5": "М4", "М6": "М4"})  # tie: hang-all runoff (10 alive)
    g.vote("day 1", "+25h", "М1", "повесить всех")
    g.vote("day 1", "+25h", "М2", "повесить всех", deleted_at=g.at("day 1", "+36h"))
    g.vote("day 1", "+25h", "М5", "помиловать всех")
    r = g.run("night 1", "+13h")
    assert r.alive("М3") and r.alive("М4")  # 1 to 1: no strict majority for hang-all
    result = next(plain(m.text) for m in r.run.messages if m.key == "runoff 1/result")
    assert "Не засчитано: М2 «повесить всех» — сообщение удалено из темы." in result


def test_C11_the_count_names_every_edited_post_and_an_edited_post_uses_up_no_change():
    """Two edited posts, one voided (the default) and one whose first text counts (first_seen): each named."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2", edited_at=g.at("day 1", "+2h"))
    g.vote("day 1", "+1h", "М4", "М2", edited_at=g.at("day 1", "+2h"))
    r = g.run("night 1", "+1h")
    count = final_count(r)
    assert "Не засчитано: М1 «М2» — сообщение отредактировано." in count
    assert "Не засчитано: М4 «М2» — сообщение отредактировано." in count


# ============================================================================ C-12: move grammar


def test_C12_a_keyword_may_take_the_preposition_na_or_v_before_the_nickname():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    shot = g.pm("night 1", "+1h", "Ф1", "стреляю в Г1 исполнитель Ф2")
    hunt = g.pm("night 1", "+1h", "Г5", "охочусь на Ман маньяк")
    heal = g.pm("night 1", "+1h", "Док", "лечу Г2")
    r = g.run("night 1", "+12h")
    assert pm_after(r, "Ф1", shot) == ["Accepted: shot. Target — Г1, fired by Ф2."]
    assert pm_after(r, "Г5", hunt) == ["Accepted: hunt. Target — Ман, status — maniac."]
    assert pm_after(r, "Док", heal) == ["Accepted: heal. Target — Г2."]
    assert r.died("Ман") == ("night 1", "hunt") and r.died("Г1") == ("night 1", "mafia")


def test_C12_preposition_in_moscow_check_and_shot():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "проверяю на Маф1")
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "стреляю в М1")
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("night 1", "mafia")
    assert any("Маф1 — мафия" in t for t in r.pms("Шериф"))


def test_C12_a_bare_nickname_from_the_doctor_is_a_heal_never_a_hunt():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    bare = g.pm("night 1", "+1h", "Док", "Ф1")  # heal Ф1 (a hunt on Ф1 would kill Ф1)
    r = g.run("night 1", "+12h")
    assert pm_after(r, "Док", bare) == ["Accepted: heal. Target — Ф1."]
    assert r.alive("Ф1")


def test_C12_a_bare_nickname_from_a_civilian_is_not_a_hunt_and_the_answer_shows_his_moves():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    bare = g.pm("night 1", "+1h", "Г1", "Ф1")
    r = g.run("night 1", "+12h")
    assert r.alive("Ф1") and r.alive("Г1")
    reply = pm_after(r, "Г1", bare)[0]
    assert reply.startswith("Not understood")
    assert "You can write: “hunt NICK mafia|maniac” (for example, “hunt Ф1 mafia”)." in reply


def test_C12_not_understood_is_answered_with_the_senders_own_moves_with_an_example():
    g = Game.moscow()
    sheriff = g.pm("night 1", "+1h", "Шериф", "проверь-ка Маф1")
    don = g.pm("night 1", "+1h", "Дон", "привет")
    civ = g.pm("night 1", "+1h", "М1", "а мне что делать?")
    r = g.run("night 1", "+2h")
    s = pm_after(r, "Шериф", sheriff)[0]
    assert "Можно написать: «проверка НИК» (например, «проверка Дон»)." in s
    assert "Можно прислать и просто ник: это будет проверка." in s
    assert "убить" not in s  # not someone else's moves
    d = pm_after(r, "Дон", don)[0]
    assert "«проверка НИК» (например, «проверка Шериф»); «убить НИК» (например, «убить Шериф»)" in d
    assert "просто ник" not in d  # the Don has two moves: a bare nickname is neither
    assert "Ночных ходов у вашей роли нет." in pm_after(r, "М1", civ)[0]


def test_C12_free_hunt_mafia_are_shown_the_executor_form_and_mafia_in_setup_the_don_nomination():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    m = g.pm("night 1", "+1h", "Ф1", "hello")
    r = g.run("night 1", "+2h")
    said = pm_after(r, "Ф1", m)[0]
    example = re.search(r"“kill NICK by NICK2” \(for example, “kill (\S+) by Ф1”\)", said)
    assert example and example.group(1) not in ("Ф2", "Ф3"), said  # never his own partner
    g = Game("moscow", [(n, None if role.value == "don" else role) for n, role in Game.moscow().cast])
    m = g.pm("setup", "-2h", "Маф1", "хочу быть доном")
    r = g.run("setup", "-1h")
    assert "«дон НИК» (например, «дон Маф1»)" in pm_after(r, "Маф1", m)[0]


def test_C12_a_pm_not_understood_never_changes_the_game():
    def story(junk: bool) -> Result:
        g = Game.moscow()
        g.votes("day 1", {"М1": "М3", "М2": "М3"})
        if junk:
            for who, text in (("М1", "М3"), ("Шериф", "в Маф1"), ("Дон", "Маф1"), ("М2", "стреляю в")):
                g.pm("night 1", "+1h", who, text)
        for m in ("Дон", "Маф1", "Маф2"):
            g.pm("night 1", "+2h", m, "убить М5")
        return g.run("day 2", "+1h")

    quiet, noisy = story(False), story(True)
    assert noisy.run.result == quiet.run.result
    replies = [m for m in noisy.run.messages if m.key in {f"pm/t{n}" for n in (3, 4, 5, 6)}]
    assert len(replies) == 4 and all(plain(m.text).startswith("Не понято") for m in replies)
    said = [(m.at, m.where, m.to, plain(m.text)) for m in quiet.run.messages]
    assert [(m.at, m.where, m.to, plain(m.text)) for m in noisy.run.messages if m not in replies] == said


# ============================================================================ H-7: the mafia shot


def test_H7_the_latest_shot_stands_when_its_sender_is_modkilled_before_the_night_resolves():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ф2", "kill Г2")
    g.pm("night 1", "+2h", "Ф1", "kill Г1 by Ф3")  # the latest: replaces Ф2's
    g.gm("night 1", "+3h", "modkill Ф1")
    r = g.run("night 1", "+12h")
    assert r.died("Ф1") == ("night 1", "modkill")
    assert r.died("Г1") == ("night 1", "mafia") and r.alive("Г2")


def test_H7_with_the_sender_as_executor_his_death_voids_the_shot():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    g.pm("night 1", "+2h", "Ф1", "kill Г1")
    g.gm("night 1", "+3h", "modkill Ф1")
    r = g.run("night 1", "+12h")
    assert r.alive("Г1")


# ============================================================================ H-8: the Maniac


def test_H8_the_maniac_may_not_shoot_himself_refused_at_once():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    first = g.pm("night 1", "+1h", "Ман", "kill Г3")
    own = g.pm("night 1", "+2h", "Ман", "kill Ман")
    r = g.run("night 1", "+12h")
    assert pm_after(r, "Ман", own) == ["The maniac may not shoot themselves: choose another target."]
    assert next(m.at for m in r.run.messages if m.key == f"pm/{own.id}") == own.at
    assert r.alive("Ман") and r.died("Г3") == ("night 1", "maniac")
    assert pm_after(r, "Ман", first) == ["Accepted: shot. Target — Г3."]


def test_H8_a_maniac_line_naming_an_executor_is_refused_and_changes_nothing():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г3")
    by = g.pm("night 1", "+2h", "Ман", "kill Г1 by Ф1")
    ru = g.pm("night 1", "+2h", "Ман", "убить Г2 исполнитель Ман")
    r = g.run("night 1", "+12h")
    assert pm_after(r, "Ман", by) == ["The maniac has no executor: write “kill NICK” without “by”."]
    assert "H-8" not in pm_after(r, "Ман", ru)[0]
    assert r.alive("Г1") and r.alive("Г2") and r.died("Г3") == ("night 1", "maniac")


def test_H8_the_ban_is_on_the_move_in_force_at_the_end_of_the_night_before_even_when_healed():
    g = Game.free_hunt(language="en")
    ring(g, "day 1")
    g.pm("night 1", "+1h", "Ман", "kill Г1")
    g.pm("night 1", "+1h", "Док", "heal Г1")
    ring(g, "day 2")
    again = g.pm("day 2", "+2h", "Ман", "стреляю в Г1")  # by day, for night 2: refused at once
    r = g.run("night 2", "+12h")
    assert "H-8" not in pm_after(r, "Ман", again)[0] and r.alive("Г1")
    assert next(m.at for m in r.run.messages if m.key == f"pm/{again.id}") == again.at
    assert timedelta(0) < g.at("night 2", "+0h") - again.at


# ============================================================================ the transcript's optional fields


def _transcript(events: list[dict]) -> dict:
    from gamekit import MOSCOW_CAST, START

    return {
        "variant": "moscow", "seed": 1, "start": START.isoformat(), "bot": "Бот", "gms": ["ГМ"],
        "players": [{"nick": n, "role": str(r)} for n, r in MOSCOW_CAST], "events": events,
        "until": (START + timedelta(hours=25)).isoformat(),
    }


def test_C1_C11_a_transcript_event_may_carry_at_latest_and_deleted_at():
    from forumbot import replay
    from gamekit import START

    def vote(who: str, target: str, at: timedelta, **kw) -> dict:
        return {"at": (START + at).isoformat(), "where": "vote", "from": who, "text": target,
                **{k: (START + v).isoformat() for k, v in kw.items()}}

    events = [vote("М1", "М3", timedelta(hours=1)), vote("М2", "М3", timedelta(hours=1)),
              vote("М4", "М6", timedelta(hours=1)), vote("М5", "М6", timedelta(hours=1)),
              vote("М6", "М6", timedelta(hours=2), deleted_at=timedelta(hours=24)),  # gone: no vote
              vote("Шериф", "М3", timedelta(hours=23, minutes=59, seconds=30),
                   at_latest=timedelta(hours=24, seconds=30))]  # rough, across the deadline: counts
    result, _ = replay.replay(replay.parse_transcript(_transcript(events)))
    out = replay.to_json(result)
    assert {p["nick"]: p["died"] for p in out["result"]["players"] if p["died"]} == {
        "М3": {"phase": "day 1", "cause": "vote"}}
    count = next(plain(m["text"]) for m in out["messages"] if plain(m["text"]).startswith("Итоговый подсчёт"))
    assert "Время неточное: Шериф «М3»" in count and "Не засчитано: М6 «М6» — сообщение удалено" in count


def test_C1_a_transcript_at_latest_before_at_is_refused_naming_the_field():
    import pytest

    from forumbot import replay
    from forumbot.errors import TranscriptError
    from gamekit import START

    bad = {"at": START.isoformat(), "where": "vote", "from": "М1", "text": "М2",
           "at_latest": (START - timedelta(minutes=1)).isoformat()}
    with pytest.raises(TranscriptError, match=r"events\[1\]: at_latest .* is before at"):
        replay.parse_transcript(_transcript([bad]))


def test_C12_a_nickname_that_starts_with_na_or_v_still_matches_as_written():
    from forumbot import parse
    from forumbot.model import Move, MoveKind, RejectedLine, Rejection

    nicks = ["Маша", "В Мире", "На-На"]
    matcher = parse.NickMatcher(nicks, {})

    def one(text: str):  # type: ignore[no-untyped-def]
        [found] = parse.parse_pm(text, matcher, variant="free_hunt", alive=nicks, everyone=nicks)
        return found

    assert one("убить в мире") == Move(MoveKind.SHOT, "В Мире")
    assert one("убить в В Мире") == Move(MoveKind.SHOT, "В Мире")
    assert one("стреляю на-на") == Move(MoveKind.SHOT, "На-На")
    assert one("охочусь на Маша") == Move(MoveKind.HUNT, "Маша")
    assert one("стреляю в Васю") == RejectedLine("стреляю в Васю", Rejection("unknown_name", "Васю"))
    assert one("стреляю в") == RejectedLine("стреляю в", Rejection("missing_argument", "стреляю"))


def test_C1_C9_a_gm_command_shown_to_the_minute_takes_effect_at_the_minutes_end():
    """phpBB and MyBB show PM times to the minute. A GM `конец-фазы` sent at 12:00:45 reads as 12:00-12:00:59;
    stamped at the minute's start it would make a vote posted at 12:00:30 (exact) late. A GM is no player to
    favour (C-1), and what he closes must not void what players posted before he sent it."""
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М4": "М6"})
    g.vote("day 1", "+2h0m30s", "М5", "М3")
    g.pm("day 1", "+2h", g.gms[0], "конец-фазы", at_latest=g.at("day 1", "+2h0m59s"))
    r = g.run("night 1", "+1h")
    assert r.died("М3") == ("day 1", "vote")
    assert "М3 — 3 голоса: М1, М2, М5" in final_count(r)


def test_C12_a_mafiosos_example_never_names_his_own_partner():
    """GM acceptance on SMF: a mafioso's role PM said «убить Маша» with Маша his partner."""
    r = Game.free_hunt().run("setup", "+1m")  # seats Ф1, Ф2, Ф3 (mafia) come first
    for maf in ("Ф1", "Ф2", "Ф3"):
        role = next(t for t in r.pms(maf) if "Ваша роль" in t)
        named = [n for n in ("Ф1", "Ф2", "Ф3") if f"«убить {n}»" in role]
        assert "«убить " in role and not named, role
