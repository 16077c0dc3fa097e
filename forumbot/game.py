"""The fold: a whole game derived from its setup and its recorded inputs (DESIGN.md, "pure core").

`run(setup, inputs, until)` is the only entry point the shell needs. It is pure: no I/O, no clock; the same
arguments give the same result, byte for byte. The daemon calls it every cycle with every stored input of the
game and `until=now`; replay calls it with a transcript's events.
"""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from forumbot.engine import fold
from forumbot.engine.results import GameRun
from forumbot.model import GameSetup, Input, Message, Role
from forumbot.engine import draw_seats
from forumbot.engine.setup import commitment_text
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.model import Where
from forumbot.texts import get_texts

__all__ = ["GameRun", "run"]


def run(setup: GameSetup, inputs: Sequence[Input], until: datetime | None = None) -> GameRun:
    """Fold `inputs` (any order; sorted by time, then by their order here) into the game, resolving every deadline <= `until`.

    Inputs stamped after `until` are not processed. Without `until`: up to the deadline of the phase in which
    the last input falls. Raises SetupError for a setup that breaks a rule.
    """
    return fold.run(setup, inputs, until)


# --- a game ended by the operator (`forumbot game stop`) ----------------------------------------------------------

STOP_KEY = "stopped/result"


def drawn_string(setup: GameSetup) -> str:
    """The exact string the opening post's commitment hashes (C-2). Raises SetupError as the fold would."""
    return commitment_text(setup.seed, {nick: seat.role for nick, seat in draw_seats(setup).items()})


def stop_message(setup: GameSetup, players: Sequence[tuple[str, Role, bool]], at: datetime, reason: str,
                 drawn: str) -> Message:
    """The closing post of a stopped game: no winner, every seat's role, the draw verifiable as at a real end.

    The daemon posts it when `game stop` runs; replay adds it to a transcript that says the game was stopped, so
    both write the same text (issue 17 item 12)."""
    escape = escape_markdown if setup.markup == "markdown" else escape_bbcode
    texts = get_texts(setup.language, escape, setup.schedule.timezone, setup.markup,
                      str(setup.options.get("spoiler", "")))
    return Message(at=at, where=Where.GAME, to=None, text=texts.stopped(reason, players, setup.seed, drawn),
                   key=STOP_KEY)
