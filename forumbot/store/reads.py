"""C-14: every tick's read of a game's threads, recorded durably as spans of ticks with one outcome (the
`read_spans` table), and read back for the fold (Schedule.reads) and the export. A tick's record is written in
its own transaction as soon as its reads ended, so a failed read stays recorded whatever the tick does next; the
games a tick found quiet (forumbot/cycle/quiet.py) are recorded together, in one statement, once they are done."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Sequence

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session, aliased, sessionmaker

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


def record_reads(sessions: sessionmaker[Session], games: Sequence[tuple[int, timedelta]], at: datetime) -> None:
    """Each of `games` (id, its `downtime_grace`) read its threads fine at `at`: every latest span that can take the
    read is extended in one UPDATE; a game whose span could not (after a failure, or a gap longer than its grace)
    gets `record_read`'s own, in the same transaction (issue 27 item 7: a quiet tick of many games writes once)."""
    if not games:
        return
    later = aliased(ReadSpanRow)
    is_latest = ~exists().where(later.game_id == ReadSpanRow.game_id,
                                (later.last_at > ReadSpanRow.last_at)
                                | ((later.last_at == ReadSpanRow.last_at) & (later.id > ReadSpanRow.id)))
    ids = [game_id for game_id, _ in games]
    shortest = min(within for _, within in games)
    with sessions.begin() as session:
        moved = session.execute(
            update(ReadSpanRow)
            .where(ReadSpanRow.game_id.in_(ids), is_latest, ReadSpanRow.ok.is_(True), ReadSpanRow.last_at <= at,
                   ReadSpanRow.last_at >= at - shortest)
            .values(last_at=at).execution_options(synchronize_session=False))
        if moved.rowcount != len(ids):  # type: ignore[attr-defined]  # a CursorResult's
            for game_id, within in games:  # those moved are moved again to the same time: no change
                record_read(session, game_id, at, within)
