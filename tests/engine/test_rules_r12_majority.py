"""R-12 `majority_ends_day` (+ `majority_delay`): a day ends as soon as one player holds the votes of more than half
of the alive players, counted post by post in thread order with every vote rule applied (C-3, M-8, R-1, H-4).

Kit casts (tests/gamekit.py): Moscow Шериф, Дон, Маф1, Маф2, М1..М6 (10 alive: a majority is 6); Free Hunt
Ф1..Ф3, Док, Ман, Г1..Г7 (12 alive: a majority is 7).
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import DAY, HUNT_CAST, MOSCOW_CAST, NIGHT, Game, plain  # noqa: E402
from forumbot.engine.fold import run_from  # noqa: E402
from forumbot.engine.position import Position  # noqa: E402
from forumbot.game import run  # noqa: E402
from forumbot.model import Where  # noqa: E402
from forumbot.options import option_problems  # noqa: E402

MOSCOW = [n for n, _ in MOSCOW_CAST]
HUNT = [n for n, _ in HUNT_CAST]
ON = {"majority_ends_day": True}


def message(r, key: str):  # type: ignore[no-untyped-def]
    return next(m for m in r.run.messages if m.key == key)


def final_count(r, n: int = 1) -> str:  # type: ignore[no-untyped-def]
    return plain(message(r, f"day {n}/result").text)


def six_for_maf1(g: Game) -> None:
    """Шериф, Дон, Маф2, М1, М2, М3 vote Маф1 a minute apart from +1h: М3's post (+1h05m) makes six of ten."""
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2", "М3"]):
        g.vote("day 1", f"+1h{k}m", voter, "Маф1")


def test_R12_majority_making_post_is_the_days_deadline():
    """R-12: the sixth vote of ten ends Day 1 at that post's time; the result and Night 1 follow from then."""
    g = Game.moscow(options=ON)
    six_for_maf1(g)
    ended = g.at("day 1", "+1h5m")
    r = g.run(ended + timedelta(minutes=1))
    result = message(r, "day 1/result")
    assert result.at == ended
    assert r.died("Маф1") == ("day 1", "vote")
    assert "День закончился досрочно: у Маф1 больше половины голосов живых игроков" in plain(result.text)
    night = next(m for m in r.run.messages if m.key == "night 1/opens" or "Наступила ночь 1" in m.text)
    assert night.at == ended
    assert r.run.next_deadline == ended + NIGHT  # the night has its whole length from the early end (C-1)


@pytest.mark.parametrize(("language", "line"), [
    ("ru", "День закончился досрочно: у Маф1 больше половины голосов живых игроков (сообщение от 01.12 {t} МСК)."),
    ("en", "The day ended early: Маф1 holds more than half of the alive players' votes (post at 01.12 {t} MSK)."),
])
def test_R12_the_early_end_names_the_majority_posts_time_as_a_date(language, line):
    """R-12, as a GM walking through issue 30 read it: «(сообщение в 19.01 05:01 МСК)» is no Russian before a date
    and a time; the line says «сообщение от …» as the other dated lines do."""
    g = Game.moscow(options=ON)
    g.language = language
    six_for_maf1(g)
    ended = g.at("day 1", "+1h5m")
    result = plain(message(g.run(ended + timedelta(minutes=1)), "day 1/result").text)
    t = ended.astimezone(ZoneInfo("Europe/Moscow")).strftime("%H:%M")
    assert line.format(t=t) in result, result


def test_R12_off_by_default_the_day_runs_to_its_deadline():
    """R-12 is a house option: without it six of ten change nothing, the day ends at its own deadline."""
    g = Game.moscow()
    six_for_maf1(g)
    r = g.run("night 1", "+1m")
    assert message(r, "day 1/result").at == g.at("day 1", "+0h") + DAY
    assert "досрочно" not in final_count(r)


def test_R12_a_later_post_is_not_counted_even_in_the_same_second():
    """R-12: posts after the majority-making one are not counted, one stamped the same second included (C-1: a
    post at the deadline is late); the final count lists them as no votes."""
    g = Game.moscow(options=ON)
    six_for_maf1(g)
    g.vote("day 1", "+1h5m", "М4", "Маф2")  # same instant, later in the thread
    g.vote("day 1", "+2h", "М5", "Маф2")
    r = g.run("night 1", "+1m")
    text = final_count(r)
    assert "Маф1 — 6 голосов" in text
    assert "Маф2 —" not in text
    assert "Без голоса (4): Маф1, М4, М5, М6." in text
    # without the rule both count
    g2 = Game.moscow()
    six_for_maf1(g2)
    g2.vote("day 1", "+1h5m", "М4", "Маф2")
    g2.vote("day 1", "+2h", "М5", "Маф2")
    assert "Маф2 — 2 голоса: М4, М5 (L-4)" in final_count(g2.run("night 1", "+1m"))


