"""Before the first input: the cast checked against the variant and the roles drawn with the game's seed."""

from __future__ import annotations

import hashlib
import random

from forumbot import parse
from forumbot.errors import SetupError
from forumbot.model import (
    GameSetup,
    Role,
)
from forumbot.rules import Seat, get_variant


def draw_seats(setup: GameSetup) -> dict[str, Seat]:
    """Validate the cast and draw the roles not given, with the game's seed (C-2, M-1, H-1)."""
    variant = get_variant(setup.variant)
    nicks = [p.nick for p in setup.players]
    seen: dict[str, str] = {}
    for nick in nicks:
        folded = parse.normalize(nick)
        if not folded:
            raise SetupError(f"empty nickname {nick!r}")
        if folded in seen:
            raise SetupError(f"duplicate nickname {nick!r} (same as {seen[folded]!r})")
        seen[folded] = nick
    for p in setup.players:
        if p.role is not None and p.role not in variant.roles:
            raise SetupError(f"role {p.role} does not exist in the {variant.name} variant (player {p.nick})")
    given = [p.role for p in setup.players if p.role is not None]
    if len(given) == len(nicks):
        variant.check_cast(given, setup.options)
        roles = given
    else:
        pool = variant.cast(len(nicks), setup.options)
        variant.check_partial(given, len(nicks), setup.options)
        for role in given:
            pool.remove(Role.MAFIA if role is Role.DON else role)
        random.Random(f"{setup.seed}/roles").shuffle(pool)
        drawn = iter(pool)
        roles = [p.role if p.role is not None else next(drawn) for p in setup.players]
    return {nick: Seat(nick, role) for nick, role in zip(nicks, roles)}


def commitment(seed: int, roles: dict[str, Role]) -> str:
    """SHA-256 of the seed and the role list, posted at start and revealed at the end so players can verify."""
    text = f"{seed}:" + ",".join(f"{nick}={role}" for nick, role in roles.items())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
