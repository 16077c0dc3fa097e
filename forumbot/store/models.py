"""The database schema (SQLAlchemy 2). Alembic migrations in forumbot/migrations must match it.

Raw inputs are the source of truth (DESIGN.md): every other table is either configuration frozen at game
start (games, seats, seed), bookkeeping for reading (cursors) and writing (outbox), or an audit log.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (
    BigInteger, Boolean, DateTime, ForeignKey, Index, Integer, LargeBinary, String, Text, TypeDecorator,
    UniqueConstraint, event,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator):
    """Aware datetimes in, aware UTC datetimes out; stored as naive UTC (SQLite keeps no time zone)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; every time must be aware")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=timezone.utc)


class Base(DeclarativeBase):
    pass


class ForumRow(Base):
    __tablename__ = "forums"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    engine: Mapped[str] = mapped_column(String(200))
    cookies: Mapped[str | None] = mapped_column(Text)  # the adapter's cookie jar, JSON, so a tick need not log in


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    forum_id: Mapped[int] = mapped_column(ForeignKey("forums.id"))
    status: Mapped[str] = mapped_column(String(20))  # running | ended (ended: result out and outbox drained)
    mode: Mapped[str] = mapped_column(String(20))  # live | shadow
    seed: Mapped[int] = mapped_column(BigInteger)
    setup_json: Mapped[str] = mapped_column(Text)  # the GameSetup frozen at `game start`
    commitment: Mapped[str] = mapped_column(String(64))  # sha256 hex of the seed and the role list
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    stop_reason: Mapped[str | None] = mapped_column(Text)  # `game stop --reason` (revision 0006_stop_reason)


