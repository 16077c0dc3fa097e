"""A `[games.NAME.signup]` table (S-1..S-4): where and when the game's sign-up runs and how many it takes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from forumbot.config.reader import Reader
from forumbot.engine.signup_values import SignupSetup
from forumbot.errors import SetupError
from forumbot.rules import get_variant
from forumbot.rules.house import configure, defaults
from forumbot.rules.moscow import PLAYERS as MOSCOW_PLAYERS
from forumbot.texts import setup_said

SIGNUP_KEYS = {"thread", "opens", "closes", "close_when_full", "players", "list_every", "extend", "refused",
               "offer_hours", "rules"}
MAX_HOURS = 24 * 365


@dataclass(frozen=True)
class SignupConfig:
    thread: str  # "" = the game thread (before the game starts, S-1)
    closes: datetime
    seats: int  # N (S-2)
    opens: datetime | None = None  # None: when the game is first ticked, or when the season's game before ends
    close_when_full: bool = False
    list_every: timedelta = timedelta(minutes=60)
    extend: timedelta = timedelta(hours=24)
    refused: tuple[str, ...] = ()
    offer_hours: float = 6.0  # S-4
    rules: str = ""  # a link to the rules, shown in the opening post

    def setup(self, variant: str, options: Mapping[str, Any], opens: datetime, gms: tuple[str, ...], bot: str,
              start: datetime | None, language: str, markup: str, timezone: str) -> SignupSetup:
        house = configure(get_variant(variant), options).house.summary(defaults(variant))
        return SignupSetup(
            variant=variant, seats=self.seats, opens=self.opens or opens, closes=self.closes,
            close_when_full=self.close_when_full, list_every=self.list_every, extend=self.extend,
            refused=self.refused, gms=gms, bot=bot, start=start, house=tuple(house), rules_url=self.rules,
            language=language, markup=markup, timezone=timezone, offer_hours=timedelta(hours=self.offer_hours),
            thread=self.thread,
        )


def parse_signup(table: Any, where: str, variant: str, options: Mapping[str, Any], timezone: str,
                 problems: list[str], t: Mapping[str, str]) -> SignupConfig | None:
    if not isinstance(table, dict):
        problems.append(f"{where}: {t['config.expected_table']}")
        return None
    r = Reader(table, where, problems, t)
    before = len(problems)
    zone = ZoneInfo(timezone)
    closes = _time(r, "closes", zone, required=True)
    opens = _time(r, "opens", zone)
    if opens is not None and closes is not None and closes <= opens:
        r.problem("closes", t["config.closes_before_opens"])
    seats = _seats(r, variant, options)
    list_every = r.number("list_every", 60, 0, MAX_HOURS * 60, low_open=True)
    extend = r.number("extend", 24, 0, MAX_HOURS)
    offer_hours = r.number("offer_hours", 6, 0, MAX_HOURS, low_open=True)
    refused = r.get("refused", list, []) or []
    for i, nick in enumerate(refused):
        if not isinstance(nick, str) or not nick.strip():
            r.problem(f"refused[{i}]", t["config.refused_empty"].format(got=nick))
    config = SignupConfig(
        thread=r.get("thread", str, ""), closes=closes or datetime.min, seats=seats or 0, opens=opens,
        close_when_full=r.get("close_when_full", bool, False), list_every=timedelta(minutes=list_every),
        extend=timedelta(hours=extend), refused=tuple(n for n in refused if isinstance(n, str)),
        offer_hours=float(offer_hours), rules=r.get("rules", str, ""),
    )
    r.unknown(SIGNUP_KEYS)
    return None if len(problems) > before else config


def _seats(r: Reader, variant: str, options: Mapping[str, Any]) -> int | None:
    """N (S-2): M-1's 10, or the count `players` gives (H-1's row 12-17, or R-10's cast for 7-30)."""
    count = r.get("players", int, None)
    if count is None:
        if variant == "moscow" and "cast" not in options:
            return MOSCOW_PLAYERS
        r.problem("players", r.t["config.signup_players"])
        return None
    try:
        configure(get_variant(variant), options).cast(count, options)
    except SetupError as e:
        r.problem("players", r.t["config.signup_cannot"].format(count=count, why=setup_said(e, r.t)))
        return None
    return count


def _time(r: Reader, key: str, zone: ZoneInfo, required: bool = False) -> datetime | None:
    value = r.get(key, (datetime, str), None, required=required)
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            r.problem(key, r.t["config.not_a_datetime"].format(value=value))
            return None
    if not isinstance(value, datetime):
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=zone)
