"""The fold: a whole game derived from its setup and its recorded inputs (DESIGN.md, "pure core").

`run(setup, inputs, until)` is the only entry point the shell needs. It is pure: no I/O, no clock; the same
arguments give the same result, byte for byte. The daemon calls it every cycle with every stored input of the
game and `until=now`; replay calls it with a transcript's events.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

from forumbot.model import Death, GameSetup, Input, Message, Role


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
    history: tuple = ()  # forumbot.engine.history.DayRecord per day and runoff, the open one last (public pages)


def run(setup: GameSetup, inputs: Sequence[Input], until: datetime | None = None) -> GameRun:
    """Fold `inputs` (any order; sorted by time, then by their order here) into the game, resolving every deadline <= `until`.

    Inputs stamped after `until` are not processed. Without `until`: up to the deadline of the phase in which
    the last input falls. Raises SetupError for a setup that breaks a rule.
    """
    from forumbot.engine import Engine

    return Engine(setup).run(inputs, until)
