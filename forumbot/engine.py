"""The engine behind `game.run`: inputs and deadlines, in time order, through parse and rules into messages.

State is held in plain dataclasses so that a GM `undo` can restore a snapshot and re-apply what came after.
Seats are identified by their original nickname (the seat id); `Seat.nick` is the account playing it now.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Sequence

from forumbot import parse
from forumbot.errors import SetupError
from forumbot.game import GameResult, GameRun, PlayerResult
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.model import (
    Agitation, Alias, Death, EndPhase, Extend, GameSetup, Input, Message, Modkill, Move, MoveKind, Pause,
    RejectedLine, Rejection, Replace, Resume, Role, Say, SetVote, Special, Status, Target, Undo, Vote, Where,
)
from forumbot.rules import NightMoves, Seat, get_variant
from forumbot.rules.base import DayOutcome, Kill
from forumbot.rules.ballots import Ballots, VotePost, count_ballots
from forumbot.texts import Texts, get_texts

TEAM_SHOT = ""  # Free Hunt files the mafia's one shot under this pseudo-seat (H-7)
LAST_WORD_CAUSES = frozenset({"vote", "runoff", "mafia", "maniac", "hunt", "failed_hunt"})  # C-8


@dataclass
class Phase:
    kind: str  # setup | day | runoff | night | ended
    number: int
    opens: datetime
    deadline: datetime

    @property
    def label(self) -> str:
        if self.kind in ("setup", "ended"):
            return self.kind
        return f"{self.kind} {self.number}"

    @property
    def death_label(self) -> str:
        """Deaths in a runoff belong to that day (M-10)."""
        return f"day {self.number}" if self.kind == "runoff" else self.label


@dataclass
class State:
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
    agitations: Counter = field(default_factory=Counter)  # H-4, whole game
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


class Engine:
    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.variant = get_variant(setup.variant)
        escape = escape_markdown if setup.markup == "markdown" else escape_bbcode
        self.t: Texts = get_texts(setup.language, escape, setup.schedule.timezone)
        self.options = dict(setup.options)
        self.edited_votes = str(self.options.get("edited_votes", "void"))
        if self.edited_votes not in ("void", "first_seen"):
            raise SetupError(f"option edited_votes must be 'void' or 'first_seen', not {self.edited_votes!r} (C-11)")
        self.count_every = timedelta(minutes=float(self.options.get("vote_count_minutes", 60)))
        self.remind_before = timedelta(hours=float(self.options.get("remind_hours", 3)))
        self.markers = tuple(self.options.get("agitation_markers", ())) + tuple(parse.DEFAULT_AGITATION_MARKERS)
        self.roles_given = all(p.role is not None for p in setup.players)
        seats = draw_seats(setup)
        self.gms = set(setup.gms)
        clash = self.gms & set(seats)
        if clash:
            raise SetupError(f"{', '.join(sorted(clash))} cannot be both a GM and a player")
        sched = setup.schedule
        self.s = State(
            seats=seats,
            accounts={nick: nick for nick in seats},
            aliases={},
            phase=Phase("setup", 0, sched.start, sched.start),
        )
        self.messages: dict[str, Message] = {}
        self.log: list[str] = []
        self.suppress = False
        self.overrides: list[tuple[State, int, int, str]] = []  # (state before, index in processed, resolutions)
        self.processed: list[Input] = []
        self.redo_at: int | None = None  # index in `processed` of the input an undo is re-handling
        self.edits: list[tuple[int, Input]] = []  # (len(processed) when the edit came, the edited post)
        self.last_count: str = ""
        self.count_signature: tuple = ()  # what the last count showed, to skip re-rendering an unchanged one
        self.next_count: datetime | None = None
        self.reminded: set[str] = set()
        self.clock: datetime | None = None  # the latest time the timeline reached (advance_to)
        self.matcher = self._matcher()

    # ------------------------------------------------------------------------------------------------ run

    def run(self, inputs: Sequence[Input], until: datetime | None) -> GameRun:
        indexed = [
            inp if inp.id else _with_id(inp, f"i{n}") for n, inp in enumerate(inputs)
        ]
        queue: list[tuple[datetime, int, str, Input]] = []
        for n, inp in enumerate(indexed):
            queue.append((inp.at, n, "input", inp))
            if inp.edited_at is not None and inp.where is Where.VOTE:
                queue.append((inp.edited_at, n, "edit", inp))
        queue.sort(key=lambda q: (q[0], q[1], q[2] == "edit"))
        if until is not None:
            queue = [q for q in queue if q[0] <= until]
        sched = self.setup.schedule
        setup_open = min([sched.setup_opens or sched.start] + [q[0] for q in queue])
        self._open_setup(setup_open)
        for at, _, what, inp in queue:
            self.advance_to(at)
            if what == "input":
                self.processed.append(inp)
                self.handle(inp)
            else:
                self.edits.append((len(self.processed), inp))
                self._edited(inp)
        if until is None:
            until = self.s.phase.deadline if self.s.phase.kind != "ended" else self.s.ended_at
        self.advance_to(until)  # type: ignore[arg-type]
        return self._result()

    # ------------------------------------------------------------------------------------------- timeline

    def advance_to(self, t: datetime) -> None:
        while True:
            timed = self._next_timed()
            if timed is None or timed[0] > t:
                self.clock = t if self.clock is None else max(self.clock, t)
                return
            at, kind = timed
            if self.clock is not None and at < self.clock:
                at = self.clock  # overdue after a GM undo (a pause undone): due now, never back in time
            if kind == "deadline":
                self._resolve(at)
            elif kind == "count":
                self.next_count = at + self.count_every
                self._post_count(at)
            elif kind.startswith("remind"):
                self.reminded.add(kind)
                self._remind(at, kind)

    def _next_timed(self) -> tuple[datetime, str] | None:
        ph = self.s.phase
        if ph.kind == "ended":
            return None
        found: list[tuple[datetime, str]] = []
        if self.s.paused_at is None:
            found.append((ph.deadline, "deadline"))
            if ph.kind == "setup":
                key = "remind:setup"
                at = max(ph.opens + (ph.deadline - ph.opens) / 2, ph.deadline - timedelta(hours=12))
                if key not in self.reminded and ph.opens < at < ph.deadline:
                    found.append((at, key))
            elif self.remind_before > timedelta(0):
                key = f"remind:{ph.label}"
                at = ph.deadline - self.remind_before
                if key not in self.reminded and ph.opens < at:
                    found.append((at, key))
        if self.next_count is not None and ph.kind in ("day", "runoff") and self.next_count < ph.deadline:
            found.append((self.next_count, "count"))
        return min(found) if found else None

    def _open(self, kind: str, number: int, at: datetime) -> None:
        sched = self.setup.schedule
        length = {"day": sched.day, "night": sched.night, "runoff": sched.runoff}[kind]
        self.s.phase = Phase(kind, number, at, at + length)
        self.s.deaths_this_phase = 0
        self.next_count = at + self.count_every if kind in ("day", "runoff") else None
        self.last_count = ""
        self.count_signature = ()
        ph = self.s.phase
        if kind == "day":
            self.s.posts = []
            self.s.day_modkill = False
            self.s.doomed = set()
            self._post(at, Where.GAME, self.t.day_opens(number, ph.deadline, self._alive_nicks()), f"{ph.label}/opens")
        elif kind == "runoff":
            self.s.runoff_posts = []
            self.s.runoff_speakers = set()
        else:
            self.s.hunting_open = getattr(self.variant, "hunting_open", lambda seats: True)(list(self.s.seats.values()))
            if not self.s.hunting_open:
                for hunter in sorted(self.s.moves.hunts):
                    self._pm(at, hunter, self.t.hunting_closed(), f"{ph.label}/hunt-closed/{hunter}")
                self.s.moves.hunts.clear()
            self._post(at, Where.GAME, self.t.night_opens(number, ph.deadline), f"{ph.label}/opens")

    def _open_setup(self, at: datetime) -> None:
        ph = self.s.phase
        ph.opens = at
        roles = {sid: seat.role for sid, seat in self.s.seats.items()}
        self._post(
            at, Where.GAME,
            self.t.setup_post(list(self.s.seats), self.setup.schedule.start, commitment(self.setup.seed, roles)),
            "setup/players",
        )
        for sid, seat in self.s.seats.items():
            partners = self._partners(sid)
            self._pm(at, sid, self.t.role_pm(seat.role, partners, self.variant.name, self.roles_given), f"setup/role/{sid}")

    def _partners(self, sid: str) -> list[str]:
        seat = self.s.seats[sid]
        if not seat.is_mafia:
            return []
        return [s.nick for k, s in self.s.seats.items() if k != sid and s.is_mafia]

    # ------------------------------------------------------------------------------------------ resolving

    def _resolve(self, at: datetime) -> None:
        ph = self.s.phase
        self.s.resolutions += 1
        if ph.kind == "setup":
            self._start_day_one(at)
        elif ph.kind == "day":
            self._resolve_day(at)
        elif ph.kind == "runoff":
            self._resolve_runoff(at)
        elif ph.kind == "night":
            self._resolve_night(at)

    def _start_day_one(self, at: datetime) -> None:
        unconfirmed = [s.nick for s in self.s.seats.values() if not s.confirmed]
        if self.variant.name == "moscow" and not any(s.role is Role.DON for s in self.s.seats.values()):
            mafia = [sid for sid, s in self.s.seats.items() if s.is_mafia and s.alive]
            don = self.s.don_nomination
            how = "nomination"
            if don not in mafia:
                don = sorted(mafia)[random.Random(f"{self.setup.seed}/don").randrange(len(mafia))] if mafia else None
                how = "lot"
            if don is not None:
                self.s.seats[don].role = Role.DON
                self.log.append(f"don: {self.s.seats[don].nick} by {how}")
                for sid in mafia:
                    self._pm(at, sid, self.t.don_chosen(self.s.seats[don].nick, how), f"setup/don/{sid}")
        for gm in sorted(self.gms):
            self._pm(at, gm, self.t.unconfirmed_to_gm(unconfirmed), f"setup/unconfirmed/{gm}")
        self._open("day", 1, at)

    def _resolve_day(self, at: datetime) -> None:
        ph = self.s.phase
        n = ph.number
        ballots = self._ballots(self.s.posts)
        count = self._count_text(final=True) + "\n\n"
        if self.variant.name == "moscow" and self.s.day_modkill:
            self._post(at, Where.GAME, count + self.t.day_cancelled_by_modkill(n), f"{ph.label}/result")
            self._end_phase_checks(at, "night", n)
            return
        autokills: list[Kill] = []
        if self.variant.name == "free_hunt":
            voted = set(ballots.final)
            for sid in self._alive_ids():
                if sid in self.s.doomed:
                    autokills.append(Kill(sid, "autokill"))
                elif sid not in voted:
                    autokills.append(Kill(sid, "autokill"))
        votes = {v: t for v, t in ballots.final.items() if self._counts(v, t)}
        if autokills:
            outcome = DayOutcome(reason="autokill")
        else:
            outcome = self.variant.day_outcome(votes, n, self._alive_ids())
        if outcome.runoff:
            self._start_runoff(at, outcome, count)
            return
        for kill in autokills + list(outcome.deaths):
            self._kill(kill.nick, kill.cause, at)
        self._post(at, Where.GAME, count + self.t.day_result(n, outcome, autokills, self._revealed, self._last_word_deadline(at, "vote")), f"{ph.label}/result")
        self._end_phase_checks(at, "night", n)

    def _start_runoff(self, at: datetime, outcome: DayOutcome, count: str) -> None:
        n = self.s.phase.number
        self.s.leaders = outcome.runoff
        self.s.hang_all = self.variant.runoff_is_hang_all(len(self._alive_ids()))  # type: ignore[attr-defined]
        self._open("runoff", n, at)
        self.log.append(f"day {n}: tie between {', '.join(self._nick(x) for x in outcome.runoff)}; runoff")
        self._post(
            at, Where.GAME,
            count + self.t.runoff_opens(n, [self._nick(x) for x in outcome.runoff], self.s.hang_all, self.s.phase.deadline),
            f"day {n}/runoff",
        )

    def _resolve_runoff(self, at: datetime) -> None:
        n = self.s.phase.number
        count = self._count_text(final=True) + "\n\n"
        if self.s.day_modkill:
            self._post(at, Where.GAME, count + self.t.runoff_cancelled(n), f"runoff {n}/result")
            self._end_phase_checks(at, "night", n)
            return
        votes = self._runoff_votes()
        outcome = self.variant.runoff_outcome(votes, self.s.leaders, self.s.hang_all)  # type: ignore[attr-defined]
        for kill in outcome.deaths:
            self._kill(kill.nick, kill.cause, at)
        self._post(at, Where.GAME, count + self.t.runoff_result(n, outcome, self._nick, self._last_word_deadline(at, "vote")), f"runoff {n}/result")
        self._end_phase_checks(at, "night", n)

    def _resolve_night(self, at: datetime) -> None:
        n = self.s.phase.number
        moves = self._moves_in_force()
        rng = random.Random(f"{self.setup.seed}/night/{n}")
        report = self.variant.night(self.s.seats, moves, rng, n)
        self.log.extend(f"night {n}: {line}" for line in report.log)
        for kill in report.deaths:
            self._kill(kill.nick, kill.cause, at)
        if self.variant.name == "moscow":
            self.s.misfires = self.s.misfires + 1 if report.misfire else 0
        else:
            maniac = next((sid for sid, s in self.s.seats.items() if s.role is Role.MANIAC), None)
            shot = moves.get(maniac, MoveKind.SHOT) if maniac else None
            self.s.maniac_last = shot.target if shot else None
        next_day_deadline = at + self.setup.schedule.day
        lw = next_day_deadline - timedelta(hours=3)
        self._post(at, Where.GAME, self.t.night_result(n, report, self._revealed, self.variant.open_roles, lw if report.deaths else None), f"night {n}/result")
        for checker, target_nick, result in report.checks:
            self._pm(at, checker, self.t.check_result(target_nick, result), f"night {n}/check/{checker}")
        self.s.moves = NightMoves()
        self._end_phase_checks(at, "day", n + 1)

    def _end_phase_checks(self, at: datetime, next_kind: str, next_number: int) -> None:
        """C-7: the win check after a day's result or a whole night; then the next phase opens."""
        ph = self.s.phase
        if self.variant.name == "free_hunt" and self.variant.only_bad_left(list(self.s.seats.values())):  # type: ignore[attr-defined]
            if self.s.deaths_this_phase:
                self.s.quiet_day = False
            elif ph.kind == "day":
                self.s.quiet_day = True
            elif ph.kind == "night" and self.s.quiet_day:
                self._end(at, "draw", "stalemate")
                return
        if self._check_win(at, misfires=ph.kind == "night"):
            return
        self._open(next_kind, next_number, at)

    def _check_win(self, at: datetime, misfires: bool = False) -> bool:
        if misfires and self.variant.name == "moscow" and self.s.misfires >= 3:
            self._end(at, "town", "misfires")  # M-6
            return True
        winner = self.variant.winner(list(self.s.seats.values()))
        if winner:
            self._end(at, winner, "")
            return True
        return False

    def _end(self, at: datetime, winner: str, why: str) -> None:
        self.s.winner = winner
        self.s.ended_at = at
        self.s.phase = Phase("ended", self.s.phase.number, at, at)
        self.next_count = None
        roles = [(s.nick, s.role, s.alive) for s in self.s.seats.values()]
        self.log.append(f"game over: {winner}" + (f" ({why})" if why else ""))
        self._post(at, Where.GAME, self.t.game_over(winner, why, roles, self.setup.seed), "ended/result")

    def _kill(self, sid: str, cause: str, at: datetime) -> None:
        seat = self.s.seats[sid]
        seat.alive = False
        seat.died = Death(self.s.phase.death_label, cause)
        self.s.deaths_this_phase += 1
        self.s.doomed.discard(sid)
        self.log.append(f"{seat.died.phase}: {seat.nick} dies ({cause})")
        if cause in LAST_WORD_CAUSES:
            deadline = self._last_word_deadline(at, cause)
            if deadline is not None:
                self.s.last_words[sid] = deadline

    def _last_word_deadline(self, at: datetime, cause: str) -> datetime | None:
        """M-14: a hanged player's last word is due before the night ends; a night victim's 3 h before day ends."""
        sched = self.setup.schedule
        if cause in ("vote", "runoff"):
            return at + sched.night
        return at + sched.day - timedelta(hours=3)

    def _revealed(self, sid: str) -> tuple[str, Role | None]:
        seat = self.s.seats[sid]
        return seat.nick, seat.role if self.variant.open_roles else None

    # ---------------------------------------------------------------------------------------- the inputs

    def handle(self, inp: Input) -> None:
        if inp.author == self.setup.bot:
            return
        if self.s.phase.kind == "ended":
            self.log.append(f"after the end: {inp.where} from {inp.author} ignored")
            return
        if inp.where is Where.PM:
            if inp.author in self.gms:
                self._command(inp)
            else:
                self._player_pm(inp)
        elif inp.where is Where.VOTE:
            self._vote_post(inp)
        else:
            self._game_post(inp)

    def _seat_of(self, author: str) -> str | None:
        if author in self.s.accounts:
            return self.s.accounts[author]
        folded = parse.normalize(author)
        for account, sid in self.s.accounts.items():
            if parse.normalize(account) == folded:
                return sid
        return None

    # --- votes

    def _vote_post(self, inp: Input) -> None:
        ph = self.s.phase
        sid = self._seat_of(inp.author)
        if ph.kind not in ("day", "runoff"):
            self.log.append(f"{ph.label}: vote-thread post {inp.id} by {inp.author} outside a day: not a vote")
            return
        text = inp.first_text if inp.first_text is not None else inp.text
        if sid is None:
            post = VotePost(inp.id, inp.author, Rejection("not_a_player", inp.author), text)
        elif not self.s.seats[sid].alive:
            post = VotePost(inp.id, sid, Rejection("dead_voter", self._nick(sid)), text)
        else:
            post = VotePost(inp.id, sid, self._parse_vote(text), text)
        (self.s.runoff_posts if ph.kind == "runoff" else self.s.posts).append(post)
        if isinstance(post.parsed, Agitation):
            self.s.agitations[sid] += 1
            self.log.append(f"{ph.label}: agitation by {inp.author} ({post.parsed.marker}), #{self.s.agitations[sid]}")
            if self.s.agitations[sid] > 1:
                self.s.doomed.add(sid)  # type: ignore[arg-type]

    def _parse_vote(self, text: str) -> Vote | Agitation | Rejection:
        alive = self._alive_nicks()
        if self.variant.name == "free_hunt":
            parsed = parse.parse_hunt_vote(text, self.matcher, alive, self.markers)
        elif self.s.phase.kind == "runoff":
            leaders = None if self.s.hang_all else [self._nick(x) for x in self.s.leaders]
            parsed = parse.parse_runoff_vote(text, self.matcher, alive, leaders)
        else:
            parsed = parse.parse_moscow_vote(text, self.matcher, alive)
        return self._to_seat_ids(parsed)

    def _to_seat_ids(self, parsed):  # type: ignore[no-untyped-def]
        if isinstance(parsed, Vote):
            return Vote(self._target_id(parsed.target), self._target_id(parsed.runoff) if parsed.runoff is not None else None)
        return parsed

    def _target_id(self, target: Target) -> Target:
        return target if isinstance(target, Special) else self.s.accounts.get(target, target)

    def _edited(self, inp: Input) -> None:
        """C-11: an edit stamped inside the post's day voids it (default) or changes nothing (first_seen)."""
        ph = self.s.phase
        open_posts = {"day": self.s.posts, "runoff": self.s.runoff_posts}.get(ph.kind, [])
        for post in open_posts:  # an edit after the post's day or runoff closed changes nothing
            if post.id == inp.id:
                post.edited = True
                if self.edited_votes == "void" and not isinstance(post.parsed, Agitation):
                    post.voided = True  # H-4: an edit does not undo an agitation
                self.log.append(f"{self.s.phase.label}: vote post {inp.id} by {inp.author} edited")
                return

    def _ballots(self, posts: list[VotePost]) -> Ballots:
        alive = {sid for sid, seat in self.s.seats.items() if seat.alive}
        return count_ballots(posts, alive, self.variant.vote_changes)

    def _counts(self, voter: str, target: Target) -> bool:
        """A vote counts if its author and its target are alive (H-6: a vote for a modkilled player counts for nobody)."""
        if not self.s.seats[voter].alive:
            return False
        return isinstance(target, Special) or self.s.seats[target].alive

    def _runoff_votes(self) -> dict[str, Target]:
        """M-10: a runoff vote cast in the runoff; else the RUNOFF part of the day vote, if it fits."""
        fits = (
            (lambda t: t in (Special.HANG_ALL, Special.PARDON_ALL)) if self.s.hang_all
            else (lambda t: t in self.s.leaders)
        )
        votes: dict[str, Target] = {}
        for voter, post in self._ballots(self.s.posts).final_posts.items():
            if isinstance(post.parsed, Vote) and post.parsed.runoff is not None and fits(post.parsed.runoff):
                votes[voter] = post.parsed.runoff
            else:
                votes.pop(voter, None)
        votes.update(self._ballots(self.s.runoff_posts).final)
        return {v: t for v, t in votes.items() if self.s.seats[v].alive and fits(t)}

    def _post_count(self, at: datetime) -> None:
        """C-6: the current count in the vote thread, only when it changed since the last one."""
        ph = self.s.phase
        posts = self.s.runoff_posts if ph.kind == "runoff" else self.s.posts
        if not posts:
            return
        # Rendering a count is most of a quiet day's cost; skip it while nothing it shows has changed.
        signature = (len(posts), sum(p.voided or p.edited for p in posts),
                     tuple((s.nick, s.alive) for s in self.s.seats.values()))
        if signature == self.count_signature:
            return
        self.count_signature = signature
        text = self._count_text(final=False)
        if text == self.last_count:
            return
        self.last_count = text
        # Keyed by its tick, a count keeps its key when a late-fetched post changes an earlier one (outbox).
        self._post(at, Where.VOTE, text, f"{ph.label}/count/{at.astimezone(timezone.utc):%Y%m%dT%H%M%S}")

    def _count_text(self, final: bool) -> str:
        ph = self.s.phase
        posts = self.s.runoff_posts if ph.kind == "runoff" else self.s.posts
        ballots = self._ballots(posts)
        if ph.kind == "runoff":
            votes = self._runoff_votes()
        else:
            votes = {v: t for v, t in ballots.final.items() if self._counts(v, t)}
        not_voted = [self._nick(s) for s in self._alive_ids() if s not in votes and s not in ballots.final]
        return self.t.vote_count(
            ph.label, {self._nick(v): self._target_nick(t) for v, t in votes.items()}, not_voted,
            [(self._voter_nick(p.voter), p.text, r) for p, r in ballots.rejected],
            [(self._voter_nick(p.voter), p.text, why) for p, why in ballots.ignored],
            [(self._voter_nick(p.voter), p.text) for p in ballots.voided],
            [self._nick(a) for a in ballots.agitators], final,
            edited_kept=[(self._voter_nick(p.voter), p.text) for p in posts if p.edited and not p.voided],
        )

    # --- the game thread: last words (C-8) and runoff speeches (M-10)

    def _game_post(self, inp: Input) -> None:
        sid = self._seat_of(inp.author)
        if sid is None:
            return
        seat = self.s.seats[sid]
        ph = self.s.phase
        if not seat.alive:
            deadline = self.s.last_words.pop(sid, None)
            if deadline is not None and inp.at < deadline:
                self.log.append(f"{ph.label}: last word of {seat.nick} ({inp.id})")
            else:
                self._to_gms(inp.at, self.t.dead_player_posted(seat.nick, inp.id), f"game/{inp.id}/dead")
            return
        if ph.kind == "runoff":
            if sid not in self.s.leaders or sid in self.s.runoff_speakers:
                self._to_gms(inp.at, self.t.runoff_post_reported(seat.nick, inp.id), f"game/{inp.id}/runoff")
            self.s.runoff_speakers.add(sid)

    # --- PMs from players: night moves, confirmations, Don nominations, tactical modkill

    def _player_pm(self, inp: Input) -> None:
        sid = self._seat_of(inp.author)
        key = f"pm/{inp.id}"
        if sid is None:
            self.log.append(f"PM {inp.id} from {inp.author}, who plays no seat: not answered")
            return
        seat = self.s.seats[sid]
        if not seat.alive:
            self._pm(inp.at, sid, self.t.you_are_dead(), key)
            return
        abilities = self.variant.abilities(seat.role)
        bare = sorted(abilities - {MoveKind.HUNT})
        results = parse.parse_pm(
            inp.text, self.matcher, variant=self.variant.name, alive=self._alive_nicks(),
            everyone=[s.nick for s in self.s.seats.values()], bare_kind=bare[0] if len(bare) == 1 else None,
            sender=seat.nick,
        )
        replies: list[str] = []
        for n, item in enumerate(results, 1):
            if isinstance(item, RejectedLine):
                replies.append(self.t.rejected_line(item.text, item.reason, sorted(abilities)))
            else:
                replies.append(self._move(inp, sid, item))
            if self.s.phase.kind == "ended":
                break
            if not seat.alive and n < len(results):  # out by his own modkill (M-12): no move after it
                replies.append(self.t.you_are_dead())
                break
        if replies:
            self._pm(inp.at, sid, "\n".join(replies), key)

    def _move(self, inp: Input, sid: str, move: Move) -> str:
        seat = self.s.seats[sid]
        t = self.t
        ph = self.s.phase
        target = self.s.accounts.get(move.target, move.target) if move.target else None
        if move.kind is MoveKind.CONFIRM:
            seat.confirmed = True
            return t.confirmed()
        if move.kind is MoveKind.DON:
            if self.variant.name != "moscow" or not seat.is_mafia:
                return t.refused("don_not_mafia")
            if ph.kind != "setup" or any(s.role is Role.DON for s in self.s.seats.values()):
                return t.refused("don_closed")
            if target is None or not self.s.seats[target].is_mafia:
                return t.refused("don_target_not_mafia")
            self.s.don_nomination = target
            return t.accepted(move.kind, self._nick(target))
        if move.kind is MoveKind.MODKILL:
            if not self.variant.tactical_modkill:
                return t.refused("no_tactical_modkill")
            self._modkill(sid, inp.at, reason="", by=None)
            return t.accepted(move.kind, seat.nick)
        if move.kind not in self.variant.abilities(seat.role):
            return t.refused("no_ability", move.kind)
        if ph.kind == "ended":
            return t.refused("ended")
        if move.kind is MoveKind.HUNT:
            hunting_open = self.s.hunting_open if ph.kind == "night" else self.variant.hunting_open(list(self.s.seats.values()))  # type: ignore[attr-defined]
            if not hunting_open:
                return t.refused("hunting_closed")
            self.s.moves.hunts[sid] = Move(move.kind, target, guess=move.guess)
            return t.accepted(move.kind, self._nick(target), move.guess or Role.MAFIA)
        if move.kind is MoveKind.SHOT and self.variant.name == "free_hunt":
            if seat.role is Role.MANIAC:
                if target == self.s.maniac_last:
                    return t.refused("maniac_repeat", self._nick(target))
            else:
                executor = self.s.accounts.get(move.executor, move.executor) if move.executor else sid
                ex = self.s.seats.get(executor)
                if ex is None or not ex.is_mafia or not ex.alive:
                    return t.rejected_line(move.executor or "", Rejection("bad_executor", move.executor or ""), [])
                self.s.moves.by_player[(TEAM_SHOT, MoveKind.SHOT)] = Move(move.kind, target, executor=executor)
                return t.accepted(move.kind, self._nick(target), self._nick(executor))
        self.s.moves.by_player[(sid, move.kind)] = Move(move.kind, target)
        return t.accepted(move.kind, self._nick(target))

    def _moves_in_force(self) -> NightMoves:
        """C-5: a move whose sender or target is dead when the night resolves is no move."""
        seats = self.s.seats
        kept = NightMoves()
        for (sid, kind), move in self.s.moves.by_player.items():
            if sid == TEAM_SHOT:
                if move.executor and seats[move.executor].alive and seats[move.target].alive:  # type: ignore[index]
                    kept.by_player[(sid, kind)] = move
                continue
            if not seats[sid].alive:
                continue
            if kind is not MoveKind.CHECK and not seats[move.target].alive:  # type: ignore[index]
                continue
            kept.by_player[(sid, kind)] = move
        if self.s.hunting_open:
            for hunter, move in self.s.moves.hunts.items():
                if seats[hunter].alive and seats[move.target].alive:  # type: ignore[index]
                    kept.hunts[hunter] = move
        # H-10: a Doctor whose hunt request stands cannot heal that night.
        for hunter in kept.hunts:
            kept.by_player.pop((hunter, MoveKind.HEAL), None)
        return kept

    # --- GM commands (C-9)

    def _command(self, inp: Input) -> None:
        gm = inp.author
        key = f"gm/{inp.id}"
        cmd = parse.parse_command(
            inp.text, self.matcher, everyone=[s.nick for s in self.s.seats.values()], parse_vote=self._parse_vote_words,
        )
        if isinstance(cmd, Rejection):
            self._pm(inp.at, gm, self.t.command_rejected(cmd), key)
            return
        if isinstance(cmd, Status):
            self._pm(inp.at, gm, self._status_text(), key)
            return
        if isinstance(cmd, Undo):
            self._undo(inp, gm, key)
            return
        before = copy.deepcopy(self.s)
        refusal = self._apply(cmd, inp.at, gm, inp.id)
        if refusal:
            self.s = before
            self._pm(inp.at, gm, self.t.command_refused(refusal), key)
            return
        # An end-phase resolves a phase itself: its results are out, so it cannot be undone (C-9).
        resolved = before.resolutions if isinstance(cmd, EndPhase) else self.s.resolutions
        self.overrides.append((before, self._current_index(), resolved, type(cmd).__name__))
        self.log.append(
            f"override by {gm} at {inp.at.isoformat()}: {_describe(cmd)}; before: {_state_line(before)}; "
            f"after: {_state_line(self.s)}"
        )
        self._pm(inp.at, gm, self.t.command_done(_describe(cmd)) + "\n" + self._status_text(), key)

    def _parse_vote_words(self, text: str) -> Vote | Agitation | Rejection:
        if self.variant.name == "moscow" and self.s.phase.kind == "runoff":
            # M-10: a GM `setvote` in a runoff takes a runoff vote (hang-all/pardon-all or a leader).
            leaders = None if self.s.hang_all else [self._nick(x) for x in self.s.leaders]
            return parse.parse_runoff_vote(text, self.matcher, self._alive_nicks(), leaders)
        return parse.parse_moscow_vote(text, self.matcher, self._alive_nicks()) if self.variant.name == "moscow" \
            else parse.parse_hunt_vote(text, self.matcher, self._alive_nicks(), ())

    def _apply(self, cmd, at: datetime, gm: str, cmd_id: str) -> str | None:  # type: ignore[no-untyped-def]
        ph = self.s.phase
        if isinstance(cmd, Modkill):
            sid = self.s.accounts[cmd.nick]
            if not self.s.seats[sid].alive:
                return "already_dead"
            self._modkill(sid, at, cmd.reason, by=gm)
        elif isinstance(cmd, Replace):
            return self._replace(cmd, at, cmd_id)
        elif isinstance(cmd, Extend):
            ph.deadline += cmd.by
            self._post(at, Where.GAME, self.t.extended(ph.label, ph.deadline), f"gm/{cmd_id}/post")
        elif isinstance(cmd, Pause):
            if self.s.paused_at is not None:
                return "already_paused"
            self.s.paused_at = at
            self._post(at, Where.GAME, self.t.paused(), f"gm/{cmd_id}/post")
        elif isinstance(cmd, Resume):
            if self.s.paused_at is None:
                return "not_paused"
            ph.deadline += at - self.s.paused_at
            if self.next_count is not None:
                self.next_count += at - self.s.paused_at
            self.s.paused_at = None
            self._post(at, Where.GAME, self.t.resumed(ph.label, ph.deadline), f"gm/{cmd_id}/post")
        elif isinstance(cmd, EndPhase):
            if self.s.paused_at is not None:
                return "paused"
            ph.deadline = at
            self._resolve(at)
        elif isinstance(cmd, SetVote):
            if ph.kind not in ("day", "runoff"):
                return "not_day"
            voter = self.s.accounts[cmd.voter]
            if not self.s.seats[voter].alive:
                return "voter_dead"
            vote = self._to_seat_ids(cmd.vote)
            if ph.kind == "runoff":
                vote = Vote(vote.runoff if vote.runoff is not None else vote.target)
            (self.s.runoff_posts if ph.kind == "runoff" else self.s.posts).append(
                VotePost(f"gm/{cmd_id}", voter, vote, "", by_gm=True)
            )
        elif isinstance(cmd, Alias):
            found = self.matcher.match(cmd.alias)
            if isinstance(found, str):
                return "alias_taken"
            self.s.aliases[cmd.alias] = self.s.accounts[cmd.nick]
            self.matcher = self._matcher()
        elif isinstance(cmd, Say):
            self._post(at, Where.GAME, cmd.text, f"gm/{cmd_id}/post")
        return None

    def _modkill(self, sid: str, at: datetime, reason: str, by: str | None) -> None:
        """C-10, M-11, M-12: a modkill during a day (or runoff) cancels Moscow's vote; win check follows (C-7)."""
        ph = self.s.phase
        self._kill(sid, "modkill", at)
        if ph.kind in ("day", "runoff"):
            self.s.day_modkill = True
        nick, role = self._revealed(sid)
        self._post(at, Where.GAME, self.t.modkilled(nick, role, reason, tactical=by is None, cancels_vote=self.variant.name == "moscow" and ph.kind in ("day", "runoff")), f"{ph.label}/modkill/{sid}")
        self._check_win(at)

    def _replace(self, cmd: Replace, at: datetime, cmd_id: str) -> str | None:
        if self._seat_of(cmd.new) is not None or cmd.new in self.gms or cmd.new == self.setup.bot:
            return "new_taken"
        sid = self.s.accounts.pop(cmd.old)
        old = self.s.seats[sid].nick
        self.s.seats[sid].nick = cmd.new
        self.s.accounts[cmd.new] = sid
        self.matcher = self._matcher()
        seat = self.s.seats[sid]
        self._pm(at, sid, self.t.role_pm(seat.role, self._partners(sid), self.variant.name, True), f"gm/{cmd_id}/role")
        self._post(at, Where.GAME, self.t.replaced(old, cmd.new), f"gm/{cmd_id}/post")
        return None

    def _undo(self, inp: Input, gm: str, key: str) -> None:
        if not self.overrides:
            self._pm(inp.at, gm, self.t.command_refused("nothing_to_undo"), key)
            return
        before, index, resolutions, name = self.overrides[-1]
        # Refused, too, when the deadline it would restore has passed (an extend or pause undone too late):
        # the phase would close back in time, after inputs that came while it was still open.
        lapsed = before.paused_at is None and before.phase.kind != "ended" and before.phase.deadline <= inp.at
        if resolutions != self.s.resolutions or lapsed:
            why = "undo_deadline_passed" if resolutions == self.s.resolutions else "undo_after_deadline"
            self._pm(inp.at, gm, self.t.command_refused(why), key)
            return
        self.overrides.pop()
        # The inputs between the command and this undo are handled again; an undo met while redoing (a
        # second undo walking back two) must find the indexes of the inputs it re-handles, not the last one.
        current = self._current_index()
        state_before = _state_line(self.s)
        self.s = before
        self.matcher = self._matcher()
        outer = (self.suppress, self.redo_at)
        self.suppress = True
        try:
            for k in range(index + 1, current + 1):
                for _, edited in (e for e in self.edits if e[0] == k):
                    self._edited(edited)  # C-11 edits that came in between are applied again, in place
                if k < current:
                    self.redo_at = k
                    self.handle(self.processed[k])
        finally:
            self.suppress, self.redo_at = outer
        self.log.append(
            f"override by {gm} at {inp.at.isoformat()}: undo {name}; before: {state_before}; after: {_state_line(self.s)}"
        )
        self._post(inp.at, Where.GAME, self.t.undone(name), f"undo/{inp.id}")
        self._pm(inp.at, gm, self.t.command_done("undo " + name) + "\n" + self._status_text(), key)

    def _current_index(self) -> int:
        """Index in `processed` of the input being handled (an undo re-handles earlier ones)."""
        return self.redo_at if self.redo_at is not None else len(self.processed) - 1

    def _status_text(self) -> str:
        ph = self.s.phase
        votes: dict[str, str] = {}
        if ph.kind in ("day", "runoff"):
            ballots = self._ballots(self.s.runoff_posts if ph.kind == "runoff" else self.s.posts)
            votes = {self._nick(v): self._target_nick(t) for v, t in ballots.final.items()}
        missing = []
        for sid in self._alive_ids():
            for kind in sorted(self.variant.abilities(self.s.seats[sid].role) - {MoveKind.HUNT}):
                if (sid, kind) not in self.s.moves.by_player and not (
                    kind is MoveKind.SHOT and self.variant.name == "free_hunt" and self.s.seats[sid].is_mafia
                    and (TEAM_SHOT, kind) in self.s.moves.by_player
                ):
                    missing.append((self._nick(sid), str(kind)))
        return self.t.status(ph.label, ph.deadline if ph.kind != "ended" else None, self.s.paused_at is not None,
                             self._alive_nicks(), votes, missing)

    # --- reminders (C-2 and before deadlines)

    def _remind(self, at: datetime, kind: str) -> None:
        ph = self.s.phase
        if kind == "remind:setup":
            for sid, seat in self.s.seats.items():
                if not seat.confirmed:
                    self._pm(at, sid, self.t.confirm_reminder(), f"setup/confirm-reminder/{sid}")
            return
        if ph.kind == "day" and not self.s.day_modkill:
            voted = set(self._ballots(self.s.posts).final)
            autokill = self.variant.name == "free_hunt"  # H-5
            for sid in self._alive_ids():
                if sid not in voted:
                    self._pm(at, sid, self.t.vote_reminder(ph.deadline, autokill), f"{ph.label}/remind/{sid}")
        if ph.kind in ("night",):
            for sid in self._alive_ids():
                seat = self.s.seats[sid]
                needed = self.variant.abilities(seat.role) - {MoveKind.HUNT}
                if self.variant.name == "free_hunt" and seat.is_mafia:
                    if (TEAM_SHOT, MoveKind.SHOT) in self.s.moves.by_player:
                        needed = needed - {MoveKind.SHOT}
                missing = [k for k in sorted(needed) if (sid, k) not in self.s.moves.by_player]
                if missing:
                    self._pm(at, sid, self.t.move_reminder(ph.deadline, missing), f"{ph.label}/remind/{sid}")

    # ---------------------------------------------------------------------------------------------- utils

    def _matcher(self) -> parse.NickMatcher:
        return parse.NickMatcher(
            [s.nick for s in self.s.seats.values()],
            {alias: self.s.seats[sid].nick for alias, sid in self.s.aliases.items()},
        )

    def _alive_ids(self) -> list[str]:
        return [sid for sid, s in self.s.seats.items() if s.alive]

    def _alive_nicks(self) -> list[str]:
        return [s.nick for s in self.s.seats.values() if s.alive]

    def _nick(self, sid: str) -> str:
        return self.s.seats[sid].nick

    def _voter_nick(self, voter: str) -> str:
        return self.s.seats[voter].nick if voter in self.s.seats else voter

    def _target_nick(self, target: Target) -> str:
        return target if isinstance(target, Special) else self._nick(target)

    def _to_gms(self, at: datetime, text: str, key: str) -> None:
        for gm in sorted(self.gms):
            self._pm(at, gm, text, f"{key}/{gm}")
        if not self.gms:
            self.log.append(text)

    def _post(self, at: datetime, where: Where, text: str, key: str) -> None:
        self._emit(Message(at, where, None, text, key))

    def _pm(self, at: datetime, to: str, text: str, key: str) -> None:
        nick = self.s.seats[to].nick if to in self.s.seats else to
        self._emit(Message(at, Where.PM, nick, text, key))

    def _emit(self, msg: Message) -> None:
        if self.suppress:
            return
        key = msg.key
        n = 1
        while key in self.messages:
            n += 1
            key = f"{msg.key}#{n}"
        self.messages[key] = Message(msg.at, msg.where, msg.to, msg.text, key)

    def _result(self) -> GameRun:
        players = tuple(
            PlayerResult(s.nick, s.role, s.alive, s.died) for s in self.s.seats.values()
        )
        ph = self.s.phase
        return GameRun(
            messages=tuple(self.messages.values()),
            result=GameResult(self.s.winner, self.s.ended_at, players),
            log=tuple(self.log),
            phase=ph.label,
            next_deadline=None if ph.kind == "ended" or self.s.paused_at else ph.deadline,
        )


