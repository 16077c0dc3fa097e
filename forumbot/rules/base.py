"""What every variant shares: seats, the variant interface, night and day outcomes as values."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Protocol, Sequence, runtime_checkable

if TYPE_CHECKING:
    from forumbot.rules.house import HouseRules

from forumbot.model import ROLE_TEAM, Death, Move, MoveKind, Role, Special, Target, Team


class RoleTeam:
    """The team a seat's role puts it on: for `Seat` and the engine's frozen `SeatValue` alike."""

    role: Role

    @property
    def team(self) -> Team:
        return ROLE_TEAM[self.role]

    @property
    def is_mafia(self) -> bool:
        return self.team is Team.MAFIA


@dataclass
class Seat(RoleTeam):
    """A place in the game. It keeps its role when a replacement account takes it over (GM `replace`)."""

    nick: str
    role: Role
    alive: bool = True
    died: Death | None = None
    confirmed: bool = False


@dataclass(frozen=True)
class Kill:
    """A death decided by a rule: who, and the cause label of DESIGN.md's JSON output."""

    nick: str
    cause: str


@dataclass(frozen=True)
class DayOutcome:
    """What a day's (or runoff's) vote decided."""

    deaths: tuple[Kill, ...] = ()
    runoff: tuple[str, ...] = ()  # leaders of a tie that reopens the day (Moscow)
    pardoned: tuple[str, ...] = ()  # named but spared (M-9 day-1 exception, M-10 pardon)
    reason: str = ""  # a code the texts explain: "vote", "all_no_lynch", "no_votes", "day1_single", "tie", ...


@dataclass(frozen=True)
class NightReport:
    """A night resolved: deaths in order, private results, and the public facts the texts announce."""

    deaths: tuple[Kill, ...] = ()
    checks: tuple[tuple[str, str, str], ...] = ()  # (checker, target, result word: town|mafia|<role>)
    misfire: bool = False
    healed_saved: bool = False  # never announced by name; kept for the log
    log: tuple[str, ...] = ()


@dataclass(frozen=True)
class NightMoves:
    """The moves in force when a night resolves: the latest valid one of each kind per player (C-5)."""

    by_player: dict[tuple[str, MoveKind], Move] = field(default_factory=dict)
    hunts: dict[str, Move] = field(default_factory=dict)  # hunter -> latest hunt request (H-10)

    def get(self, nick: str, kind: MoveKind) -> Move | None:
        return self.by_player.get((nick, kind))


@runtime_checkable
class Runoff(Protocol):
    """What a variant with a runoff (`Variant.has_runoff`, M-10) adds to the interface."""

    def runoff_is_hang_all(self, alive_count: int) -> bool: ...

    def runoff_outcome(self, votes: Mapping[str, Target], leaders: Sequence[str], hang_all: bool) -> DayOutcome: ...


class Variant(Protocol):
    """A rule variant: data (casts, abilities, vote grammar) plus the few functions that differ."""

    name: str
    roles: frozenset[Role]
    vote_changes: int | None  # how many times a valid vote may be replaced (M-8: 1); None: unlimited (H-3)
    has_runoff: bool
    open_roles: bool  # H-2: deaths reveal the role
    tactical_modkill: bool  # M-12
    vote_grammar: str  # which vote parser reads the vote thread: "moscow" (M-7) or "strict" (H-3, H-4)
    modkill_cancels_vote: bool  # M-11 (Free Hunt keeps the vote, H-6)
    no_show_autokill: bool  # H-5
    team_shot: bool  # H-7: the mafia fire one shot, named by any member, with an executor
    misfire_limit: int | None  # M-6: this many misfired nights in a row give the town the game
    house: "HouseRules"  # RULES.md section R; `rules.house.configure` sets a game's own (and the fields above)

    def check_partial(self, roles: Sequence[Role], n_players: int, options: Mapping[str, object]) -> None:
        """Raises SetupError when roles given for only some players cannot be part of an allowed cast."""
        ...

    def hunting_open(self, seats: Sequence[Seat]) -> bool:
        """Whether town players may hunt tonight (H-12); variants without a hunt may answer anything."""
        ...

    def only_bad_left(self, seats: Sequence[Seat]) -> bool:
        """Whether only mafia and a Maniac remain (H-14's stalemate count starts)."""
        ...

    def cast(self, n_players: int, options: Mapping[str, object]) -> list[Role]:
        """The roles to draw for n players; raises SetupError naming the problem."""
        ...

    def check_cast(self, roles: Sequence[Role], options: Mapping[str, object]) -> None:
        """Raises SetupError when roles given in full do not form an allowed cast."""
        ...

    def abilities(self, role: Role) -> frozenset[MoveKind]: ...

    def day_outcome(self, votes: Mapping[str, Target], day: int, alive: Sequence[str],
                    no_show_waived: bool = False) -> DayOutcome: ...

    def night(self, seats: Mapping[str, Seat], moves: NightMoves, rng: random.Random, night: int) -> NightReport: ...

    def winner(self, seats: Sequence[Seat]) -> str | None: ...


def team_counts(seats: Sequence[Seat]) -> Counter[Team]:
    return Counter(s.team for s in seats if s.alive)


def plurality(votes: Mapping[str, Target]) -> tuple[list[str], int]:
    """Leaders among named players (specials are never candidates) and their vote count."""
    tally = Counter(t for t in votes.values() if not isinstance(t, Special))
    if not tally:
        return [], 0
    top = max(tally.values())
    return sorted(n for n, c in tally.items() if c == top), top



def majority_of(alive: int) -> int:
    """R-5, R-12: the votes that are more than half of `alive` players."""
    return alive // 2 + 1


def with_no_shows(votes: Mapping[str, Target], alive: Sequence[str], no_show: str) -> dict[str, Target]:
    """R-7 "self_vote": a player without a counted vote counts as one vote against himself (he stays voter)."""
    out = dict(votes)
    if no_show == "self_vote":
        for sid in alive:
            out.setdefault(sid, sid)
    return out


def settle(votes: Mapping[str, Target], alive: Sequence[str], lynch: str, tie: str) -> DayOutcome | None:
    """R-5 and R-6 for a day with named votes: who leaves, a runoff, or None when no one was named.

    `votes` is in the order the final votes were posted (R-6 "first_reached" reads it)."""
    leaders, top = plurality(votes)
    if not leaders:
        return None
    if lynch == "majority" and top * 2 <= len(alive):
        return DayOutcome(pardoned=tuple(leaders), reason="no_majority")
    if len(leaders) == 1:
        return DayOutcome(deaths=(Kill(leaders[0], "vote"),), reason="vote")
    if tie == "runoff":
        return DayOutcome(runoff=tuple(leaders), reason="tie")
    if tie == "all":
        return DayOutcome(deaths=tuple(Kill(n, "vote") for n in leaders), reason="tie_all")
    if tie == "first_reached":
        running: Counter[str] = Counter()
        for target in votes.values():
            if not isinstance(target, Special):
                running[target] += 1
                if running[target] == top:
                    return DayOutcome(deaths=(Kill(target, "vote"),), reason="tie_first")
    return DayOutcome(pardoned=tuple(leaders), reason="tie")
