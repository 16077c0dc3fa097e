"""R-12: a day that ends as soon as one player holds the votes of more than half of the alive players.

Counted after each vote post of the open day (and each GM `голос`, each edit) in thread order, with every vote rule
the final count applies (C-3, C-11, M-8, R-1, H-4): the time of the post that made the majority becomes the day's
deadline, so a later post, even one stamped the same second, is read after the day is over (C-1). With
`majority_delay` the deadline is that long after the post, never later than the day's own; a post that breaks the
majority first puts the day's own deadline back. Never in a runoff (M-10)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import datetime, timedelta

from forumbot.engine.counts import ballots, counts, open_posts
from forumbot.engine.seats import alive_ids, nick
from forumbot.engine.state import Phase
from forumbot.engine.work import Work
from forumbot.model import Agitation, Special
from forumbot.rules.ballots import Majority, VotePost
from forumbot.rules.base import majority_of


def holder(w: Work, at: datetime) -> str | None:
    """The player whose votes, at `at`, are more than half of the alive players (there is at most one)."""
    posts = _as_at(open_posts(w), at)
    need = majority_of(len(alive_ids(w)))
    tally = Counter(t for v, t in ballots(w, posts).final.items()
                    if counts(w, v, t) and not isinstance(t, Special))
    return next((target for target, n in tally.items() if n >= need), None)


def _as_at(posts: list[VotePost], at: datetime) -> list[VotePost]:
    """The posts as the deadline's re-read would see them if the day ended at `at` (C-11: a post deleted by then
    is no vote; H-4: an agitation stays). The day's own list when none is, so its running tally is reused."""
    gone = [n for n, p in enumerate(posts) if p.deleted_at is not None and p.deleted_at <= at and not p.deleted
            and not isinstance(p.parsed, Agitation)]
    if not gone:
        return posts
    view = list(posts)
    for n in gone:
        view[n] = replace(posts[n], deleted=True)
    return view


def shifted(ph: Phase, by: timedelta) -> Phase:
    """The phase with its deadline moved by a GM's `extend` or a `pause`'s length (C-1): a majority's delay and the
    day's own deadline it keeps move with it."""
    held = ph.majority
    return replace(ph, deadline=ph.deadline + by,
                   majority=replace(held, scheduled=held.scheduled + by) if held is not None else None)


def check_majority(w: Work, at: datetime) -> None:
    """R-12 after whatever changed the open day's votes at `at`."""
    g, tb = w.g, w.tb
    house = tb.variant.house
    ph = g.phase
    if not house.majority_ends_day or ph.kind != "day" or g.paused_at is not None or at >= ph.deadline:
        return
    if tb.variant.modkill_cancels_vote and g.day_modkill:
        return  # M-11: this day has no vote to end it
    who = holder(w, at)
    pending = ph.majority
    if who is None:
        if pending is not None:  # a change of vote broke the majority before the delay ran out
            g.phase = replace(ph, deadline=pending.scheduled, majority=None)
            w.log.append(f"{ph.label}: majority for {nick(w, pending.holder)} broken at {at.isoformat()} (R-12)")
        return
    if pending is not None and pending.holder == who:
        return
    scheduled = pending.scheduled if pending is not None else ph.deadline
    ends = min(at + timedelta(minutes=house.majority_delay), scheduled)
    g.phase = replace(ph, deadline=ends, majority=Majority(who, at, scheduled))
    w.log.append(f"{ph.label}: majority for {nick(w, who)} at {at.isoformat()}; the day ends {ends.isoformat()} (R-12)")
