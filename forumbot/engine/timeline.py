"""Time passing: deadlines resolve, counts go out on their grid (C-6), reminders before deadlines (C-2).

The clock and the count schedule are in the Game, so an undo (C-9) restores them with the rest."""

from __future__ import annotations

from datetime import datetime, timedelta

from forumbot.engine.activity import remind as remind_posts, reminder_due
from forumbot.engine.history import mark, record
from forumbot.engine.counts import ballots, known, post_count
from forumbot.engine.day import resolve_day, resolve_runoff, start_day_one
from forumbot.engine.night import resolve_night
from forumbot.engine.replacement import lapse, next_lapse
from forumbot.engine.seats import alive_ids, missing_moves, possible_moves
from forumbot.engine.speech import pm
from forumbot.engine.state import settled
from forumbot.engine.work import Work
from forumbot.model import MoveKind


def resolve(w: Work, at: datetime) -> None:
    """The open phase's deadline, now (its own, or a GM's end-phase)."""
    g = w.g
    ph = g.phase
    g.resolutions += 1
    w.resolved.append((ph.label, at))
    marked = mark(w, at)
    if ph.kind == "setup":
        start_day_one(w, at)
    elif ph.kind == "day":
        resolve_day(w, at)
    elif ph.kind == "runoff":
        resolve_runoff(w, at)
    elif ph.kind == "night":
        resolve_night(w, at)
    record(w, marked)
    # C-9: nothing is undone past a resolution, so the undo stack keeps no Game past one, and what only an undo
    # reads (the posts and aliases changed in place, the undos' voids, the verdicts told) starts again
    g.overrides, g.rewrites, g.voids, g.told = settled(g.overrides), [], {}, {}


def advance_to(w: Work, t: datetime) -> None:
    """Everything timed up to `t`, in order: deadlines, counts, reminders."""
    g = w.g
    while True:
        timed = next_timed(w)
        if timed is None or timed[0] > t:
            g.clock = t if g.clock is None else max(g.clock, t)
            return
        at, kind = timed
        due = at
        if g.clock is not None and at < g.clock:
            at = g.clock  # overdue after a GM undo (a pause undone): due now, never back in time
        if kind == "deadline":
            resolve(w, at)
            if w.on_resolved is not None and at == due and (g.clock is None or due > g.clock):
                w.on_resolved(at)  # a checkpoint: every input before `due` handled, none after
        elif kind == "count":
            partial = post_count(w, at)
            # on the count's own grid: an overdue count (restored by an undo) keeps the slots it had (C-9)
            g.next_count = count_slot_after(w, due, t, partial)
        elif kind == "offer":
            lapse(w, at)  # S-4
        elif kind.startswith("activity"):
            g.reminded.add(kind)
            with w.knowing(w.tb.resolved.get(kind)):  # C-13: the posts read by when the daemon first reminded
                remind_posts(w, at)
            w.computed.append((kind, at))
        elif kind.startswith("remind"):
            g.reminded.add(kind)
            with w.knowing(w.tb.resolved.get(kind)):  # C-13: the votes read by when the daemon first reminded
                remind(w, at, kind)
            w.computed.append((kind, at))


def recount_until(w: Work, t: datetime) -> None:
    """The counts due up to `t`, for an undo's refold: deadlines cannot fall there (the undo is
    refused then) and reminders are owed, not re-derived, so they go out once the undo is done."""
    g = w.g
    ph = g.phase
    while (g.next_count is not None and ph.kind in ("day", "runoff") and g.next_count <= t
           and g.next_count < ph.deadline):
        at = g.next_count
        partial = post_count(w, at)
        g.next_count = count_slot_after(w, at, t, partial)


def count_slot_after(w: Work, at: datetime, t: datetime, partial: bool = False) -> datetime:
    """The next count's time on its grid. What a count shows changes only with an input or another timed
    event, so the counts before the next of those would all be skipped as unchanged: jump past them. Not past a
    count that left out a post read later (`partial`, C-13): the next one may show it."""
    every = w.tb.count_every
    if partial:
        return at + every
    other = next_timed(w, counts=False)
    bound = max(at, min(t, other[0]) if other else t)
    return at + every * ((bound - at) // every + 1)


def next_timed(w: Work, counts: bool = True) -> tuple[datetime, str] | None:
    g = w.g
    ph = g.phase
    if ph.kind == "ended":
        return None
    found: list[tuple[datetime, str]] = []
    if g.paused_at is None:
        found.append((ph.deadline, "deadline"))
        if ph.kind == "setup":
            key = "remind:setup"
            at = max(ph.opens + (ph.deadline - ph.opens) / 2, ph.deadline - timedelta(hours=12))
            if key not in g.reminded and ph.opens < at < ph.deadline:
                found.append((at, key))
        elif w.tb.remind_before > timedelta(0):
            key = f"remind:{ph.label}"
            at = ph.deadline - w.tb.remind_before
            # a day a majority ended early owes no reminder (it would go out as the day ends)
            if key not in g.reminded and ph.opens < at and ph.majority is None:
                found.append((at, key))
        if (posts_due := reminder_due(w)) is not None:
            found.append(posts_due)
    if (lapses := next_lapse(w)) is not None:  # S-4: a seat offered to the reserve, unanswered
        found.append((lapses, "offer"))
    due = g.next_count
    if counts and due is not None and ph.kind in ("day", "runoff") and due < ph.deadline:
        found.append((due, "count"))
    return min(found) if found else None


def remind(w: Work, at: datetime, kind: str) -> None:
    g, tb = w.g, w.tb
    ph = g.phase
    if kind == "remind:setup":
        for sid, seat in g.seats.items():
            if not seat.confirmed:
                pm(w, at, sid, tb.t.players.confirm_reminder(), f"setup/confirm-reminder/{sid}")
        return
    if ph.kind == "day" and not (tb.variant.modkill_cancels_vote and g.day_modkill):
        voted = set(ballots(w, known(w, g.posts)).final)
        autokill = tb.variant.no_show_autokill  # H-5
        for sid in alive_ids(w):
            if sid not in voted:
                pm(w, at, sid, tb.t.players.vote_reminder(ph.deadline, autokill), f"{ph.label}/remind/{sid}")
    if ph.kind == "night":
        for sid in alive_ids(w):
            missing = missing_moves(w, sid)
            if missing:
                short = [m for m in possible_moves(w, sid) if m in {str(k) for k in missing} or
                         (m == "shot_by" and MoveKind.SHOT in missing)]
                pm(w, at, sid, tb.t.players.move_reminder(ph.deadline, missing, short), f"{ph.label}/remind/{sid}")
