"""The outbox: what the bot owes the forum, delivered exactly once across crashes and concurrent ticks.

Each message is stored under its stable key (insert-if-absent), then delivered in three steps, each its own
transaction: record the attempt; send; record the forum's id. A crash between the last two leaves an
"attempted" row. For a post the next cycle asks the adapter's `find_own_post` for the row's marker (a short
tag derived from the key, ending the post) and sends only if it is not there; one found held for a moderator
(PostQueued: the bot sees its own queued post, the players do not) is recorded "queued" as a fresh one is.
For a PM it asks `find_own_pm` if the adapter has it; an adapter that cannot search sent PMs leaves the row
"uncertain" and it is not sent again: a duplicated role PM or check result is worse than a missing one the GM
sees in `game status`. An adapter that *raises* is telling us the message did not go out, so such a row goes
back to pending, except a post after a timeout-like ForumUnavailable, which stays "attempted" so the marker is
looked for first.

A permanent refusal (FormRejected: no such recipient, a text the forum will not take) is no outage: the row
is set aside as "refused", every GM gets a PM naming it and the forum's reason, and delivery goes on with
the rest, so one bad message never holds up a game (issue 7 item 2). An outage stops delivery, as before, and
so does a transient form refusal (FormTransient: a token expired, a form posted too fast, a topic that moved
on): the row goes back to pending and is sent again next cycle, in its turn.
A post the forum holds for a moderator's approval (PostQueued) is on its way but not out: the row is marked
"queued", neither sent again nor counted as sent, and every GM gets a PM saying so (a moderator must approve it).

The caller holds the game's lock, so no other process delivers the same rows meanwhile.

Its parts: outbox_store (rows, keys and markers, state changes) and outbox_notices (what the GMs are told, the
shadow digest); this module delivers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.forum.adapter import LOCK, OWN_PM, ForumAdapter, can
from forumbot.errors import (
    FloodLimited, ForumError, ForumUnavailable, FormRejected, FormTransient, PartlySent, PostQueued,
)
from forumbot.model import Where
from forumbot.outbox.locks import CLOSE
from forumbot.outbox.notices import (
    record_lock_refused, record_queued, record_refused, record_undelivered, shadow_text, split_chunks,
)
from forumbot.outbox.store import (
    Delivery, Destination, mark_attempt, mark_sent, mark_uncertain, note_error, reset_row, update_rows, marker, with_marker,
    withhold,
)
from forumbot.store.models import OutboxRow

Hook = Callable[[str], None]


def deliver(sessions: sessionmaker[Session], adapter: ForumAdapter, target: Destination, now: datetime,
            hook: Hook = lambda point: None) -> Delivery:
    """Deliver every due row of the game, in order, setting aside the ones the forum refuses for good; a flood
    limit holds back the rest of its kind (posts or PMs) and the other kind goes on; stop at the first other
    forum error (the next cycle goes on)."""
    report = Delivery()
    try:
        attempted = _due(sessions, target, now, "attempted")
        if attempted:
            _recover(sessions, adapter, target, attempted, now, report)
        if target.stale:  # C-14, also for a row recovery just found not sent
            with sessions.begin() as session:
                withhold(session, target.game_id, target.stale)
        refused = -1
        held: set[str] = set()  # kinds ("post", "pm") a flood limit holds back until a later cycle
        # a refusal or a post held for approval queues notices for the GMs: deliver those too
        while refused != len(report.refused) + len(report.queued):
            refused = len(report.refused) + len(report.queued)
            batch: list[OutboxRow] = []
            for row in _gm_first(_due(sessions, target, now, "pending"), target):
                kind = _kind(row, target)
                if kind in held:
                    continue
                if target.shadowed(row):
                    batch.append(row)
                    continue
                if batch:  # the shadow digest due before this row goes first
                    _flood_held(held, report, "pm", lambda: _send_batch(sessions, adapter, target, batch, now,
                                                                         report, hook))
                    batch = []
                    if kind in held:  # this row is a PM too: it waits behind the digest, in order
                        continue
                _flood_held(held, report, kind, lambda: _send_one(sessions, adapter, target, row, now, report, hook))
            if batch:
                _flood_held(held, report, "pm", lambda: _send_batch(sessions, adapter, target, batch, now, report,
                                                                     hook))
    except ForumError as e:
        report.error = e
    return report


def _kind(row: OutboxRow, target: Destination) -> str:
    """The flood timer a row goes out under: a shadowed row is a PM to the GM, whatever it would have been; a lock
    (R-13) is no post and waits for neither timer."""
    if row.where == Where.PM or target.shadowed(row):
        return "pm"
    return "lock" if row.where == Where.LOCK else "post"


def _flood_held(held: set[str], report: Delivery, kind: str, send: Callable[[], None]) -> None:
    """Run `send`; a flood limit holds back its kind only, in order, while the other kind goes on: a PM that
    must wait a minute (MyBB times posts and PMs apart) must not hold a deadline's result post for a whole
    cron interval, nor the reverse. Where one timer covers both (phpBB), the other kind is refused by the
    transport's own pacing, before any request. Any other error still stops delivery."""
    try:
        send()
    except (FloodLimited, PartlySent) as e:
        if isinstance(e, PartlySent) and not isinstance(e.cause, FloodLimited):
            raise
        held.add(kind)
        report.error = report.error or e


