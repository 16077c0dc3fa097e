"""The Free Hunt variant (RULES.md H-1..H-15): open roles, strict vote thread, Doctor, Maniac, the free hunt."""

from __future__ import annotations

import random
from collections import Counter
from typing import Mapping, Sequence

from forumbot.errors import SetupError
from forumbot.model import CastChoice, MoveKind, Role, RoleCounts, Target, Team
from forumbot.rules.base import DayOutcome, Kill, NightMoves, NightReport, Seat, settle, team_counts, with_no_shows
from forumbot.rules.house import cast_roles, defaults, expected_cast

# H-1, as data: for each player count, the allowed (mafia, maniac) casts, the default first.
CASTS: dict[int, tuple[tuple[int, bool], ...]] = {
    12: ((3, True), (3, False)),
    13: ((3, True), (3, False)),
    14: ((3, True), (4, False)),
    15: ((3, True), (4, False)),
    16: ((4, True), (5, False)),
    17: ((4, True), (5, False)),
}
ABILITIES: dict[Role, frozenset[MoveKind]] = {
    Role.CIVILIAN: frozenset({MoveKind.HUNT}),
    Role.DOCTOR: frozenset({MoveKind.HEAL, MoveKind.HUNT}),
    Role.MAFIA: frozenset({MoveKind.SHOT}),
    Role.MANIAC: frozenset({MoveKind.SHOT}),
}
HUNTING_CLOSED_AT_TOWN = 2  # H-12
DEFAULT_AGITATION_LIMIT = 1  # H-4: the second agitation autokills


def _cast_roles(mafia: int, maniac: bool, n: int) -> list[Role]:
    roles = [Role.MAFIA] * mafia + [Role.DOCTOR] + ([Role.MANIAC] if maniac else [])
    return roles + [Role.CIVILIAN] * (n - len(roles))


def _allowed(casts: tuple[tuple[int, bool], ...]) -> CastChoice:
    """H-1's rows for a player count, as a setup error names them: the mafia, the Doctor and the Maniac of each."""
    return CastChoice(tuple(
        RoleCounts(((Role.MAFIA, mafia), (Role.DOCTOR, 1)) + (((Role.MANIAC, 1),) if maniac else ()))
        for mafia, maniac in casts))


