"""Kill the process at every step of a cycle: the next cycle ends in the same forum state as an uninterrupted
run, with no duplicate post or PM and no lost vote or move (issue 3, "Done means" 1)."""

from __future__ import annotations

import pytest
from daemon_world import POINTS, STEPS, Crash, World, crash_at, play, world  # noqa: F401  (fixture)

from forumbot.games.status import game_status

# the steps where a cycle does the most: Setup (a post and ten PMs), a deadline, the night's moves by PM
CRASH_STEPS = (0, 3, 4)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The forum as an uninterrupted run leaves it, after each step."""
    states = {}
    w = World(tmp_path_factory.mktemp("reference"))
    w.start()
    for i, (at, act) in enumerate(STEPS):
        w.now = at
        act(w)
        w.tick()
        states[i] = w.state()
    w.close()
    return states


def test_the_reference_game_happened(reference):
    posts, pms = reference[len(STEPS) - 1]
    texts = "\n".join(t for _, t, _ in posts)
    assert "Маф1" in texts and "М2" in texts  # the lynch and the kill both resolved
    assert len(pms) > 20


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("step", CRASH_STEPS)
def test_kill_at_each_point_then_restart(tmp_path, reference, step, point):
    w = World(tmp_path)
    play(w, crash=(step, crash_at(point)), upto=step + 1)
    assert w.state() == reference[step + 1]
    w.close()


@pytest.mark.parametrize("occurrence", [2, 6])
def test_kill_between_sending_and_recording_in_the_middle_of_a_batch(tmp_path, reference, occurrence):
    w = World(tmp_path)
    play(w, crash=(0, crash_at("after_send", occurrence)), upto=1)
    assert w.state() == reference[1]
    w.close()


class NoPMSearch:
    """An adapter that cannot search the PMs it sent (like most forums)."""

    def __init__(self, forum) -> None:
        self._forum = forum

    def __getattr__(self, name):
        if name == "find_own_pm":
            raise AttributeError(name)
        if name == "CAPABILITIES":  # declares it cannot (issue 19 item 7: declared, not probed)
            return self._forum.CAPABILITIES - {"find_own_pm"}
        return getattr(self._forum, name)


def test_pm_interrupted_after_sending_is_not_sent_twice_without_pm_search(tmp_path):
    w = World(tmp_path)
    real = w.forum
    w.daemon.factory = lambda forum, env: NoPMSearch(real)
    w.start()
    w.now = STEPS[0][0]
    # the first delivery is the player-list post; the second, a role PM: die right after sending it
    with pytest.raises(Crash):
        w.tick(crash_at("after_send", 2))
    w.restart()
    w.daemon.factory = lambda forum, env: NoPMSearch(real)
    w.tick()
    recipients = [to for to, _, _ in w.bot_pms()]
    assert sorted(recipients) == sorted(set(recipients)) and len(recipients) == 10  # each role PM once
    status = game_status(w.daemon.sessions, w.config, "g1")
    assert "возможно, не доставлено" in status and "setup/role/" in status
    w.close()
