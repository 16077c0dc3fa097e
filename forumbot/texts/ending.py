"""The game's last post: the winner, every role and the draw players can check (C-2), at an end or a stop.
A part of `Texts`; it speaks through the shared `Voice` (the table, the formatting, the zone)."""

from __future__ import annotations

import shlex
from typing import Any, Sequence

from forumbot.model import Role
from forumbot.texts.voice import Voice


class EndingTexts:
    def __init__(self, v: Voice) -> None:
        self.v = v

    # --- the end
    def game_over(self, winner: str, why: str, roles: Sequence[tuple[Any, ...]], seed: int, drawn: str = "") -> str:
        """`roles`: (nick, role, alive[, seat]) per seat, `seat` the nickname it started under. `drawn`: the exact
        string whose SHA-256 the opening post gave (C-2), printed with the command that checks it."""
        head = [self.v._(f"end.{winner}")]
        if why:
            head.append(self.v._(f"end.why.{why}", alive=self.v.count(sum(1 for r in roles if r[2]), "player")))
        items = []
        for nick, role, alive, *rest in roles:
            seat = rest[0] if rest else nick
            line = self.v._("end.role", nick=self.v.b(nick), role=self.v.role(role))
            if seat != nick:
                line += self.v._("end.seat", seat=self.v.n(seat))
            if not alive:
                line += self.v._("end.out")
            items.append(line)
        blocks = [self.v.f.bold(self.v.prose(*head)) if self.v.f.name == "bbcode" else self.v.prose(*map(self.v.f.bold, head)),
                  self.v.section(self.v.T["end.roles"], items)]
        blocks += self._verification(roles, seed, drawn)
        return self.v.post(*blocks)

    def _verification(self, roles: Sequence[tuple[Any, ...]], seed: int, drawn: str) -> list[str]:
        """C-2: the seed, the exact string whose SHA-256 the opening post gave, and the command that checks it."""
        if not drawn:
            return [self.v.prose(self.v._("end.seed", seed=seed))]
        # the note on a Don chosen after the draw only where the game has a Don (not in Free Hunt)
        has_don = any(str(r[1]) == "don" for r in roles)
        return [self.v.prose(self.v._("end.drawn" if has_don else "end.drawn_no_don", seed=seed)), self.v.f.code(drawn),
                self.v.prose(self.v.T["end.check"]), self.v.f.code(f"printf '%s' {shlex.quote(drawn)} | sha256sum")]

    def stopped(self, reason: str, roles: Sequence[tuple[str, Role, bool]], seed: int, drawn: str = "") -> str:
        """`forumbot game stop`: the game ends with no winner, roles revealed and the draw verifiable as at a real
        end (C-2); the GM's reason as «Причина: …»."""
        head = [self.v.f.bold(self.v._("end.stopped"))]
        if reason.strip():
            head.append(self.v._("end.stop_reason", reason=self.v.esc(reason.strip())))
        items = [self.v._("end.role", nick=self.v.b(nick), role=self.v.role(role)) + ("" if alive else self.v._("end.out"))
                 for nick, role, alive in roles]
        return self.v.post(self.v.prose(*head), self.v.section(self.v.T["end.roles"], items),
                         *self._verification(roles, seed, drawn))
