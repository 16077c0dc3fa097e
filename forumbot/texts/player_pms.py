"""What the bot answers players by PM: a move accepted, refused or not understood, the reminders. A part of
`Texts`, which builds on it; every method reads the table and formatting `Texts` sets up."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from forumbot.model import MoveKind, Rejection


class PlayerTexts:
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
