"""The `[season]` table of forumbot.toml (S-5): the games of one season, in the order they run.

    [season]
    games = ["autumn", "winter"]   # each a [games.NAME] table; they run one after another in the same threads
    gap = 0                        # hours from one game's end to the next one's sign-up
    notify = false                 # PM the players of the game just ended that the next sign-up is open

A minimal reading for the standings (S-6): helper h29-signup's module of the same name, which runs the season,
is the one to keep."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from forumbot.config.reader import Reader

KEYS = ("games", "gap", "notify")


@dataclass(frozen=True)
class SeasonConfig:
    games: tuple[str, ...]
    gap: timedelta = timedelta(0)
    notify: bool = False


def parse_season(raw: Any, games: dict[str, Any], problems: list[str]) -> SeasonConfig | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        problems.append("season: expected a table")
        return None
    r = Reader(raw, "season", problems)
    names = r.get("games", list, [], required=True)
    if not all(isinstance(n, str) for n in names):
        r.problem("games", "a list of game names")
        names = []
    for name in names:
        if name not in games:
            r.problem("games", f"no [games.{name}] table")
    if len(set(names)) != len(names):
        r.problem("games", "a game is named twice")
    gap = r.number("gap", 0, 0, 24 * 365)
    notify = r.get("notify", bool, False)
    r.unknown(KEYS)
    return SeasonConfig(tuple(names), timedelta(hours=gap), notify)