# ------------------------------------------------------------------------------------------------- setup


def draw_seats(setup: GameSetup) -> dict[str, Seat]:
    """Validate the cast and draw the roles not given, with the game's seed (C-2, M-1, H-1)."""
    variant = get_variant(setup.variant)
    nicks = [p.nick for p in setup.players]
    seen: dict[str, str] = {}
    for nick in nicks:
        folded = parse.normalize(nick)
        if not folded:
            raise SetupError(f"empty nickname {nick!r}")
        if folded in seen:
            raise SetupError(f"duplicate nickname {nick!r} (same as {seen[folded]!r})")
        seen[folded] = nick
    for p in setup.players:
        if p.role is not None and p.role not in variant.roles:
            raise SetupError(f"role {p.role} does not exist in the {variant.name} variant (player {p.nick})")
    given = [p.role for p in setup.players if p.role is not None]
    if len(given) == len(nicks):
        variant.check_cast(given, setup.options)
        roles = given
    else:
        pool = variant.cast(len(nicks), setup.options)
        if variant.name == "moscow":
            variant.check_partial(given)  # type: ignore[attr-defined]
        else:
            variant.check_partial(given, len(nicks), setup.options)  # type: ignore[attr-defined]
        for role in given:
            pool.remove(Role.MAFIA if role is Role.DON else role)
        random.Random(f"{setup.seed}/roles").shuffle(pool)
        drawn = iter(pool)
        roles = [p.role if p.role is not None else next(drawn) for p in setup.players]
    return {nick: Seat(nick, role) for nick, role in zip(nicks, roles)}


def commitment(seed: int, roles: dict[str, Role]) -> str:
    """SHA-256 of the seed and the role list, posted at start and revealed at the end so players can verify."""
    text = f"{seed}:" + ",".join(f"{nick}={role}" for nick, role in roles.items())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _with_id(inp: Input, id_: str) -> Input:
    from dataclasses import replace

    return replace(inp, id=id_)


def _state_line(s: State) -> str:
    """C-9: the state an override changed, in one line of the log."""
    ph = s.phase
    alive = [x.nick for x in s.seats.values() if x.alive]
    return (
        f"{ph.label} until {ph.deadline.isoformat()}{' (paused)' if s.paused_at else ''}, "
        f"alive {len(alive)}: {', '.join(alive)}"
    )


def _describe(cmd) -> str:  # type: ignore[no-untyped-def]
    name = type(cmd).__name__.lower()
    fields = ", ".join(f"{v}" for v in vars(cmd).values() if v not in ("", None))
    return f"{name} {fields}".strip()
