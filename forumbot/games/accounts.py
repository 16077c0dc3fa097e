"""A game's accounts looked up on its board before anything is posted (issue 28 item 4): a player's or GM's name
spelt otherwise than his account is found by `check-config --online` and by `game start`, in the board's own words,
and not after the player list went out with a role PM to nobody.

Asked through the adapter's `account_exists` (a member list, XenForo's `members/find`, an API), where the engine has
it; a board that does not show the bot its members cannot tell, and says so."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from forumbot.config.types import GameConfig
from forumbot.errors import ConfigError, ForumbotError
from forumbot.forum.adapter import ACCOUNTS, AdapterBase, ForumAdapter, can


@dataclass
class Lookup:
    problems: list[str] = field(default_factory=list)  # a name the board has no account of, one line each
    notes: list[str] = field(default_factory=list)  # what was checked ("проверено: …") or could not be
    all_found: bool = False  # every account asked was found


def names_of(game: GameConfig) -> list[tuple[str, str]]:
    """(setting, name) for every account the game will address: its players (none yet under a sign-up, S-1: they
    join with their own accounts) and its GMs."""
    out = [(f"games.{game.name}.players", p.nick) for p in game.players] if game.signup is None else []
    return out + [(f"games.{game.name}.gms", gm) for gm in game.gms]


def look_up(adapter: AdapterBase, game: GameConfig, t: Mapping[str, str]) -> Lookup:
    """Each of the game's accounts asked of the board (a ForumError propagates: the board is away); `t`: the
    texts of the GM's language."""
    found = Lookup()
    names = names_of(game)
    if not names:
        return found
    if not can(adapter, ACCOUNTS):
        engine = adapter.profile.engine if adapter.profile is not None else adapter.engine
        found.notes.append(t["accounts.no_lookup"].format(game=game.name, engine=engine))
        return found
    unknown: list[str] = []
    for setting, name in names:
        exists = adapter.account_exists(name)  # type: ignore[attr-defined]
        if exists is None:
            unknown.append(name)
        elif not exists:
            words = " ".join(adapter.account_said().split())
            said = t["accounts.said"].format(words=words) if words else ""
            found.problems.append(t["accounts.missing"].format(setting=setting, name=name, said=said))
    if unknown:
        found.notes.append(t["accounts.unknown"].format(game=game.name, names=", ".join(unknown)))
    elif not found.problems:
        found.all_found = True
        found.notes.append(t["accounts.verified"].format(game=game.name, count=len(names)))
    return found


def before_start(game: GameConfig, adapter: ForumAdapter, t: Mapping[str, str]) -> list[str]:
    """`game start`'s look-up (issue 28 item 4), before the draw and the player list: a name the board has no
    account of is a ConfigError naming it, and nothing is started; a board away or not telling is a warning, and
    the game starts as it did before (the first tick will try the PMs)."""
    if not names_of(game) or not isinstance(adapter, AdapterBase):  # every engine's adapter is one (registry)
        return []
    try:  # the adapter logged in, or holds a stored session it renews itself when it has run out
        found = look_up(adapter, game, t)
    except ForumbotError as e:
        return [t["accounts.unreachable"].format(game=game.name, error=e)]
    if found.problems:
        raise ConfigError("\n".join([*found.problems, t["accounts.not_started"].format(game=game.name)]))
    return [] if found.all_found else found.notes
