"""The night: players' PMs (C-2, C-5, C-12, M-1, M-12, H-7..H-12) and the night's resolution (M-3..M-6,
H-7..H-11). A new night move is a `MoveKind`, its parse (forumbot/parse), a branch in `move` and the variant's
`night` (forumbot/rules); what the bot answers is a text key (forumbot/texts)."""

from __future__ import annotations

import random
from datetime import datetime

from forumbot import parse
from forumbot.engine.asked import answered
from forumbot.engine.phases import end_phase_checks, game_ending, kill, last_word_deadline, modkill, tell_out
from forumbot.engine.seats import alive_nicks, example_nick, hunting_open, nick, possible_moves, revealed, seat_of
from forumbot.engine.seats import team_targets
from forumbot.engine.speech import pm, post, to_gms
from forumbot.engine.state import TEAM_SHOT
from forumbot.engine.work import Work
from forumbot.model import Input, Move, MoveKind, RejectedLine, Rejection, Role, Where
from forumbot.rules import NightMoves


def resolve_night(w: Work, at: datetime) -> None:
    g, tb = w.g, w.tb
    n = g.phase.number
    moves = moves_in_force(w)
    rng = random.Random(f"{tb.setup.seed}/night/{n}")
    report = tb.variant.night(g.seats, moves, rng, n)
    w.log.extend(f"night {n}: {line}" for line in report.log)
    for k in report.deaths:
        kill(w, k.nick, k.cause, at)
    g.misfires = g.misfires + 1 if report.misfire else 0  # M-6's streak
    maniac = next((sid for sid, s in g.seats.items() if s.role is Role.MANIAC), None)
    shot = moves.get(maniac, MoveKind.SHOT) if maniac else None
    g.maniac_last = shot.target if shot else None  # H-8: the move in force tonight
    lw = last_word_deadline(w, at, "mafia")
    text = tb.t.phases.night_result(n, report, lambda sid: revealed(w, sid), tb.variant.open_roles,
                             lw if report.deaths else None)
    post(w, at, Where.GAME, text, f"night {n}/result")
    tell_out(w, at, report.deaths)
    for checker, target_nick, result in report.checks:
        pm(w, at, checker, tb.t.phases.check_result(target_nick, result), f"night {n}/check/{checker}")
    g.moves = NightMoves()
    # the GMs learn the night's result by PM (issue 28): it happens out of their sight; they know the roles. When
    # the night ends the game, the PM of the end says it; else it goes now, before a next phase that may open late
    news = tb.t.gm.night_news(n, [(g.seats[k.nick].nick, g.seats[k.nick].role, k.cause) for k in report.deaths],
                              report.misfire)
    over = game_ending(w, after_night=True) is not None
    if not over:
        to_gms(w, at, tb.t.gm.news(tb.setup.game_url, news), f"night {n}/gm")
    end_phase_checks(w, at, "day", n + 1, news if over else "")


def moves_in_force(w: Work) -> NightMoves:
    """C-5: a move whose sender or target is dead when the night resolves is no move."""
    seats = w.g.seats
    kept = NightMoves()
    for (sid, kind), move in w.g.moves.by_player.items():
        if sid == TEAM_SHOT:
            if move.executor and seats[move.executor].alive and seats[move.target].alive:  # type: ignore[index]
                kept.by_player[(sid, kind)] = move
            continue
        if not seats[sid].alive:
            continue
        if kind is not MoveKind.CHECK and not seats[move.target].alive:  # type: ignore[index]
            continue
        kept.by_player[(sid, kind)] = move
    if w.g.hunting_open:
        for hunter, move in w.g.moves.hunts.items():
            if seats[hunter].alive and seats[move.target].alive:  # type: ignore[index]
                kept.hunts[hunter] = move
    # H-10: a Doctor whose hunt request stands cannot heal that night.
    for hunter in kept.hunts:
        kept.by_player.pop((hunter, MoveKind.HEAL), None)
    return kept


