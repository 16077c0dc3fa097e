"""Questions about the seats of the game as it stands: who is alive, who an account plays, what a seat may send.
Queries only: nothing here changes the game."""

from __future__ import annotations

from typing import Iterable

from forumbot import parse
from forumbot.engine.state import TEAM_SHOT
from forumbot.engine.work import Work
from forumbot.model import MoveKind, Rejection, Role, Special, Target, Vote
from forumbot.rules import RoleTeam
from forumbot.rules.ballots import VotePost


def alive_ids(w: Work) -> list[str]:
    return [sid for sid, s in w.g.seats.items() if s.alive]


def alive_nicks(w: Work) -> list[str]:
    return [s.nick for s in w.g.seats.values() if s.alive]


def nick(w: Work, sid: str) -> str:
    return w.g.seats[sid].nick


def target_nick(w: Work, target: Target) -> str:
    return target if isinstance(target, Special) else nick(w, target)


def poster(w: Work, post: VotePost) -> str:
    """Who wrote a vote post, as the count names him. A non-player's post keeps his account name, which
    may be a seat's id when he is the account a GM `replace` took that seat from (C-9)."""
    if isinstance(post.parsed, Rejection) and post.parsed.code == "not_a_player":
        return post.voter
    return w.g.seats[post.voter].nick if post.voter in w.g.seats else post.voter


def seat_of(w: Work, author: str) -> str | None:
    """The seat an account plays: the account as the forum names it, case aside (C-3), never C-4-folded."""
    key = parse.account_key(author)
    return next((sid for account, sid in w.g.accounts.items() if parse.account_key(account) == key), None)


def target_id(w: Work, target: Target) -> Target:
    return target if isinstance(target, Special) else w.g.accounts.get(target, target)


def to_seat_ids(w: Work, parsed):  # type: ignore[no-untyped-def]
    if isinstance(parsed, Vote):
        runoff = target_id(w, parsed.runoff) if parsed.runoff is not None else None
        return Vote(target_id(w, parsed.target), runoff)
    return parsed


def revealed(w: Work, sid: str) -> tuple[str, Role | None]:
    seat = w.g.seats[sid]
    return seat.nick, seat.role if w.tb.variant.open_roles else None


def partners(w: Work, sid: str) -> list[str]:
    seat = w.g.seats[sid]
    if not seat.is_mafia:
        return []
    return [s.nick for k, s in w.g.seats.items() if k != sid and s.is_mafia]


def hunting_open(w: Work) -> bool:
    """H-12: fixed when a night opens; by day, what the next night would say now."""
    if w.g.phase.kind == "night":
        return w.g.hunting_open
    return w.tb.variant.hunting_open(list(w.g.seats.values()))


def possible_moves(w: Work, sid: str) -> list[str]:
    """C-12: what this sender may send now, as grammar keys (texts show each with an example)."""
    seats, variant = w.g.seats, w.tb.variant
    seat = seats[sid]
    moves: list[str] = []
    if Role.DON in variant.roles and seat.is_mafia and w.g.phase.kind == "setup" \
            and not any(s.role is Role.DON for s in seats.values()):
        moves.append("don")  # M-1: the mafia choose their Don during Setup
    for kind in sorted(variant.abilities(seat.role)):
        if kind is MoveKind.HUNT and not hunting_open(w):
            continue
        if kind is MoveKind.HUNT and not any(s.role is Role.MANIAC for s in seats.values()):
            moves.append("hunt_mafia")  # a cast without a Maniac leaves only the mafia to guess
            continue
        moves.append(kind)
        if kind is MoveKind.SHOT and variant.team_shot and seat.is_mafia:
            moves.append("shot_by")  # H-7
    return moves


def night_moves(w: Work, sid: str) -> list[str]:
    """What the seat may send at night, as grammar keys (the Setup-only `дон` left out)."""
    return [m for m in possible_moves(w, sid) if m != "don"]


def example_nick(w: Work, sid: str) -> str:
    """Another alive player to name in an example, outside the sender's mafia team where one is left (a
    mafioso's «убить Маша» naming his own partner read as advice), or the sender when nobody else is."""
    me = w.g.seats[sid]
    others = [s for k, s in w.g.seats.items() if k != sid and s.alive]
    outside = [s for s in others if not (me.is_mafia and s.is_mafia)]
    return (outside or others or [me])[0].nick


def night_grammar(w: Work) -> list[str]:
    """The short forms of the night moves, for the night's opening post. With closed roles (M-2, R-9) they
    are the moves of the cast as it started, never of who is alive: a night post that stopped saying
    «проверка НИК» once the Sheriff and the Don died told everyone so (issue 17 item 5)."""
    if w.tb.variant.open_roles:
        return _ordered(m for sid in alive_ids(w) for m in night_moves(w, sid))
    return _ordered(_cast_moves(w))


def _cast_moves(w: Work) -> list[str]:
    """Every night move some role of the dealt cast has, whoever is alive and whether hunting is open."""
    maniac = any(s.role is Role.MANIAC for s in w.g.seats.values())
    return [move for seat in w.g.seats.values() for move in seat_moves(w, seat, maniac)]


def seat_moves(w: Work, seat: RoleTeam, maniac: bool) -> list[str]:
    """The night moves a seat's role has, as the role PM's guide names them: a hunt is the Maniac's where the cast
    deals one, else the hunt on the mafia; a mafia shot in a variant whose team shoots adds the shooter's line."""
    variant = w.tb.variant
    moves: list[str] = []
    for kind in sorted(variant.abilities(seat.role)):
        if kind is MoveKind.HUNT:
            moves.append("hunt" if maniac else "hunt_mafia")
            continue
        moves.append(str(kind))
        if kind is MoveKind.SHOT and variant.team_shot and seat.is_mafia:
            moves.append("shot_by")
    return moves


def _ordered(moves: Iterable[str]) -> list[str]:
    found: list[str] = []
    for move in moves:
        if move not in found:
            found.append(move)
    order = ["check", "shot", "shot_by", "heal", "hunt", "hunt_mafia"]
    return sorted(found, key=lambda m: order.index(m) if m in order else len(order))


def team_targets(w: Work) -> list[tuple[str, str | None]]:
    """M-5: each alive mafioso and the target of his shot now (None: none sent yet)."""
    out: list[tuple[str, str | None]] = []
    for sid, seat in w.g.seats.items():
        if seat.is_mafia and seat.alive:
            shot = w.g.moves.by_player.get((sid, MoveKind.SHOT))
            out.append((seat.nick, nick(w, shot.target) if shot and shot.target else None))
    return out


def missing_moves(w: Work, sid: str) -> list[MoveKind]:
    """The night moves this seat still owes (a mafioso's shot is filed by the team's one in Free Hunt, H-7)."""
    seat, variant = w.g.seats[sid], w.tb.variant
    needed = variant.abilities(seat.role) - {MoveKind.HUNT}
    if variant.team_shot and seat.is_mafia and (TEAM_SHOT, MoveKind.SHOT) in w.g.moves.by_player:
        needed = needed - {MoveKind.SHOT}
    return [k for k in sorted(needed) if (sid, k) not in w.g.moves.by_player]

