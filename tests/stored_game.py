"""What the tests that drive `forumbot` processes read of a game straight from its SQLite store, in the test's own
process: whether the game is stored and how it stands (`games.status`: what the first line of `game status` says,
«окончена» for "ended"), its outbox by status (what the line «очередь сообщений» counts), its seats, and the times
a test compares with the board's (the open phase's deadline, C-14's read spans, a post's time, a message's due
time); and `tick_until_ended`, which ticks until the store says the game ended. A `game status` process costs
~0.6 s of CPU to print these (issue 28 item 2); the command's own words are tested where they are the subject
(tests/daemon/test_daemon_cli.py, test_daemon_signup.py, the season tests' `game status` of an ended game)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path


def _rows(db: Path, sql: str, *params: object) -> list[tuple]:
    """The rows of one query on the store, read in this process. `GAME` in `sql` is the game's id by its name."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        return con.execute(sql.replace("GAME", "(SELECT id FROM games WHERE name = ?)"), params).fetchall()


def stored_status(db: Path, name: str) -> str | None:
    """The game's stored status (running, ended, stopped), None while `game start` or a season has not stored it."""
    rows = _rows(db, "SELECT status FROM games WHERE name = ?", name)
    return str(rows[0][0]) if rows else None


def ended_at(db: Path, name: str) -> datetime:
    """When the store says the game ended (S-5's gap before the season's next sign-up counts from it)."""
    return _utc(_rows(db, "SELECT ended_at FROM games WHERE name = ?", name)[0][0])


def outbox_counts(db: Path, name: str) -> dict[str, int]:
    """The game's outbox rows by status (sent, pending, attempted, uncertain, refused, queued)."""
    return {str(status): int(n) for status, n in
            _rows(db, "SELECT status, count(*) FROM outbox WHERE game_id = GAME GROUP BY status", name)}


def seats(db: Path, name: str) -> list[str]:
    """Who holds the game's seats now, in seat order (a replacement under the seat's current nick)."""
    return [str(nick) for nick, in _rows(db, "SELECT current_nick FROM seats WHERE game_id = GAME ORDER BY seat_no",
                                         name)]


def phase_deadline(db: Path, name: str) -> datetime:
    """The game's open phase's deadline as the bot remembers it (its phase cursor, cycle/reread.py)."""
    value = _rows(db, "SELECT value FROM cursors WHERE stream = 'game:' || GAME || ':phase'", name)[0][0]
    return _utc(json.loads(value)["deadline"])


def read_spans(db: Path, name: str) -> list[tuple[datetime, datetime]]:
    """The game's spans of successful reads (C-14: each tick's read is recorded), as (first, last) tick times."""
    return [(_utc(first), _utc(last)) for first, last in
            _rows(db, "SELECT first_at, last_at FROM read_spans WHERE ok AND game_id = GAME ORDER BY first_at", name)]


def posted_at(db: Path, post_id: str) -> datetime:
    """The time the store holds for the forum post `post_id` (the board's, as the adapter read it)."""
    return _utc(_rows(db, "SELECT posted_at FROM inputs WHERE kind = 'post' AND item_id = ?", post_id)[0][0])


def due_at(db: Path, name: str, key: str) -> datetime:
    """The time the game's message `key` (the core's stable message key: "day 2/result") is due at."""
    return _utc(_rows(db, "SELECT due_at FROM outbox WHERE key = ? AND game_id = GAME", key, name)[0][0])


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


def _utc(stored: str) -> datetime:
    """A time as the store holds it (UTC, naive in SQLite: forumbot/store/models.py's UTCDateTime)."""
    at = datetime.fromisoformat(stored)
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)
