"""The fold: inputs and deadlines, in time order, through parse and rules into messages.

Seats are identified by their original nickname (the seat id); `Seat.nick` is the account playing it now."""

from __future__ import annotations

import heapq
import random
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Iterable, Sequence

from forumbot import parse
from difftest.old_engine.commands import CommandsMixin
from difftest.old_engine.history import HistoryMixin
from difftest.old_engine.moves import MovesMixin
from difftest.old_engine.setup import (
    COUNT_MINUTES,
    REMIND_HOURS,
    check_name,
    check_schedule,
    clean_input,
    commitment,
    commitment_text,
    draw_seats,
    number_option,
)
from difftest.old_engine.state import LAST_WORD_CAUSES, TEAM_SHOT, Phase, State
from difftest.old_engine.votes import VotesMixin
from forumbot.errors import SetupError
from forumbot.engine.results import GameResult, GameRun, PlayerResult
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.model import (
    Death,
    GameSetup,
    Input,
    Message,
    MoveKind,
    Rejection,
    Role,
    Special,
    Status,
    Target,
    Where,
)
from forumbot.rules import NightMoves, get_variant
from forumbot.rules.house import configure
from forumbot.rules.ballots import Tally, VotePost
from forumbot.rules.base import DayOutcome, Kill
from forumbot.texts import Texts, get_texts


