"""A game by name: its table in the config and its row in the store, the states it goes through, and its stored
setup (what the GM commands of lifecycle look up first)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.config.types import Config, GameConfig
from forumbot.errors import ConfigError, ForumbotError, SetupError
from forumbot.model import GameSetup
from forumbot.store.models import GameRow
from forumbot.store.setup_codec import setup_from_json
from forumbot.texts import TABLES, gm_language


# a game still reading its threads (or owing its closing post)
ACTIVE = ("running", "stopping")


# "stopping": ended by `game stop`, its closing post still owed (a tick delivers it and nothing else);
# "stopped": that post is out
STOPPED = ("stopping", "stopped")


def configured_game(config: Config, name: str) -> GameConfig:
    if name not in config.games:
        # a game the config does not name has no language: the GMs' tools speak the configured games' (issue 28)
        t = TABLES[gm_language([g.language for g in config.games.values()])]
        known = ", ".join(sorted(config.games)) or t["lookup.none"]
        raise ConfigError(t["lookup.no_game"].format(name=name, path=config.path, known=known))
    return config.games[name]


def shown_as(game: GameRow) -> tuple[str, str]:
    """The game's language and time zone as stored (its setup read once), Russian and "" (UTC) for a stored setup
    that cannot be read: a broken stored setup is reported elsewhere, and a summary line must not fail."""
    try:
        setup = setup_of(game)
    except Exception:  # noqa: BLE001
        return "ru", ""
    return setup.language, setup.schedule.timezone


def setup_of(game: GameRow) -> GameSetup:
    return setup_from_json(game.setup_json, game=game.name, check=False)


def game_row(session: Session, config: Config, name: str) -> GameRow:
    game = session.scalar(select(GameRow).where(GameRow.name == name))
    if game is None:
        configured_game(config, name)
        raise ForumbotError(TABLES[language_of(config, name, None)]["lookup.never_started"].format(name=name))
    return game


def language_of(config: Config, name: str, game: GameRow | None) -> str:
    """The language a game's GMs read its status in (issue 28): the game's own, Russian by default."""
    if name in config.games:
        return config.games[name].language
    if game is not None:
        try:
            return setup_of(game).language
        except (SetupError, KeyError, ValueError):  # a stored setup this version cannot read
            pass
    return "ru"
