"""Issue 19: GM commands cost in proportion to the game, not its square. 2,000 `голос` on one day: each was
answered with the status (a count of every vote post so far) and snapshotted for a possible undo (a deep copy
of every vote post so far), about 2,000,000 post steps each way. Counted in operations, not time: the posts
the ballot count reads and the posts copied."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import Game  # noqa: E402

from forumbot.game import run  # noqa: E402
from forumbot.rules.ballots import Tally, VotePost  # noqa: E402

VOTERS = ["М1", "М2", "М3", "М4", "М5", "М6"]


def setvotes(n: int, undo: bool = False) -> Game:
    g = Game.moscow()
    for k in range(n):
        g.gm("day 1", f"+{3600 + k * 60000 // n}s", f"голос {VOTERS[k % 6]} {VOTERS[(k + 1 + k // 6) % 6]}")
    if undo:
        g.gm("day 1", "+22h", "отмена")
    return g


@pytest.fixture
def counted(monkeypatch):
    ops = {"counted": 0, "copied": 0}
    take = Tally.take

    def counting_take(self, index, post):  # type: ignore[no-untyped-def]
        ops["counted"] += 1
        take(self, index, post)

    def counting_copy(self, memo):  # type: ignore[no-untyped-def]
        ops["copied"] += 1
        return replace(self)

    monkeypatch.setattr(Tally, "take", counting_take)
    monkeypatch.setattr(VotePost, "__deepcopy__", counting_copy, raising=False)
    return ops


def operations(ops: dict, n: int) -> dict:
    ops.update(counted=0, copied=0)
    g = setvotes(n)
    run(g.setup(), g.events, g.at("day 1", "+23h"))
    return dict(ops)


def test_2000_setvotes_cost_linear_operations(counted):
    small, large = operations(counted, 500), operations(counted, 2000)
    assert large["copied"] == 0  # an override's snapshot shares the day's vote posts
    assert large["counted"] <= 3 * 2000  # each post read about once by the counts and the statuses
    assert large["counted"] <= 4.5 * small["counted"]  # 4x the commands, 4x the work (was 16x)


def test_undo_after_many_setvotes_restores_the_votes_as_if_the_last_was_never_given():
    """The shared posts are cut back on undo: the day ends as the game without the last `голос` (C-9)."""
    with_undo = setvotes(600, undo=True)
    without_last = setvotes(600)
    without_last.events.pop()
    a = run(with_undo.setup(), with_undo.events, with_undo.at("day 1", "+23h"))
    b = run(without_last.setup(), without_last.events, without_last.at("day 1", "+23h"))
    status = lambda r: [m.text for m in r.messages if m.key.startswith("gm/")][-1].split("\n", 1)[1]  # noqa: E731
    assert status(a) == status(b)
