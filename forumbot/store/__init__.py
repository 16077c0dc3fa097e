"""Persistence: the schema, the connection, schema versioning, per-game locks, and raw-input bookkeeping."""

from forumbot.store.db import open_engine, session_factory
from forumbot.store.models import Base, CursorRow, ForumRow, GameRow, OutboxRow, OverrideRow, InputRow, SeatRow
from forumbot.store.schema import SchemaOutdated, require_current, upgrade

__all__ = [
    "Base", "CursorRow", "ForumRow", "GameRow", "InputRow", "OutboxRow", "OverrideRow", "SeatRow",
    "SchemaOutdated", "open_engine", "require_current", "session_factory", "upgrade",
]
