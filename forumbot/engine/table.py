"""What a game never changes, built once from its Setup: the variant with its house rules, the texts, the
schedule's settings, the accounts that are GMs and the bot (issue 19 item 1: the `Table` beside the `Game`).

A new house rule is a `HouseRules` field with its check (forumbot/rules/house.py, RULES.md R); it reaches the
engine through `Table.variant`. A new option the engine itself reads is a field here, checked in `make_table`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any, Mapping

from forumbot import parse
from forumbot.engine.setup import (
    COUNT_MINUTES,
    REMIND_HOURS,
    check_name,
    check_schedule,
    commitment_text,
    downtime_lengths,
    draw_seats,
    number_option,
)
from forumbot.errors import SetupError
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.model import GameSetup, ReadSpan, Role
from forumbot.rules import Seat, get_variant
from forumbot.rules.base import Variant
from forumbot.rules.house import configure
from forumbot.texts import Texts, get_texts


@dataclass(frozen=True)
class Table:
    setup: GameSetup
    variant: Variant  # the variant configured with the game's house rules (section R)
    t: Texts
    options: Mapping[str, object]
    edited_votes: str  # C-11: "void" | "first_seen"
    count_every: timedelta  # C-6
    remind_before: timedelta
    markers: tuple[str, ...]  # H-4's agitation markers
    gms: tuple[str, ...]  # sorted: the order GMs are written to
    gm_accounts: frozenset[str]  # parse.account_key of each GM
    bot: str  # parse.account_key of the bot
    roles: Mapping[str, Role]  # seat id -> role as drawn (C-2), in config order
    drawn: str  # the string the draw's commitment hashes (C-2), printed at the end
    resolved: Mapping[str, datetime]  # C-13: when the bot resolved each phase, by label (and made each count)
    # C-14: the game's reads as spans of ticks with one outcome, and how long without a
    # successful one in how long a stretch before a deadline disturbs it
    reads: tuple[ReadSpan, ...]
    downtime_grace: timedelta
    downtime_window: timedelta

    def fresh_seats(self) -> dict[str, Seat]:
        """The seats as drawn, each played by the account that is its id, for a new game's draft."""
        return {sid: Seat(sid, role) for sid, role in self.roles.items()}


def make_table(setup: GameSetup) -> Table:
    """The Table of a Setup; raises SetupError for a setup that breaks a rule."""
    variant = configure(get_variant(setup.variant), setup.options)
    escape = escape_markdown if setup.markup == "markdown" else escape_bbcode
    texts = get_texts(setup.language, escape, setup.schedule.timezone, setup.markup,
                      str(setup.options.get("spoiler", "")))
    options = dict(setup.options)
    edited_votes = str(options.get("edited_votes", "void"))
    if edited_votes not in ("void", "first_seen"):
        raise SetupError.told("setup.rule.edited_votes",
                              "option edited_votes must be 'void' or 'first_seen', not {got!r} (C-11)", got=edited_votes)
    check_schedule(setup)
    # Bounded here too, whatever config validation let through (a transcript bypasses it): a count every
    # 0 minutes would never let the timeline move on, and 1e308 overflows (issue 7 item 19).
    count_every = timedelta(minutes=number_option(options, "vote_count_minutes", 60, *COUNT_MINUTES))
    remind_before = timedelta(hours=number_option(options, "remind_hours", 3, *REMIND_HOURS))
    grace, window = downtime_lengths(options)  # C-14
    markers = tuple(options.get("agitation_markers", ())) + tuple(parse.DEFAULT_AGITATION_MARKERS)
    seats = draw_seats(setup)
    for gm in setup.gms:
        check_name(gm, "GM")
    check_name(setup.bot, "bot")
    # Forums keep account names unique regardless of case, so a GM typed in another case is the same account.
    gm_accounts = frozenset(parse.account_key(gm) for gm in setup.gms)
    clash = sorted(nick for nick in seats if parse.account_key(nick) in gm_accounts)
    if clash:
        raise SetupError.told("setup.rule.gm_player", "{names} cannot be both a GM and a player", names=", ".join(clash))
    roles: dict[str, Role] = {sid: seat.role for sid, seat in seats.items()}
    return Table(
        setup=setup, variant=variant, t=texts, options=MappingProxyType(options), edited_votes=edited_votes,
        count_every=count_every, remind_before=remind_before, markers=markers, gms=tuple(sorted(set(setup.gms))),
        gm_accounts=gm_accounts, bot=parse.account_key(setup.bot), roles=MappingProxyType(roles),
        drawn=commitment_text(setup.seed, roles), resolved=MappingProxyType(dict(setup.schedule.resolved)),
        reads=setup.schedule.reads, downtime_grace=grace, downtime_window=window,
    )
