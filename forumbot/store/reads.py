"""C-14: every tick's read of a game's threads, recorded durably as spans of ticks with one outcome (the
`read_spans` table), and read back for the fold (Schedule.reads) and the export. A tick's record is written in
its own transaction as soon as its reads ended, so a failed read stays recorded whatever the tick does next."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from forumbot.model import ReadSpan
from forumbot.store.models import ReadSpanRow


def record_read(session: Session, game_id: int, at: datetime, within: timedelta, error: str | None = None) -> None:
    """The tick at `at` read the game's threads (failed when `error` says what the forum answered, naming the
    thread). The latest span takes it when it has the same outcome and ended no more than `within` (the game's
    `downtime_grace`) before: one UPDATE, so a quiet tick writes one statement; else a new span opens."""
    latest = (select(ReadSpanRow.id).where(ReadSpanRow.game_id == game_id)
              .order_by(ReadSpanRow.last_at.desc(), ReadSpanRow.id.desc()).limit(1).scalar_subquery())
    moved = session.execute(
        update(ReadSpanRow)
        .where(ReadSpanRow.id == latest, ReadSpanRow.ok == (error is None), ReadSpanRow.last_at <= at,
               ReadSpanRow.last_at >= at - within)
        .values(last_at=at).execution_options(synchronize_session=False))
    if not moved.rowcount:  # type: ignore[attr-defined]  # a CursorResult's
        session.add(ReadSpanRow(game_id=game_id, first_at=at, last_at=at, ok=error is None, error=error))


def read_spans(session: Session, game_id: int) -> tuple[ReadSpan, ...]:
    """The game's read spans, in time order."""
    return tuple(ReadSpan(first, last, ok) for first, last, ok in session.execute(
        select(ReadSpanRow.first_at, ReadSpanRow.last_at, ReadSpanRow.ok)
        .where(ReadSpanRow.game_id == game_id).order_by(ReadSpanRow.first_at, ReadSpanRow.id)))


def record_now(sessions: sessionmaker[Session], game_id: int, at: datetime, within: timedelta,
               error: str | None = None) -> None:
    """`record_read` in a transaction of its own: the record stays whatever the tick does next."""
    with sessions.begin() as session:
        record_read(session, game_id, at, within, error)
