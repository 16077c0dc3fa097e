"""The game as a value (issue 19 item 1): `Game`, frozen, holds everything a game changes, the count schedule and
the clock included; `State`, the same fields as a draft one step writes to, is made from a Game by `thaw` and one
again by `freeze` (both copy what they must, never deeply: vote posts, day records, the reserve are values). A GM
`undo` (C-9) refolds from the Game saved before the command it undoes (`Game.overrides`), without it; each
resolution empties the undo stack (`settled`), so a Game grows linearly with one phase's GM commands only."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any, Mapping

from forumbot.engine.signup_values import Reserve
from forumbot.model import Death, Input, Role
from forumbot.rules import NightMoves, RoleTeam, Seat
from forumbot.rules.ballots import Majority, VotePost

TEAM_SHOT = ""  # Free Hunt files the mafia's one shot under this pseudo-seat (H-7)
LAST_WORD_CAUSES = frozenset({"vote", "runoff", "mafia", "maniac", "hunt", "failed_hunt"})  # C-8


@dataclass(frozen=True)
class Phase:
    kind: str  # setup | day | runoff | night | ended
    number: int
    opens: datetime
    deadline: datetime
    majority: Majority | None = None  # the majority that moved this day's deadline

    @property
    def label(self) -> str:
        return self.kind if self.kind in ("setup", "ended") else f"{self.kind} {self.number}"

    @property
    def death_label(self) -> str:
        """Deaths in a runoff belong to that day (M-10)."""
        return f"day {self.number}" if self.kind == "runoff" else self.label


@dataclass(frozen=True)
class SeatValue(RoleTeam):
    """A seat in a Game: `Seat`'s fields, frozen (the draft's seats are `forumbot.rules.Seat`, read the same way)."""

    nick: str
    role: Role
    alive: bool = True
    died: Death | None = None
    confirmed: bool = False


@dataclass(frozen=True)
class Override:
    """A GM command that changed the game, for its undo (C-9): the Game just before it, where it is among the inputs
    handled, the resolutions there were after it, and its kind. `before` leaves out the vote posts and aliases: those
    were the first `posts`, `runoff_posts` and `aliases` of the game's own, which only grow within a phase but for
    the in-place changes `Game.rewrites` records from the `rewrites`-th on (a whole copy per command made the stack,
    and each Game holding it, grow with the square of the commands). `before` is None for an override that can never
    be undone (an `end-phase`, or one from before the last resolution): only its kind and resolutions are kept, for
    the reason an undo is refused."""

    before: "Game | None"
    index: int
    resolutions: int
    name: str
    posts: int = 0
    runoff_posts: int = 0
    aliases: int = 0
    rewrites: int = 0


def settled(overrides: list[Override]) -> list[Override]:
    """The undo stack after a resolution: none of it can be undone (C-9); the last, its Game dropped, says why."""
    return [replace(overrides[-1], before=None)] if overrides else []


@dataclass(frozen=True)
class Rewrite:
    """A vote post or an alias changed in place since the last resolution (C-11's edit, an alias given again), as
    it was: an undo turns the game's own posts and aliases back to an override's."""

    field: str  # "posts" | "runoff_posts" | "aliases"
    key: int | str  # the post's index in that list, or the alias
    old: Any  # the VotePost, or the seat id the alias named


@dataclass
class State:
    """The draft of a Game one step works on. Never kept between steps except by the fold that owns it."""

    seats: dict[str, Seat]  # seat id -> seat, in config order
    accounts: dict[str, str]  # account nick -> seat id
    aliases: dict[str, str]  # alias -> seat id
    phase: Phase
    paused_at: datetime | None = None
    posts: list[VotePost] = field(default_factory=list)
    runoff_posts: list[VotePost] = field(default_factory=list)
    leaders: tuple[str, ...] = ()
    hang_all: bool = False
    day_modkill: bool = False  # M-11
    moves: NightMoves = field(default_factory=NightMoves)
    hunting_open: bool = True  # H-12, fixed when a night opens
    misfires: int = 0  # M-6
    agitations: Counter[str] = field(default_factory=Counter)  # H-4, whole game
    doomed: set[str] = field(default_factory=set)  # autokilled at this day's deadline (H-4 repeat)
    maniac_last: str | None = None  # H-8
    last_words: dict[str, datetime] = field(default_factory=dict)  # seat -> deadline of an unused last word
    runoff_speakers: set[str] = field(default_factory=set)
    don_nomination: str | None = None
    quiet_day: bool = False  # H-14 stalemate count
    winner: str | None = None
    ended_at: datetime | None = None
    resolutions: int = 0
    deaths_this_phase: int = 0
    # the count schedule (C-6): an undo restores it with the rest, as if the override was never given (C-9)
    next_count: datetime | None = None
    reminded: set[str] = field(default_factory=set)
    last_count: str = ""
    count_signature: tuple[object, ...] = ()  # what the last count showed, to skip re-rendering an unchanged one
    history: list[Any] = field(default_factory=list)  # history.py's DayRecord per day and runoff (it imports us)
    clock: datetime | None = None  # the latest time the timeline reached
    overrides: list[Override] = field(default_factory=list)  # C-9's undo stack
    # every input handled, in order (an undo refolds them); a tip keeps None for those no undo reaches any more
    inputs: list[Input] = field(default_factory=list)
    edits: list[tuple[int, Input]] = field(default_factory=list)  # (len(inputs) when the edit came, the post)
    voids: dict[str, str] = field(default_factory=dict)  # undo input id -> id of the GM command it undid (C-9)
    told: dict[str, str] = field(default_factory=dict)  # GM command id -> how it turned out, as last told (C-9)
    rewrites: list[Rewrite] = field(default_factory=list)  # since the last resolution, for the undo stack's Games
    asked: dict[str, datetime] = field(default_factory=dict)  # C-15: seat -> when its last `подсчёт` was answered
    thread_posts: list[Any] = field(default_factory=list)  # activity.py's GamePost per thread post (it imports us)
    activity_warned: set[str] = field(default_factory=set)  # warned for too few posts, whole game
    reserve: Reserve = Reserve()  # S-4: the reserve words posted in the game and the open offers (a value)


@dataclass(frozen=True)
class Game:
    """Everything a game changes, as a value: equal Games are the same game. Same fields as `State`."""

    seats: Mapping[str, SeatValue]
    accounts: Mapping[str, str]
    aliases: Mapping[str, str]
    phase: Phase
    paused_at: datetime | None
    posts: tuple[VotePost, ...]
    runoff_posts: tuple[VotePost, ...]
    leaders: tuple[str, ...]
    hang_all: bool
    day_modkill: bool
    moves: NightMoves  # its two maps read-only
    hunting_open: bool
    misfires: int
    agitations: Mapping[str, int]
    doomed: frozenset[str]
    maniac_last: str | None
    last_words: Mapping[str, datetime]
    runoff_speakers: frozenset[str]
    don_nomination: str | None
    quiet_day: bool
    winner: str | None
    ended_at: datetime | None
    resolutions: int
    deaths_this_phase: int
    next_count: datetime | None
    reminded: frozenset[str]
    last_count: str
    count_signature: tuple[object, ...]
    history: tuple[Any, ...]  # DayRecord, as State.history
    clock: datetime | None
    overrides: tuple[Override, ...]
    inputs: tuple[Input, ...]
    edits: tuple[tuple[int, Input], ...]
    voids: Mapping[str, str]
    told: Mapping[str, str]
    rewrites: tuple[Rewrite, ...]
    asked: Mapping[str, datetime]
    thread_posts: tuple[Any, ...]  # GamePost, as State.thread_posts
    activity_warned: frozenset[str]
    reserve: Reserve

    def __eq__(self, other: object) -> bool:  # compares what the maps map (_plain)
        if not isinstance(other, Game):
            return NotImplemented
        return all(_plain(getattr(self, f.name)) == _plain(getattr(other, f.name)) for f in fields(self))
    __hash__ = None  # type: ignore[assignment]


def rewrite(s: State, which: str, key: int | str, new: Any) -> None:
    """A vote post (by its index in `which`) or an alias changed in place, what it was kept (`Rewrite`). An alias
    given again is set in a new dict: otherwise aliases are only added to (work.py's matcher cache counts on it)."""
    target = getattr(s, which)
    if which != "aliases" or key in target:
        s.rewrites.append(Rewrite(which, key, target[key]))
        if which == "aliases":
            s.aliases = target = dict(target)
    target[key] = new


def played(g: Game) -> Game:
    """The game as played, not how the fold got there (inputs, voids, verdicts, C-15's answers): equal after an undo."""
    empty: Mapping[str, Any] = MappingProxyType({})
    return replace(g, inputs=(), edits=(), voids=empty, told=empty, asked=empty)


def _plain(value: Any) -> Any:  # mappingproxy has no ==
    return dict(value) if isinstance(value, MappingProxyType) else value


def _moves(m: NightMoves, wrap=MappingProxyType) -> NightMoves:  # type: ignore[no-untyped-def]
    return NightMoves(wrap(dict(m.by_player)), wrap(dict(m.hunts)))


def freeze(s: State) -> Game:
    """The draft as a value; the draft can go on being written to without changing it."""
    proxy = MappingProxyType
    return Game(
        seats=proxy({sid: SeatValue(x.nick, x.role, x.alive, x.died, x.confirmed) for sid, x in s.seats.items()}),
        accounts=proxy(dict(s.accounts)),
        aliases=proxy(dict(s.aliases)), phase=s.phase, paused_at=s.paused_at, posts=tuple(s.posts),
        runoff_posts=tuple(s.runoff_posts), leaders=tuple(s.leaders), hang_all=s.hang_all,
        day_modkill=s.day_modkill, moves=_moves(s.moves), hunting_open=s.hunting_open, misfires=s.misfires,
        agitations=proxy(dict(s.agitations)), doomed=frozenset(s.doomed), maniac_last=s.maniac_last,
        last_words=proxy(dict(s.last_words)), runoff_speakers=frozenset(s.runoff_speakers),
        don_nomination=s.don_nomination, quiet_day=s.quiet_day, winner=s.winner, ended_at=s.ended_at,
        resolutions=s.resolutions, deaths_this_phase=s.deaths_this_phase, next_count=s.next_count,
        reminded=frozenset(s.reminded), last_count=s.last_count, count_signature=s.count_signature,
        history=tuple(s.history), clock=s.clock, overrides=tuple(s.overrides), inputs=tuple(s.inputs),
        edits=tuple(s.edits), voids=proxy(dict(s.voids)), told=proxy(dict(s.told)), rewrites=tuple(s.rewrites),
        asked=proxy(dict(s.asked)), thread_posts=tuple(s.thread_posts), activity_warned=frozenset(s.activity_warned),
        reserve=s.reserve)


def thaw(g: Game) -> State:
    """A draft of the Game: new containers and seats, shared vote posts (values)."""
    return State(
        seats={sid: Seat(x.nick, x.role, x.alive, x.died, x.confirmed) for sid, x in g.seats.items()},
        accounts=dict(g.accounts),
        aliases=dict(g.aliases), phase=g.phase, paused_at=g.paused_at, posts=list(g.posts),
        runoff_posts=list(g.runoff_posts), leaders=g.leaders, hang_all=g.hang_all, day_modkill=g.day_modkill,
        moves=_moves(g.moves, dict), hunting_open=g.hunting_open, misfires=g.misfires, agitations=Counter(g.agitations),
        doomed=set(g.doomed), maniac_last=g.maniac_last, last_words=dict(g.last_words),
        runoff_speakers=set(g.runoff_speakers), don_nomination=g.don_nomination, quiet_day=g.quiet_day,
        winner=g.winner, ended_at=g.ended_at, resolutions=g.resolutions, deaths_this_phase=g.deaths_this_phase,
        next_count=g.next_count, reminded=set(g.reminded), last_count=g.last_count,
        count_signature=g.count_signature, history=list(g.history), clock=g.clock, overrides=list(g.overrides),
        inputs=list(g.inputs), edits=list(g.edits), voids=dict(g.voids), told=dict(g.told),
        rewrites=list(g.rewrites), asked=dict(g.asked), thread_posts=list(g.thread_posts),
        activity_warned=set(g.activity_warned), reserve=g.reserve)
