"""C-9 (issue 19 item 2): an undone override leaves the game as if it was never given, its timeline included.

The count schedule (the next count's slot, the reminders sent, what the last count showed) is game state: an
undo restores it with the seats and the votes. Before, it lived beside the snapshot, so a `продолжить` undone
kept the count grid it had shifted and the day's next count came an hour late, or never.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import MOSCOW_CAST, Game  # noqa: E402

from forumbot.engine.fold import play  # noqa: E402
from forumbot.engine.state import played  # noqa: E402


def count_times(g: Game, until: str) -> list[str]:
    r = g.run("day 1", until)
    return [m.at.strftime("%H:%M") for m in r.run.messages if m.where == "vote"]


def paused_day(extra: list[tuple[str, str]]) -> Game:
    """Moscow Day 1 (opens 10:00 MSK, counts hourly): a vote, `пауза`, the GM's `extra`, a vote."""
    g = Game.moscow()
    g.vote("day 1", "+1h30m", "М1", "М2")
    g.gm("day 1", "+2h30m", "пауза")
    for offset, text in extra:
        g.gm("day 1", offset, text)
    g.vote("day 1", "+7h30m", "М2", "М3")
    return g


def test_C9_resume_undone_keeps_the_count_grid_of_the_game_without_it():
    plain = paused_day([])
    undone = paused_day([("+7h", "продолжить"), ("+7h05m", "отмена")])
    assert count_times(plain, "+12h") == ["12:00", "18:00"]
    assert count_times(undone, "+12h") == ["12:00", "18:00"]  # was ["12:00"]: the grid stayed shifted by 4h30


def test_C9_resume_undone_right_away_counts_the_next_vote_on_the_hour():
    def game(extra: list[tuple[str, str]]) -> Game:
        g = Game.moscow()
        g.vote("day 1", "+1h30m", "М1", "М2")
        g.gm("day 1", "+2h30m", "пауза")
        for offset, text in extra:
            g.gm("day 1", offset, text)
        g.vote("day 1", "+3h30m", "М2", "М3")
        return g

    assert count_times(game([]), "+12h") == ["12:00", "14:00"]
    assert count_times(game([("+3h30m", "продолжить"), ("+3h40m", "отмена")]), "+12h") == ["12:00", "14:00"]


def test_C9_a_reminder_sent_before_the_undo_is_not_sent_again():
    """A reminder the players got stays sent: the restored schedule does not owe it a second time."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2")
    g.gm("day 1", "+20h", "продлить 2ч")  # moves the 3-hours-before reminder from 07:00 to 09:00
    g.gm("day 1", "+23h30m", "отмена")  # after the moved reminder, before the restored deadline
    r = g.run("day 1", "+23h50m")
    to_m2 = [m for m in r.run.messages if m.to == "М2" and "/remind/" in m.key]
    assert len(to_m2) == 1


# --- the property: an override and its undo before the next deadline leave the state of neither (C-9)

OVERRIDES = ["пауза", "продлить 2ч", "голос М5 М6", "замена М4 Новичок", "модкилл М6", "псевдоним Шер Шериф",
             "сказать всем привет"]
VOTERS = [nick for nick, _ in MOSCOW_CAST]


def fold(events: list, until_minutes: int, phase: str = "day 1"):  # type: ignore[no-untyped-def]
    """The Game the fold reaches (issue 19: a value) and the messages it sent."""
    g = Game.moscow()
    g.events = list(events)
    return play(g.setup(), g.events, g.at(phase, f"+{until_minutes}m"))


@settings(max_examples=100)
@given(
    votes=st.lists(st.tuples(st.integers(1, 1400), st.sampled_from(VOTERS), st.sampled_from(VOTERS + ["ннв"])),
                   max_size=8),
    override=st.sampled_from(OVERRIDES),
    when=st.integers(1, 1300),
    gap=st.integers(1, 120),
    after=st.integers(0, 1200),
)
def test_C9_property_override_then_undo_before_the_deadline_is_as_if_never_given(votes, override, when, gap, after):
    base = Game.moscow()
    for minute, who, target in votes:
        base.vote("day 1", f"+{minute}m", who, target)
    with_override = Game.moscow()
    with_override.events = list(base.events)
    with_override.gm("day 1", f"+{when}m", override)
    with_override.gm("day 1", f"+{when + gap}m", "отмена")
    until = when + gap + after  # up to ~43 h in: through Day 1's deadline (24 h) into Night 1
    overridden = fold(with_override.events, until)
    assert not overridden[0].overrides, "the undo was refused"
    neither = fold(base.events, until)
    assert played(overridden[0]) == played(neither[0])
    # and from then on the timeline is the same: the messages timed after the undo are the plain game's
    undo_at = with_override.at("day 1", f"+{when + gap}m")
    later = [(m.at, m.where, m.to, m.text) for m in _messages(overridden) if m.at > undo_at]
    assert later == [(m.at, m.where, m.to, m.text) for m in _messages(neither) if m.at > undo_at]


def _messages(folded) -> list:  # type: ignore[no-untyped-def]
    return list(folded[1].messages)


MOVES = ["убить М1", "убить М2", "проверка Дон", "проверка М3", "убить Шериф"]
MOVERS = ["Дон", "Маф1", "Маф2", "Шериф"]
PHASES = {"night 1": 12 * 60, "day 2": 24 * 60}  # length in minutes


@settings(max_examples=60)
@given(
    moves=st.lists(st.tuples(st.integers(1, 700), st.sampled_from(MOVERS), st.sampled_from(MOVES)), max_size=6),
    day2=st.lists(st.tuples(st.integers(1, 1400), st.sampled_from(VOTERS), st.sampled_from(VOTERS)), max_size=6),
    phase=st.sampled_from(sorted(PHASES)),
    override=st.sampled_from(OVERRIDES),
    when=st.integers(1, 10_000),
    gap=st.integers(1, 120),
    after=st.integers(0, 900),
)
def test_C9_property_the_same_in_a_night_and_a_later_day(moves, day2, phase, override, when, gap, after):
    """The same property past Day 1: night moves (M-3..M-5) and Day 2's votes around an override of Night 1 or
    Day 2 and its undo before that phase's deadline. Day 1 ends without a lynch or a runoff (everyone `ннв`), so
    the phases keep the plain schedule."""
    when = 1 + when % (PHASES[phase] - 125)
    base = Game.moscow()
    base.votes("day 1", {nick: "ннв" for nick in VOTERS})
    for minute, who, text in moves:
        base.pm("night 1", f"+{minute}m", who, text)
    for minute, who, target in day2:
        base.vote("day 2", f"+{minute}m", who, target)
    with_override = Game.moscow()
    with_override.events = list(base.events)
    with_override.gm(phase, f"+{when}m", override)
    with_override.gm(phase, f"+{when + gap}m", "отмена")
    until = when + gap + after
    overridden = fold(with_override.events, until, phase)
    assert not overridden[0].overrides, "the undo was refused"
    neither = fold(base.events, until, phase)
    assert played(overridden[0]) == played(neither[0])
    undo_at = with_override.at(phase, f"+{when + gap}m")
    later = [(m.at, m.where, m.to, m.text) for m in _messages(overridden) if m.at > undo_at]
    assert later == [(m.at, m.where, m.to, m.text) for m in _messages(neither) if m.at > undo_at]
