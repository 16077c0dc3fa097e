"""GM commands by PM (C-9, C-10, DESIGN.md): each logged with the state before and after, and undoable."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta

from forumbot import parse
from difftest.old_engine.state import TEAM_SHOT, State
from forumbot.parse.commands import MAX_EXTEND
from forumbot.model import (
    Agitation,
    Alias,
    EndPhase,
    Extend,
    Help,
    Input,
    Message,
    Modkill,
    MoveKind,
    Pause,
    Rejection,
    Replace,
    Resume,
    Role,
    Say,
    SetVote,
    Status,
    Undo,
    Vote,
    Where,
)
from forumbot.rules.ballots import VotePost


class CommandsMixin:
    """Engine methods for GM commands; state and helpers come from the Engine."""

    def _command(self, inp: Input) -> None:
        gm = inp.author
        key = f"gm/{inp.id}"
        cmd = parse.parse_command(
            inp.text, self.matcher, everyone=[s.nick for s in self.s.seats.values()], parse_vote=self._parse_vote_words,
            pass_words=self.variant.house.pass_words or (),
        )
        if isinstance(cmd, Rejection):
            self._answer(inp, self.t.command_rejected(cmd))
            return
        if isinstance(cmd, Replace) and cmd.new.casefold() in {a.casefold() for a in inp.missing_accounts}:
            # the forum said, when the bot stored this PM, that it has no such account (issue 7 item 2)
            self._pm(inp.at, gm, self.t.command_refused("no_account"), key)
            return
        if isinstance(cmd, Status):
            self._pm(inp.at, gm, self._status_text(roles=True), key)
            return
        if isinstance(cmd, Help):  # like status: only an answer, nothing for an undo to take back
            self._pm(inp.at, gm, self.t.gm_help(), key)
            return
        if isinstance(cmd, Undo):
            self._undo(inp, gm)
            return
        before, kept = self._snapshot()
        refusal = self._apply(cmd, inp.at, gm, inp.id)
        if refusal:
            self.s = _restored(before, kept)
            self.matcher = self._matcher()
            self._answer(inp, self.t.command_refused(refusal))
            return
        # An end-phase resolves a phase itself: its results are out, so it cannot be undone (C-9).
        resolved = before.resolutions if isinstance(cmd, EndPhase) else self.s.resolutions
        self.overrides.append((before, self._current_index(), resolved, type(cmd).__name__, kept))
        self.log.append(
            f"override by {gm} at {inp.at.isoformat()}: {_describe(cmd)}; before: {_state_line(before)}; "
            f"after: {_state_line(self.s)}"
        )
        # An end-phase is told by the phase it closed; every other command by the phase as it left it.
        shown = before.phase if isinstance(cmd, EndPhase) else self.s.phase
        done = self.t.command_done(cmd, shown.label, shown.deadline)
        self._answer(inp, done + "\n" + self._status_text())

    def _snapshot(self) -> tuple[State, tuple[int, int]]:
        """The state before an override, for its undo. The day's vote posts are shared, not copied, with how many
        there were: they are only appended to, so a snapshot per GM command costs the seats, not the day's posts
        (2,000 `голос` would copy ~2,000,000 posts). A flag an edit sets later on a shared post is set again when
        the undo re-applies that edit."""
        s = self.s
        memo = {id(s.posts): s.posts, id(s.runoff_posts): s.runoff_posts}
        return copy.deepcopy(s, memo), (len(s.posts), len(s.runoff_posts))

    def _answer(self, inp: Input, text: str) -> None:
        """The reply to a GM command; its first line is how the command turned out, which an undo may change."""
        self._pm(inp.at, inp.author, text, f"gm/{inp.id}")
        verdict = text.split("\n", 1)[0]
        if self.suppress:
            self.rederived[inp.id] = verdict
        else:
            self.told[inp.id] = verdict

    def _parse_vote_words(self, text: str) -> Vote | Agitation | Rejection:
        # A GM's `setvote` is a vote in the open phase's grammar (in a runoff, a runoff vote: M-10); it is never
        # an agitation.
        return self._read_vote(text, ())

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
            # Bounded so that no later deadline arithmetic can overflow, whatever the GM typed (issue 7 item 19).
            if not timedelta() < cmd.by <= MAX_EXTEND:
                return "extend_not_positive" if cmd.by <= timedelta() else "extend_too_far"
            if self.s.paused_at is None and ph.deadline - at + cmd.by > MAX_EXTEND:
                return "extend_too_far"
            if self.s.paused_at is not None and ph.deadline - self.s.paused_at + cmd.by > MAX_EXTEND:
                return "extend_too_far"
            ph.deadline += cmd.by
            self._post(at, Where.GAME, self.t.extended(ph.label, ph.deadline, cmd.by), f"gm/{cmd_id}/post")
        elif isinstance(cmd, Pause):
            if self.s.paused_at is not None:
                return "already_paused"
            self.s.paused_at = at
            self._post(at, Where.GAME, self.t.paused(), f"gm/{cmd_id}/post")
        elif isinstance(cmd, Resume):
            if self.s.paused_at is None:
                return "not_paused"
            ph.deadline += at - self.s.paused_at
            if self.s.next_count is not None:
                self.s.next_count += at - self.s.paused_at
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
        self._post(at, Where.GAME, self.t.modkilled(nick, role, reason, tactical=by is None, cancels_vote=self.variant.modkill_cancels_vote and ph.kind in ("day", "runoff")), f"{ph.label}/modkill/{sid}")
        if by is not None:  # issue 17 item 10: told in person too (a tactical modkill's answer already says it)
            self._pm(at, sid, self.t.you_are_modkilled(reason), f"{ph.label}/modkilled-pm/{sid}")
        self._check_win(at)

    def _replace(self, cmd: Replace, at: datetime, cmd_id: str) -> str | None:
        new = parse.account_key(cmd.new)
        if self._seat_of(cmd.new) is not None or new in self.gm_accounts or new == parse.account_key(self.setup.bot):
            return "new_taken"
        sid = self.s.accounts.pop(cmd.old)
        old = self.s.seats[sid].nick
        self.s.seats[sid].nick = cmd.new
        self.s.accounts[cmd.new] = sid
        self.matcher = self._matcher()
        self._pm(at, sid, self._role_pm(sid, choose_don=False), f"gm/{cmd_id}/role")
        self._post(at, Where.GAME, self.t.replaced(old, cmd.new), f"gm/{cmd_id}/post")
        return None

    def _undo(self, inp: Input, gm: str) -> None:
        """C-9: the last override reversed as if never given; everything since is handled again."""
        if not self.overrides:
            self._answer(inp, self.t.command_refused("nothing_to_undo"))
            return
        before, index, resolutions, name, kept = self.overrides[-1]
        # Refused, too, when the deadline it would restore has passed (an extend or pause undone too late):
        # the phase would close back in time, after inputs that came while it was still open.
        lapsed = before.paused_at is None and before.phase.kind != "ended" and before.phase.deadline <= inp.at
        why = (
            "undo_end_phase" if name == "EndPhase"
            else "undo_after_deadline" if resolutions != self.s.resolutions
            else "undo_deadline_passed" if lapsed
            else None
        )
        if why:
            self._answer(inp, self.t.command_refused(why))
            return
        saved = (copy.deepcopy(self.s), list(self.overrides), len(self.log),
                 dict(self.rederived), dict(self.redo_msgs), dict(self.voids))
        self.overrides.pop()
        # The inputs between the command and this undo are handled again; an undo met while redoing (a
        # second undo walking back two) must find the indexes of the inputs it re-handles, not the last one.
        current = self._current_index()
        # The undone command is never given again, not even by an earlier undo re-handled below, whose own
        # redo reaches back past it; the undos in between find anew what they undo.
        for k in range(index + 1, current):
            self.voids.pop(self.processed[k].id, None)
        self.voids[self.processed[current].id] = self.processed[index].id
        state_before = _state_line(self.s)
        out_before = {sid for sid, seat in self.s.seats.items() if not seat.alive}
        self.s = _restored(copy.deepcopy(before), kept)  # the snapshot stays intact for a refused undo below
        self.s.reminded |= saved[0].reminded  # a reminder sent since stays sent: the players have it
        self.matcher = self._matcher()
        outer = (self.suppress, self.redo_at, self.capture)
        self.suppress = True
        try:
            for k in range(index + 1, current + 1):
                for _, edited in (e for e in self.edits if e[0] == k):
                    self._edited(edited)  # C-11 edits that came in between are applied again, in place
                self.capture = None
                # the counts between are re-derived too, in their order with the inputs: the grid and what the
                # last count showed are then those of the game without the override (C-9)
                self._recount_until(inp.at if k == current else self.processed[k].at)
                if k < current and self.processed[k].id not in self.voids.values():
                    self.redo_at = k
                    self.capture = []
                    self.handle(self.processed[k])
                    self.redo_msgs[self.processed[k].id] = self.capture
        finally:
            self.suppress, self.redo_at, self.capture = outer
        ph = self.s.phase
        if self.s.paused_at is None and ph.kind != "ended" and ph.deadline <= inp.at:
            # Re-derived, a later pause or extend no longer holds and the phase's deadline is behind us.
            self.s, self.overrides, n_log, self.rederived, self.redo_msgs, self.voids = saved
            del self.log[n_log:]
            self.matcher = self._matcher()
            self._answer(inp, self.t.command_refused("undo_deadline_passed"))
            return
        self.log.append(
            f"override by {gm} at {inp.at.isoformat()}: undo {name}; before: {state_before}; after: {_state_line(self.s)}"
        )
        ph = self.s.phase
        back_ids = [sid for sid, seat in self.s.seats.items() if seat.alive and sid in out_before]
        back = [self._nick(sid) for sid in back_ids]
        # M-11: an undone modkill gives the day back its vote, and the notice says so (issue 17 item 10)
        vote_again = bool(back) and ph.kind in ("day", "runoff") and self.variant.modkill_cancels_vote \
            and not self.s.day_modkill
        self._post(inp.at, Where.GAME, self.t.undone(name, ph.label, ph.deadline, self.s.paused_at is not None,
                                                     back, vote_again), f"undo/{inp.id}")
        for sid in back_ids:
            self._pm(inp.at, sid, self.t.modkill_undone(), f"back/{inp.id}/{sid}")
        self._answer(inp, self.t.undo_done(name) + "\n" + self._status_text())
        if not self.suppress:
            self._tell_rederived(inp)

    def _tell_rederived(self, undo: Input) -> None:
        """C-9 (amended): a later GM command that the undo made turn out otherwise is told to the GMs and the
        thread, and what it now does (a replacement's role PM, a modkill's post) goes out."""
        for prior in self.processed:
            verdict = self.rederived.get(prior.id)
            if verdict is None or verdict == self.told.get(prior.id):
                continue
            self.told[prior.id] = verdict
            key = f"undo/{undo.id}/rederived/{prior.id}"
            self._to_gms(undo.at, self.t.rederived(prior.at, prior.text, verdict), key)
            self._post(undo.at, Where.GAME, self.t.rederived_post(prior.at, verdict), f"{key}/post")
            self.log.append(f"undo {undo.id}: GM command {prior.id} now: {verdict}")
            for msg in self.redo_msgs.get(prior.id, []):
                if msg.key != f"gm/{prior.id}":  # its answer is the notice above
                    self._emit(Message(undo.at, msg.where, msg.to, msg.text, msg.key))
        self.rederived.clear()
        self.redo_msgs.clear()

    def _current_index(self) -> int:
        """Index in `processed` of the input being handled (an undo re-handles earlier ones)."""
        return self.redo_at if self.redo_at is not None else len(self.processed) - 1

    def _status_text(self, roles: bool = False) -> str:
        """The status GMs get after each command; with `roles` (their `статус`), every seat's role and whether the
        Don is chosen: GMs are trusted, the public never sees it (issue 17 item 13)."""
        ph = self.s.phase
        votes: dict[str, str] = {}
        if ph.kind in ("day", "runoff"):
            ballots = self._ballots(self.s.runoff_posts if ph.kind == "runoff" else self.s.posts)
            votes = {self._nick(v): self._target_nick(t) for v, t in ballots.final.items()}
        missing = []
        # night moves are owed only by night: by day or in Setup the list would name every role as missing
        for sid in (self._alive_ids() if ph.kind == "night" else ()):
            for kind in sorted(self.variant.abilities(self.s.seats[sid].role) - {MoveKind.HUNT}):
                if (sid, kind) not in self.s.moves.by_player and not (
                    kind is MoveKind.SHOT and self.variant.team_shot and self.s.seats[sid].is_mafia
                    and (TEAM_SHOT, kind) in self.s.moves.by_player
                ):
                    missing.append((self._nick(sid), str(kind)))
        unconfirmed = ([x.nick for x in self.s.seats.values() if not x.confirmed] if ph.kind == "setup" else [])
        seats = [(self._nick(sid), x.role, x.alive) for sid, x in self.s.seats.items()] if roles else []
        no_don = roles and Role.DON in self.variant.roles and all(x.role is not Role.DON for x in self.s.seats.values())
        text = self.t.status(ph.label, ph.deadline if ph.kind != "ended" else None, self.s.paused_at is not None,
                             self._alive_nicks(), votes, missing, unconfirmed, seats, no_don, self.s.winner)
        if ph.kind == "night" and not self.variant.team_shot:  # M-5: the GMs see a misfire coming (item 8)
            text = self.t.prose(text, self.t.mafia_mismatch(self._team_targets()))
        return text


def _restored(s: State, kept: tuple[int, int]) -> State:
    """A snapshot's state with its vote-post lists cut back to their length then (new lists: the live ones go on)."""
    s.posts, s.runoff_posts = s.posts[:kept[0]], s.runoff_posts[:kept[1]]
    return s


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
    fields = ", ".join(_field(v) for v in vars(cmd).values() if v not in ("", None))
    return f"{name} {fields}".strip()


def _field(value: object) -> str:
    # A setvote's vote reads as the GM wrote it (it may be posted to the thread when an undo re-derives it).
    if isinstance(value, Vote):
        return str(value.target) + (f" / {value.runoff}" if value.runoff is not None else "")
    return str(value)
