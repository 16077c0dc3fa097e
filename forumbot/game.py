"""The fold: a whole game derived from its setup and its recorded inputs (DESIGN.md, "pure core").

`run(setup, inputs, until)` is the only entry point the shell needs. It is pure: no I/O, no clock; the same
arguments give the same result, byte for byte. The daemon calls it every cycle with every stored input of the
game and `until=now`; replay calls it with a transcript's events.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Sequence

from forumbot.engine import fold
from forumbot.engine.results import GameResult, GameRun
from forumbot.engine.signup import game_setup, run_signup
from forumbot.engine.signup_values import SignupRun, SignupSetup
from forumbot.model import GameSetup, Input, Message, Role
from forumbot.engine import draw_seats
from forumbot.engine.setup import commitment_text
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.model import Where
from forumbot.texts import get_texts


def run(setup: GameSetup, inputs: Sequence[Input], until: datetime | None = None) -> GameRun:
    """Fold `inputs` (any order; sorted by time, then by their order here) into the game, resolving every deadline <= `until`.

    Inputs stamped after `until` are not processed. Without `until`: up to the deadline of the phase in which
    the last input falls. Raises SetupError for a setup that breaks a rule. A setup with a sign-up (S-1) folds
    the sign-up first, then the game with its players (`signed_up`).
    """
    if setup.signup is None:
        return fold.run(setup, inputs, until)
    played, signup, rest = signed_up(setup, inputs, until)
    if played is None:
        return signup
    return with_signup(signup, fold.run(played, rest, until))


def signed_up(setup: GameSetup, inputs: Sequence[Input],
              until: datetime | None) -> tuple[GameSetup | None, GameRun, list[Input]]:
    """S-3: the sign-up folded to `until` (without one: to its end, the close plus `extend`). Closed with N
    players: the game's setup with exactly them, the sign-up's messages as a GameRun, and the inputs stamped
    after the close (the game's); else None, the sign-up's GameRun (phase `signup open|waiting|cancelled`)."""
    s: SignupSetup = setup.signup  # type: ignore[assignment]
    end = until or max([s.closes + s.extend] + [i.at for i in inputs])
    done = run_signup(s, inputs, end)
    said = GameRun(done.messages, GameResult(None, None, ()), done.log, phase=f"signup {done.state}",
                   next_deadline=done.closes if done.state == "open" else None, phase_opens=s.opens,
                   # the GM's sign-up overrides for the override log (C-9), with the list before and after
                   commands=tuple((i, {"signup": before}, {"signup": after}) for i, before, after in done.commands))
    if done.state != "closed" or done.ended_at is None:
        return None, said, []
    closed = done.ended_at
    return replace(game_setup(setup, done), signup=None), said, [i for i in inputs if i.at > closed]


def for_pages(setup: GameSetup, inputs: Sequence[Input], until: datetime) -> tuple[GameSetup, SignupRun | None]:
    """What a game's public pages show at `until` (S-1..S-3): once its sign-up closed, the setup the game plays by
    (its players); while the sign-up runs, the setup as it is and the sign-up's list."""
    if setup.signup is None:
        return setup, None
    done = run_signup(setup.signup, inputs, until)  # type: ignore[arg-type]
    if done.state == "closed" and done.ended_at is not None:
        return replace(game_setup(setup, done), signup=None), None
    return setup, done


def with_signup(signup: GameRun, game: GameRun) -> GameRun:
    """The game's run with the sign-up's messages, log and GM overrides before its own."""
    return replace(game, messages=signup.messages + game.messages, log=signup.log + game.log,
                   commands=signup.commands + game.commands)


# --- a game ended by the operator (`forumbot game stop`) ----------------------------------------------------------

STOP_KEY = "stopped/result"


def drawn_string(setup: GameSetup) -> str:
    """The exact string the opening post's commitment hashes (C-2). Raises SetupError as the fold would."""
    return commitment_text(setup.seed, {nick: seat.role for nick, seat in draw_seats(setup).items()})


def as_played(setup: GameSetup, inputs: Sequence[Input], until: datetime) -> GameSetup:
    """The setup the game plays by: with a sign-up (S-1), the one its close gave (the players, the draw the
    commitment hashed); while it is still open or was cancelled, the setup as it is (no players, no draw)."""
    if setup.signup is None:
        return setup
    played, _, _ = signed_up(setup, inputs, until)
    return played or setup


def stop_message(setup: GameSetup, players: Sequence[tuple[str, Role, bool]], at: datetime, reason: str,
                 drawn: str) -> Message:
    """The closing post of a stopped game: no winner, every seat's role, the draw verifiable as at a real end.

    The daemon posts it when `game stop` runs; replay adds it to a transcript that says the game was stopped, so
    both write the same text (issue 17 item 12)."""
    escape = escape_markdown if setup.markup == "markdown" else escape_bbcode
    texts = get_texts(setup.language, escape, setup.schedule.timezone, setup.markup,
                      str(setup.options.get("spoiler", "")))
    return Message(at=at, where=Where.GAME, to=None, text=texts.ending.stopped(reason, players, setup.seed, drawn),
                   key=STOP_KEY)
