"""The Moscow variant (RULES.md M-1..M-14): closed roles, Sheriff and Don checks, unanimous mafia shot, runoffs."""

from __future__ import annotations

import random
from collections import Counter
from typing import Mapping, Sequence

from forumbot.errors import SetupError
from forumbot.model import MoveKind, Role, RoleCounts, Special, Target, Team
from forumbot.rules.base import DayOutcome, Kill, NightMoves, NightReport, Seat, plurality, settle, team_counts, with_no_shows
from forumbot.rules.house import cast_roles, defaults, expected_cast

PLAYERS = 10
# M-1: 6 Civilians, 1 Sheriff; 2 Mafiosi and 1 Don. When roles are drawn the mafia choose their Don, so the
# draw deals three plain mafia and the Don is settled when Day 1 opens.
CAST_GIVEN = Counter({Role.CIVILIAN: 6, Role.SHERIFF: 1, Role.MAFIA: 2, Role.DON: 1})
ABILITIES: dict[Role, frozenset[MoveKind]] = {
    Role.CIVILIAN: frozenset(),
    Role.SHERIFF: frozenset({MoveKind.CHECK}),
    Role.MAFIA: frozenset({MoveKind.SHOT}),
    Role.DON: frozenset({MoveKind.SHOT, MoveKind.CHECK}),
}
MISFIRES_TO_LOSE = 3  # M-6


