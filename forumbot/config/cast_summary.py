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


def cast_summaries(config: Config, t: dict[str, str]) -> list[str]:
    """One line per game whose setup the rules accept: its variant, player count and roles, in the GMs' language
    `t` (issue 28 item 4: an English line among Russian ones)."""
    lines = []
    for game in config.games.values():
        try:
            lines.append(cast_summary(config, game, t))
        except SetupError:  # check_setups names the problem
            continue
    return lines


def cast_summary(config: Config, game: GameConfig, t: dict[str, str]) -> str:
    forum = config.forums[game.forum]
    seats = draw_seats(game.setup(seed=0, bot=forum.login, markup=forum.markup, planned=True))
    counts = Counter(seat.role for seat in seats.values())
    parts = [t["cast.part"].format(n=counts[r], role=t[f"role.{r}"])
             for r in ORDER if counts[r] and r not in (Role.MAFIA, Role.DON)]
    members = counts[Role.MAFIA] + counts[Role.DON]
    if game.variant == "moscow":
        team = t["cast.mafia_and_don" if counts[Role.DON] else "cast.mafia_choose_don"].format(
            members=members, mafia=counts[Role.MAFIA])
        note = t["cast.mafia_without_don"] if "cast" in game.options else ""
    else:
        team, note = t["cast.mafia_no_don"].format(members=members), ""
    variant = t.get(f"signup.variant.{game.variant}", game.variant)
    return t["cast.summary"].format(game=game.name, variant=variant, n=len(seats), parts=", ".join(parts + [team]),
                                    note=note)
