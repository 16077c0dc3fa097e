"""C-14: each tick's reads of a game's threads, recorded durably (the `thread_reads` table), and read back for the
fold (Schedule.reads) and the export. A row is written in its own transaction as soon as the read ended, so a
failed read stays recorded whatever the tick does next."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.engine.downtime import per_tick
from forumbot.store.models import ThreadReadRow


def record_read(session: Session, game_id: int, thread: str, at: datetime, error: str | None = None) -> None:
    """One read of `thread` ("game", "vote", or "forum" when the tick failed before reading the threads) at the
    tick's time `at`; failed when `error` says what the forum answered."""
    session.add(ThreadReadRow(game_id=game_id, thread=thread, read_at=at, ok=error is None, error=error))


def tick_reads(session: Session, game_id: int) -> tuple[tuple[datetime, bool], ...]:
    """The game's reads per tick, in time order: (time, every thread answered)."""
    return per_tick(session.execute(select(ThreadReadRow.read_at, ThreadReadRow.ok)
                                    .where(ThreadReadRow.game_id == game_id).order_by(ThreadReadRow.read_at, ThreadReadRow.id)))


def record_now(sessions: sessionmaker[Session], game_id: int, thread: str, at: datetime,
               error: str | None = None) -> None:
    """`record_read` in a transaction of its own: the record stays whatever the tick does next."""
    with sessions.begin() as session:
        record_read(session, game_id, thread, at, error)
