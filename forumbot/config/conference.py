"""M-15: which mafia conference a game runs on its forum. `conference = "conversation"` needs an engine whose
adapter sends one PM to several names and tells their replies to it from PMs to the bot (the CONFERENCE
capability); elsewhere the game runs the relay, which `game start` freezes into its setup and check-config names."""

from __future__ import annotations

from typing import Mapping

from forumbot.config.types import Config, GameConfig
from forumbot.errors import ConfigError
from forumbot.forum.adapter import CONFERENCE
from forumbot.forum.registry import engine_class


def conference_of(config: Config, game: GameConfig) -> str | None:
    """The conference the game runs: its option, with "conversation" as "relay" where the engine has none (None:
    the option is not set)."""
    asked = game.options.get("conference")
    if asked != "conversation":
        return asked
    return "conversation" if _has_conversations(config.forums[game.forum].engine) else "relay"


def conference_warnings(config: Config, texts: Mapping[str, str]) -> list[str]:
    """check-config: the games asking for a conversation on an engine that has none (they run the relay), in
    the words of `texts` (the GMs' language: forumbot.texts)."""
    return [texts["check.conference_relay"].format(game=game.name, engine=config.forums[game.forum].engine)
            for game in config.games.values()
            if game.options.get("conference") == "conversation" and conference_of(config, game) == "relay"]


def _has_conversations(engine: str) -> bool:
    try:
        cls = engine_class(engine)
    except ConfigError:
        return False
    return cls is not None and CONFERENCE in cls.CAPABILITIES
