"""Game lifecycle: `init`, `check-config`, `game list|status|start|stop`, `outbox`, tick's summary, and the draw
commitment.

Each lives in a module of its own: game_start (the draw, its commitment, starting), game_status (list and
status), game_stop, outbox_commands (the outbox by hand), tick_summary, config_checks (init and check-config's
offline checks), game_lookup (a game by name, in the config and the store). The CLI and the tests import them
from here.
"""

from __future__ import annotations

from forumbot.config_checks import (
    check_forums, check_setups, core_validate, example_config, late_starts, thread_problems, write_example,
)
from forumbot.game_lookup import ACTIVE, STOPPED
from forumbot.game_start import (
    Draw, Started, commitment, core_draw, past_day_one, start_game, thread_conflicts, thread_warnings,
)
from forumbot.game_status import game_status, list_games
from forumbot.game_stop import stop_game
from forumbot.outbox_commands import STUCK, outbox_drop, outbox_retry, stuck_messages
from forumbot.tick_summary import deferred_by_flood, tick_summary

__all__ = ["ACTIVE", "STOPPED", "STUCK", "Draw", "Started", "check_forums", "check_setups", "commitment",
           "core_draw", "core_validate", "deferred_by_flood", "example_config", "game_status", "late_starts",
           "list_games", "outbox_drop", "outbox_retry", "past_day_one", "start_game", "stop_game",
           "stuck_messages", "thread_conflicts", "thread_problems", "thread_warnings", "tick_summary",
           "write_example"]
