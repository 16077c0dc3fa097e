"""`check-config`'s one line per game on the cast it will deal (issue 17 item 15).

A GM writing `cast = { mafia = 2, don = 1 }` asked whether `mafia` counts the Don: it does not (R-10). The
summary says how many mafia members that makes and how the Don comes to be (M-1)."""

from __future__ import annotations

from collections import Counter

from forumbot.config.types import Config, GameConfig
from forumbot.errors import SetupError
from forumbot.model import Role
from forumbot.engine import draw_seats

ORDER = (Role.CIVILIAN, Role.SHERIFF, Role.DOCTOR, Role.MANIAC, Role.MAFIA, Role.DON)


def cast_summaries(config: Config) -> list[str]:
    """One line per game whose setup the rules accept: its variant, player count and roles."""
    lines = []
    for game in config.games.values():
        try:
            lines.append(cast_summary(config, game))
        except SetupError:  # check_setups names the problem
            continue
    return lines


def cast_summary(config: Config, game: GameConfig) -> str:
    forum = config.forums[game.forum]
    seats = draw_seats(game.setup(seed=0, bot=forum.login, markup=forum.markup, planned=True))
    counts = Counter(seat.role for seat in seats.values())
    parts = [f"{counts[r]} {r}" for r in ORDER if counts[r] and r not in (Role.MAFIA, Role.DON)]
    members = counts[Role.MAFIA] + counts[Role.DON]
    if game.variant == "moscow":
        if counts[Role.DON]:
            team = f"{members} mafia members ({counts[Role.MAFIA]} mafia and the Don)"
        else:
            team = f"{members} mafia members (the Don among them, chosen by the mafia during Setup, M-1)"
        note = "; cast.mafia counts the mafiosi without the Don (R-10)" if "cast" in game.options else ""
    else:
        team, note = f"{members} mafia (no Don in this variant)", ""
    return (f"games.{game.name}: {game.variant}, {len(seats)} players: " + ", ".join(parts + [team]) + note)