class Engine(VotesMixin, MovesMixin, CommandsMixin, HistoryMixin):
    """A game folded from its setup and inputs; `run` is called once per Engine."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.variant = configure(get_variant(setup.variant), setup.options)  # section R: house rules as data
        escape = escape_markdown if setup.markup == "markdown" else escape_bbcode
        self.t: Texts = get_texts(setup.language, escape, setup.schedule.timezone, setup.markup,
                                  str(setup.options.get("spoiler", "")))
        self.options = dict(setup.options)
        self.edited_votes = str(self.options.get("edited_votes", "void"))
        if self.edited_votes not in ("void", "first_seen"):
            raise SetupError(f"option edited_votes must be 'void' or 'first_seen', not {self.edited_votes!r} (C-11)")
        check_schedule(setup)
        # Bounded here too, whatever config validation let through (a transcript bypasses it): a count every
        # 0 minutes would never let the timeline move on, and 1e308 overflows (issue 7 item 19).
        self.count_every = timedelta(minutes=number_option(self.options, "vote_count_minutes", 60, *COUNT_MINUTES))
        self.remind_before = timedelta(hours=number_option(self.options, "remind_hours", 3, *REMIND_HOURS))
        self.markers = tuple(self.options.get("agitation_markers", ())) + tuple(parse.DEFAULT_AGITATION_MARKERS)
        seats = draw_seats(setup)
        for gm in setup.gms:
            check_name(gm, "GM")
        check_name(setup.bot, "bot")
        self.gms = set(setup.gms)
        # Forums keep account names unique regardless of case, so a GM typed in another case is the same account.
        self.gm_accounts = {parse.account_key(gm) for gm in setup.gms}
        clash = sorted(nick for nick in seats if parse.account_key(nick) in self.gm_accounts)
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
        self.told: dict[str, str] = {}  # GM command id -> how it turned out, as last told (C-9)
        self.rederived: dict[str, str] = {}  # the same, as an undo in progress re-derives it
        self.redo_msgs: dict[str, list[Message]] = {}  # what re-handling each input would have sent
        self.voids: dict[str, str] = {}  # undo input id -> id of the GM command it undid (C-9)
        self.capture: list[Message] | None = None  # collects suppressed messages while an undo re-handles one
        self.drawn = ""  # the string the draw's commitment hashes (C-2)
        self.clock: datetime | None = None  # the latest time the timeline reached (advance_to)
        self.matcher = self._matcher()
        # C-13: (where, input id) -> (the phase it missed, its stamp); a post and a PM may share an id
        self.late: dict[tuple[Where, str], tuple[str, datetime]] = {}
        self.resolved: list[tuple[str, datetime]] = []  # each phase this fold resolved, with when (game time)
        self.commands: list[tuple[str, dict, dict]] = []  # GM PM id -> the game just before and after it
        self.tallies: dict[int, tuple[list, Tally]] = {}  # resumable ballot counts by vote-post list (votes.py)

    # ------------------------------------------------------------------------------------------------ run

    def run(self, inputs: Sequence[Input], until: datetime | None) -> GameRun:
        indexed = [
            clean_input(inp if inp.id else replace(inp, id=f"i{n}")) for n, inp in enumerate(inputs)
        ]
        queue: list[tuple[datetime, int, str, Input]] = []
        for n, inp in enumerate(indexed):
            if inp.at_latest is not None and inp.where is Where.PM and parse.account_key(inp.author) in self.gm_accounts:
                # A GM's PM shown only to the minute (phpBB, MyBB) takes effect at the minute's end: an
                # `end-phase` must not void the players' posts made earlier in the minute it was sent.
                inp = replace(inp, at=inp.at_latest, at_latest=None)
            opens = self.setup.schedule.setup_opens
            if opens is not None and inp.at < opens and inp.at_latest is not None and inp.at_latest >= opens:
                # C-1: a rough time straddling `game start` counts as the game's (the daemon keeps it), so it was
                # sent from the start on; its earliest instant must not move Setup back before the role PMs went
                # out, or a later fold (and a replay) would date Setup's messages otherwise than the first did
                inp = replace(inp, at=opens)
            queue.append((inp.at, n, "input", inp))
            if inp.edited_at is not None and inp.where is Where.VOTE:
                queue.append((inp.edited_at, n, "edit", inp))
        queue.sort(key=lambda q: (q[0], q[1], q[2] == "edit"))
        if until is not None:
            queue = [q for q in queue if q[0] <= until]
        sched = self.setup.schedule
        setup_open = min([sched.setup_opens or sched.start] + [q[0] for q in queue])
        self._open_setup(setup_open)
        resolved = dict(sched.resolved)
        heap = [(at, n, what == "edit", what, inp) for at, n, what, inp in queue]  # already in heap order
        while heap:
            at, n, _, what, inp = heapq.heappop(heap)
            self.advance_to(at)
            if what == "edit":
                self.edits.append((len(self.processed), inp))
                self._edited(inp)
                continue
            missed = self._missed(inp, resolved)
            if missed is not None:
                # C-13: read after its phase was resolved and announced; it counts from when it was read on
                self.late[inp.where, inp.id] = (missed, inp.at)
                if until is None or inp.read_at <= until:  # type: ignore[operator]
                    late = replace(inp, at=inp.read_at, at_latest=None)
                    heapq.heappush(heap, (late.at, n, False, "late", late))
                continue
            if what == "late":
                missed, stamped = self.late[inp.where, inp.id]
                text = self.t.late_input(inp.author, str(inp.where), stamped, missed, inp.text)
                self._to_gms(at, text, f"late/{inp.id}")
            self.processed.append(inp)
            self.handle(inp)
        if until is None:
            until = self.s.phase.deadline if self.s.phase.kind != "ended" else self.s.ended_at
        self.advance_to(until)  # type: ignore[arg-type]
        return self._result()

    def _missed(self, inp: Input, resolved: dict[str, datetime]) -> str | None:
        """C-13: the phase this input was stamped in, if the bot had resolved it before first reading the input."""
        label = self.s.phase.label
        done = resolved.get(label)
        if inp.read_at is None or done is None or inp.read_at <= done or (inp.where, inp.id) in self.late:
            return None
        return label

    # ------------------------------------------------------------------------------------------- timeline

    def advance_to(self, t: datetime) -> None:
        while True:
            timed = self._next_timed()
            if timed is None or timed[0] > t:
                self.clock = t if self.clock is None else max(self.clock, t)
                return
            at, kind = timed
            due = at
            if self.clock is not None and at < self.clock:
                at = self.clock  # overdue after a GM undo (a pause undone): due now, never back in time
            if kind == "deadline":
                self._resolve(at)
            elif kind == "count":
                self._post_count(at)
                # on the count's own grid: an overdue count (restored by an undo) keeps the slots it had (C-9)
                self.s.next_count = self._count_slot_after(due, t)
            elif kind.startswith("remind"):
                self.s.reminded.add(kind)
                self._remind(at, kind)

    def _recount_until(self, t: datetime) -> None:
        """The counts due up to `t`, for an undo's re-derivation (suppressed): deadlines cannot fall there (the
        undo is refused then) and reminders are owed, not re-derived, so they go out once the undo is done."""
        ph = self.s.phase
        while (self.s.next_count is not None and ph.kind in ("day", "runoff") and self.s.next_count <= t
               and self.s.next_count < ph.deadline):
            at = self.s.next_count
            self._post_count(at)
            self.s.next_count = self._count_slot_after(at, t)

    def _count_slot_after(self, at: datetime, t: datetime) -> datetime:
        """The next count's time on its grid. What a count shows changes only with an input or another timed
        event, so the counts before the next of those would all be skipped as unchanged: jump past them."""
        other = self._next_timed(counts=False)
        bound = max(at, min(t, other[0]) if other else t)
        return at + self.count_every * ((bound - at) // self.count_every + 1)

    def _next_timed(self, counts: bool = True) -> tuple[datetime, str] | None:
        ph = self.s.phase
        if ph.kind == "ended":
            return None
        found: list[tuple[datetime, str]] = []
        if self.s.paused_at is None:
            found.append((ph.deadline, "deadline"))
            if ph.kind == "setup":
                key = "remind:setup"
                at = max(ph.opens + (ph.deadline - ph.opens) / 2, ph.deadline - timedelta(hours=12))
                if key not in self.s.reminded and ph.opens < at < ph.deadline:
                    found.append((at, key))
            elif self.remind_before > timedelta(0):
                key = f"remind:{ph.label}"
                at = ph.deadline - self.remind_before
                if key not in self.s.reminded and ph.opens < at:
                    found.append((at, key))
        due = self.s.next_count
        if counts and due is not None and ph.kind in ("day", "runoff") and due < ph.deadline:
            found.append((due, "count"))
        return min(found) if found else None

    def _open(self, kind: str, number: int, at: datetime) -> None:
        sched = self.setup.schedule
        length = {"day": sched.day, "night": sched.night, "runoff": sched.runoff}[kind]
        self.s.phase = Phase(kind, number, at, at + length)
        self.s.deaths_this_phase = 0
        self.s.next_count = at + self.count_every if kind in ("day", "runoff") else None
        self.s.last_count = ""
        self.s.count_signature = ()
        ph = self.s.phase
        if kind == "day":
            self.s.posts = []
            self.s.day_modkill = False
            self.s.doomed = set()
            self._post_opening(at, self.t.day_opens(number, ph.deadline, self._alive_nicks()), f"{ph.label}/opens")
        elif kind == "runoff":
            self.s.runoff_posts = []
            self.s.runoff_speakers = set()
        else:
            self.s.hunting_open = self.variant.hunting_open(list(self.s.seats.values()))
            if not self.s.hunting_open:
                for hunter in sorted(self.s.moves.hunts):
                    self._pm(at, hunter, self.t.hunting_closed(), f"{ph.label}/hunt-closed/{hunter}")
                self.s.moves.hunts.clear()
            self._post_opening(at, self.t.night_opens(number, ph.deadline, self._night_grammar()), f"{ph.label}/opens")

    def _open_setup(self, at: datetime) -> None:
        ph = self.s.phase
        ph.opens = at
        roles = {sid: seat.role for sid, seat in self.s.seats.items()}
        self.drawn = commitment_text(self.setup.seed, roles)  # printed at the end, so the hash can be checked
        self._post(
            at, Where.GAME,
            self.t.setup_post(list(self.s.seats), self.setup.schedule.start, commitment(self.setup.seed, roles),
                              self._rules_in_force(), self._how_to_vote()),
            "setup/players",
        )
        # M-1: with a Don in the variant but none dealt, the mafia choose him
        choose_don = Role.DON in self.variant.roles and not any(s.role is Role.DON for s in self.s.seats.values())
        for sid, seat in self.s.seats.items():
            self._pm(at, sid, self._role_pm(sid, choose_don), f"setup/role/{sid}")

    def _how_to_vote(self) -> list[str]:
        return self.t.how_to_vote(self.variant.vote_grammar == "strict", self.variant.house, self.variant.has_runoff,
                                  self.setup.vote_url)

    def _rules_in_force(self) -> list[tuple[str, object]]:
        """The day's and the game's rules as this game plays them, the variant's own included (a default game's
        players were told none, issue 17 item 6); the vote's own rules are in `_how_to_vote`."""
        house = self.variant.house
        rules: list[tuple[str, object]] = [(name, getattr(house, name))
                                           for name in ("lynch", "tie", "no_show", "draw_at", "open_roles")]
        return rules + [(k, v) for k, v in self._house_summary() if k == "cast"]

    def _role_pm(self, sid: str, choose_don: bool) -> str:
        """The role PM with the role's night moves, an example each (issue 11 item 3)."""
        seat = self.s.seats[sid]
        return self.t.role_pm(seat.role, self._partners(sid), choose_don, self._night_moves(sid),
                              example=self._example_nick(sid), me=seat.nick)

    def _night_moves(self, sid: str) -> list[str]:
        """What the seat may send at night, as grammar keys (the Setup-only `дон` left out)."""
        return [m for m in self._possible_moves(sid) if m != "don"]

    def _night_grammar(self) -> list[str]:
        """The short forms of the night moves, for the night's opening post. With closed roles (M-2, R-9) they
        are the moves of the cast as it started, never of who is alive: a night post that stopped saying
        «проверка НИК» once the Sheriff and the Don died told everyone so (issue 17 item 5)."""
        if self.variant.open_roles:
            return self._ordered_moves(m for sid in self._alive_ids() for m in self._night_moves(sid))
        return self._ordered_moves(self._cast_moves())

    def _cast_moves(self) -> list[str]:
        """Every night move some role of the dealt cast has, whoever is alive and whether hunting is open."""
        maniac = any(s.role is Role.MANIAC for s in self.s.seats.values())
        moves: list[str] = []
        for seat in self.s.seats.values():
            for kind in sorted(self.variant.abilities(seat.role)):
                if kind is MoveKind.HUNT:
                    moves.append("hunt" if maniac else "hunt_mafia")
                    continue
                moves.append(str(kind))
                if kind is MoveKind.SHOT and self.variant.team_shot and seat.is_mafia:
                    moves.append("shot_by")
        return moves

    @staticmethod
    def _ordered_moves(moves: Iterable[str]) -> list[str]:
        found: list[str] = []
        for move in moves:
            if move not in found:
                found.append(move)
        order = ["check", "shot", "shot_by", "heal", "hunt", "hunt_mafia"]
        return sorted(found, key=lambda m: order.index(m) if m in order else len(order))

    def _partners(self, sid: str) -> list[str]:
        seat = self.s.seats[sid]
        if not seat.is_mafia:
            return []
        return [s.nick for k, s in self.s.seats.items() if k != sid and s.is_mafia]

    # ------------------------------------------------------------------------------------------ resolving

    def _resolve(self, at: datetime) -> None:
        ph = self.s.phase
        self.s.resolutions += 1
        if not self.suppress:
            self.resolved.append((ph.label, at))
        mark = self._history_mark(at)
        if ph.kind == "setup":
            self._start_day_one(at)
        elif ph.kind == "day":
            self._resolve_day(at)
        elif ph.kind == "runoff":
            self._resolve_runoff(at)
        elif ph.kind == "night":
            self._resolve_night(at)
        self._history_record(mark)

    def _start_day_one(self, at: datetime) -> None:
        unconfirmed = [s.nick for s in self.s.seats.values() if not s.confirmed]
        # M-1: a variant with a Don whose draw dealt none lets the mafia choose him, else a lot does
        if Role.DON in self.variant.roles and not any(s.role is Role.DON for s in self.s.seats.values()):
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
                    moves = self._night_moves(sid) if sid == don else []
                    self._pm(at, sid, self.t.don_chosen(self.s.seats[don].nick, how, moves,
                                                        example=self._example_nick(sid), me=self.s.seats[sid].nick),
                             f"setup/don/{sid}")
        for gm in sorted(self.gms):
            self._pm(at, gm, self.t.unconfirmed_to_gm(unconfirmed), f"setup/unconfirmed/{gm}")
        self._open("day", 1, at)

    def _resolve_day(self, at: datetime) -> None:
        ph = self.s.phase
        n = ph.number
        self._drop_deleted(self.s.posts, at)
        ballots = self._ballots(self.s.posts)
        count = self._count_text(final=True) + "\n\n"
        if self.variant.modkill_cancels_vote and self.s.day_modkill:
            self._post(at, Where.GAME, count + self.t.day_cancelled_by_modkill(n), f"{ph.label}/result")
            self._end_phase_checks(at, "night", n)
            return
        voted = set(ballots.final)
        autokills = [  # H-4's repeat agitators, and H-5's no-shows where the variant autokills them
            Kill(sid, "autokill") for sid in self._alive_ids()
            if sid in self.s.doomed or (self.variant.no_show_autokill and sid not in voted)
        ]
        votes = ballots.in_post_order({v: t for v, t in ballots.final.items() if self._counts(v, t)})
        autokill_why = {k.nick: "agitation" if k.nick in self.s.doomed else "no_vote" for k in autokills}
        if autokills:
            outcome = DayOutcome(reason="autokill")
        else:
            outcome = self.variant.day_outcome(votes, n, self._alive_ids())
        if outcome.runoff:
            self._start_runoff(at, outcome, count)
            return
        for kill in autokills + list(outcome.deaths):
            self._kill(kill.nick, kill.cause, at)
        self._post(at, Where.GAME, count + self.t.day_result(n, outcome, autokills, self._revealed, self._last_word_deadline(at, "vote"), autokill_why), f"{ph.label}/result")
        self._tell_out(at, autokills + list(outcome.deaths))
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
        self._drop_deleted(self.s.runoff_posts, at)
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
        self._tell_out(at, outcome.deaths)
        self._end_phase_checks(at, "night", n)

    def _resolve_night(self, at: datetime) -> None:
        n = self.s.phase.number
        moves = self._moves_in_force()
        rng = random.Random(f"{self.setup.seed}/night/{n}")
        report = self.variant.night(self.s.seats, moves, rng, n)
        self.log.extend(f"night {n}: {line}" for line in report.log)
        for kill in report.deaths:
            self._kill(kill.nick, kill.cause, at)
        self.s.misfires = self.s.misfires + 1 if report.misfire else 0  # M-6's streak
        maniac = next((sid for sid, s in self.s.seats.items() if s.role is Role.MANIAC), None)
        shot = moves.get(maniac, MoveKind.SHOT) if maniac else None
        self.s.maniac_last = shot.target if shot else None  # H-8: the move in force tonight
        lw = self._last_word_deadline(at, "mafia")
        self._post(at, Where.GAME, self.t.night_result(n, report, self._revealed, self.variant.open_roles, lw if report.deaths else None), f"night {n}/result")
        self._tell_out(at, report.deaths)
        for checker, target_nick, result in report.checks:
            self._pm(at, checker, self.t.check_result(target_nick, result), f"night {n}/check/{checker}")
        self.s.moves = NightMoves()
        self._end_phase_checks(at, "day", n + 1)

    def _end_phase_checks(self, at: datetime, next_kind: str, next_number: int) -> None:
        """C-7: the win check after a day's result or a whole night; then the next phase opens."""
        ph = self.s.phase
        if self.variant.only_bad_left(list(self.s.seats.values())):  # H-14's stalemate count
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
        limit = self.variant.misfire_limit
        if misfires and limit is not None and self.s.misfires >= limit:
            self._end(at, "town", "misfires")  # M-6
            return True
        winner = self.variant.winner(list(self.s.seats.values()))
        if winner:
            alive = len(self._alive_ids())
            # a draw says why (M-13, R-8, H-14; issue 17 item 15)
            why = "" if winner != "draw" else "nobody" if alive == 0 else "draw_at"
            self._end(at, winner, why)
            return True
        return False

    def _end(self, at: datetime, winner: str, why: str) -> None:
        self.s.winner = winner
        self.s.ended_at = at
        self.s.phase = Phase("ended", self.s.phase.number, at, at)
        self.s.next_count = None
        roles = [(s.nick, s.role, s.alive, sid) for sid, s in self.s.seats.items()]
        self.log.append(f"game over: {winner}" + (f" ({why})" if why else ""))
        self._post(at, Where.GAME, self.t.game_over(winner, why, roles, self.setup.seed, self.drawn), "ended/result")

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

    def _tell_out(self, at: datetime, kills: Sequence[Kill]) -> None:
        """Each player the vote or the night took out is told by PM, with his last word's deadline (C-8, M-14);
        the result post is the notice of record (issue 17 item 10)."""
        for kill in kills:
            seat = self.s.seats[kill.nick]
            self._pm(at, kill.nick, self.t.you_are_out(kill.cause, self.s.last_words.get(kill.nick)),
                     f"{seat.died.phase if seat.died else self.s.phase.label}/out/{kill.nick}")

    def _last_word_deadline(self, at: datetime, cause: str) -> datetime | None:
        """M-14: a hanged player's last word is due before the night ends; a night victim's 3 h before day ends.

        A deadline that would already be past when the death is announced (a day of 3 h or less) is the end of
        the phase that opens then. None when these deaths end the game (C-7): no phase opens to say it in, and
        the result post would name a time for a night that never comes."""
        if self.variant.winner(list(self.s.seats.values())):
            return None
        sched = self.setup.schedule
        if cause in ("vote", "runoff"):
            return at + sched.night
        due = at + sched.day - timedelta(hours=3)
        return due if due > at else at + sched.day

    def _revealed(self, sid: str) -> tuple[str, Role | None]:
        seat = self.s.seats[sid]
        return seat.nick, seat.role if self.variant.open_roles else None

    # ---------------------------------------------------------------------------------------- the inputs

    def handle(self, inp: Input) -> None:
        if parse.account_key(inp.author) == parse.account_key(self.setup.bot):
            return
        if self.s.phase.kind == "ended":
            self.log.append(f"after the end: {inp.where} from {inp.author} ignored")
            if inp.where is Where.PM and inp.author.casefold() in self.gm_accounts and not self.suppress:
                self.commands.append((inp.id, self._summary(), self._summary()))
            if inp.where is Where.PM and inp.author.casefold() in self.gm_accounts:
                if self.suppress:
                    # an undo's re-derivation ended the game before this command: it no longer does anything (C-9)
                    self.rederived[inp.id] = self.t.command_refused("game_ended")
                elif isinstance(parse.parse_command(inp.text, self.matcher, everyone=[],
                                                    parse_vote=self._parse_vote_words), Status):
                    # a GM asking after the end is told how it ended, with every role (issue 17 item 13)
                    self._pm(inp.at, inp.author, self._status_text(roles=True), f"gm/{inp.id}")
                else:
                    # C-9: every GM command is answered; one sent just after a modkill ended the game (an
                    # `отмена` of it, say) would otherwise meet silence
                    self._answer(inp, self.t.command_refused("game_ended"))
            return
        if inp.where is Where.PM:
            if parse.account_key(inp.author) in self.gm_accounts:
                before = None if self.suppress else self._summary()
                self._command(inp)
                if before is not None:  # the override log's state before and after (C-9), without a fold more
                    self.commands.append((inp.id, before, self._summary()))
            else:
                self._player_pm(inp)
        elif inp.where is Where.VOTE:
            self._vote_post(inp)
        else:
            self._game_post(inp)

    def _seat_of(self, author: str) -> str | None:
        """The seat an account plays: the account as the forum names it, case aside (C-3), never C-4-folded."""
        key = parse.account_key(author)
        return next((sid for account, sid in self.s.accounts.items() if parse.account_key(account) == key), None)

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

    # --- reminders (C-2 and before deadlines)

    def _remind(self, at: datetime, kind: str) -> None:
        ph = self.s.phase
        if kind == "remind:setup":
            for sid, seat in self.s.seats.items():
                if not seat.confirmed:
                    self._pm(at, sid, self.t.confirm_reminder(), f"setup/confirm-reminder/{sid}")
            return
        if ph.kind == "day" and not (self.variant.modkill_cancels_vote and self.s.day_modkill):
            voted = set(self._ballots(self.s.posts).final)
            autokill = self.variant.no_show_autokill  # H-5
            for sid in self._alive_ids():
                if sid not in voted:
                    self._pm(at, sid, self.t.vote_reminder(ph.deadline, autokill), f"{ph.label}/remind/{sid}")
        if ph.kind in ("night",):
            for sid in self._alive_ids():
                seat = self.s.seats[sid]
                needed = self.variant.abilities(seat.role) - {MoveKind.HUNT}
                if self.variant.team_shot and seat.is_mafia:
                    if (TEAM_SHOT, MoveKind.SHOT) in self.s.moves.by_player:
                        needed = needed - {MoveKind.SHOT}
                missing = [k for k in sorted(needed) if (sid, k) not in self.s.moves.by_player]
                if missing:
                    short = [m for m in self._possible_moves(sid) if m in {str(k) for k in missing} or
                             (m == "shot_by" and MoveKind.SHOT in missing)]
                    self._pm(at, sid, self.t.move_reminder(ph.deadline, missing, short), f"{ph.label}/remind/{sid}")

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

    def _poster(self, post: VotePost) -> str:
        """Who wrote a vote post, as the count names him. A non-player's post keeps his account name, which
        may be a seat's id when he is the account a GM `replace` took that seat from (C-9)."""
        if isinstance(post.parsed, Rejection) and post.parsed.code == "not_a_player":
            return post.voter
        return self.s.seats[post.voter].nick if post.voter in self.s.seats else post.voter

    def _target_nick(self, target: Target) -> str:
        return target if isinstance(target, Special) else self._nick(target)

    def _to_gms(self, at: datetime, text: str, key: str) -> None:
        for gm in sorted(self.gms):
            self._pm(at, gm, text, f"{key}/{gm}")
        if not self.gms:
            self.log.append(text)

    def _post(self, at: datetime, where: Where, text: str, key: str) -> None:
        self._emit(Message(at, where, None, text, key))

    def _post_opening(self, at: datetime, text: str, key: str) -> None:
        """Issue 11 item 6: a phase opening at a deadline is announced in the post with that deadline's results,
        so a board's flood limit or MyBB's merging of consecutive posts cannot split or delay them."""
        pool = (self.capture if self.capture is not None else []) if self.suppress else list(self.messages.values())
        last = next((m for m in reversed(pool) if m.where is Where.GAME), None)
        if last is None or last.at != at or not last.key.endswith("/result"):
            self._post(at, Where.GAME, text, key)
            return
        joined = Message(last.at, last.where, last.to, self.t.post(last.text, text), last.key)
        if self.suppress:
            self.capture[self.capture.index(last)] = joined  # type: ignore[union-attr]
        else:
            self.messages[last.key] = joined

    def _pm(self, at: datetime, to: str, text: str, key: str) -> None:
        nick = self.s.seats[to].nick if to in self.s.seats else to
        self._emit(Message(at, Where.PM, nick, text, key))

    def _emit(self, msg: Message) -> None:
        if self.suppress:
            if self.capture is not None:
                self.capture.append(msg)
            return
        key = msg.key
        n = 1
        while key in self.messages:
            n += 1
            key = f"{msg.key}#{n}"
        self.messages[key] = Message(msg.at, msg.where, msg.to, msg.text, key)

    def _summary(self) -> dict:
        """The game in one line of JSON: what the override log (C-9) keeps before and after a GM command."""
        ph = self.s.phase
        return {
            "phase": ph.label,
            "next_deadline": None if ph.kind == "ended" or self.s.paused_at else ph.deadline.isoformat(),
            "winner": self.s.winner,
            "players": [{"nick": s.nick, "alive": s.alive, "died": s.died.phase if s.died else None}
                        for s in self.s.seats.values()],
        }

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
            phase_opens=ph.opens,
            resolved=tuple(self.resolved),
            late=tuple((i, label, stamped, str(where)) for (where, i), (label, stamped) in self.late.items()),
            commands=tuple(self.commands),
            history=self._history(),
        )
