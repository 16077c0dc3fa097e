"""The `[season]` table (S-5): the games of a season in order, the gap between one's end and the next sign-up,
and whether the last game's players are told that the next sign-up is open. The standings (S-6) read the same
`games`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Mapping

from forumbot.config.reader import Reader

SEASON_KEYS = {"games", "gap", "notify"}
MAX_GAP_HOURS = 24 * 365


@dataclass(frozen=True)
class SeasonConfig:
    games: tuple[str, ...]  # game names, in the order they run
    gap: timedelta = timedelta()
    notify: bool = False

    def next_after(self, name: str) -> str | None:
        """The game whose sign-up opens when `name` ends (S-5), if any."""
        if name not in self.games:
            return None
        at = self.games.index(name)
        return self.games[at + 1] if at + 1 < len(self.games) else None


def parse_season(raw: Any, games: Mapping[str, Any], problems: list[str], t: Mapping[str, str]) -> SeasonConfig | None:
    """`[season]`; `games`: the configured games by name (each listed one must be among them)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        problems.append("season: " + t["config.expected"].format(kind=t["config.kind.dict"], got=type(raw).__name__))
        return None
    r = Reader(raw, "season", problems, t)
    before = len(problems)
    names = r.get("games", list, [], required=True) or []
    seen: set[str] = set()
    for i, name in enumerate(names):
        if not isinstance(name, str) or name not in games:
            r.problem(f"games[{i}]", t["config.season.no_game"].format(
                name=repr(name), known=", ".join(sorted(games)) or t["config.none"]))
        elif name in seen:
            r.problem(f"games[{i}]", t["config.season.twice"].format(name=repr(name)))
        else:
            seen.add(name)
    if "games" in raw and not names:
        r.problem("games", t["config.season.empty"])
    gap = r.number("gap", 0, 0, MAX_GAP_HOURS)
    notify = r.get("notify", bool, False)
    r.unknown(SEASON_KEYS)
    if len(problems) > before:
        return None
    return SeasonConfig(games=tuple(names), gap=timedelta(hours=gap), notify=notify)
