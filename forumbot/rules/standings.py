"""S-6: the season's standings, a pure function of its finished games' outcomes.

Games are taken in the order they ended (then by name, for two that ended at the same instant). Everyone starts
at 1500; after a game each player who held a seat at its end moves by K × (S − E), K = 20: S = 1 for the winning
side, 0 for a losing one, 0.5 for each side in a draw, and 0 for a player modkilled or autokilled for a missed vote
or too few posts (`forfeited`) whatever his side did; E = 1 / (1 + 10^((R_other − R_side) / 400)), with R_side and
R_other the mean ratings, at the game's start, of his side and of all the other players (the Maniac is a side of
his own). "At the game's start" is the rating after every game that ended by then: in a season, where one game
follows another, simply the rating before this game.

The arithmetic is decimal (28 significant digits, the `decimal` module's own, the same on every machine), the
ratings kept unrounded from game to game; a rating is shown rounded half up to one decimal, and the order (ties
by nickname) goes by the rating shown, so two rows that show the same rating stand by name.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import datetime
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext

from forumbot.model import Team

START = Decimal(1500)
K = Decimal(20)
SHOWN = Decimal("0.1")  # a rating is shown to one decimal
SIDES = (Team.TOWN, Team.MAFIA, Team.MANIAC)
DRAW = "draw"


@dataclass(frozen=True)
class SeatOutcome:
    """One seat at a finished game's end: the account that held it then (a replaced player held none)."""

    nick: str
    side: Team
    survived: bool
    modkilled: bool = False
    forfeited: bool = False  # S = 0 whatever his side did: a modkill, or an autokill for a missed vote/too few posts


@dataclass(frozen=True)
class GameOutcome:
    """A finished game as S-6 reads it: `winner` is "town", "mafia", "maniac" or "draw"."""

    name: str
    started: datetime  # when the game started (its Setup)
    ended: datetime
    winner: str
    seats: tuple[SeatOutcome, ...]


@dataclass(frozen=True)
class SideRecord:
    games: int = 0
    wins: int = 0

    @property
    def share(self) -> Decimal | None:
        """Wins per game on this side, rounded half up to two decimals; None when he never played it."""
        if not self.games:
            return None
        return (Decimal(self.wins) / Decimal(self.games)).quantize(Decimal("0.01"), ROUND_HALF_UP)


@dataclass(frozen=True)
class Row:
    place: int  # 1 + how many show a higher rating: equal ratings share a place
    nick: str
    rating: Decimal  # as shown: rounded half up to one decimal
    games: int
    wins: int  # games with S = 1 (a player who forfeited won nothing, even when his side won)
    sides: dict[Team, SideRecord]
    survived: int
    modkills: int
    played: tuple[str, ...]  # his games' names, in the order they ended


@dataclass
class _Tally:
    nick: str
    rating: Decimal = START
    sides: dict[Team, SideRecord] = field(default_factory=lambda: {side: SideRecord() for side in SIDES})
    survived: int = 0
    modkills: int = 0
    played: list[str] = field(default_factory=list)


def score(seat: SeatOutcome, winner: str) -> Decimal:
    """S: 1 for the winning side, 0 for a losing one, 0.5 for each in a draw; 0 for a forfeit."""
    if seat.forfeited:
        return Decimal(0)
    if winner == DRAW:
        return Decimal("0.5")
    return Decimal(1) if winner == str(seat.side) else Decimal(0)


def expected(side_mean: Decimal, other_mean: Decimal) -> Decimal:
    """E = 1 / (1 + 10^((R_other − R_side) / 400))."""
    return 1 / (1 + Decimal(10) ** ((other_mean - side_mean) / 400))


def identity(nick: str) -> str:
    """Two nicknames are one player when they differ only in case (C-3: the forum's account names)."""
    return nick.casefold()


def standings(games: list[GameOutcome]) -> list[Row]:
    """The table: every player rated in at least one game, best first, ties in the shown rating by nickname."""
    with localcontext(Context(prec=28, rounding=ROUND_HALF_UP)):
        tallies = _rate(sorted(games, key=lambda g: (g.ended, g.name)))
        shown = {key: t.rating.quantize(SHOWN, ROUND_HALF_UP) for key, t in tallies.items()}
    order = sorted(tallies, key=lambda key: (-shown[key], key, tallies[key].nick))
    rows = []
    for key in order:
        t = tallies[key]
        place = 1 + sum(1 for other in order if shown[other] > shown[key])
        rows.append(Row(place, t.nick, shown[key], sum(r.games for r in t.sides.values()),
                        sum(r.wins for r in t.sides.values()), dict(t.sides), t.survived, t.modkills,
                        tuple(t.played)))
    return rows


def _rate(games: list[GameOutcome]) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = {}
    ends: list[datetime] = []  # each game's end, in order
    before: list[dict[str, Decimal]] = []  # the ratings just after each of them
    for game in games:
        known = before[bisect_right(ends, game.started) - 1] if ends and ends[0] <= game.started else {}
        at_start = {identity(s.nick): known.get(identity(s.nick), START) for s in game.seats}
        for seat in sorted(game.seats, key=lambda s: identity(s.nick)):
            key = identity(seat.nick)
            mine = [at_start[identity(s.nick)] for s in game.seats if s.side == seat.side]
            others = [at_start[identity(s.nick)] for s in game.seats if s.side != seat.side]
            e = expected(_mean(mine), _mean(others)) if others else Decimal("0.5")
            s = score(seat, game.winner)
            t = tallies.setdefault(key, _Tally(seat.nick))
            t.rating += K * (s - e)
            record = t.sides[seat.side]
            t.sides[seat.side] = SideRecord(record.games + 1, record.wins + (1 if s == 1 else 0))
            t.survived += seat.survived
            t.modkills += seat.modkilled
            t.played.append(game.name)
        ends.append(game.ended)
        before.append({key: t.rating for key, t in tallies.items()})
    return tallies


def _mean(values: list[Decimal]) -> Decimal:
    return sum(values, Decimal(0)) / len(values)