def test_R12_vote_change_limit_applies_when_counting_M8():
    """R-12 with M-8: a third vote is ignored, so it cannot make the majority; the day runs on."""
    g = Game.moscow(options=ON)
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2"]):
        g.vote("day 1", f"+1h{k}m", voter, "Маф1")
    g.vote("day 1", "+2h", "М3", "М4")
    g.vote("day 1", "+2h1m", "М3", "М5")  # the second vote: final (M-8)
    g.vote("day 1", "+2h2m", "М3", "Маф1")  # ignored: it would have been the sixth
    r = g.run("night 1", "+1m")
    assert message(r, "day 1/result").at == g.at("day 1", "+0h") + DAY
    assert "Маф1 — 5 голосов" in final_count(r)


def test_R12_a_repeat_is_no_change_under_R1_and_still_counts_toward_the_majority():
    """R-12 with R-1 set: a vote repeated for the same target is no change, so the next change is allowed and can
    make the majority."""
    g = Game.moscow(options={**ON, "vote_changes": 1})
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2"]):
        g.vote("day 1", f"+1h{k}m", voter, "Маф1")
    g.vote("day 1", "+2h", "М3", "М4")
    g.vote("day 1", "+2h1m", "М3", "М4")  # a repeat: no change
    g.vote("day 1", "+2h2m", "М3", "Маф1")  # the one change: the sixth vote
    r = g.run("night 1", "+1m")
    assert message(r, "day 1/result").at == g.at("day 1", "+2h2m")


def test_R12_dead_voters_and_votes_for_the_dead_are_not_counted_C3():
    """R-12 with C-3: only alive voters count, and the majority is of the alive players (8 alive: 5)."""
    p = Position.parse("moscow day 2 | Шериф=sheriff Дон=don Маф1=mafia Маф2=mafia М1 М2 М3 М4 ~М5 ~М6"
                       " | options majority_ends_day=true")
    opens = p.game.phase.deadline
    for k, voter in enumerate(["М5", "М6", "Шериф", "Дон", "Маф2", "М1"]):  # two dead voters first
        p.step(p.input(Where.VOTE, voter, "Маф1"))
    assert p.game.phase.deadline == opens and p.game.phase.majority is None  # 4 of 8 alive: no majority
    sixth = p.input(Where.VOTE, "М2", "Маф1")
    p.step(sixth)
    assert p.game.phase.deadline == sixth.at
    assert p.game.phase.majority is not None and p.game.phase.majority.holder == "Маф1"


def test_R12_agitation_is_a_self_vote_and_counts_toward_a_majority_H4():
    """R-12 with H-4: an agitation counts as its author's vote against himself, so it can make his majority."""
    g = Game.free_hunt(options=ON)
    for k, voter in enumerate(HUNT[1:7]):  # Ф2..Г2: six votes for Ф1
        g.vote("day 1", f"+1h{k}m", voter, "Ф1")
    g.vote("day 1", "+2h", "Ф1", "голосуйте за Г3")
    r = g.run("night 1", "+1m")
    assert message(r, "day 1/result").at == g.at("day 1", "+2h")
    assert "Ф1 — 7 голосов: Ф2, Ф3, Док, Ман, Г1, Г2, Ф1 (L-0)" in final_count(r)
    # H-5 and H-6: the day ended before Г3..Г7 voted, so they are no-shows and nobody leaves by vote
    assert r.died("Ф1") is None and r.died("Г3") == ("day 1", "autokill")


def test_R12_no_pass_vote_makes_a_majority():
    """R-12: `ннв` names nobody, so six of ten `ннв` end nothing."""
    g = Game.moscow(options=ON)
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2", "М3"]):
        g.vote("day 1", f"+1h{k}m", voter, "ннв")
    assert message(g.run("night 1", "+1m"), "day 1/result").at == g.at("day 1", "+0h") + DAY


