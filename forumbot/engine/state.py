"""The game as a value (issue 19 item 1): `Game`, frozen, holds everything a game changes, the count schedule and
the clock included; `State`, the same fields as a draft one step writes to, is made from a Game by `thaw` and one
again by `freeze` (both copy what they must, never deeply: vote posts, day records, the reserve are values). The
fields are declared once, in `Fields`; each says how freeze and thaw copy it. A GM
`undo` (C-9) refolds from the Game saved before the command it undoes (`Game.overrides`), without it; each
resolution empties the undo stack (`settled`), so a Game grows linearly with one phase's GM commands only."""

from __future__ import annotations

from collections import Counter
from dataclasses import FrozenInstanceError, dataclass, field, fields, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any, Callable, Generic, Mapping, TypeVar

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
    the reason an undo is refused. `said`: the command as the GM wrote it, which a refused undo names (issue 28)."""

    before: "Game | None"
    index: int
    resolutions: int
    name: str
    posts: int = 0
    runoff_posts: int = 0
    aliases: int = 0
    rewrites: int = 0
    said: str = ""


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


# The field list is declared once (`Fields`); the draft (`State`) and the value (`Game`) differ only in the
# containers, a type parameter each: a Game's are read-only (mappingproxy, tuple, frozenset), a State's mutable.
Seats = TypeVar("Seats", dict[str, Seat], Mapping[str, SeatValue])
Names = TypeVar("Names", dict[str, str], Mapping[str, str])
Times = TypeVar("Times", dict[str, datetime], Mapping[str, datetime])
Posts = TypeVar("Posts", list[VotePost], tuple[VotePost, ...])
Tally = TypeVar("Tally", Counter[str], Mapping[str, int])
Ids = TypeVar("Ids", set[str], frozenset[str])
Records = TypeVar("Records", list[Any], tuple[Any, ...])
Overrides = TypeVar("Overrides", list[Override], tuple[Override, ...])
Inputs = TypeVar("Inputs", list[Input], tuple[Input, ...])
Edits = TypeVar("Edits", list[tuple[int, Input]], tuple[tuple[int, Input], ...])
Rewrites = TypeVar("Rewrites", list[Rewrite], tuple[Rewrite, ...])

# How `freeze` and `thaw` copy a field (its metadata's "copy"); a field without one is a value, shared as it is
MAP, TALLY, LIST, SET, SEATS, MOVES = "map", "tally", "list", "set", "seats", "moves"
_DRAFTS: dict[str, Callable[[], Any]] = {MAP: dict, TALLY: Counter, LIST: list, SET: set, MOVES: NightMoves}


def _copied(how: str) -> Any:  # Any: a field's default, whatever its type parameter
    return field(default_factory=_DRAFTS[how], metadata={"copy": how})


@dataclass(eq=False)
class Fields(Generic[Seats, Names, Times, Posts, Tally, Ids, Records, Overrides, Inputs, Edits, Rewrites]):
    """Everything a game changes, each field once: the order is the stored form's (engine/plain.py), so a new
    field goes last."""

    seats: Seats = field(metadata={"copy": SEATS})  # seat id -> seat, in config order
    accounts: Names = field(metadata={"copy": MAP})  # account nick -> seat id
    aliases: Names = field(metadata={"copy": MAP})  # alias -> seat id
    phase: Phase
    paused_at: datetime | None = None
    posts: Posts = _copied(LIST)
    runoff_posts: Posts = _copied(LIST)
    leaders: tuple[str, ...] = ()
    hang_all: bool = False
    day_modkill: bool = False  # M-11
    moves: NightMoves = _copied(MOVES)  # a Game's two maps read-only
    hunting_open: bool = True  # H-12, fixed when a night opens
    misfires: int = 0  # M-6
    agitations: Tally = _copied(TALLY)  # H-4, whole game
    doomed: Ids = _copied(SET)  # autokilled at this day's deadline (H-4 repeat)
    maniac_last: str | None = None  # H-8
    last_words: Times = _copied(MAP)  # seat -> deadline of an unused last word
    runoff_speakers: Ids = _copied(SET)
    don_nomination: str | None = None
    quiet_day: bool = False  # H-14 stalemate count
    winner: str | None = None
    ended_at: datetime | None = None
    resolutions: int = 0
    deaths_this_phase: int = 0
    # the count schedule (C-6): an undo restores it with the rest, as if the override was never given (C-9)
    next_count: datetime | None = None
    reminded: Ids = _copied(SET)
    last_count: str = ""
    count_signature: tuple[object, ...] = ()  # what the last count showed, to skip re-rendering an unchanged one
    history: Records = _copied(LIST)  # history.py's DayRecord per day and runoff (it imports us)
    clock: datetime | None = None  # the latest time the timeline reached
    overrides: Overrides = _copied(LIST)  # C-9's undo stack
    # every input handled, in order (an undo refolds them); a tip keeps None for those no undo reaches any more
    inputs: Inputs = _copied(LIST)
    edits: Edits = _copied(LIST)  # (len(inputs) when the edit came, the post)
    voids: Names = _copied(MAP)  # undo input id -> id of the GM command it undid (C-9)
    told: Names = _copied(MAP)  # GM command id -> how it turned out, as last told (C-9)
    rewrites: Rewrites = _copied(LIST)  # since the last resolution, for the undo stack's Games
    asked: Times = _copied(MAP)  # C-15: seat -> when its last `подсчёт` was answered
    thread_posts: Records = _copied(LIST)  # activity.py's GamePost per thread post (it imports us)
    activity_warned: Ids = _copied(SET)  # warned for too few posts, whole game
    reserve: Reserve = Reserve()  # S-4: the reserve words posted in the game and the open offers (a value)


class State(Fields[dict[str, Seat], dict[str, str], dict[str, datetime], list[VotePost], Counter[str], set[str],
                   list[Any], list[Override], list[Input], list[tuple[int, Input]], list[Rewrite]]):
    """The draft of a Game one step works on. Never kept between steps except by the fold that owns it."""


class Game(Fields[Mapping[str, SeatValue], Mapping[str, str], Mapping[str, datetime], tuple[VotePost, ...],
                  Mapping[str, int], frozenset[str], tuple[Any, ...], tuple[Override, ...], tuple[Input, ...],
                  tuple[tuple[int, Input], ...], tuple[Rewrite, ...]]):
    """Everything a game changes, as a value: equal Games are the same game."""

    def __setattr__(self, name: str, value: object) -> None:
        # frozen by hand: a frozen dataclass may not extend the draft's (non-frozen) field list; __init__ (as
        # `replace` calls it) sets each field once, nothing sets one again
        if name in self.__dict__ or name not in self.__dataclass_fields__:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

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
    return revised(g, inputs=(), edits=(), voids=empty, told=empty, asked=empty)


def revised(g: Game, **changes: Any) -> Game:
    """`dataclasses.replace` for a Game (mypy's replace does not see through the fields' type parameters)."""
    new: Game = object.__new__(Game)
    new.__dict__.update(g.__dict__, **changes)
    return new


def _plain(value: Any) -> Any:  # mappingproxy has no ==
    return dict(value) if isinstance(value, MappingProxyType) else value


def _moves(m: NightMoves, wrap: Callable[[dict[Any, Any]], Any] = MappingProxyType) -> NightMoves:
    return NightMoves(wrap(dict(m.by_player)), wrap(dict(m.hunts)))


_FREEZE: dict[str, Callable[[Any], Any]] = {
    MAP: lambda v: MappingProxyType(dict(v)), TALLY: lambda v: MappingProxyType(dict(v)), LIST: tuple, SET: frozenset,
    SEATS: lambda v: MappingProxyType({sid: SeatValue(x.nick, x.role, x.alive, x.died, x.confirmed)
                                       for sid, x in v.items()}),
    MOVES: _moves}
_THAW: dict[str, Callable[[Any], Any]] = {
    MAP: dict, TALLY: Counter, LIST: list, SET: set, MOVES: lambda v: _moves(v, dict),
    SEATS: lambda v: {sid: Seat(x.nick, x.role, x.alive, x.died, x.confirmed) for sid, x in v.items()}}
_COPIES = tuple((f.name, f.metadata.get("copy")) for f in fields(Fields))


def freeze(s: State) -> Game:
    """The draft as a value; the draft can go on being written to without changing it."""
    g: Game = object.__new__(Game)  # its fields set as __init__ sets them, without the checks of each assignment
    g.__dict__.update((name, _FREEZE[how](getattr(s, name)) if how else getattr(s, name)) for name, how in _COPIES)
    return g


def thaw(g: Game) -> State:
    """A draft of the Game: new containers and seats, shared vote posts (values)."""
    s: State = object.__new__(State)
    s.__dict__.update((name, _THAW[how](getattr(g, name)) if how else getattr(g, name)) for name, how in _COPIES)
    return s
