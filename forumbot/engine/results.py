"""What a fold returns: the messages, the result, the log, where the game is (DESIGN.md, "pure core").

Defined beside the engine that builds them, so the engine never imports `forumbot.game`, its caller."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from forumbot.model import Death, Message, Role

if TYPE_CHECKING:  # types only: the fold fills these from the engine's records, which never import this module
    from forumbot.engine.activity import GamePost
    from forumbot.engine.history import DayRecord


@dataclass(frozen=True)
class PlayerResult:
    nick: str
    role: Role
    alive: bool
    died: Death | None


@dataclass(frozen=True)
class GameResult:
    winner: str | None  # "town" | "mafia" | "maniac" | "draw" | None while running
    ended_at: datetime | None
    players: tuple[PlayerResult, ...]


@dataclass(frozen=True)
class GameRun:
    messages: tuple[Message, ...]  # in time order; each with a stable outbox key
    result: GameResult
    log: tuple[str, ...]  # what the engine did and why, one line each (for GMs and disputes)
    phase: str = ""  # the phase open at `until`: "setup", "day 1", "runoff 1", "night 1", "ended"
    next_deadline: datetime | None = None  # when the open phase resolves (None when ended or paused)
    phase_opens: datetime | None = None  # when the open phase opened
    resolved: tuple[tuple[str, datetime], ...] = ()  # every phase resolved, by label, with its (game) time
    # C-13: every interim count (by its key) and reminder ("remind:<phase>") made, with its (game) time
    computed: tuple[tuple[str, datetime], ...] = ()
    # C-13: inputs read after the phase they were stamped in was resolved: (input id, that phase, the stamp,
    # where: "game" | "vote" | "pm")
    late: tuple[tuple[str, str, datetime, str], ...] = ()
    # every GM PM this fold handled: (input id, the game just before, just after), as the override log keeps it
    commands: tuple[tuple[str, dict[str, Any], dict[str, Any]], ...] = ()
    history: tuple[DayRecord, ...] = ()  # per day and runoff, the open one last (public pages)
    thread_posts: tuple[GamePost, ...] = ()  # per seat's game-thread post (the pages' activity)
    # S-4: the reserve in order (None: a game without a sign-up has none), and each seat offered to it now:
    # (the seat's account, offered to, until)
    reserve: tuple[str, ...] | None = None
    offers: tuple[tuple[str, str, datetime], ...] = ()


INTERIM = frozenset({"count", "remind", "confirm-reminder"})  # what is worth saying only before its deadline


def stale_interim(run: GameRun) -> frozenset[str]:
    """C-14: the keys of the interim counts and reminders of the phases already resolved. One is never sent
    late: a tick that reaches it only after its phase was resolved (the bot was down) does not send it (a
    reminder would tell a player who has since voted that he has not); `game export` lists those as `unsent`."""
    done = {label for label, _ in run.resolved}
    return frozenset(m.key for m in run.messages
                     if (parts := m.key.split("/"))[0] in done and len(parts) > 2 and parts[1] in INTERIM)


def moot_acks(run: GameRun) -> frozenset[str]:
    """issue 28 item 9: the keys of the night moves' acknowledgements whose night is resolved. One still waiting
    in the outbox then (the forum held the bot's PMs) is never sent: «выстрел состоится» must not arrive after the
    night's result. One made in the very tick that resolves the night is queued as usual, due before the result."""
    done = {label for label, _ in run.resolved}
    return frozenset(m.key for m in run.messages if m.moot_after in done)
