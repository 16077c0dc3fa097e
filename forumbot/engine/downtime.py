"""C-14: a deadline the bot could not watch. When for more than `downtime_grace` of the `downtime_window` before
a deadline the bot had no successful read of the game's threads (the forum failed, or no tick ran), the deadline
is *disturbed*: it is resolved as usual, but nobody leaves for a missing vote at it (H-5, R-7's `autokill` and
`self_vote`), the result post names the gap, and the GMs get a PM. The activity minimum (`post_minimum`, issue
30 item 1) is waived by the same gap: engine/day.py's `resolve_day` computes it once (`gap`).

Decided from inputs only: the reads are the daemon's records of each tick (Schedule.reads), which an export
carries, and the bot is back when it resolved the deadline (Schedule.resolved, or the resolving tick's time), so a
replay decides the same."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Iterable, Sequence

from forumbot.engine.work import Work

Gap = tuple[datetime, datetime]


def watched_from(deadline: datetime, grace: timedelta, window: timedelta) -> datetime:
    """Where the reads a deadline is judged by begin: a grace before its window. The daemon records every
    successful read from there on (and every failed one always), and none elsewhere, so a quiet tick far from
    any deadline writes nothing (issue 3); what happened before this moment cannot change the part of a gap
    that lies inside the window."""
    return deadline - window - grace


def longest_gap(reads: Sequence[tuple[datetime, bool]], deadline: datetime, back: datetime,
                grace: timedelta, window: timedelta, known_from: datetime | None = None) -> Gap | None:
    """The longest stretch without a successful read that covers more than `grace` of the `window` before
    `deadline`, from the last successful read before it (at the earliest `watched_from`: every successful read
    from there on is recorded) to the first one after it (or `back`, when the bot resolved the deadline); None
    when there is none. Only the reads recorded by `back` count, and none recorded by then means nothing is known
    (a transcript without reads, a game older than the records): no gap. `known_from`: where the daemon's records
    of successful reads surely begin when that is later than the window's start (R-12's early deadline); the
    window before it is not judged."""
    known = [(at, ok) for at, ok in reads if at <= back]
    if not known:
        return None
    start = max(watched_from(deadline, grace, window), known_from or deadline - window - grace)
    good = sorted(at for at, ok in known if ok and at > start)
    marks = [start, *good, back]
    best: tuple[timedelta, datetime, datetime] | None = None
    opens = max(deadline - window, known_from or deadline - window)
    for a, b in zip(marks, marks[1:]):
        covered = min(b, deadline) - max(a, opens)
        if covered > grace and (best is None or covered > best[0]):
            best = (covered, a, b)
    return (best[1], best[2]) if best else None


def disturbed(w: Work, at: datetime) -> Gap | None:
    """C-14: the gap that disturbs the open phase's deadline `at`, or None. The bot is back when it resolved the
    phase: the recorded time, else the resolving tick's (Work.now), else the deadline itself. A day a GM closed
    before its deadline (`конец-фазы`) is not judged: the bot read the GM's command then, and the GM chose the
    moment. The window is judged from the phase's opening on: an outage before it hid no vote of this phase, and
    after a phase a GM or a majority closed early the daemon watched the previous phase's scheduled deadline, not
    this one's window. A day a majority ended (R-12) is judged only from where the daemon surely recorded its
    successful reads, the `watched_from` of the day's own deadline (cycle/reread.py's `watching` follows the
    scheduled one), so an early majority is never taken for an outage of the unrecorded hours before it."""
    tb = w.tb
    if w.gm_closing:
        return None
    back = tb.resolved.get(w.g.phase.label, w.now) or at
    ph = w.g.phase
    known_from = ph.opens if ph.majority is None else max(ph.opens, watched_from(
        ph.majority.scheduled, tb.downtime_grace, tb.downtime_window))
    return longest_gap(tb.reads, at, max(back, at), tb.downtime_grace, tb.downtime_window, known_from)


def waived(w: Work, gap: Gap | None) -> bool:
    """Whether anybody would have left for a missing vote (H-5, R-7) or too few posts (R-11) at a disturbed
    deadline: only then does the result post say the waiver."""
    house = w.tb.variant.house
    return gap is not None and (house.no_show in ("autokill", "self_vote")
                                or (house.post_minimum > 0 and house.post_minimum_action != "warn"))


def per_tick(rows: Iterable[tuple[datetime, bool]]) -> tuple[tuple[datetime, bool], ...]:
    """Each tick's read of a game's threads from the rows recorded per thread (time, the forum answered): one per
    time, successful when every thread read then was, in time order (Schedule.reads)."""
    ticks: dict[datetime, bool] = {}
    for at, ok in rows:
        ticks[at] = ticks.get(at, True) and ok
    return tuple(sorted(ticks.items()))
