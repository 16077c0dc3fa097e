"""Deadlines of the day: Setup's end opens Day 1 (M-1), a day's vote (M-7..M-9, H-3..H-6, R-5..R-7) and its
runoff (M-10). A new day rule is a branch here or a `HouseRules` field the variant reads (forumbot/rules)."""

from __future__ import annotations

import random
from datetime import datetime

from forumbot.engine.activity import activity_leavers
from forumbot.engine.conference import close_conference
from forumbot.engine.downtime import disturbed, waived
from forumbot.engine.counts import ballots, count_text, counts, drop_deleted, runoff_votes
from forumbot.engine.phases import end_phase_checks, game_ending, kill, last_word_deadline, open_phase, tell_out
from forumbot.engine.seats import alive_ids, example_nick, night_moves, nick, revealed
from forumbot.engine.speech import pm, post, to_gms
from forumbot.engine.work import Work
from forumbot.model import Role, Where
from forumbot.rules.base import DayOutcome, Kill, Runoff


def start_day_one(w: Work, at: datetime) -> None:
    g, tb = w.g, w.tb
    unconfirmed = [s.nick for s in g.seats.values() if not s.confirmed]
    # M-1: a variant with a Don whose draw dealt none lets the mafia choose him, else a lot does
    if Role.DON in tb.variant.roles and not any(s.role is Role.DON for s in g.seats.values()):
        mafia = [sid for sid, s in g.seats.items() if s.is_mafia and s.alive]
        don = g.don_nomination
        how = "nomination"
        if don not in mafia:
            don = sorted(mafia)[random.Random(f"{tb.setup.seed}/don").randrange(len(mafia))] if mafia else None
            how = "lot"
        if don is not None:
            g.seats[don].role = Role.DON
            w.log.append(f"don: {g.seats[don].nick} by {how}")
            for sid in mafia:
                moves = night_moves(w, sid) if sid == don else []
                pm(w, at, sid, tb.t.players.don_chosen(g.seats[don].nick, how, moves, example=example_nick(w, sid),
                                               me=g.seats[sid].nick), f"setup/don/{sid}")
    for gm in tb.gms:
        pm(w, at, gm, tb.t.phases.unconfirmed_to_gm(unconfirmed), f"setup/unconfirmed/{gm}")
    close_conference(w, at)  # M-15
    open_phase(w, "day", 1, at)