def player_pm(w: Work, inp: Input) -> None:
    sid = seat_of(w, inp.author)
    key = f"pm/{inp.id}"
    if sid is None:
        w.log.append(f"PM {inp.id} from {inp.author}, who plays no seat: not answered")
        return
    if answered(w, inp, sid):  # C-15's questions and M-15's conference are no moves
        return
    g, t = w.g, w.tb.t
    seat = g.seats[sid]
    if not seat.alive:
        pm(w, inp.at, sid, t.players.you_are_dead(), key)
        return
    abilities = w.tb.variant.abilities(seat.role)
    # C-12: a bare nickname is the one possible move; a hunt always needs its keyword
    bare = sorted(abilities - {MoveKind.HUNT})
    bare_kind = bare[0] if len(bare) == 1 else None
    results = parse.parse_pm(
        inp.text, w.matcher(), variant=w.tb.variant.name, alive=alive_nicks(w),
        everyone=[s.nick for s in g.seats.values()], bare_kind=bare_kind, sender=seat.nick,
    )
    replies: list[str] = []
    shot = g.moves.by_player.get((sid, MoveKind.SHOT))
    # issue 28 item 9: a reply that only acknowledges tonight's moves is moot once the night's result is out
    night = g.phase.label if g.phase.kind == "night" else ""
    only_moves = bool(night)
    voting = w.tb.setup.vote_url if g.phase.kind in ("day", "runoff") else None
    for n, item in enumerate(results, 1):
        if isinstance(item, RejectedLine):
            replies.append(t.players.rejected_line(item.text, item.reason, possible_moves(w, sid),
                                           example=example_nick(w, sid), me=seat.nick, bare=bare_kind,
                                           voting=voting))
            only_moves = False
        else:
            before = _moves_held(w)
            replies.append(move(w, inp, sid, item))
            only_moves = only_moves and _replaced(before, _moves_held(w))
        if g.phase.kind == "ended":
            break
        if not seat.alive and n < len(results):  # out by his own modkill (M-12): no move after it
            replies.append(t.players.you_are_dead())
            break
    now = g.moves.by_player.get((sid, MoveKind.SHOT))
    if seat.alive and seat.is_mafia and now is not shot:
        # M-5: a shot kills only when every living mafioso's target matches (issue 17 item 8)
        replies.append(t.guide.mafia_targets(team_targets(w)))
    if replies:
        pm(w, inp.at, sid, "\n".join(replies), key, moot_after=night if only_moves else "")
    if seat.alive and seat.is_mafia and now is not shot and now is not None and now.target \
            and (shot is None or shot.target != now.target):
        tell_partners(w, inp, sid, now.target, night)


def _moves_held(w: Work) -> list[object]:
    """The move objects in force now: a move accepted replaces one (a new object), a refusal changes none."""
    return [*w.g.moves.by_player.values(), *w.g.moves.hunts.values()]


def _replaced(before: list[object], after: list[object]) -> bool:
    # by identity: the same move sent again is a new object, accepted and acknowledged again
    return len(before) != len(after) or any(a is not b for a, b in zip(before, after))


def tell_partners(w: Work, inp: Input, sid: str, target: str, night: str = "") -> None:
    """M-5: the other living mafiosi learn a partner's new target at once; a shot kills only when all match,
    and only the sender used to see the list (issue 28 item 9). Moot, like the sender's ack, after `night`."""
    targets = team_targets(w)
    for partner, seat in w.g.seats.items():
        if partner != sid and seat.alive and seat.is_mafia:
            pm(w, inp.at, partner, w.tb.t.guide.partner_target(nick(w, sid), nick(w, target), targets),
               f"pm/{inp.id}/partner/{partner}", moot_after=night)


def move(w: Work, inp: Input, sid: str, mv: Move) -> str:
    g, t, variant = w.g, w.tb.t, w.tb.variant
    seat = g.seats[sid]
    ph = g.phase
    target = g.accounts.get(mv.target, mv.target) if mv.target else None
    if mv.kind is MoveKind.CONFIRM:
        seat.confirmed = True
        return t.players.confirmed()
    if mv.kind is MoveKind.DON:
        if Role.DON not in variant.roles or not seat.is_mafia:
            return t.players.refused("don_not_mafia")
        if ph.kind != "setup" or any(s.role is Role.DON for s in g.seats.values()):
            return t.players.refused("don_closed")
        if target is None or not g.seats[target].is_mafia:
            return t.players.refused("don_target_not_mafia")
        g.don_nomination = target
        return t.players.accepted(mv.kind, nick(w, target))
    if mv.kind is MoveKind.MODKILL:
        if not variant.tactical_modkill:
            return t.players.refused("no_tactical_modkill")
        modkill(w, sid, inp.at, reason="", by=None)
        return t.players.accepted(mv.kind, seat.nick)
    if mv.kind not in variant.abilities(seat.role):
        return t.players.refused("no_ability", mv.kind)
    if ph.kind == "ended":
        return t.players.refused("ended")
    if mv.kind is MoveKind.HUNT:
        if not hunting_open(w):
            return t.players.refused("hunting_closed")
        g.moves.hunts[sid] = Move(mv.kind, target, guess=mv.guess)
        return t.players.accepted(mv.kind, nick(w, target), mv.guess or Role.MAFIA)  # type: ignore[arg-type]
    if mv.kind is MoveKind.SHOT and seat.role is Role.MANIAC:  # H-8, refused at once: he can choose again
        if mv.executor is not None:
            return t.players.refused("maniac_executor")
        if target == sid:
            return t.players.refused("maniac_self")
        if target == g.maniac_last:
            return t.players.refused("maniac_repeat", nick(w, target))  # type: ignore[arg-type]
    if mv.kind is MoveKind.SHOT and variant.team_shot and seat.is_mafia:
        executor = g.accounts.get(mv.executor, mv.executor) if mv.executor else sid
        ex = g.seats.get(executor)
        if ex is None or not ex.is_mafia or not ex.alive:
            return t.players.rejected_line(mv.executor or "", Rejection("bad_executor", mv.executor or ""), [],
                                   explain=False)
        g.moves.by_player[(TEAM_SHOT, MoveKind.SHOT)] = Move(mv.kind, target, executor=executor)
        return t.players.accepted(mv.kind, nick(w, target), nick(w, executor))  # type: ignore[arg-type]
    g.moves.by_player[(sid, mv.kind)] = Move(mv.kind, target)
    return t.players.accepted(mv.kind, nick(w, target))  # type: ignore[arg-type]
