"""Before the first input: the cast checked against the variant and the roles drawn with the game's seed."""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import replace
from datetime import timedelta
from typing import Mapping

from forumbot import parse
from forumbot.errors import SetupError
from forumbot.model import (
    GameSetup,
    Input,
    Role,
)
from forumbot.rules import Seat, get_variant
from forumbot.rules.house import configure


def draw_seats(setup: GameSetup) -> dict[str, Seat]:
    """Validate the cast and draw the roles not given, with the game's seed (C-2, M-1, H-1)."""
    variant = configure(get_variant(setup.variant), setup.options)  # R-10 reads the options
    nicks = [p.nick for p in setup.players]
    seen: dict[str, str] = {}
    for nick in nicks:
        check_name(nick, "player")
        folded = parse.normalize(nick)
        if not folded:
            raise SetupError.told("setup.rule.empty_nick", "empty nickname {nick!r}", nick=nick)
        if folded in seen:
            raise SetupError.told("setup.rule.duplicate_nick", "duplicate nickname {nick!r} (same as {same!r})", nick=nick,
                                  same=seen[folded])
        seen[folded] = nick
    for p in setup.players:
        if p.role is not None and p.role not in variant.roles:
            raise SetupError.told("setup.rule.role_variant", "role {role} does not exist in the {variant} variant (player {nick})",
                                  role=p.role, variant=variant.name, nick=p.nick)
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


def commitment_text(seed: int, roles: dict[str, Role]) -> str:
    """The exact string the commitment hashes: the end post prints it so that players can check (C-2)."""
    return f"{seed}:" + ",".join(f"{nick}={role}" for nick, role in roles.items())


def commitment(seed: int, roles: dict[str, Role]) -> str:
    """SHA-256 of the seed and the role list, posted at start and revealed at the end so players can verify."""
    return hashlib.sha256(commitment_text(seed, roles).encode("utf-8")).hexdigest()


# Bounds the engine keeps even when config validation is bypassed (a transcript, a hand-made setup): beyond
# them a fold would spin (a count every 0 minutes) or overflow a datetime (issue 7 item 19).
COUNT_MINUTES = (0.1, 366 * 24 * 60.0)
REMIND_HOURS = (0.0, 366 * 24.0)
DOWNTIME_MINUTES = (1.0, 366 * 24 * 60.0)  # C-14's downtime_grace and downtime_window
MAX_PHASE = timedelta(days=366)
LATEST_START = 9000  # datetime.max is in 9999: leave a game room to run

_SURROGATE = re.compile("[\ud800-\udfff]")


def number_option(options: Mapping[str, object], name: str, default: float, low: float, high: float) -> float:
    value = options.get(name, default)
    # the bounds compare first: NaN fails them, and math on a 400-digit int would raise OverflowError
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise SetupError.told("setup.rule.number_option", "option {name} must be a number from {low:g} to {high:g}, not {got!r}",
                              name=name, low=low, high=high, got=value)
    return float(value)


def downtime_lengths(options: Mapping[str, object]) -> tuple[timedelta, timedelta]:
    """C-14's `downtime_grace` and `downtime_window` (minutes; 30 and 120 when left out)."""
    return (timedelta(minutes=number_option(options, "downtime_grace", 30, *DOWNTIME_MINUTES)),
            timedelta(minutes=number_option(options, "downtime_window", 120, *DOWNTIME_MINUTES)))


def check_schedule(setup: GameSetup) -> None:
    sched = setup.schedule
    for name, length in (("day_hours", sched.day), ("night_hours", sched.night), ("runoff_hours", sched.runoff)):
        if not timedelta() < length <= MAX_PHASE:
            hours, most = length / timedelta(hours=1), MAX_PHASE / timedelta(hours=1)
            raise SetupError.told("setup.rule.phase_length", "{name} must be more than 0 and at most {most:g}, not {hours:g}",
                                  name=name, most=most, hours=hours)
    if sched.start.year > LATEST_START or (sched.setup_opens is not None and sched.setup_opens.year > LATEST_START):
        raise SetupError.told("setup.rule.start_far", "start {start} is too far in the future",
                              start=sched.start.isoformat())


def check_name(name: str, what: str) -> None:
    """A name no forum can show (a lone surrogate, left by a broken decode) is refused, not carried along."""
    bad = _SURROGATE.search(name)
    if bad:
        raise SetupError(f"{what} name {name!r} holds a lone surrogate (U+{ord(bad.group()):04X}), not a character")


def clean_text(text: str) -> str:
    """Lone surrogates become U+FFFD; a pair of them is the character it encodes. Nothing can encode them."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def clean_input(inp: Input) -> Input:
    """An input whose text, author or id holds lone surrogates folds like any other (issue 7 item 19)."""
    fields = (inp.text, inp.author, inp.id, inp.first_text or "")
    if not any(_SURROGATE.search(f) for f in fields):
        return inp
    return replace(
        inp, text=clean_text(inp.text), author=clean_text(inp.author), id=clean_text(inp.id),
        first_text=None if inp.first_text is None else clean_text(inp.first_text),
    )