def _gm_first(rows: list[OutboxRow], target: Destination) -> list[OutboxRow]:
    """The due rows with the PMs to GMs moved ahead of the other PMs, each group in its order; the posts keep
    their places. At the forum's flood pace ten players' confirmations took four minutes, and the GM's answer
    waited behind them (issue 17 item 11): a GM steering the game is answered first. In shadow mode every PM
    goes to a GM: the digest and the answers keep the order they were due in."""
    if target.shadow_to is not None:
        return rows

    def to_gm(row: OutboxRow) -> bool:
        return _kind(row, target) == "pm" and row.where == Where.PM and row.to in target.gms

    pms = iter([r for r in rows if to_gm(r)] + [r for r in rows if _kind(r, target) == "pm" and not to_gm(r)])
    return [next(pms) if _kind(r, target) == "pm" else r for r in rows]


def _due(sessions, target: Destination, now: datetime, status: str) -> list[OutboxRow]:
    with sessions.begin() as session:
        rows = list(session.scalars(select(OutboxRow).where(
            OutboxRow.game_id == target.game_id, OutboxRow.status == status, OutboxRow.due_at <= now,
        ).order_by(OutboxRow.due_at, OutboxRow.id)))
    # among the rows due at one time a thread is opened before the posts (the day's opening goes into an open
    # thread) and closed after them (the result is posted before the thread closes)
    return sorted(rows, key=lambda r: (r.due_at, _LOCK_ORDER.get((r.where, r.text), 1)))


_LOCK_ORDER = {(Where.LOCK, "unlock"): 0, (Where.LOCK, "lock"): 2, (Where.LOCK, CLOSE): 2}


# --- recovery after a crash between sending and recording -------------------------------------------------


def _recover(sessions, adapter, target: Destination, rows: Sequence[OutboxRow], now, report: Delivery) -> None:
    batches: dict[str, list[OutboxRow]] = {}
    for row in rows:
        if row.batch:
            batches.setdefault(row.batch, []).append(row)
            continue
        if row.where == Where.LOCK:  # a lock done twice is done once (the adapter leaves a closed thread be)
            reset_row(sessions, [row], "interrupted; a lock is simply done again")
            continue
        if row.where == Where.PM:
            found = _find_pm(adapter, row.to or "", row.marker)
        else:
            try:
                found = adapter.find_own_post(target.topic(row.where), row.marker)
            except PostQueued as e:  # on the forum, but only its author sees it: as a fresh PostQueued
                record_queued(sessions, target, [row], e, now, report)
                continue
        if found is not None:
            mark_sent(sessions, [row], found, now)
            report.recovered += 1
        elif row.where == Where.PM and not can(adapter, OWN_PM):
            mark_uncertain(sessions, [row])
            report.uncertain += 1
        else:
            reset_row(sessions, [row], "not found on the forum after an interrupted send")
    for tag, group in batches.items():
        found = _find_pm(adapter, target.shadow_to or "", tag)
        if found is not None:
            mark_sent(sessions, group, found, now)
            report.recovered += len(group)
        elif not can(adapter, OWN_PM):
            mark_uncertain(sessions, group)
            report.uncertain += len(group)
        else:
            reset_row(sessions, group, "not found on the forum after an interrupted send")


def _find_pm(adapter, to: str, tag: str) -> str | None:
    return adapter.find_own_pm(to, tag) if can(adapter, OWN_PM) else None


# --- sending -----------------------------------------------------------------------------------------------