def test_R12_delay_kept_the_day_ends_that_long_after_the_post():
    """R-12 `majority_delay`: the day ends that many minutes after the majority-making post; votes inside the delay
    count, one after it does not."""
    g = Game.free_hunt(options={**ON, "majority_delay": 30})
    for k, voter in enumerate(HUNT[1:8]):  # seven of twelve for Ф1 at +1h06m
        g.vote("day 1", f"+1h{k}m", voter, "Ф1")
    g.vote("day 1", "+1h20m", "Г4", "Ф1")  # inside the delay: counted
    g.vote("day 1", "+1h40m", "Г5", "Ф1")  # after it: the day is over
    for voter in HUNT[10:]:
        g.vote("day 1", "+1h10m", voter, "Г1")
    r = g.run("night 1", "+1m")
    assert message(r, "day 1/result").at == g.at("day 1", "+1h36m")
    text = final_count(r)
    assert "Ф1 — 8 голосов: Ф2, Ф3, Док, Ман, Г1, Г2, Г3, Г4 (L-0)" in text
    assert r.died("Г5") == ("day 1", "autokill")  # H-5: his post came after the day ended


def test_R12_delay_broken_by_a_change_of_vote_restores_the_deadline():
    """R-12 `majority_delay`: a change of vote that breaks the majority before the delay runs out puts the day's
    own deadline back."""
    g = Game.free_hunt(options={**ON, "majority_delay": 30})
    for k, voter in enumerate(HUNT[1:8]):
        g.vote("day 1", f"+1h{k}m", voter, "Ф1")
    g.vote("day 1", "+1h20m", "Ф2", "Г1")  # six left: broken
    for voter in HUNT[8:]:
        g.vote("day 1", "+3h", voter, "Г1")
    g.vote("day 1", "+3h", "Ф1", "Г1")
    r = g.run("night 1", "+1m")
    assert message(r, "day 1/result").at == g.at("day 1", "+0h") + DAY
    assert "досрочно" not in final_count(r)


def test_R12_a_new_holder_starts_the_delay_again():
    """R-12: when a change moves the majority to another player, the delay runs from the post that made it."""
    p = Position.parse("moscow day 2 | Шериф=sheriff Дон=don Маф1=mafia Маф2=mafia М1 ~М2 ~М3 ~М4 ~М5 ~М6"
                       " | options majority_ends_day=true majority_delay=60 vote_changes=\"unlimited\"")
    for voter, target in [("Шериф", "Маф1"), ("Дон", "Маф1"), ("Маф2", "Маф1"), ("М1", "Маф2")]:
        p.step(p.input(Where.VOTE, voter, target))
    first = p.game.phase.majority
    assert first is not None and first.holder == "Маф1"
    p.step(p.input(Where.VOTE, "Шериф", "Маф2", minutes=30))
    p.step(p.input(Where.VOTE, "Дон", "Маф2", minutes=31))
    moved = p.game.phase.majority
    assert moved is not None and moved.holder == "Маф2" and p.game.phase.deadline == moved.at + timedelta(hours=1)
    assert moved.scheduled == first.scheduled


def test_R12_runoff_never_ends_early():
    """R-12 never applies to a runoff (M-10): with 9 alive the runoff is among the leaders, and seven votes for
    one of them wait for its deadline."""
    p = Position.parse("moscow runoff 1 | Шериф=sheriff Дон=don Маф1=mafia Маф2=mafia М1 М2 М3 М4 М5 ~М6"
                       " | leaders Маф1,Маф2 | options majority_ends_day=true")
    deadline = p.game.phase.deadline
    assert not p.game.hang_all
    for voter in ["Шериф", "Дон", "М1", "М2", "М3", "М4", "М5"]:
        p.step(p.input(Where.VOTE, voter, "Маф1"))
    assert [x.parsed.target for x in p.game.runoff_posts] == ["Маф1"] * 7  # each a runoff vote
    assert p.game.phase.kind == "runoff" and p.game.phase.deadline == deadline and p.game.phase.majority is None
    p.advance()
    assert p.game.phase.kind == "night" and p.game.phase.opens == deadline


def test_R12_gm_vote_counts_toward_the_majority():
    """R-12: a GM's `голос` (C-9 setvote) is counted post by post like a player's."""
    g = Game.moscow(options=ON)
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2"]):
        g.vote("day 1", f"+1h{k}m", voter, "Маф1")
    g.gm("day 1", "+3h", "голос М3 Маф1")
    r = g.run("night 1", "+1m")
    assert message(r, "day 1/result").at == g.at("day 1", "+3h")


