"""C-13 Announced results stand (issue 19 item 4), at the level of the fold.

A deadline gets only the inputs the bot had read when it resolved it. An input stamped before a resolved
deadline but read after it (a post approved from the moderation queue keeps its first time; a rough time) is
stored, listed as late in the fold's result, told to the GMs in one PM, and counts from the time it was read on,
as if stamped then. The daemon side (the store, `game status`, the export and its replay) is
tests/daemon/test_daemon_late_inputs.py.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import Game, Result, plain  # noqa: E402

from forumbot.game import run  # noqa: E402
from forumbot.model import Input  # noqa: E402

MIN = timedelta(minutes=1)


def fold(g: Game, resolved: dict[str, datetime], until: datetime) -> Result:
    setup = g.setup()
    setup = replace(setup, schedule=replace(setup.schedule, resolved=tuple(resolved.items())))
    return Result(run(setup, g.events, until))


def read(inp: Input, at: datetime) -> Input:
    return replace(inp, read_at=at)


def day_one(g: Game, late_read_at: datetime | None) -> list[Input]:
    """Day 1: three votes for М1 and two for М2, read in time; three more for М2 stamped an hour before the
    deadline, read `late_read_at`."""
    on_time = g.at("day 1", "+1h")
    for who, whom in (("М2", "М1"), ("М3", "М1"), ("М4", "М1"), ("М5", "М2"), ("М6", "М2")):
        g.vote("day 1", "+1h", who, whom, read_at=on_time)
    late = [g.vote("day 1", "+23h", who, "М2", read_at=late_read_at) for who in ("Шериф", "Дон", "Маф1")]
    return late


def test_C13_votes_read_after_the_day_was_resolved_do_not_change_its_announced_result():
    g = Game.moscow()
    deadline = g.at("day 1", "+24h")
    read_late = deadline + 10 * MIN
    late = day_one(g, read_late)
    r = fold(g, {"day 1": deadline + 2 * MIN}, g.at("night 1", "+1h"))
    assert r.died("М1") == ("day 1", "vote") and r.alive("М2")  # as announced at the deadline
    assert [(i, phase) for i, phase, *_ in r.run.late] == [(v.id, "day 1") for v in late]
    assert [stamped for _, _, stamped, _ in r.run.late] == [v.at for v in late]
    # one PM to the GM per late input, when it was read, naming its author, where it was and the phase it missed
    told = [m for m in r.run.messages if m.key.startswith("late/")]
    assert [(m.key, m.to, m.at) for m in told] == [(f"late/{v.id}/ГМ", "ГМ", read_late) for v in late]
    assert "Прочитано после итогов — от Шериф: сообщение в теме голосования" in plain(told[0].text)
    assert "«день 1»" in told[0].text and "Объявленные итоги остаются (C-13)" in told[0].text


def test_C13_the_same_votes_read_in_time_are_counted_in_their_day():
    """The control: read before the bot resolved Day 1 (the same tick), the votes hang М2."""
    g = Game.moscow()
    deadline = g.at("day 1", "+24h")
    day_one(g, deadline + 2 * MIN)
    r = fold(g, {"day 1": deadline + 2 * MIN}, g.at("night 1", "+1h"))
    assert r.died("М2") == ("day 1", "vote") and r.alive("М1") and r.run.late == ()


def test_C13_without_read_times_nothing_is_late():
    """A transcript without read times (and a store from before revision 0005) folds by the stamps alone."""
    g = Game.moscow()
    deadline = g.at("day 1", "+24h")
    day_one(g, None)
    r = fold(g, {"day 1": deadline + 2 * MIN}, g.at("night 1", "+1h"))
    assert r.died("М2") == ("day 1", "vote") and r.run.late == ()


def test_C13_a_late_input_counts_from_when_it_was_read_in_the_phase_open_then():
    """A GM's `продлить` stamped in Day 1 but read in Night 1 extends the night, not the resolved day."""
    g = Game.moscow()
    deadline = g.at("day 1", "+24h")
    for who in ("М2", "М3", "М4"):
        g.vote("day 1", "+1h", who, "М1", read_at=g.at("day 1", "+1h"))
    extend = g.gm("day 1", "+23h", "продлить 2ч")
    g.events[-1] = read(extend, deadline + 30 * MIN)
    r = fold(g, {"day 1": deadline + MIN}, g.at("night 1", "+1h"))
    assert r.died("М1") == ("day 1", "vote")
    assert r.run.phase == "night 1" and r.run.next_deadline == g.at("night 1", "+14h")
    answer = [m for m in r.run.messages if m.key == f"gm/{extend.id}"]
    assert len(answer) == 1 and answer[0].at == deadline + 30 * MIN and "ночь 1" in plain(answer[0].text)


def test_C1_C13_a_rough_time_straddling_the_deadline_read_after_it_was_resolved_is_late():
    """C-1 counts a rough time straddling a deadline before it; read only after the deadline was resolved, the
    post is late all the same (C-13): the day's result stands."""
    g = Game.moscow()
    deadline = g.at("day 1", "+24h")
    day_one(g, deadline + MIN)  # the three votes for М2 are in time...
    rough = g.vote("day 1", "+23h59m", "М1", "М3", at_latest=deadline + MIN, read_at=deadline + 20 * MIN)
    r = fold(g, {"day 1": deadline + 2 * MIN}, g.at("night 1", "+1h"))
    assert r.died("М2") == ("day 1", "vote")
    assert [(i, phase) for i, phase, *_ in r.run.late] == [(rough.id, "day 1")]
    final_count = next(m for m in r.run.messages if m.key == "day 1/result")
    assert "М3 — 1 голос: М1" not in plain(final_count.text) and "Время неточное: М1" not in plain(final_count.text)


def test_C13_an_input_read_after_the_fold_s_end_waits_for_a_later_fold():
    g = Game.moscow()
    deadline = g.at("day 1", "+24h")
    late = day_one(g, deadline + 3 * 60 * MIN)
    r = fold(g, {"day 1": deadline + 2 * MIN}, deadline + 60 * MIN)
    assert [i for i, _, *_ in r.run.late] == [v.id for v in late]
    assert not [m for m in r.run.messages if m.key.startswith("late/")]  # told when read, by a later fold
