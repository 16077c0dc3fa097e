"""The fold: a whole game derived from its setup and its recorded inputs (DESIGN.md, "pure core").

`run(setup, inputs, until)` is the only entry point the shell needs. It is pure: no I/O, no clock; the same
arguments give the same result, byte for byte. The daemon calls it every cycle with every stored input of the
game and `until=now`; replay calls it with a transcript's events.
"""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from forumbot.engine import Engine
from forumbot.engine.results import GameResult, GameRun, PlayerResult
from forumbot.model import GameSetup, Input

__all__ = ["GameResult", "GameRun", "PlayerResult", "run"]


def run(setup: GameSetup, inputs: Sequence[Input], until: datetime | None = None) -> GameRun:
    """Fold `inputs` (any order; sorted by time, then by their order here) into the game, resolving every deadline <= `until`.

    Inputs stamped after `until` are not processed. Without `until`: up to the deadline of the phase in which
    the last input falls. Raises SetupError for a setup that breaks a rule.
    """
    return Engine(setup).run(inputs, until)