def test_R12_same_result_folded_whole_and_tick_by_tick():
    """R-12 is part of the fold: the game folded at once gives the same messages as folded tick by tick from its
    checkpoints (what `replay` and an export re-fold), bytes included."""
    g = Game.free_hunt(options={**ON, "majority_delay": 15})
    for k, voter in enumerate(HUNT[1:8]):
        g.vote("day 1", f"+1h{k}m", voter, "Ф1")
    g.vote("day 1", "+1h10m", "Г4", "Ф1")
    for voter in HUNT[8:]:
        g.vote("day 2", "+1h", voter, "Г1")
    setup, until = g.setup(), g.at("day 2", "+2h")
    whole = run(setup, g.events, until)
    made: tuple = ()
    for hours in range(1, 40):
        at = g.at("day 1", f"+{hours}h")
        if at > until:
            break
        seen = [e for e in g.events if e.at <= at]
        _, new = run_from(setup, seen, at, made)
        made = made + new
    ticked, _ = run_from(setup, g.events, until, made)
    assert [(m.key, m.at, m.text) for m in ticked.messages] == [(m.key, m.at, m.text) for m in whole.messages]
    assert whole.resolved[1] == ("day 1", g.at("day 1", "+1h21m"))


def test_R12_options_are_checked():
    """R-12: `majority_ends_day` takes true or false; `majority_delay` minutes, and only with the rule on."""
    assert option_problems("moscow", {"majority_ends_day": True, "majority_delay": 15}) == []
    assert option_problems("moscow", {"majority_ends_day": "yes"}) == [
        "options.majority_ends_day: expected true or false, got str 'yes' (R-12)"]
    assert option_problems("free_hunt", {"majority_ends_day": True, "majority_delay": -1})[0].startswith(
        "options.majority_delay: must be at least 0")
    assert option_problems("moscow", {"majority_delay": 10}) == [
        "options.majority_delay: only read with majority_ends_day = true (R-12)"]


def test_R12_status_says_the_day_ended_at_majority():
    """R-12: a GM's status in the night after says the day ended at majority, and while a delay runs, until when."""
    g = Game.moscow(options=ON)
    six_for_maf1(g)
    ended = g.at("day 1", "+1h5m")
    g.gm(ended + timedelta(minutes=1), "", "статус")
    r = g.run(ended + timedelta(minutes=2))
    answer = plain(r.pms("ГМ")[-1])
    assert "День 1 закончился досрочно: большинство у Маф1 с" in answer, answer
    g2 = Game.moscow(options={**ON, "majority_delay": 60})
    six_for_maf1(g2)
    g2.gm("day 1", "+1h30m", "статус")
    answer = plain(g2.run("day 1", "+1h31m").pms("ГМ")[-1])
    assert "Большинство у Маф1 с" in answer and "если большинство не распадётся" in answer


@pytest.mark.parametrize(("language", "said"), [
    ("ru", "День 1 закончился досрочно: большинство у Маф1 с 01.12 {t} МСК."),
    ("en", "Day 1 ended early: Маф1 held a majority from 01.12 {t} MSK."),
])
def test_R12_status_after_a_delay_does_not_give_the_majority_post_as_the_days_end(language, said):
    """R-12 with `majority_delay`, as a GM walking through issue 30 read it: status said «День 1 закончился досрочно
    в 12:05» when the day had ended an hour later; the time is the majority's, and is named as such."""
    g = Game.moscow(options={**ON, "majority_delay": 60})
    g.language = language
    six_for_maf1(g)
    majority = g.at("day 1", "+1h5m")
    g.gm(majority + timedelta(hours=1, minutes=5), "", "статус" if language == "ru" else "status")
    answer = plain(g.run(majority + timedelta(hours=1, minutes=6)).pms("ГМ")[-1])
    assert said.format(t=majority.astimezone(ZoneInfo("Europe/Moscow")).strftime("%H:%M")) in answer, answer


def test_R12_a_gm_extend_during_the_delay_moves_both_deadlines_C1():
    """R-12 with C-1's `extend`: during a majority's delay the GM's extension moves the delayed end and the day's own
    deadline (the one a broken majority puts back) alike."""
    g = Game.moscow(options={**ON, "majority_delay": 60})
    six_for_maf1(g)
    g.gm("day 1", "+1h30m", "продлить 2ч")
    g.vote("day 1", "+3h", "М1", "Маф2")  # the one change M-8 allows: five left, the majority broken
    r = g.run("night 1", "+3h")
    assert message(r, "day 1/result").at == g.at("day 1", "+26h")  # the day's own deadline, extended
    g2 = Game.moscow(options={**ON, "majority_delay": 60})
    six_for_maf1(g2)
    g2.gm("day 1", "+1h30m", "продлить 2ч")
    assert message(g2.run("night 1", "+3h"), "day 1/result").at == g2.at("day 1", "+4h5m")
