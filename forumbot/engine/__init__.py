"""The engine behind `game.run`: the fold of a game's inputs and deadlines into messages and a result."""

from forumbot.engine.core import Engine
from forumbot.engine.setup import commitment, draw_seats
from forumbot.engine.state import Phase, State

__all__ = ["Engine", "Phase", "State", "commitment", "draw_seats"]
