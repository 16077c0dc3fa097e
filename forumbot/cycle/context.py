"""What one tick works with (its Context) and what it reports (TickReport, one GameOutcome per game)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Callable

from sqlalchemy.orm import Session, sessionmaker

from forumbot.forum.adapter import ForumAdapter
from forumbot.config.types import Config
from forumbot.errors import ForumError
from forumbot.outbox.store import Delivery
from forumbot.forum.retry import Retry
from forumbot.store.game import Fold, default_fold
from forumbot.store.locks import Locks

Hook = Callable[[str], None]


@dataclass
class Context:
    config: Config
    sessions: sessionmaker[Session]
    locks: Locks
    adapters: dict[str, ForumAdapter | ForumError]  # by forum name; an error when it could not be opened
    clock: Callable[[], datetime]
    fold: Fold = default_fold
    retry: Retry = field(default_factory=Retry)
    hook: Hook = lambda point: None  # tests make it raise at a named point to simulate a crash there
    inbox_wait: float = 60.0
    inbox_every: timedelta = timedelta(minutes=30)  # the longest the inbox goes unread, whatever headers say


@dataclass
class GameOutcome:
    name: str
    state: str  # done | locked | ended (by another tick meanwhile) | error | unconfigured | broken (its setup)
    phase: str = ""
    stored: int = 0
    queued: int = 0
    delivery: Delivery | None = None
    held_back: int = 0  # messages the fold made that are younger than grace_seconds: sent by a later tick
    held_until: datetime | None = None  # the earliest of them becomes due at this moment
    error: ForumError | None = None
    problem: str = ""  # state "broken": why its stored setup was refused
    pages_error: str = ""  # why the pages could not be written: the posts showing a picture wait (issue 20)


@dataclass
class TickReport:
    games: list[GameOutcome] = field(default_factory=list)
    unreachable: dict[str, ForumError] = field(default_factory=dict)  # forum name -> the error that stopped it
    broken: dict[str, str] = field(default_factory=dict)  # game name -> why its stored setup was refused
    pms_stored: dict[str, int] = field(default_factory=dict)  # forum name -> PMs its inbox gave this tick
