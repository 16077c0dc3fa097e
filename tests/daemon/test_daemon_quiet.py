"""A 20-game tick over the memory forum with no new input does no write to the database but C-14's record of each
game's read (issue 3, "Done means" 6; issue 30 item 4): quiet cycles every few minutes must not churn the disk, and
a quiet game's read moves the end of its open span of successful reads in one UPDATE."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import STARTED, World, game_toml
from sqlalchemy import event

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")


def test_a_quiet_tick_over_20_games_writes_nothing(tmp_path):
    names = [f"g{i:02d}" for i in range(20)]
    # distinct players per game, so each game's PMs are its own
    w = World(tmp_path, games="".join(game_toml(n, prefix=f"{n}_") for n in names))
    for name in names:
        w.start(name)
    w.now = STARTED + timedelta(minutes=1)
    w.tick()  # Setup: 20 player lists and 200 role PMs go out
    assert len(w.bot_pms()) == 200
    w.forum.add_pm("g03_М1", "подтверждаю", w.now)  # an input: this tick must write
    w.now += timedelta(minutes=1)
    w.tick()

    statements: list[str] = []
    event.listen(w.daemon.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: statements.append(statement))
    w.now += timedelta(minutes=5)
    report = w.tick()
    assert [g.state for g in report.games] == ["done"] * 20
    writes = [s for s in statements if s.lstrip().upper().startswith(WRITES)]
    spans = [s for s in writes if s.lstrip().upper().startswith("UPDATE READ_SPANS SET LAST_AT")]
    assert len(spans) == 20 and writes == spans, writes  # C-14: one statement per game, no row added
    assert statements  # it did read: the listener saw the cycle
