"""C-14: a deadline the bot could not watch. When for more than `downtime_grace` of the `downtime_window` before
a deadline the bot had no successful read of the game's threads (the forum failed, or no tick ran), the deadline
is *disturbed*: it is resolved as usual, but nobody leaves for a missing vote at it (H-5, R-7's `autokill` and
`self_vote`), the result post names the gap, and the GMs get a PM. The activity minimum (`post_minimum`, issue
30 item 1) is waived by the same gap: engine/day.py's `resolve_day` computes it once (`gap`).

Decided from inputs only: the reads are the daemon's records of every tick, as spans of ticks with one outcome
(Schedule.reads), which an export carries, and the bot is back when it resolved the deadline (Schedule.resolved,
or the resolving tick's time), so a replay decides the same."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Iterable, Sequence

from forumbot.engine.work import Work
from forumbot.model import ReadSpan

Gap = tuple[datetime, datetime]


def longest_gap(reads: Sequence[ReadSpan], deadline: datetime, back: datetime,
                grace: timedelta, window: timedelta, known_from: datetime | None = None) -> Gap | None:
    """The longest stretch without a successful read that covers more than `grace` of the `window` before
    `deadline`, from the last successful read before it (a successful span's `last`, however long before the
    window) to the first one after it (or `back`, when the bot resolved the deadline); None when there is none.
    Only the reads recorded by `back` count, and none recorded by then means nothing is known (a transcript
    without reads, a game older than the records): no gap. A stretch never starts before the first record: what
    the records do not know is not named. `known_from`: where the window is judged from when that is later than
    its start (the phase's opening)."""
    known = [span for span in reads if span.first <= back]
    if not known:
        return None
    opens = max(deadline - window, known_from) if known_from else deadline - window
    best: tuple[timedelta, datetime, datetime] | None = None
    since = min(span.first for span in known)  # the records begin here
    for first, last in sorted((span.first, min(span.last, back)) for span in known if span.ok):
        best = _longer(best, since, first, deadline, opens, grace)
        since = max(since, last)
    best = _longer(best, since, back, deadline, opens, grace)
    return (best[1], best[2]) if best else None


def _longer(best: tuple[timedelta, datetime, datetime] | None, a: datetime, b: datetime, deadline: datetime,
            opens: datetime, grace: timedelta) -> tuple[timedelta, datetime, datetime] | None:
    """The stretch from `a` to `b` without a successful read when it covers more than `grace` of the window
    (from `opens` to `deadline`) and more than `best` does; else `best`."""
    covered = min(b, deadline) - max(a, opens)
    return (covered, a, b) if covered > grace and (best is None or covered > best[0]) else best


def disturbed(w: Work, at: datetime) -> Gap | None:
    """C-14: the gap that disturbs the open phase's deadline `at`, or None. The bot is back when it resolved the
    phase: the recorded time, else the resolving tick's (Work.now), else the deadline itself. A day a GM closed
    before its deadline (`конец-фазы`) is not judged: the bot read the GM's command then, and the GM chose the
    moment. The window is judged from the phase's opening on: an outage before it hid no vote of this phase (a
    day a majority ended early, R-12, is judged over the window before that moment: every tick is recorded)."""
    tb = w.tb
    if w.gm_closing:
        return None
    back = tb.resolved.get(w.g.phase.label, w.now) or at
    return longest_gap(tb.reads, at, max(back, at), tb.downtime_grace, tb.downtime_window, w.g.phase.opens)


def waived(w: Work, gap: Gap | None, no_vote: bool, posts: bool) -> str | None:
    """What the result post says the disturbed deadline waived (C-14), as the reason an autokill would have had:
    "no_vote" (H-5, R-7's `autokill` and `self_vote`), "posts" (R-11) or "no_vote_posts". `no_vote`, `posts`:
    whether anybody would have left for a missing vote, for too few posts; when nobody would have, the reasons
    the house rules hold. None when the deadline is not disturbed or no rule makes anybody leave for either: then
    the post says nothing of it."""
    house = w.tb.variant.house
    vote_rule = house.no_show in ("autokill", "self_vote")
    posts_rule = house.post_minimum > 0 and house.post_minimum_action != "warn"
    if gap is None or not (vote_rule or posts_rule):
        return None
    if not (no_vote or posts):
        no_vote, posts = vote_rule, posts_rule
    return "no_vote_posts" if no_vote and posts else "posts" if posts else "no_vote"


def per_tick(rows: Iterable[tuple[datetime, bool]]) -> tuple[tuple[datetime, bool], ...]:
    """Each tick's read of a game's threads from the rows recorded per thread (time, the forum answered): one per
    time, successful when every thread read then was, in time order (Schedule.reads)."""
    ticks: dict[datetime, bool] = {}
    for at, ok in rows:
        ticks[at] = ticks.get(at, True) and ok
    return tuple(sorted(ticks.items()))


def tick_spans(rows: Iterable[tuple[datetime, bool]]) -> tuple[ReadSpan, ...]:
    """The per-read format (a transcript's `reads` of {"at", "ok"}, the records before spans): each tick a span
    of its own, so a stretch between two ticks is judged exactly as it was."""
    return tuple(ReadSpan(at, at, ok) for at, ok in per_tick(rows))
