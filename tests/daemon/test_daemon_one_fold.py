"""Issue 19 item 3: one fold per tick. The override log (C-9) reads the game just before and after each GM
command from the fold's result; before, each new GM command cost the tick two folds more (up to `command.at`
minus a microsecond, and up to `command.at`), each a replay of the whole game."""

from __future__ import annotations

import json
from datetime import timedelta

from daemon_world import GM, STEPS, World, play
from sqlalchemy import select

from forumbot.store.models import OverrideRow
from forumbot.store.game import default_fold


class CountingFold:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, setup, inputs, until):  # type: ignore[no-untyped-def]
        self.calls += 1
        return default_fold(setup, inputs, until)

    def during(self, act) -> int:  # type: ignore[no-untyped-def]
        before = self.calls
        act()
        return self.calls - before


def test_a_tick_folds_once_quiet_with_votes_with_gm_commands_and_at_a_deadline(tmp_path):
    fold = CountingFold()
    w = World(tmp_path, fold=fold)
    play(w, upto=2)  # Day 1, votes in
    w.now = STEPS[2][0] + timedelta(minutes=30)
    assert fold.during(w.tick) == 1  # quiet
    w.post("vote", "М6", "Дон")
    assert fold.during(w.tick) == 1  # a new vote
    w.now += timedelta(minutes=10)
    w.pm(GM, "продлить 1ч")
    w.pm(GM, "статус")
    w.pm(GM, "модкилл М3")
    assert fold.during(w.tick) == 1  # three GM commands: was 1 + 2 x 3 = 7 folds
    w.now = STEPS[3][0] + timedelta(hours=1)  # past Day 1's extended deadline
    assert fold.during(w.tick) == 1


def test_the_override_log_keeps_the_state_before_and_after_each_command_from_the_one_fold(tmp_path):
    w = World(tmp_path)
    play(w, upto=2)
    w.now = STEPS[2][0] + timedelta(minutes=30)
    extend, kill = w.pm(GM, "продлить 1ч"), w.pm(GM, "модкилл М3", ago=timedelta(seconds=20))
    w.tick()
    with w.daemon.sessions.begin() as s:
        rows = {r.command: (json.loads(r.state_before), json.loads(r.state_after))
                for r in s.scalars(select(OverrideRow))}
    assert set(rows) == {extend.text, kill.text}
    before, after = rows[extend.text]
    assert before["phase"] == after["phase"] == "day 1"
    deadline = STEPS[3][0] - timedelta(minutes=1)
    assert before["next_deadline"] == deadline.isoformat()
    assert after["next_deadline"] == (deadline + timedelta(hours=1)).isoformat()
    before, after = rows[kill.text]
    m3 = lambda state: next(p for p in state["players"] if p["nick"] == "М3")  # noqa: E731
    assert m3(before) == {"nick": "М3", "alive": True, "died": None}
    assert m3(after) == {"nick": "М3", "alive": False, "died": "day 1"}
