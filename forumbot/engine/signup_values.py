"""The sign-up's values (S-1..S-3): what it is run with, what it gives, its list at a moment, and the draft one
pass of its fold writes to (forumbot/engine/signup.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from forumbot.model import Message, Where
from forumbot.texts import Texts


@dataclass(frozen=True)
class SignupSetup:
    """What a sign-up is run with: `[games.NAME.signup]` and the game's own settings it shows (S-1)."""

    variant: str
    seats: int  # N (S-2)
    opens: datetime
    closes: datetime
    close_when_full: bool = False
    list_every: timedelta = timedelta(minutes=60)
    extend: timedelta = timedelta(hours=24)
    refused: tuple[str, ...] = ()
    gms: tuple[str, ...] = ()
    bot: str = ""
    start: datetime | None = None  # Day 1, when the GM set it
    house: tuple[tuple[str, Any], ...] = ()  # the house rules that differ from the variant's clauses
    rules_url: str = ""
    language: str = "ru"
    markup: str = "bbcode"
    timezone: str = "Europe/Moscow"
    offer_hours: timedelta = timedelta(hours=6)  # S-4: how long a reserve player has to accept a seat
    thread: str = ""  # the sign-up's own thread (S-1); "" = the game thread

    @property
    def where(self) -> Where:
        """Where the sign-up's posts are read and its own posts go (S-1)."""
        return Where.SIGNUP if self.thread else Where.GAME


@dataclass(frozen=True)
class SignupRun:
    """The sign-up at `until`: open, closed (with its players) or cancelled; what the bot said on the way."""

    state: str  # waiting | open | closed | cancelled
    players: tuple[str, ...]
    reserve: tuple[str, ...]
    closes: datetime  # the close in force (moved once by `extend`)
    ended_at: datetime | None
    extended: bool
    messages: tuple[Message, ...]
    log: tuple[str, ...] = ()
    commands: tuple[tuple[str, str, str], ...] = ()  # (GM PM id, the list before, after): C-9's audit


@dataclass(frozen=True)
class ReserveSetup:
    """S-4: what a game whose players came from a sign-up carries into its play: the reserve at the close, in
    order, and how long an offered seat waits for its answer. `GameSetup.reserve`; None = no sign-up."""

    names: tuple[str, ...]
    offer_hours: timedelta = timedelta(hours=6)
    where: Where = Where.GAME  # the sign-up's thread, where reserve words go on counting (S-1, S-4)


@dataclass(frozen=True)
class Offer:
    """S-4: a seat offered to `to` by the GM command `command` until `until`; `passed`, those it was offered to
    before (who said no, let it lapse, or whose inbox was full)."""

    seat: str
    old: str  # the account holding the seat when it was offered
    to: str
    until: datetime
    command: str
    passed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reserve:
    """S-4 during the game: the reserve words and leave words posted in the game thread, in order, each as
    ("reserve" | "leave", account), and the open offers (one per seat). A value: a Game holds it as it is."""

    moves: tuple[tuple[str, str], ...] = ()
    offers: tuple[Offer, ...] = ()


@dataclass
class SignupDraft:
    setup: SignupSetup
    t: Texts
    closes: datetime
    state: str = "waiting"
    extended: bool = False
    ended_at: datetime | None = None
    listed_at: datetime | None = None  # the last list post
    shown: Standing | None = None  # what it showed (the opening post: nobody)
    final: Standing | None = None  # the list at the close
    messages: dict[str, Message] = field(default_factory=dict)
    told: dict[str, str] = field(default_factory=dict)  # GM command id -> "done" | "refused"
    log: list[str] = field(default_factory=list)
    commands: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Standing:
    """The list at a moment: `players` the first N places, `reserve` the later ones then the reserve words."""

    players: tuple[str, ...]
    reserve: tuple[str, ...]
    refused: tuple[str, ...]  # accounts in `signup.refused` that asked to join (the list post says so)
    seats: int
    held: bool = False  # a change not yet posted (S-2's `list_every`)

    @property
    def left(self) -> int:
        return max(0, self.seats - len(self.players))

    def same_list(self, other: Standing) -> bool:
        return (self.players, self.reserve, self.refused) == (other.players, other.reserve, other.refused)

    def line(self) -> str:
        return f"players {', '.join(self.players) or '-'}; reserve {', '.join(self.reserve) or '-'}"
