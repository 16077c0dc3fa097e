"""The game's last post: the winner, every role and the draw players can check (C-2), at an end or a stop.
A part of `Texts`, which builds on it; every method reads the table and formatting `Texts` sets up."""

from __future__ import annotations

import shlex
from typing import Sequence

from forumbot.model import Role


class EndingTexts:
    # --- the end
    def game_over(self, winner: str, why: str, roles: Sequence[tuple], seed: int, drawn: str = "") -> str:
        """`roles`: (nick, role, alive[, seat]) per seat, `seat` the nickname it started under. `drawn`: the exact
        string whose SHA-256 the opening post gave (C-2), printed with the command that checks it."""
        head = [self._(f"end.{winner}")]
        if why:
            head.append(self._(f"end.why.{why}", alive=self.count(sum(1 for r in roles if r[2]), "player")))
        items = []
        for nick, role, alive, *rest in roles:
            seat = rest[0] if rest else nick
            line = self._("end.role", nick=self.b(nick), role=self.role(role))
            if seat != nick:
                line += self._("end.seat", seat=self.n(seat))
            if not alive:
                line += self._("end.out")
            items.append(line)
        blocks = [self.f.bold(self.prose(*head)) if self.f.name == "bbcode" else self.prose(*map(self.f.bold, head)),
                  self.section(self.T["end.roles"], items)]
        blocks += self._verification(roles, seed, drawn)
        return self.post(*blocks)

    def _verification(self, roles: Sequence[tuple], seed: int, drawn: str) -> list[str]:
        """C-2: the seed, the exact string whose SHA-256 the opening post gave, and the command that checks it."""
        if not drawn:
            return [self.prose(self._("end.seed", seed=seed))]
        # the note on a Don chosen after the draw only where the game has a Don (not in Free Hunt)
        has_don = any(str(r[1]) == "don" for r in roles)
        return [self.prose(self._("end.drawn" if has_don else "end.drawn_no_don", seed=seed)), self.f.code(drawn),
                self.prose(self.T["end.check"]), self.f.code(f"printf '%s' {shlex.quote(drawn)} | sha256sum")]

    def stopped(self, reason: str, roles: Sequence[tuple[str, Role, bool]], seed: int, drawn: str = "") -> str:
        """`forumbot game stop`: the game ends with no winner, roles revealed and the draw verifiable as at a real
        end (C-2); the GM's reason as «Причина: …»."""
        head = [self.f.bold(self._("end.stopped"))]
        if reason.strip():
            head.append(self._("end.stop_reason", reason=self.esc(reason.strip())))
        items = [self._("end.role", nick=self.b(nick), role=self.role(role)) + ("" if alive else self._("end.out"))
                 for nick, role, alive in roles]
        return self.post(self.prose(*head), self.section(self.T["end.roles"], items),
                         *self._verification(roles, seed, drawn))
