"""What the tests that drive `forumbot` processes read of a game straight from its SQLite store, in the test's own
process: whether the game is stored and how it stands (`games.status`: what the first line of `game status` says,
«окончена» for "ended"), its outbox by status (what the line «очередь сообщений» counts) and its seats; and
`tick_until_ended`, which ticks until the store says the game ended. A `game status` process costs
~0.6 s of CPU to print these (issue 28 item 2); the command's own words are tested where they are the subject
(tests/daemon/test_daemon_cli.py, test_daemon_signup.py, the season tests' `game status` of an ended game)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path


def stored_status(db: Path, name: str) -> str | None:
    """The game's stored status (running, ended, stopped), None while `game start` or a season has not stored it."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        row = con.execute("SELECT status FROM games WHERE name = ?", (name,)).fetchone()
    return None if row is None else str(row[0])


def outbox_counts(db: Path, name: str) -> dict[str, int]:
    """The game's outbox rows by status (sent, pending, attempted, uncertain, refused, queued)."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        rows = con.execute("SELECT status, count(*) FROM outbox WHERE game_id = (SELECT id FROM games WHERE name = ?) "
                           "GROUP BY status", (name,)).fetchall()
    return {str(status): int(n) for status, n in rows}


def seats(db: Path, name: str) -> list[str]:
    """Who holds the game's seats now, in seat order (a replacement under the seat's current nick)."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        rows = con.execute("SELECT current_nick FROM seats WHERE game_id = (SELECT id FROM games WHERE name = ?) "
                           "ORDER BY seat_no", (name,)).fetchall()
    return [str(nick) for nick, in rows]


def tick_until_ended(tick: Callable[[], str], db: Path, name: str, most: int, log: Path) -> None:
    """Run `tick` (one `forumbot tick` process; its output) until the store marks `name` ended: its end folded and
    every message delivered (`game status` says «окончена»), at most `most` ticks. Read in this process, not by a
    `game status` process a tick, and no tick after the end: an ended game's tick reads and sends nothing (issue 28
    item 2). `log`: the ticks' log, named when the game does not end."""
    out = ""
    for _ in range(most):
        out = tick()
        if stored_status(db, name) == "ended":
            return
    raise AssertionError(f"{name} did not end in {most} ticks ({stored_status(db, name)}); the last tick: {out}; "
                         f"log: {log}")