class Moscow:
    name = "moscow"
    roles = frozenset(ABILITIES)
    vote_changes: int | None = 1  # M-8
    has_runoff = True
    open_roles = False  # M-2
    tactical_modkill = True  # M-12
    vote_grammar = "moscow"  # M-7
    modkill_cancels_vote = True  # M-11
    no_show_autokill = False
    team_shot = False  # M-5: every alive mafia member shoots
    misfire_limit: int | None = MISFIRES_TO_LOSE  # M-6
    house = defaults("moscow")  # section R; `rules.house.configure` gives a game's own

    def cast(self, n_players: int, options: Mapping[str, object]) -> list[Role]:
        if self.house.cast is not None:
            return cast_roles(self.name, self.house.cast, n_players)
        if n_players != PLAYERS:
            raise SetupError.told("setup.rule.moscow_players", "the Moscow variant needs exactly {exactly} players, got {n} (M-1)",
                                  exactly=PLAYERS, n=n_players)
        return [Role.CIVILIAN] * 6 + [Role.SHERIFF] + [Role.MAFIA] * 3

    def check_cast(self, roles: Sequence[Role], options: Mapping[str, object]) -> None:
        counts = Counter(roles)
        if self.house.cast is not None:
            want = expected_cast(self.name, self.house.cast, len(roles))
            if counts != want:
                raise SetupError.told("setup.rule.cast_asks", "option cast asks for {want}; got {got} (R-10)",
                                      want=RoleCounts.of(want), got=RoleCounts.of(counts))
            return
        if counts != CAST_GIVEN:
            raise SetupError.told("setup.rule.moscow_cast", "the Moscow cast is {want} (M-1); got {got}",
                                  want=RoleCounts.of(CAST_GIVEN), got=RoleCounts.of(counts))

    def check_partial(self, roles: Sequence[Role], n_players: int, options: Mapping[str, object]) -> None:
        """Roles given for only some players must fit in the cast (the Don counts as one of the three mafia)."""
        counts = Counter(roles)
        if self.house.cast is not None:
            want = expected_cast(self.name, self.house.cast, n_players)
            for role, n in counts.items():
                if n > want[role] + (want[Role.DON] if role is Role.MAFIA else 0):
                    raise SetupError.told("setup.rule.cast_role_count", "option cast has {most} {role}, {n} given (R-10)",
                                          most=want[role], role=role, n=n)
            if counts[Role.MAFIA] + counts[Role.DON] > want[Role.MAFIA] + want[Role.DON]:
                raise SetupError.told("setup.rule.cast_fewer_mafia", "option cast has fewer mafia members than given (R-10)")
            return
        limits = {Role.CIVILIAN: 6, Role.SHERIFF: 1, Role.DON: 1}
        for role, limit in limits.items():
            if counts[role] > limit:
                raise SetupError.told("setup.rule.moscow_role_count", "the Moscow cast has {most} {role}, {n} given (M-1)",
                                      most=limit, role=role, n=counts[role])
        if counts[Role.MAFIA] + counts[Role.DON] > 3:
            raise SetupError.told("setup.rule.moscow_mafia",
                                  "the Moscow cast has 3 mafia members (2 mafia and the don), more given (M-1)")

    def abilities(self, role: Role) -> frozenset[MoveKind]:
        return ABILITIES.get(role, frozenset())

    def hunting_open(self, seats: Sequence[Seat]) -> bool:
        return False  # no hunt in this variant

    def only_bad_left(self, seats: Sequence[Seat]) -> bool:
        return False  # no Maniac: M-13 ends the game before only mafia remain

    def day_outcome(self, votes: Mapping[str, Target], day: int, alive: Sequence[str],
                    no_show_waived: bool = False) -> DayOutcome:
        """M-9 and M-10's first step (R-5..R-7). `votes` maps each voter to his final target, in post order."""
        votes = with_no_shows(votes, alive, "nothing" if no_show_waived else self.house.no_show)  # C-14
        cast = list(votes.values())
        if not cast:
            return DayOutcome(reason="no_votes")
        if all(t is Special.NO_LYNCH for t in cast):
            return DayOutcome(reason="all_no_lynch")
        named = [t for t in cast if t is not Special.NO_LYNCH]
        if day == 1 and len(named) == 1:
            # M-9 day-1 exception: a lone vote against a field of "ннв" pardons.
            return DayOutcome(pardoned=(named[0],), reason="day1_single")
        outcome = settle(votes, alive, self.house.lynch, self.house.tie)
        assert outcome is not None  # some vote names a player here
        return outcome

    def runoff_is_hang_all(self, alive_count: int) -> bool:
        """M-10: with an even number alive the runoff is hang-all vs pardon-all; odd, among the leaders."""
        return alive_count % 2 == 0

    def runoff_outcome(self, votes: Mapping[str, Target], leaders: Sequence[str], hang_all: bool) -> DayOutcome:
        if hang_all:
            cast = list(votes.values())
            hang = sum(1 for t in cast if t is Special.HANG_ALL)
            if cast and hang * 2 > len(cast):
                return DayOutcome(deaths=tuple(Kill(n, "runoff") for n in leaders), reason="hang_all")
            return DayOutcome(pardoned=tuple(leaders), reason="pardon_all")
        among = {v: t for v, t in votes.items() if t in leaders}
        top, _ = plurality(among)
        if len(top) == 1:
            return DayOutcome(deaths=(Kill(top[0], "runoff"),), reason="runoff")
        return DayOutcome(pardoned=tuple(leaders), reason="second_tie")

    def night(self, seats: Mapping[str, Seat], moves: NightMoves, rng: random.Random, night: int) -> NightReport:
        """M-3..M-5. Every move here is in force: its sender was alive when the night resolved."""
        # Moves are filed by seat id (the key), never by the nick a replacement plays it under now (C-9).
        alive_mafia = [sid for sid, s in seats.items() if s.alive and s.is_mafia]
        shots = [moves.get(sid, MoveKind.SHOT) for sid in alive_mafia]
        targets = {m.target for m in shots if m is not None}
        deaths: list[Kill] = []
        misfire = True
        if alive_mafia and None not in shots and len(targets) == 1:
            (target,) = targets
            if target is not None and seats[target].alive:
                deaths.append(Kill(target, "mafia"))
                misfire = False
        dead_now = {k.nick for k in deaths}
        checks = []
        for checker in sorted(seats):
            seat = seats[checker]
            move = moves.get(checker, MoveKind.CHECK)
            if move is None or not seat.alive or checker in dead_now or move.target is None:
                continue  # M-4: a checker killed that night gets no result
            checked = seats[move.target]
            if seat.role is Role.SHERIFF:
                checks.append((checker, checked.nick, "mafia" if checked.is_mafia else "town"))
            elif seat.role is Role.DON:
                checks.append((checker, checked.nick, str(checked.role)))
        return NightReport(deaths=tuple(deaths), checks=tuple(checks), misfire=misfire)

    def winner(self, seats: Sequence[Seat]) -> str | None:
        """M-13 (M-6 is checked by the engine, which keeps the misfire streak)."""
        teams = team_counts(seats)
        if teams[Team.MAFIA] == 0:
            return "town"
        if sum(teams.values()) <= self.house.draw_at:  # M-13, R-8
            return "draw"
        if teams[Team.MAFIA] >= teams[Team.TOWN]:
            return "mafia"
        return None
