"""What the bot PMs players: the role and the Don in Setup, a move accepted, refused or not understood, the reminders. A part of
`Texts`; it speaks through the shared `Voice` (the table, the formatting, the zone)."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from forumbot.model import MoveKind, Rejection, Role
from forumbot.texts.voice import Voice


# a post of a player's that the count does not take as his vote: its text, its time, and why
NotCounted = tuple[str, datetime | None, Rejection]


class PlayerTexts:
    def __init__(self, v: Voice) -> None:
        self.v = v

    # --- Setup's PMs: the role, the Don, confirmations (C-2, M-1)

    def role_pm(self, role: Role, partners: Sequence[str], choose_don: bool, moves: Sequence[str] = (),
                example: str = "", me: str = "", taken_over: tuple[str, str, datetime | None] | None = None) -> str:
        """`choose_don`: the mafia pick their Don by PM before Day 1 (M-1). `moves`: the role's night moves as
        grammar keys, each shown with an example naming `example` (another player) and `me`. `taken_over`: for
        an account replacing a player mid-game (C-9), the nick it replaces, the phase's label and its deadline
        (None while paused): he joins a game under way and is told where it stands."""
        lines = []
        if taken_over is not None:
            old, label, deadline = taken_over
            lines.append(self.v._("role.taken_over", old=self.v.n(old)) + " " + (
                self.v._("role.taken_over.phase", phase=self.v.phase(label), at=self.v.deadline(deadline)) if deadline
                else self.v._("role.taken_over.paused", phase=self.v.phase(label))))
        lines.append(self.v._("role.pm", role=self.v.f.bold(self.v.role(role))))
        if partners:
            lines.append(self.v._("role.partners", names=self.v.names(partners, bold=True)))
            if choose_don and role is Role.MAFIA:
                lines.append(self.v._("role.choose_don"))
        blocks = [self.v.prose(*lines)]
        examples = self._examples(moves, example, me)
        if examples:
            blocks.append(self.v.section(self.v.T["role.moves"], examples))
        blocks.append(self.v.prose(self.v._("role.confirm")))
        blocks.append(self.v.prose(self.v.T["role.marker"]))  # item 15: once, in the first PM every player gets
        return self.v.post(*blocks)

    def _examples(self, moves: Sequence[str], example: str, me: str) -> list[str]:
        return [
            self.v._("pm.grammar_example", grammar=self.v.T[f"grammar.{k}"],
                   example=self.v._(f"example.{k}", nick=self.v.n(example), me=self.v.n(me)))
            for k in moves if f"grammar.{k}" in self.v.T
        ]

    def don_chosen(self, nick: str, how: str, moves: Sequence[str] = (), example: str = "", me: str = "") -> str:
        """To each mafioso (M-1); `moves`, for the Don himself: what he may do now that he could not as a
        mafioso (M-4's check), shown as in a role PM, since his role PM did not list it."""
        announce = self.v.prose(self.v._(f"don.{how}", nick=self.v.b(nick)))
        examples = self._examples(moves, example, me)
        if not examples:
            return self.v.post(announce)
        return self.v.post(announce, self.v.prose(self.v._("don.you")), self.v.section(self.v.T["don.moves"], examples))

    def confirm_reminder(self) -> str:
        return self.v._("remind.confirm")

    def confirmed(self) -> str:
        return self.v._("pm.confirmed")

    # --- PMs answering players

    def accepted(self, kind: MoveKind, target: str | None, extra: object = None) -> str:
        if kind is MoveKind.HUNT:
            return self.v._("move.hunt", nick=self.v.b(target or ""), guess=self.v.role(extra))  # type: ignore[arg-type]
        if kind is MoveKind.SHOT and extra:
            return self.v._("move.shot_by", nick=self.v.b(target or ""), by=self.v.b(str(extra)))
        return self.v._(f"move.{kind}", nick=self.v.b(target or ""))

    def refused(self, code: str, *args: object) -> str:
        if code == "no_ability" and args:
            return self.v._("refuse.no_ability", arg=self.v.T.get(f"kind.{args[0]}", self.v.esc(str(args[0]))))
        return self.v._(f"refuse.{code}", arg=self.v.b(str(args[0])) if args else "")

    def rejected_line(self, text: str, reason: Rejection, moves: Sequence[str], example: str = "",
                      me: str = "", bare: str | None = None, explain: bool = True,
                      voting: str | None = None) -> str:
        """C-12: what was not understood and why; with `explain`, the sender's own possible `moves` (grammar
        keys: check, shot, shot_by, heal, hunt, don), each with an example naming `example` (another player)
        and `me` (the sender), and what a bare nickname would be (`bare`, a move kind). With `voting` (in a day
        or a runoff: the vote thread's URL, or "" where it is not known) where votes go and what a player may ask
        by PM: a vote sent by PM was answered only «команда не распознана» (issue 28's walk-through)."""
        lines = [self.v._("pm.not_understood", text=self.v.quoted(text), why=self.v.reason(reason, shown=self.v._excerpt(text)))]
        if voting is not None:
            thread = self.v.T["setup.vote.thread"]
            lines.append(self.v._("pm.vote_in_thread", thread=self.v.f.link(voting, thread) if voting else thread))
        if not explain:
            return self.v.prose(*lines)
        expected = self._examples(moves, example, me)
        if expected:
            lines.append(self.v._("pm.expected", grammar="; ".join(expected)))
            if bare is not None:
                lines.append(self.v._("pm.bare", kind=self.v.T[f"kind.{bare}"]))
        else:
            lines.append(self.v._("pm.no_moves"))
        return self.v.prose(*lines)

    def you_are_dead(self) -> str:
        return self.v._("pm.dead")

    def hunting_closed(self) -> str:
        return self.v._("refuse.hunting_closed", arg="")

    def vote_reminder(self, deadline: datetime, autokill: bool) -> str:
        return self.v._("remind.vote_autokill" if autokill else "remind.vote", at=self.v.deadline(deadline))

    def move_reminder(self, deadline: datetime, missing: Sequence[MoveKind], moves: Sequence[str] = ()) -> str:
        text = self.v._("remind.moves", at=self.v.deadline(deadline), moves=", ".join(self.v.T[f"kind.{k}"] for k in missing))
        short = self.v.moves_short([str(m) for m in moves] or [str(m) for m in missing])
        return text + (" " + self.v._("remind.how", moves=short) if short else "")

    # --- C-15: a player asks the bot; M-15: the mafia conference

    def asked_no_vote(self, phase: str) -> str:
        return self.v._(f"asked.no_vote.{'setup' if phase == 'setup' else 'night'}")

    def count_already_sent(self, at: datetime) -> str:
        return self.v._("asked.count_sent", at=self.v.time(at))

    def my_vote(self, target: str, text: str, at: datetime | None, left: int | None, by_gm: bool,
                not_counted: NotCounted | None = None) -> str:
        """His vote (`target`, a nickname or a special word), the post it came from, his later post not counted
        (`not_counted`: its text, time and why) and the changes left."""
        shown = self.v.target(target, bold=True)
        vote = (self.v._("asked.my_vote_gm", target=shown) if by_gm or at is None
                else self.v._("asked.my_vote", target=shown, at=self.v.time(at), text=self.v.quoted(text)))
        return self.v.prose(vote, *self._not_counted(not_counted), self._changes_left(left))

    def my_vote_none(self, left: int | None, not_counted: NotCounted | None = None) -> str:
        """No vote counted; his last post that was no vote and why (issue 28's walk-through: «Засчитанного
        голоса у вас сейчас нет.» alone left him wondering whether his post was read at all)."""
        after = [self.v._("asked.changes_after_first", count=self.v.count(left, "time"))] if left else []
        return self.v.prose(self.v._("asked.my_vote_none"), *self._not_counted(not_counted), *after)

    def _not_counted(self, post: NotCounted | None) -> list[str]:
        if post is None:
            return []
        text, at, rejection = post
        why = self.v.reason(rejection, shown=self.v._excerpt(text))
        if at is None:
            return [self.v._("asked.not_counted.undated", text=self.v.quoted(text), why=why)]
        return [self.v._("asked.not_counted", at=self.v.time(at), text=self.v.quoted(text), why=why)]

    def _changes_left(self, left: int | None) -> str:
        if left is None:
            return self.v.T["asked.changes_unlimited"]
        return self.v._("asked.changes_left", count=self.v.count(left, "time")) if left > 0 else self.v.T["asked.changes_none"]

    def conference_open(self, partners: Sequence[str], closes: datetime) -> str:
        return self.v._("conference.open", at=self.v.deadline(closes), names=self.v.names(partners, bold=True))

    def conference_moved(self, closes: datetime) -> str:
        """M-15: Setup's deadline moved; the conference stays open until Day 1 opens, at `closes`."""
        return self.v._("conference.moved", at=self.v.deadline(closes))

    def conference_closed(self) -> str:
        return self.v._("conference.closed")

    def conference_line(self, nick: str, text: str) -> str:
        """A member's words forwarded as he wrote them, escaped: his markup stays text (M-15)."""
        return self.v._("conference.line", nick=self.v.b(nick), text=self.v.esc(text))

    def conference_sent(self, partners: Sequence[str]) -> str:
        return self.v._("conference.sent", names=self.v.names(partners, bold=True))

    def conference_refused(self, code: str) -> str:
        return self.v._(f"conference.refuse.{code}")

    def shared_pm_refused(self) -> str:
        return self.v._("pm.shared_refused")

    def no_notice_taken(self) -> str:
        """A player's `не писать` (S-5) understood: no sign-up notice will reach him again."""
        return self.v._("pm.no_notice_taken")

    def conference_conversation(self, members: Sequence[str], closes: datetime) -> str:
        return self.v._("conference.conversation", at=self.v.deadline(closes), names=self.v.names(members, bold=True))
