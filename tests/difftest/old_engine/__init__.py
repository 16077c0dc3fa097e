"""A frozen copy of forumbot/engine as it was on main at 08d156f, for the differential harness of issue 19
(tests/test_engine_diff.py). Never edited; deleted with the harness when the new engine is complete."""

"""The engine behind `game.run`: the fold of a game's inputs and deadlines into messages and a result.

Where a new rule goes: a house rule is a `HouseRules` field with its check (forumbot/rules/house.py, RULES.md R);
what a variant decides is in forumbot/rules (pure); when it acts is a branch here (votes.py for the vote thread,
moves.py for night PMs, commands.py for GM commands, core.py for deadlines); what the bot says is a text key in
forumbot/texts. Everything that changes during a game is in `State` (state.py), the count schedule included, so
an undo (C-9) restores all of it. Each deadline gets only the inputs read before the bot resolved it (C-13:
Schedule.resolved, Input.read_at). One step is tested on a position written in one line (tests/position.py,
tests/test_positions.py); whole stories from Setup in tests/test_rules_*.py.
"""

from difftest.old_engine.core import Engine
from difftest.old_engine.setup import commitment, draw_seats
from difftest.old_engine.state import Phase, State

__all__ = ["Engine", "Phase", "State", "commitment", "draw_seats"]