class SeatRow(Base):
    """One place at the table. A replacement account takes over the seat and keeps its role."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat_no"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat_no: Mapped[int] = mapped_column(Integer)
    nick: Mapped[str] = mapped_column(String(200))  # who sat down at the start
    current_nick: Mapped[str] = mapped_column(String(200))  # who plays it now
    role: Mapped[str] = mapped_column(String(20))


class CursorRow(Base):
    """Where reading stopped, per stream: a thread ("topic:<topic>") or the inbox ("inbox"). Opaque to us."""

    __tablename__ = "cursors"
    __table_args__ = (UniqueConstraint("forum_id", "stream"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    forum_id: Mapped[int] = mapped_column(ForeignKey("forums.id"))
    stream: Mapped[str] = mapped_column(String(600))
    value: Mapped[str | None] = mapped_column(Text)


class InputRow(Base):
    """A post or PM exactly as read. (forum, kind, topic, item_id) is unique: re-reading stores nothing twice."""

    __tablename__ = "inputs"
    __table_args__ = (UniqueConstraint("forum_id", "kind", "topic", "item_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    forum_id: Mapped[int] = mapped_column(ForeignKey("forums.id"))
    # post | pm | conv (a PM to the bot and others, M-15: no move, engine/conference.py) | refused (a PM of the
    # bot's the forum would not deliver, S-4: records.store_undelivered)
    kind: Mapped[str] = mapped_column(String(10))
    topic: Mapped[str] = mapped_column(String(500))  # "" for a PM (NULLs would not be unique)
    item_id: Mapped[str] = mapped_column(String(100))
    author: Mapped[str] = mapped_column(String(200))
    author_id: Mapped[str | None] = mapped_column(String(100))
    posted_at: Mapped[datetime] = mapped_column(UTCDateTime)
    edited_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # the latest edit time seen
    first_edited_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # the earliest edit time seen (C-11)
    edit_count: Mapped[int] = mapped_column(Integer, default=0)
    subject: Mapped[str] = mapped_column(Text, default="")
    first_text: Mapped[str] = mapped_column(Text)  # the text when first stored (C-11 "first_seen")
    text: Mapped[str] = mapped_column(Text)  # the text now
    html: Mapped[str] = mapped_column(Text)
    first_seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # the post held a quote the adapter removed from the text (H-3, M-7), now and when first stored (C-11);
    # NULL: not known (PMs, rows stored before revision 0002)
    quoted: Mapped[bool | None] = mapped_column(Boolean)
    first_quoted: Mapped[bool | None] = mapped_column(Boolean)
    # where the forum showed the time only roughly ("1 минуту назад"), `posted_at` is the earliest instant it
    # allowed and this the latest (C-1); NULL: exact
    posted_latest: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # the post was gone when the thread was re-read at a deadline (deleted by a moderator, C-11): that deadline
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # what the daemon learnt from the forum for this input, JSON, recorded once (forumbot.cycle.bookkeeping, "facts about
    # accounts"); NULL: not checked yet (rows stored before revision 0004 were marked checked, "{}")
    facts: Mapped[str | None] = mapped_column(Text)
    # how many times the row was written: 1 when stored, one more at every ORM update (the event below; revision
    # 0008). A game's tip records the count and version sum of the rows it saw, so a tick checks in one query
    # that none changed and loads only newer rows (forumbot/store/inputs.py). Every write goes through the ORM.
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


@event.listens_for(InputRow, "before_update")
def _bump_version(mapper, connection, target: InputRow) -> None:
    target.version = (target.version or 1) + 1


class OutboxRow(Base):
    """A message the bot owes the forum, keyed by the core's stable message key."""

    __tablename__ = "outbox"
    __table_args__ = (UniqueConstraint("game_id", "key"), Index("ix_outbox_game_status", "game_id", "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    key: Mapped[str] = mapped_column(String(300))
    marker: Mapped[str] = mapped_column(String(20))  # embedded in the text; find_own_post looks for it
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    where: Mapped[str] = mapped_column(String(10))  # game | vote | pm
    to: Mapped[str | None] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    origin: Mapped[str] = mapped_column(String(10))  # core | shell (commitment, reveal)
    # pending -> attempted -> sent; attempted -> uncertain (a PM that may have gone out; never re-sent);
    # attempted -> refused (the forum refused it for good: set aside, the GMs told)
    status: Mapped[str] = mapped_column(String(12), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    attempted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    batch: Mapped[str | None] = mapped_column(String(20))  # shadow mode: the marker of the PM that carries it
    remote_id: Mapped[str | None] = mapped_column(String(100))
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)


class OverrideRow(Base):
    """C-9: every GM command, who sent it and when, with the game's state just before and just after it."""

    __tablename__ = "overrides"
    __table_args__ = (UniqueConstraint("game_id", "input_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    input_id: Mapped[int] = mapped_column(ForeignKey("inputs.id"))
    gm: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    command: Mapped[str] = mapped_column(Text)
    state_before: Mapped[str] = mapped_column(Text)  # JSON summary
    state_after: Mapped[str] = mapped_column(Text)  # JSON summary


class ResolutionRow(Base):
    """C-13: when the bot resolved a phase of a game (the tick's time); the fold gives that phase's deadline only
    the inputs first read by then. Also when it first made each interim count (`phase` is the count's message key,
    "day 1/count/20261201T090000") and each reminder ("remind:day 1"): each shows only the posts read by then."""

    __tablename__ = "resolutions"
    __table_args__ = (UniqueConstraint("game_id", "phase"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase: Mapped[str] = mapped_column(String(40))  # the phase's label: "setup", "day 1", "runoff 1", "night 1"
    resolved_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ReadSpanRow(Base):
    """C-14: a run of ticks whose reads of a game's threads had one outcome, from the first tick's time to the
    last's (`ok`: every thread answered; else `error` says what the forum answered first, with the thread read:
    "game", "vote", or "forum" when the tick could not get that far). A tick like the one before, and no more
    than the game's `downtime_grace` after it, moves the latest span's `last_at` on (one UPDATE, a quiet tick's
    only write); another outcome, or a tick after a longer pause, opens a new row. The fold decides a deadline's
    downtime from them (Schedule.reads) and an export carries them."""

    __tablename__ = "read_spans"
    __table_args__ = (Index("ix_read_spans_game_last", "game_id", "last_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    first_at: Mapped[datetime] = mapped_column(UTCDateTime)  # the first tick's time
    last_at: Mapped[datetime] = mapped_column(UTCDateTime)  # the latest tick's time
    ok: Mapped[bool] = mapped_column(Boolean)
    error: Mapped[str | None] = mapped_column(Text)


class CheckpointRow(Base):
    """Issue 19 item 3: the game right after a resolved deadline, with a digest of the inputs it saw
    (forumbot/engine/checkpoint.py). A cache: a tick folds from the latest one whose digest still matches, and
    one that does not (or cannot be read) only costs a fold from an earlier one or from Setup."""

    __tablename__ = "checkpoints"
    __table_args__ = (UniqueConstraint("game_id", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    phase: Mapped[str] = mapped_column(String(40))  # the phase resolved
    at: Mapped[datetime] = mapped_column(UTCDateTime)  # when the fold resolved it (game time)
    digest: Mapped[str] = mapped_column(String(64))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    # the tip's row only: which stored inputs it saw (forumbot/store/inputs.py, revision 0008); NULL: unknown
    inputs_mark: Mapped[str | None] = mapped_column(Text)
    # the tip's row only: the tick that folded it put its due messages in the outbox (tick.py, revision 0008)
    enqueued: Mapped[bool | None] = mapped_column(Boolean)
