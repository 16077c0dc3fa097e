"""A PM the forum shows only roughly ("1 минуту назад") right after `game start` may read as earlier than the
start; it still belongs to the game, since it could have been sent after it (C-1; issue 7 items 1 and 7)."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import CAST, STARTED, T0, World


def reminded(w: World) -> set[str]:
    return {to for to, _, at in w.bot_pms() if at == w.now}


def test_a_rough_pm_straddling_game_start_is_routed_to_the_game_C1_issue7_item1(tmp_path):
    w = World(tmp_path)
    w.now = STARTED
    w.start()
    w.now = STARTED + timedelta(seconds=40)
    # "1 минуту назад" read 40 s after the start: sent 60-119 s ago, between 79 s before and 20 s before now
    w.forum.add_pm("М1", "подтверждаю", w.now - timedelta(seconds=119), latest=w.now - timedelta(seconds=20))
    # the same words, but the latest instant they allow is before the start: a PM of an earlier game
    w.forum.add_pm("М2", "подтверждаю", w.now - timedelta(seconds=119), latest=STARTED - timedelta(seconds=1))
    w.tick()
    w.now = T0 - timedelta(minutes=59)
    w.tick()
    assert reminded(w) == {n for n, _ in CAST} - {"М1"}  # М1 confirmed; М2's PM was not this game's
    w.close()
