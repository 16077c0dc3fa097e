"""The engine behind `game.run`: a game as a value, folded from its setup and inputs (issue 19).

- `Table` (table.py): what a game never changes (setup, variant with house rules, texts, schedule settings).
- `Game` (state.py): everything that changes, frozen; `State` is its draft while one step runs.
- `step(table, game, event)` and `advance(table, game, until)` (step.py): pure functions from a Game to the
  next, with the messages sent on the way; `fold.run` folds a whole game the same way on one draft.

- `Checkpoint` (checkpoint.py): the Game right after a resolved deadline and a digest of the inputs before it;
  `fold.run_from` starts at the latest one that still matches (forumbot/store/checkpoints.py keeps them).
- `Tip` (checkpoint.py, tip.py): the fold where the last tick stopped; `tip.run_tipped` starts there when the
  inputs it saw are unchanged, so a quiet tick folds nothing and a new vote is one step.

Imports go one way (each imports only those before it): table, state -> work -> seats, speech -> conference
-> counts -> majority -> thread -> phases -> asked -> day, night, history -> timeline -> status, undo -> gm -> step
-> checkpoint, fold -> tip, position.

Where a new rule goes: a house rule is a `HouseRules` field with its check (forumbot/rules/house.py, RULES.md R);
what a variant decides is in forumbot/rules (pure); when it acts is a branch here (thread.py for the threads,
night.py for night PMs, gm.py for GM commands, day.py and night.py for deadlines); what the bot says is a text
key in forumbot/texts. Everything that changes during a game is in `Game`, the count schedule included, so an
undo (C-9, undo.py) folds again from the Game saved before the command. Each deadline gets only the inputs read
before the bot resolved it (C-13: Schedule.resolved, Input.read_at; fold.py); each interim count, reminder and
GM's status shows only the posts read before the bot made it (Work.knowing, counts.known).

- `Position` (position.py): a position in one line, like a chess FEN, built by the engine's own functions and
  written back (`line()`); `tally(table, game)` (counts.py): the open day's count as the engine computes it. One
  step is tested on a position (tests/engine/test_positions.py, the clause tests from positions); whole stories
  from Setup in tests/engine/test_rules_*.py.
"""

from forumbot.engine.counts import tally
from forumbot.engine.position import Position, PositionError
from forumbot.engine.setup import commitment, draw_seats
from forumbot.engine.state import Game, Phase, State, freeze, thaw
from forumbot.engine.step import advance, step
from forumbot.engine.table import Table, make_table

__all__ = ["Game", "Phase", "Position", "PositionError", "State", "Table", "advance", "commitment", "draw_seats",
           "freeze", "make_table", "step", "tally", "thaw"]
