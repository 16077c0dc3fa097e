"""What the bot PMs players: the role and the Don in Setup, a move accepted, refused or not understood, the reminders. A part of
`Texts`, which builds on it; every method reads the table and formatting `Texts` sets up."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from forumbot.model import MoveKind, Rejection, Role


class PlayerTexts:
    # --- Setup's PMs: the role, the Don, confirmations (C-2, M-1)

    def role_pm(self, role: Role, partners: Sequence[str], choose_don: bool, moves: Sequence[str] = (),
                example: str = "", me: str = "") -> str:
        """`choose_don`: the mafia pick their Don by PM before Day 1 (M-1). `moves`: the role's night moves as
        grammar keys, each shown with an example naming `example` (another player) and `me`."""
        lines = [self._("role.pm", role=self.f.bold(self.role(role)))]
        if partners:
            lines.append(self._("role.partners", names=self.names(partners, bold=True)))
            if choose_don and role is Role.MAFIA:
                lines.append(self._("role.choose_don"))
        blocks = [self.prose(*lines)]
        examples = self._examples(moves, example, me)
        if examples:
            blocks.append(self.section(self.T["role.moves"], examples))
        blocks.append(self.prose(self._("role.confirm")))
        blocks.append(self.prose(self.T["role.marker"]))  # item 15: once, in the first PM every player gets
        return self.post(*blocks)

    def _examples(self, moves: Sequence[str], example: str, me: str) -> list[str]:
        return [
            self._("pm.grammar_example", grammar=self.T[f"grammar.{k}"],
                   example=self._(f"example.{k}", nick=self.n(example), me=self.n(me)))
            for k in moves if f"grammar.{k}" in self.T
        ]

    def don_chosen(self, nick: str, how: str, moves: Sequence[str] = (), example: str = "", me: str = "") -> str:
        """To each mafioso (M-1); `moves`, for the Don himself: what he may do now that he could not as a
        mafioso (M-4's check), shown as in a role PM, since his role PM did not list it."""
        announce = self.prose(self._(f"don.{how}", nick=self.b(nick)))
        examples = self._examples(moves, example, me)
        if not examples:
            return self.post(announce)
        return self.post(announce, self.prose(self._("don.you")), self.section(self.T["don.moves"], examples))

    def confirm_reminder(self) -> str:
        return self._("remind.confirm")

    def confirmed(self) -> str:
        return self._("pm.confirmed")

    # --- PMs answering players

    def accepted(self, kind: MoveKind, target: str | None, extra: object = None) -> str:
        if kind is MoveKind.HUNT:
            return self._("move.hunt", nick=self.b(target or ""), guess=self.role(extra))  # type: ignore[arg-type]
        if kind is MoveKind.SHOT and extra:
            return self._("move.shot_by", nick=self.b(target or ""), by=self.b(str(extra)))
        return self._(f"move.{kind}", nick=self.b(target or ""))

    def refused(self, code: str, *args: object) -> str:
        if code == "no_ability" and args:
            return self._("refuse.no_ability", arg=self.T.get(f"kind.{args[0]}", self.esc(str(args[0]))))
        return self._(f"refuse.{code}", arg=self.b(str(args[0])) if args else "")

    def rejected_line(self, text: str, reason: Rejection, moves: Sequence[str], example: str = "",
                      me: str = "", bare: str | None = None, explain: bool = True) -> str:
        """C-12: what was not understood and why; with `explain`, the sender's own possible `moves` (grammar
        keys: check, shot, shot_by, heal, hunt, don), each with an example naming `example` (another player)
        and `me` (the sender), and what a bare nickname would be (`bare`, a move kind)."""
        lines = [self._("pm.not_understood", text=self.quoted(text), why=self.reason(reason, shown=self._excerpt(text)))]
        if not explain:
            return self.prose(*lines)
        expected = self._examples(moves, example, me)
        if expected:
            lines.append(self._("pm.expected", grammar="; ".join(expected)))
            if bare is not None:
                lines.append(self._("pm.bare", kind=self.T[f"kind.{bare}"]))
        else:
            lines.append(self._("pm.no_moves"))
        return self.prose(*lines)

    def you_are_dead(self) -> str:
        return self._("pm.dead")

    def hunting_closed(self) -> str:
        return self._("refuse.hunting_closed", arg="")

    def vote_reminder(self, deadline: datetime, autokill: bool) -> str:
        return self._("remind.vote_autokill" if autokill else "remind.vote", at=self.time(deadline))

    def move_reminder(self, deadline: datetime, missing: Sequence[MoveKind], moves: Sequence[str] = ()) -> str:
        text = self._("remind.moves", at=self.time(deadline), moves=", ".join(self.T[f"kind.{k}"] for k in missing))
        short = self.moves_short([str(m) for m in moves] or [str(m) for m in missing])
        return text + (" " + self._("remind.how", moves=short) if short else "")

    # --- C-15: a player asks the bot; M-15: the mafia conference

    def asked_no_vote(self, phase: str) -> str:
        return self._(f"asked.no_vote.{'setup' if phase == 'setup' else 'night'}")

    def count_already_sent(self, at: datetime) -> str:
        return self._("asked.count_sent", at=self.time(at))

    def my_vote(self, target: str, text: str, at: datetime | None, left: int | None, by_gm: bool) -> str:
        """His vote (`target`, a nickname or a special word), the post it came from and the changes left."""
        shown = self.target(target, bold=True)
        vote = (self._("asked.my_vote_gm", target=shown) if by_gm or at is None
                else self._("asked.my_vote", target=shown, at=self.time(at), text=self.quoted(text)))
        return self.prose(vote, self._changes_left(left))

    def my_vote_none(self, left: int | None) -> str:
        after = self._("asked.changes_after_first", count=self.count(left, "time")) if left else ""
        return self.prose(self._("asked.my_vote_none"), after) if after else self._("asked.my_vote_none")

    def _changes_left(self, left: int | None) -> str:
        if left is None:
            return self.T["asked.changes_unlimited"]
        return self._("asked.changes_left", count=self.count(left, "time")) if left > 0 else self.T["asked.changes_none"]

    def conference_open(self, partners: Sequence[str], closes: datetime) -> str:
        return self._("conference.open", at=self.time(closes), names=self.names(partners, bold=True))

    def conference_closed(self) -> str:
        return self._("conference.closed")

    def conference_line(self, nick: str, text: str) -> str:
        """A member's words forwarded as he wrote them, escaped: his markup stays text (M-15)."""
        return self._("conference.line", nick=self.b(nick), text=self.esc(text))

    def conference_sent(self, partners: Sequence[str]) -> str:
        return self._("conference.sent", names=self.names(partners, bold=True))

    def conference_refused(self, code: str) -> str:
        return self._(f"conference.refuse.{code}")

    def conference_conversation(self, members: Sequence[str], closes: datetime) -> str:
        return self._("conference.conversation", at=self.time(closes), names=self.names(members, bold=True))
