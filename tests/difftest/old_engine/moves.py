"""PMs from players: night moves, confirmations, Don nominations, tactical modkill (C-2, C-5, C-12, M-1, M-12, H-7..H-12)."""

from __future__ import annotations

from forumbot import parse
from difftest.old_engine.state import TEAM_SHOT
from forumbot.model import (
    Input,
    Move,
    MoveKind,
    RejectedLine,
    Rejection,
    Role,
)
from forumbot.rules import NightMoves


class MovesMixin:
    """Engine methods for players' PMs; state and helpers come from the Engine."""

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
        # C-12: a bare nickname is the one possible move; a hunt always needs its keyword
        bare = sorted(abilities - {MoveKind.HUNT})
        bare_kind = bare[0] if len(bare) == 1 else None
        results = parse.parse_pm(
            inp.text, self.matcher, variant=self.variant.name, alive=self._alive_nicks(),
            everyone=[s.nick for s in self.s.seats.values()], bare_kind=bare_kind,
            sender=seat.nick,
        )
        replies: list[str] = []
        shot = self.s.moves.by_player.get((sid, MoveKind.SHOT))
        for n, item in enumerate(results, 1):
            if isinstance(item, RejectedLine):
                replies.append(self.t.rejected_line(
                    item.text, item.reason, self._possible_moves(sid), example=self._example_nick(sid),
                    me=seat.nick, bare=bare_kind))
            else:
                replies.append(self._move(inp, sid, item))
            if self.s.phase.kind == "ended":
                break
            if not seat.alive and n < len(results):  # out by his own modkill (M-12): no move after it
                replies.append(self.t.you_are_dead())
                break
        if seat.alive and seat.is_mafia and self.s.moves.by_player.get((sid, MoveKind.SHOT)) is not shot:
            # M-5: a shot kills only when every living mafioso's target matches (issue 17 item 8)
            replies.append(self.t.mafia_targets(self._team_targets()))
        if replies:
            self._pm(inp.at, sid, "\n".join(replies), key)

    def _possible_moves(self, sid: str) -> list[str]:
        """C-12: what this sender may send now, as grammar keys (texts show each with an example)."""
        seat = self.s.seats[sid]
        moves: list[str] = []
        if Role.DON in self.variant.roles and seat.is_mafia and self.s.phase.kind == "setup" \
                and not any(s.role is Role.DON for s in self.s.seats.values()):
            moves.append("don")  # M-1: the mafia choose their Don during Setup
        for kind in sorted(self.variant.abilities(seat.role)):
            if kind is MoveKind.HUNT and not self._hunting_open():
                continue
            if kind is MoveKind.HUNT and not any(s.role is Role.MANIAC for s in self.s.seats.values()):
                moves.append("hunt_mafia")  # a cast without a Maniac leaves only the mafia to guess
                continue
            moves.append(kind)
            if kind is MoveKind.SHOT and self.variant.team_shot and seat.is_mafia:
                moves.append("shot_by")  # H-7
        return moves

    def _example_nick(self, sid: str) -> str:
        """Another alive player to name in an example, outside the sender's mafia team where one is left (a
        mafioso's «убить Маша» naming his own partner read as advice), or the sender when nobody else is."""
        me = self.s.seats[sid]
        others = [s for k, s in self.s.seats.items() if k != sid and s.alive]
        outside = [s for s in others if not (me.is_mafia and s.is_mafia)]
        return (outside or others or [me])[0].nick

    def _hunting_open(self) -> bool:
        """H-12: fixed when a night opens; by day, what the next night would say now."""
        if self.s.phase.kind == "night":
            return self.s.hunting_open
        return self.variant.hunting_open(list(self.s.seats.values()))

    def _move(self, inp: Input, sid: str, move: Move) -> str:
        seat = self.s.seats[sid]
        t = self.t
        ph = self.s.phase
        target = self.s.accounts.get(move.target, move.target) if move.target else None
        if move.kind is MoveKind.CONFIRM:
            seat.confirmed = True
            return t.confirmed()
        if move.kind is MoveKind.DON:
            if Role.DON not in self.variant.roles or not seat.is_mafia:
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
            if not self._hunting_open():
                return t.refused("hunting_closed")
            self.s.moves.hunts[sid] = Move(move.kind, target, guess=move.guess)
            return t.accepted(move.kind, self._nick(target), move.guess or Role.MAFIA)
        if move.kind is MoveKind.SHOT and seat.role is Role.MANIAC:  # H-8, refused at once: he can choose again
            if move.executor is not None:
                return t.refused("maniac_executor")
            if target == sid:
                return t.refused("maniac_self")
            if target == self.s.maniac_last:
                return t.refused("maniac_repeat", self._nick(target))
        if move.kind is MoveKind.SHOT and self.variant.team_shot and seat.is_mafia:
            executor = self.s.accounts.get(move.executor, move.executor) if move.executor else sid
            ex = self.s.seats.get(executor)
            if ex is None or not ex.is_mafia or not ex.alive:
                return t.rejected_line(move.executor or "", Rejection("bad_executor", move.executor or ""), [],
                                       explain=False)
            self.s.moves.by_player[(TEAM_SHOT, MoveKind.SHOT)] = Move(move.kind, target, executor=executor)
            return t.accepted(move.kind, self._nick(target), self._nick(executor))
        self.s.moves.by_player[(sid, move.kind)] = Move(move.kind, target)
        return t.accepted(move.kind, self._nick(target))

    def _team_targets(self) -> list[tuple[str, str | None]]:
        """M-5: each alive mafioso and the target of his shot now (None: none sent yet)."""
        out: list[tuple[str, str | None]] = []
        for sid, seat in self.s.seats.items():
            if seat.is_mafia and seat.alive:
                shot = self.s.moves.by_player.get((sid, MoveKind.SHOT))
                out.append((seat.nick, self._nick(shot.target) if shot and shot.target else None))
        return out

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