def _send_one(sessions, adapter, target: Destination, row: OutboxRow, now, report: Delivery, hook: Hook) -> None:
    if row.where == Where.LOCK:
        _lock(sessions, adapter, target, row, now, report, hook)
        return
    mark_attempt(sessions, [row], now, batch=None)
    hook("after_attempt")
    try:
        if row.where == Where.PM:
            remote = adapter.send_pm(row.to, target.subject, with_marker(row.text, row.marker))
        else:
            remote = adapter.reply(target.topic(row.where), with_marker(row.text, row.marker))
    except PostQueued as e:
        record_queued(sessions, target, [row], e, now, report)
        return
    except PartlySent as e:
        # some recipients have it: what is left owed is the PM to the others (issue 7 item 5 follow-up)
        row.to = ", ".join(e.remaining)
        update_rows(sessions, [row], to=row.to)
        if isinstance(e.cause, FormRejected) and not isinstance(e.cause, FormTransient):
            record_refused(sessions, target, [row], e.cause, now, report)
            record_undelivered(sessions, target, row, now, report)
            return
        reset_row(sessions, [row], f"{type(e).__name__}: {e}")
        raise
    except FormRejected as e:
        if isinstance(e, FormTransient):  # nothing went out, and the same send may well pass next cycle
            _after_failure(sessions, adapter, [row], e)
            raise
        record_refused(sessions, target, [row], e, now, report)
        record_undelivered(sessions, target, row, now, report)
        return
    except ForumError as e:
        _after_failure(sessions, adapter, [row], e)
        raise
    hook("after_send")
    mark_sent(sessions, [row], remote, now)
    report.sent += 1
    report.ids.append(remote)


def _lock(sessions, adapter, target: Destination, row: OutboxRow, now, report: Delivery, hook: Hook) -> None:
    """R-13: a thread closed or opened (M-15: the conference conversation locked). A refusal (no moderator's right
    there, or an adapter with no lock) sets the row aside and is told to the GMs once per game; nothing else changes.
    An outage stops delivery as for a post."""
    mark_attempt(sessions, [row], now, batch=None)
    hook("after_attempt")
    try:
        if row.text == CLOSE:  # M-15: the conference conversation (only derived where the adapter can)
            adapter.close_conversation(row.to or "", target.subject)
        elif not can(adapter, LOCK):
            raise FormRejected(f"{adapter.engine}: the bot cannot lock threads here "
                               f"(no lock action for this engine)")
        else:
            adapter.lock_thread(target.topic(row.to or ""), row.text == "lock")
    except FormRejected as e:
        if isinstance(e, FormTransient):
            reset_row(sessions, [row], f"{type(e).__name__}: {e}")
            raise
        record_lock_refused(sessions, target, row, e, now, report)
        return
    except ForumError as e:
        reset_row(sessions, [row], f"{type(e).__name__}: {e}")
        raise
    hook("after_send")
    mark_sent(sessions, [row], None, now)
    report.sent += 1


def _send_batch(sessions, adapter, target: Destination, rows: list[OutboxRow], now, report: Delivery,
                hook: Hook) -> None:
    for chunk in split_chunks(rows, target):
        tag = marker(target.game, "shadow:" + chunk[0].key)
        mark_attempt(sessions, chunk, now, batch=tag)
        hook("after_attempt")
        text = with_marker(shadow_text(chunk, target), tag)
        try:
            remote = adapter.send_pm(target.shadow_to, f"[shadow] {target.subject}", text)
        except PostQueued as e:
            record_queued(sessions, target, chunk, e, now, report)
            continue
        except FormRejected as e:
            if isinstance(e, FormTransient):
                _after_failure(sessions, adapter, chunk, e)
                raise
            record_refused(sessions, target, chunk, e, now, report)
            continue
        except ForumError as e:
            _after_failure(sessions, adapter, chunk, e)
            raise
        hook("after_send")
        mark_sent(sessions, chunk, remote, now)
        report.sent += len(chunk)
        report.ids.append(remote)


def _after_failure(sessions, adapter, rows: list[OutboxRow], error: ForumError) -> None:
    maybe_sent = isinstance(error, ForumUnavailable)  # a timeout may come after the forum accepted it
    is_pm = rows[0].where == Where.PM or rows[0].batch is not None
    searchable = can(adapter, OWN_PM) if is_pm else True
    if maybe_sent and searchable:
        note_error(sessions, rows, error)  # stays "attempted": the marker is looked for before re-sending
    else:
        reset_row(sessions, rows, f"{type(error).__name__}: {error}")