class FreeHunt:
    name = "free_hunt"
    roles = frozenset(ABILITIES)
    vote_changes: int | None = None  # H-3: the latest accepted vote counts
    has_runoff = False
    open_roles = True  # H-2
    tactical_modkill = False  # M-12 is Moscow only
    vote_grammar = "strict"  # H-3, H-4
    modkill_cancels_vote = False  # H-6
    no_show_autokill = True  # H-5
    team_shot = True  # H-7
    misfire_limit: int | None = None
    house = defaults("free_hunt")  # section R; `rules.house.configure` gives a game's own

    def allowed(self, n_players: int) -> tuple[tuple[int, bool], ...]:
        if n_players not in CASTS:
            raise SetupError.told("setup.rule.fh_players", "Free Hunt is played by {low} to {high} players, got {n} (H-1)",
                                  low=min(CASTS), high=max(CASTS), n=n_players)
        return CASTS[n_players]

    def cast(self, n_players: int, options: Mapping[str, object]) -> list[Role]:
        if self.house.cast is not None:
            return cast_roles(self.name, self.house.cast, n_players)
        allowed = self.allowed(n_players)
        # H-1: the options pick the cast of the row they name; one option alone picks the first that fits it.
        mafia, maniac = options.get("mafia"), options.get("maniac")
        if "mafia" in options and (isinstance(mafia, bool) or not isinstance(mafia, int)):
            raise SetupError.told("setup.rule.fh_mafia", "option mafia must be a whole number, not {got!r} (H-1)", got=mafia)
        if "maniac" in options and not isinstance(maniac, bool):
            raise SetupError.told("setup.rule.fh_maniac", "option maniac must be true or false, not {got!r} (H-1)",
                                  got=maniac)
        fits = [
            c for c in allowed
            if ("mafia" not in options or c[0] == mafia) and ("maniac" not in options or c[1] == maniac)
        ]
        if not fits:
            # as the config writes them: maniac = false, not Python's False
            asked = ", ".join(f"{k} = {str(options[k]).lower() if isinstance(options[k], bool) else repr(options[k])}"
                              for k in ("mafia", "maniac") if k in options)
            raise SetupError.told("setup.rule.fh_allows_options",
                                  "Free Hunt with {n} players allows {allowed}; the options ask for {asked} (H-1)",
                                  n=n_players, allowed=_allowed(allowed), asked=asked)
        return _cast_roles(*fits[0], n_players)

    def check_cast(self, roles: Sequence[Role], options: Mapping[str, object]) -> None:
        if self.house.cast is not None:
            want, counts = expected_cast(self.name, self.house.cast, len(roles)), Counter(roles)
            if counts != want:
                raise SetupError.told("setup.rule.cast_asks", "option cast asks for {want}; got {got} (R-10)",
                                      want=RoleCounts.of(want), got=RoleCounts.of(counts))
            return
        allowed = self.allowed(len(roles))
        counts = Counter(roles)
        stray = set(counts) - set(ABILITIES)
        if stray:
            raise SetupError.told("setup.rule.fh_role", "Free Hunt has no role {role} (H-1)", role=min(stray))
        given = (counts[Role.MAFIA], counts[Role.MANIAC] == 1)
        if counts[Role.DOCTOR] != 1 or counts[Role.MANIAC] > 1 or given not in allowed:
            raise SetupError.told("setup.rule.fh_allows_given",
                                  "Free Hunt with {n} players allows {allowed}; given {given} (H-1)",
                                  n=len(roles), allowed=_allowed(allowed),
                                  given=RoleCounts(tuple((r, counts[r]) for r in (Role.MAFIA, Role.DOCTOR, Role.MANIAC))))

    def check_partial(self, roles: Sequence[Role], n_players: int, options: Mapping[str, object]) -> None:
        target = Counter(self.cast(n_players, options))
        counts = Counter(roles)
        for role, n in counts.items():
            if n > target[role]:
                raise SetupError.told("setup.rule.fh_role_count", "this Free Hunt cast has {most} {role}, {n} given (H-1)",
                                      most=target[role], role=role, n=n)

    def abilities(self, role: Role) -> frozenset[MoveKind]:
        return ABILITIES.get(role, frozenset())

    def hunting_open(self, seats: Sequence[Seat]) -> bool:
        """H-12: hunting closes once two or fewer town players are alive."""
        return team_counts(seats)[Team.TOWN] > HUNTING_CLOSED_AT_TOWN

    def day_outcome(self, votes: Mapping[str, Target], day: int, alive: Sequence[str],
                    no_show_waived: bool = False) -> DayOutcome:
        """H-6 (R-5..R-7), after autokills were applied by the engine (which then calls this only without them)."""
        votes = with_no_shows(votes, alive, "nothing" if no_show_waived else self.house.no_show)  # C-14
        outcome = settle(votes, alive, self.house.lynch, self.house.tie)
        if outcome is None and votes:  # every vote a pass word
            return DayOutcome(reason="all_no_lynch")
        return outcome if outcome is not None else DayOutcome(reason="no_votes")

    def night(self, seats: Mapping[str, Seat], moves: NightMoves, rng: random.Random, night: int) -> NightReport:
        """H-7..H-13, one step at a time: Hunt, then Doctor, then Mafia, then Maniac."""
        alive = {n for n, s in seats.items() if s.alive}
        deaths: list[Kill] = []
        log: list[str] = []

        def die(nick: str, cause: str) -> None:
            alive.discard(nick)
            deaths.append(Kill(nick, cause))

        # Hunt (H-10, H-11): one request drawn by lot among those whose hunter and target still stand.
        requests = sorted(
            (h, m) for h, m in moves.hunts.items() if h in alive and m.target in alive
        )
        hunters_with_request = {h for h, _ in requests}
        if requests:
            hunter, move = requests[rng.randrange(len(requests))]
            target = seats[move.target]  # type: ignore[index]
            guess = move.guess or Role.MAFIA
            right = (guess is Role.MAFIA and target.is_mafia) or (guess is Role.MANIAC and target.role is Role.MANIAC)
            log.append(f"hunt drawn among {len(requests)}: {hunter} -> {target.nick} ({guess}): {'right' if right else 'wrong'}")
            if right:
                die(move.target, "hunt")  # type: ignore[arg-type]  # the seat id: its nick may be a replacement's (C-9)
            else:
                die(hunter, "failed_hunt")

        # Doctor (H-9): a doctor whose hunt request was accepted cannot heal that night (H-10).
        healed: str | None = None
        for nick in sorted(alive):
            if seats[nick].role is Role.DOCTOR and nick not in hunters_with_request:
                heal = moves.get(nick, MoveKind.HEAL)
                if heal is not None and heal.target in alive:
                    healed = heal.target
        saved = False

        # Mafia (H-7): the latest shot from any mafia member; fired only while its executor lives.
        shot = moves.get("", MoveKind.SHOT)  # the engine files the team's shot under ""
        if shot is not None and shot.executor in alive and shot.target in alive:
            if shot.target == healed:
                saved = True
                log.append("mafia shot healed")
            else:
                die(shot.target, "mafia")

        # Maniac (H-8): shoots only if still alive at his step (H-13).
        for nick in sorted(alive):
            if seats[nick].role is Role.MANIAC:
                kill = moves.get(nick, MoveKind.SHOT)
                if kill is not None and kill.target in alive:
                    if kill.target == healed:
                        saved = True
                        log.append("maniac shot healed")
                    else:
                        die(kill.target, "maniac")
        return NightReport(deaths=tuple(deaths), healed_saved=saved, log=tuple(log))

    def winner(self, seats: Sequence[Seat]) -> str | None:
        """H-14, in its order (the mafia/maniac stalemate draw is counted by the engine)."""
        teams = team_counts(seats)
        total = sum(teams.values())
        if total == 0:
            return "draw"
        if teams[Team.MAFIA] == 0 and teams[Team.MANIAC] == 0:
            return "town"
        if teams[Team.MANIAC] and teams[Team.MAFIA] == 0 and total - teams[Team.MANIAC] <= 1:
            return "maniac"
        if 0 < total <= self.house.draw_at:  # R-8 (off by default)
            return "draw"
        if teams[Team.MANIAC] == 0 and teams[Team.MAFIA] >= teams[Team.TOWN]:
            return "mafia"
        return None

    def only_bad_left(self, seats: Sequence[Seat]) -> bool:
        teams = team_counts(seats)
        return teams[Team.TOWN] == 0 and teams[Team.MAFIA] > 0 and teams[Team.MANIAC] > 0