def resolve_day(w: Work, at: datetime) -> None:
    g, tb = w.g, w.tb
    variant = tb.variant
    ph = g.phase
    n = ph.number
    drop_deleted(w, g.posts, at)
    found = ballots(w, g.posts)
    count = count_text(w, final=True) + "\n\n"
    gap = disturbed(w, at)  # C-14: the bot could not read the forum before this deadline: no no-show leaves
    idle, warned = activity_leavers(w, at)  # too few posts in the game thread
    idle_waived = gap is not None and bool(idle)
    if idle_waived:  # C-14: nor anybody for too few posts: those leavers are warned instead
        warned, idle = [sid for sid in alive_ids(w) if sid in {*warned, *idle}], []
    if warned:  # R-11's warning, in the result post, before a runoff's opening too
        count += tb.t.activity.post_minimum_warning([nick(w, sid) for sid in warned], variant.house.post_minimum) + "\n\n"
    if variant.modkill_cancels_vote and g.day_modkill:  # M-11: no vote; R-11's autokills still happen
        idle_kills = [Kill(sid, "autokill") for sid in idle]
        w.autokill_why = dict.fromkeys(idle, "posts")
        for k in idle_kills:
            kill(w, k.nick, k.cause, at)
        text = tb.t.phases.day_cancelled_by_modkill(n, idle_kills, lambda sid: revealed(w, sid), dict.fromkeys(idle, "posts"))
        post(w, at, Where.GAME, count + text, f"{ph.label}/result")
        tell_out(w, at, idle_kills)
        end_phase_checks(w, at, "night", n)
        return
    voted = set(found.final)
    no_show = {sid for sid in alive_ids(w) if variant.no_show_autokill and gap is None and sid not in voted}
    autokills = [  # H-4's repeat agitators, H-5's no-shows where the variant autokills them, R-11's idle: one each
        Kill(sid, "autokill") for sid in alive_ids(w) if sid in g.doomed or sid in no_show or sid in idle
    ]
    votes = found.in_post_order({v: t for v, t in found.final.items() if counts(w, v, t)})
    autokill_why = {k.nick: "agitation" if k.nick in g.doomed else
                    "no_vote_posts" if k.nick in no_show and k.nick in idle else
                    "posts" if k.nick in idle else "no_vote" for k in autokills}
    w.autokill_why = dict(autokill_why)
    if autokills:
        outcome = DayOutcome(reason="autokill")
    else:
        outcome = variant.day_outcome(votes, n, alive_ids(w), no_show_waived=gap is not None)
    if outcome.runoff:
        start_runoff(w, at, outcome, count)
        return
    for k in autokills + list(outcome.deaths):
        kill(w, k.nick, k.cause, at)
    lw = last_word_deadline(w, at, "vote")
    early = (nick(w, ph.majority.holder), ph.majority.at) if ph.majority else None
    w.waived_why = waived(w, gap, any(sid not in voted for sid in alive_ids(w)), idle_waived) or ""
    w.waived_gap = gap if w.waived_why else None
    post(w, at, Where.GAME,
         count + tb.t.phases.day_result(n, outcome, autokills, lambda sid: revealed(w, sid), lw, autokill_why, early,
                                  w.waived_gap, w.waived_why),
         f"{ph.label}/result")
    if gap is not None:
        w.log.append(f"{ph.label}: disturbed, no successful read from {gap[0].isoformat()} to {gap[1].isoformat()}"
                     " (C-14)")
        # the PM advises only what can still be done: these deaths may end the game (C-7)
        over = game_ending(w) is not None
        # it names what the gap waived as the result post does (issue 28)
        told = tb.t.gm.downtime_to_gm(ph.label, gap, tb.downtime_grace, tb.downtime_window, over, w.waived_why)
        to_gms(w, at, told, f"{ph.label}/downtime")
    tell_out(w, at, autokills + list(outcome.deaths))
    end_phase_checks(w, at, "night", n)


def runoff_rules(w: Work) -> Runoff:
    variant = w.tb.variant
    assert isinstance(variant, Runoff)  # only a variant with has_runoff opens a runoff
    return variant


def start_runoff(w: Work, at: datetime, outcome: DayOutcome, count: str) -> None:
    g = w.g
    n = g.phase.number
    g.leaders = outcome.runoff
    g.hang_all = runoff_rules(w).runoff_is_hang_all(len(alive_ids(w)))
    open_phase(w, "runoff", n, at)
    opens = g.phase.opens  # C-14: later than `at` when the bot came back only after the whole runoff
    late = w.tb.t.phases.late_opening(at, opens) if opens != at else None
    names = [nick(w, x) for x in outcome.runoff]
    w.log.append(f"day {n}: tie between {', '.join(names)}; runoff")
    post(w, opens, Where.GAME, count + w.tb.t.phases.runoff_opens(n, names, g.hang_all, g.phase.deadline, late,
                                                                   w.tb.setup.vote_url),
         f"day {n}/runoff")


def resolve_runoff(w: Work, at: datetime) -> None:
    g, tb = w.g, w.tb
    n = g.phase.number
    drop_deleted(w, g.runoff_posts, at)
    count = count_text(w, final=True) + "\n\n"
    if g.day_modkill:
        post(w, at, Where.GAME, count + tb.t.phases.runoff_cancelled(n), f"runoff {n}/result")
        end_phase_checks(w, at, "night", n)
        return
    votes = runoff_votes(w)
    outcome = runoff_rules(w).runoff_outcome(votes, g.leaders, g.hang_all)
    for k in outcome.deaths:
        kill(w, k.nick, k.cause, at)
    lw = last_word_deadline(w, at, "vote")
    post(w, at, Where.GAME, count + tb.t.phases.runoff_result(n, outcome, lambda sid: nick(w, sid), lw), f"runoff {n}/result")
    tell_out(w, at, outcome.deaths)
    end_phase_checks(w, at, "night", n)
