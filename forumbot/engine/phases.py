"""Phases open and the game ends; deaths and what comes with them (C-7, C-8, C-10, M-11, M-12, M-14)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Sequence

from forumbot.engine.conference import open_conference
from forumbot.engine.seats import alive_ids, alive_nicks, example_nick, night_grammar, night_moves, partners, revealed
from forumbot.engine.setup import commitment
from forumbot.engine.speech import how_to_vote, pm, post, post_opening, rules_in_force, to_gms
from forumbot.engine.state import LAST_WORD_CAUSES, Phase
from forumbot.engine.work import Work
from forumbot.model import Death, Role, Where
from forumbot.rules.base import Kill


def open_setup(w: Work, at: datetime) -> None:
    """Setup opens at `at`: the players' post with the draw's commitment (C-2) and every role PM."""
    g, tb = w.g, w.tb
    g.phase = replace(g.phase, opens=at)
    roles = {sid: seat.role for sid, seat in g.seats.items()}
    post(w, at, Where.GAME,
         tb.t.phases.setup_post(list(g.seats), tb.setup.schedule.start, commitment(tb.setup.seed, roles),
                         rules_in_force(w), how_to_vote(w)),
         "setup/players")
    # M-1: with a Don in the variant but none dealt, the mafia choose him
    choose_don = Role.DON in tb.variant.roles and not any(s.role is Role.DON for s in g.seats.values())
    for sid in g.seats:
        pm(w, at, sid, role_pm(w, sid, choose_don), f"setup/role/{sid}")
    open_conference(w, at)  # M-15


def role_pm(w: Work, sid: str, choose_don: bool, replacing: str = "") -> str:
    """The role PM with the role's night moves, an example each (issue 11 item 3); to an account `replacing`
    a player (C-9), whose seat it takes and where the game stands."""
    seat, ph = w.g.seats[sid], w.g.phase
    taken_over = (replacing, ph.label, None if w.g.paused_at else ph.deadline) if replacing else None
    return w.tb.t.players.role_pm(seat.role, partners(w, sid), choose_don, night_moves(w, sid),
                                  example=example_nick(w, sid), me=seat.nick, taken_over=taken_over)


def opening_time(w: Work, due: datetime, length: timedelta) -> datetime:
    """C-14: when the phase due to open at `due` (the open phase's deadline, being resolved) opens. When the bot
    came back only after that phase would have opened and ended, its opening never posted, it opens when the bot
    is back, with its whole length; every later deadline follows from it. The bot is back when it resolved the
    open phase: the recorded time (Schedule.resolved), or in the tick resolving it now, that tick's time."""
    back = w.tb.resolved.get(w.g.phase.label, w.now)
    return back if back is not None and back >= due + length else due


def open_phase(w: Work, kind: str, number: int, due: datetime) -> None:
    g, tb = w.g, w.tb
    sched = tb.setup.schedule
    length = {"day": sched.day, "night": sched.night, "runoff": sched.runoff}[kind]
    at = opening_time(w, due, length)
    late = tb.t.phases.late_opening(due, at) if at != due else None  # C-14: the shift, said in the opening post
    g.phase = ph = Phase(kind, number, at, at + length)
    if late:
        w.log.append(f"{ph.label}: opens when the bot is back, {at.isoformat()}, not {due.isoformat()} (C-14)")
    g.deaths_this_phase = 0
    g.next_count = at + tb.count_every if kind in ("day", "runoff") else None
    g.last_count = ""
    g.count_signature = ()
    if kind == "day":
        g.posts = []
        g.day_modkill = False
        g.doomed = set()
        post_opening(w, at, tb.t.phases.day_opens(number, ph.deadline, alive_nicks(w), late, tb.setup.vote_url),
                     f"{ph.label}/opens")
    elif kind == "runoff":
        g.runoff_posts = []
        g.runoff_speakers = set()
    else:
        g.hunting_open = tb.variant.hunting_open(list(g.seats.values()))
        if not g.hunting_open:
            for hunter in sorted(g.moves.hunts):
                pm(w, at, hunter, tb.t.players.hunting_closed(), f"{ph.label}/hunt-closed/{hunter}")
            g.moves.hunts.clear()
        post_opening(w, at, tb.t.phases.night_opens(number, ph.deadline, night_grammar(w), late), f"{ph.label}/opens")


def end_phase_checks(w: Work, at: datetime, next_kind: str, next_number: int, news: str = "") -> None:
    """C-7: the win check after a day's result or a whole night; then the next phase opens. `news`: the GMs' line
    on the phase just resolved (a night's), said in their PM of the end when this ends the game."""
    g = w.g
    if w.tb.variant.only_bad_left(list(g.seats.values())):  # H-14's stalemate count
        if g.deaths_this_phase:
            g.quiet_day = False
        elif g.phase.kind == "day":
            g.quiet_day = True
    if check_win(w, at, after_night=g.phase.kind == "night", news=news):
        return
    open_phase(w, next_kind, next_number, at)


def game_ending(w: Work, after_night: bool = False) -> tuple[str, str] | None:
    """What ends the game now, if anything: (the winner, why). After a night also H-14's stalemate (a night with
    no death after a quiet day, only the bad left) and M-6's misfires; after a day or a modkill only a win."""
    g, variant = w.g, w.tb.variant
    if after_night and g.quiet_day and not g.deaths_this_phase and variant.only_bad_left(list(g.seats.values())):
        return "draw", "stalemate"
    limit = variant.misfire_limit
    if after_night and limit is not None and g.misfires >= limit:
        return "town", "misfires"  # M-6
    winner = variant.winner(list(g.seats.values()))
    if winner:
        alive = len(alive_ids(w))
        # a draw says why (M-13, R-8, H-14; issue 17 item 15)
        return winner, "" if winner != "draw" else "nobody" if alive == 0 else "draw_at"
    return None


def check_win(w: Work, at: datetime, after_night: bool = False, news: str = "") -> bool:
    found = game_ending(w, after_night)
    if found is not None:
        end(w, at, *found, news=news)
    return found is not None


def end(w: Work, at: datetime, winner: str, why: str, news: str = "") -> None:
    """C-7: the game is over: the end post, and each GM told by PM who won, with the way to the post (after `news`,
    the night's line when the night ended it)."""
    g, tb = w.g, w.tb
    g.winner = winner
    g.ended_at = at
    g.phase = Phase("ended", g.phase.number, at, at)
    g.next_count = None
    roles = [(s.nick, s.role, s.alive, sid) for sid, s in g.seats.items()]
    w.log.append(f"game over: {winner}" + (f" ({why})" if why else ""))
    post(w, at, Where.GAME, tb.t.ending.game_over(winner, why, roles, tb.setup.seed, tb.drawn), "ended/result")
    to_gms(w, at, tb.t.gm.news(tb.setup.game_url, news, tb.t.gm.game_over(winner)), "ended/gm")


def kill(w: Work, sid: str, cause: str, at: datetime) -> None:
    g = w.g
    seat = g.seats[sid]
    seat.alive = False
    seat.died = Death(g.phase.death_label, cause)
    g.deaths_this_phase += 1
    g.doomed.discard(sid)
    w.log.append(f"{seat.died.phase}: {seat.nick} dies ({cause})")
    if cause in LAST_WORD_CAUSES:
        deadline = last_word_deadline(w, at, cause)
        if deadline is not None:
            g.last_words[sid] = deadline


def tell_out(w: Work, at: datetime, kills: Sequence[Kill]) -> None:
    """Each player the vote or the night took out is told by PM, with his last word's deadline (C-8, M-14);
    the result post is the notice of record (issue 17 item 10)."""
    for k in kills:
        seat = w.g.seats[k.nick]
        pm(w, at, k.nick, w.tb.t.guide.you_are_out(k.cause, w.g.last_words.get(k.nick)),
           f"{seat.died.phase if seat.died else w.g.phase.label}/out/{k.nick}")


def last_word_deadline(w: Work, at: datetime, cause: str) -> datetime | None:
    """M-14: a hanged player's last word is due before the night ends; a night victim's 3 h before day ends.

    A deadline that would already be past when the death is announced (a day of 3 h or less) is the end of
    the phase that opens then. None when these deaths end the game (C-7): no phase opens to say it in, and
    the result post would name a time for a night that never comes."""
    if w.tb.variant.winner(list(w.g.seats.values())):
        return None
    sched = w.tb.setup.schedule
    if cause in ("vote", "runoff"):
        return opening_time(w, at, sched.night) + sched.night
    at = opening_time(w, at, sched.day)  # C-14: the day opening late moves it with the day's deadline
    due = at + sched.day - timedelta(hours=3)
    return due if due > at else at + sched.day


def modkill(w: Work, sid: str, at: datetime, reason: str, by: str | None) -> None:
    """C-10, M-11, M-12: a modkill during a day (or runoff) cancels Moscow's vote; win check follows (C-7)."""
    ph = w.g.phase
    t, variant = w.tb.t, w.tb.variant
    already = w.g.day_modkill
    kill(w, sid, "modkill", at)
    if ph.kind in ("day", "runoff"):
        w.g.day_modkill = True
    nick, role = revealed(w, sid)
    # said once a day, and not when this death ends the game (C-7): a GM's walk-through read it twice in a row
    cancels = (variant.modkill_cancels_vote and ph.kind in ("day", "runoff") and not already
               and not variant.winner(list(w.g.seats.values())))
    post(w, at, Where.GAME, t.gm.modkilled(nick, role, reason, tactical=by is None, cancels_vote=cancels),
         f"{ph.label}/modkill/{sid}")
    if by is not None:  # issue 17 item 10: told in person too (a tactical modkill's answer already says it)
        pm(w, at, sid, t.guide.you_are_modkilled(reason), f"{ph.label}/modkilled-pm/{sid}")
    check_win(w, at)
