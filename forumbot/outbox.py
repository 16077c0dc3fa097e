"""The outbox: what the bot owes the forum, delivered exactly once across crashes and concurrent ticks.

Each message is stored under its stable key (insert-if-absent), then delivered in three steps, each its own
transaction: record the attempt; send; record the forum's id. A crash between the last two leaves an
"attempted" row. For a post the next cycle asks the adapter's `find_own_post` for the row's marker (a short
tag derived from the key, ending the post) and sends only if it is not there. For a PM it asks `find_own_pm`
if the adapter has it; an adapter that cannot search sent PMs leaves the row "uncertain" and it is not sent
again: a duplicated role PM or check result is worse than a missing one the GM sees in `game status`.
An adapter that *raises* is telling us the message did not go out, so such a row goes back to pending, except
a post after a timeout-like ForumUnavailable, which stays "attempted" so the marker is looked for first.

A permanent refusal (FormRejected: no such recipient, a text the forum will not take) is no outage: the row
is set aside as "refused", every GM gets a PM naming it and the forum's reason, and delivery goes on with
the rest, so one bad message never holds up a game (issue 7 item 2). An outage stops delivery, as before, and
so does a transient form refusal (FormTransient: a token expired, a form posted too fast, a topic that moved
on): the row goes back to pending and is sent again next cycle, in its turn.
A post the forum holds for a moderator's approval (PostQueued) is on its way but not out: the row is marked
"queued", neither sent again nor counted as sent, and every GM gets a PM saying so (a moderator must approve it).

The caller holds the game's lock, so no other process delivers the same rows meanwhile.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Iterable, Sequence

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from forumbot.adapter import OWN_PM, ForumAdapter, can
from forumbot.errors import (
    FloodLimited, ForumError, ForumUnavailable, FormRejected, FormTransient, PartlySent, PostQueued,
)
from forumbot.model import Message, Where
from forumbot.store.models import OutboxRow
from forumbot.store.records import insert_ignore

log = logging.getLogger("forumbot.outbox")

# shadow mode: how much one PM to the GM may carry; forums cap PM length (phpBB's default is 60,000 bytes, some
# hosted boards much lower), so stay far below
SHADOW_PM_LIMIT = 4000


def marker(game: str, key: str) -> str:
    return "#fb:" + hashlib.sha256(f"{game}\n{key}".encode()).hexdigest()[:8]


def with_marker(text: str, tag: str) -> str:
    return f"{text}\n\n{tag}"


def enqueue(session: Session, game_id: int, game: str, messages: Iterable[Message], origin: str) -> int:
    """Store the messages whose keys are new; return how many were. Known keys cost no write."""
    messages = list(messages)
    if not messages:
        return 0
    known = set(session.scalars(select(OutboxRow.key).where(OutboxRow.game_id == game_id)))
    added = 0
    for m in messages:
        if m.key in known:
            continue
        known.add(m.key)
        added += insert_ignore(session, OutboxRow, dict(
            game_id=game_id, key=m.key, marker=marker(game, m.key), due_at=m.at, where=str(m.where), to=m.to,
            text=m.text, origin=origin, status="pending", attempts=0,
        ), ["game_id", "key"])
    return added


@dataclass
class Target:
    """Where one game's messages go."""

    game_id: int
    game: str
    game_thread: str
    vote_thread: str
    subject: str
    shadow_to: str | None = None  # set in shadow mode: everything not for a GM goes to this GM instead
    gms: tuple[str, ...] = ()
    language: str = "ru"
    escape: Callable[[str], str] = lambda s: s

    def topic(self, where: str) -> str:
        return self.game_thread if where == Where.GAME else self.vote_thread

    def shadowed(self, row: OutboxRow) -> bool:
        return self.shadow_to is not None and not (row.where == Where.PM and row.to in self.gms)


@dataclass
class Delivery:
    sent: int = 0
    recovered: int = 0  # found on the forum after a crash, recorded without sending
    uncertain: int = 0
    refused: list[str] = field(default_factory=list)  # keys set aside: the forum refused them for good
    error: ForumError | None = None
    ids: list[str] = field(default_factory=list)
    queued: list[str] = field(default_factory=list)  # keys held by the forum for a moderator's approval


Hook = Callable[[str], None]


def deliver(sessions: sessionmaker[Session], adapter: ForumAdapter, target: Target, now: datetime,
            hook: Hook = lambda point: None) -> Delivery:
    """Deliver every due row of the game, in order, setting aside the ones the forum refuses for good; a flood
    limit holds back the rest of its kind (posts or PMs) and the other kind goes on; stop at the first other
    forum error (the next cycle goes on)."""
    report = Delivery()
    try:
        attempted = _due(sessions, target, now, "attempted")
        if attempted:
            _recover(sessions, adapter, target, attempted, now, report)
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


def _kind(row: OutboxRow, target: Target) -> str:
    """The flood timer a row goes out under: a shadowed row is a PM to the GM, whatever it would have been."""
    return "pm" if row.where == Where.PM or target.shadowed(row) else "post"


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


def _gm_first(rows: list[OutboxRow], target: Target) -> list[OutboxRow]:
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


def _due(sessions, target: Target, now: datetime, status: str) -> list[OutboxRow]:
    with sessions.begin() as session:
        return list(session.scalars(select(OutboxRow).where(
            OutboxRow.game_id == target.game_id, OutboxRow.status == status, OutboxRow.due_at <= now,
        ).order_by(OutboxRow.due_at, OutboxRow.id)))


# --- recovery after a crash between sending and recording -------------------------------------------------


def _recover(sessions, adapter, target: Target, rows: Sequence[OutboxRow], now, report: Delivery) -> None:
    batches: dict[str, list[OutboxRow]] = {}
    for row in rows:
        if row.batch:
            batches.setdefault(row.batch, []).append(row)
            continue
        if row.where == Where.PM:
            found = _find_pm(adapter, row.to or "", row.marker)
        else:
            found = adapter.find_own_post(target.topic(row.where), row.marker)
        if found is not None:
            _mark_sent(sessions, [row], found, now)
            report.recovered += 1
        elif row.where == Where.PM and not can(adapter, OWN_PM):
            _mark_uncertain(sessions, [row])
            report.uncertain += 1
        else:
            _reset(sessions, [row], "not found on the forum after an interrupted send")
    for tag, group in batches.items():
        found = _find_pm(adapter, target.shadow_to or "", tag)
        if found is not None:
            _mark_sent(sessions, group, found, now)
            report.recovered += len(group)
        elif not can(adapter, OWN_PM):
            _mark_uncertain(sessions, group)
            report.uncertain += len(group)
        else:
            _reset(sessions, group, "not found on the forum after an interrupted send")


def _find_pm(adapter, to: str, tag: str) -> str | None:
    return adapter.find_own_pm(to, tag) if can(adapter, OWN_PM) else None


# --- sending -----------------------------------------------------------------------------------------------


def _send_one(sessions, adapter, target: Target, row: OutboxRow, now, report: Delivery, hook: Hook) -> None:
    _mark_attempt(sessions, [row], now, batch=None)
    hook("after_attempt")
    try:
        if row.where == Where.PM:
            remote = adapter.send_pm(row.to, target.subject, with_marker(row.text, row.marker))
        else:
            remote = adapter.reply(target.topic(row.where), with_marker(row.text, row.marker))
    except PostQueued as e:
        _queued(sessions, target, [row], e, now, report)
        return
    except PartlySent as e:
        # some recipients have it: what is left owed is the PM to the others (issue 7 item 5 follow-up)
        row.to = ", ".join(e.remaining)
        _update(sessions, [row], to=row.to)
        if isinstance(e.cause, FormRejected) and not isinstance(e.cause, FormTransient):
            _refused(sessions, target, [row], e.cause, now, report)
            return
        _reset(sessions, [row], f"{type(e).__name__}: {e}")
        raise
    except FormRejected as e:
        if isinstance(e, FormTransient):  # nothing went out, and the same send may well pass next cycle
            _after_failure(sessions, adapter, [row], e)
            raise
        _refused(sessions, target, [row], e, now, report)
        return
    except ForumError as e:
        _after_failure(sessions, adapter, [row], e)
        raise
    hook("after_send")
    _mark_sent(sessions, [row], remote, now)
    report.sent += 1
    report.ids.append(remote)


def _send_batch(sessions, adapter, target: Target, rows: list[OutboxRow], now, report: Delivery,
                hook: Hook) -> None:
    for chunk in _chunks(rows, target):
        tag = marker(target.game, "shadow:" + chunk[0].key)
        _mark_attempt(sessions, chunk, now, batch=tag)
        hook("after_attempt")
        text = with_marker(shadow_text(chunk, target), tag)
        try:
            remote = adapter.send_pm(target.shadow_to, f"[shadow] {target.subject}", text)
        except PostQueued as e:
            _queued(sessions, target, chunk, e, now, report)
            continue
        except FormRejected as e:
            if isinstance(e, FormTransient):
                _after_failure(sessions, adapter, chunk, e)
                raise
            _refused(sessions, target, chunk, e, now, report)
            continue
        except ForumError as e:
            _after_failure(sessions, adapter, chunk, e)
            raise
        hook("after_send")
        _mark_sent(sessions, chunk, remote, now)
        report.sent += len(chunk)
        report.ids.append(remote)


def _after_failure(sessions, adapter, rows: list[OutboxRow], error: ForumError) -> None:
    maybe_sent = isinstance(error, ForumUnavailable)  # a timeout may come after the forum accepted it
    is_pm = rows[0].where == Where.PM or rows[0].batch is not None
    searchable = can(adapter, OWN_PM) if is_pm else True
    if maybe_sent and searchable:
        _note_error(sessions, rows, error)  # stays "attempted": the marker is looked for before re-sending
    else:
        _reset(sessions, rows, f"{type(error).__name__}: {error}")


NOTICE = "refused/"  # key prefix of the PMs telling the GMs a message was refused


def _refused(sessions, target: Target, rows: list[OutboxRow], error: FormRejected, now: datetime,
             report: Delivery) -> None:
    why = f"{type(error).__name__}: {error}"
    _update(sessions, rows, status="refused", batch=None, last_error=why)
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    for row in rows:
        heading = words[row.where].format(to=row.to or "")
        log.error("%s: the forum refused %s (%s): %s; set aside, delivery goes on", target.game, heading,
                  row.key, error)
        report.refused.append(row.key)
    notices = [row for row in rows if not row.key.startswith(NOTICE)]  # a refused notice is only logged
    if not notices:
        return
    text = refusal_text(notices, str(error), target)  # one per refused send: a shadow digest is one
    with sessions.begin() as session:
        enqueue(session, target.game_id, target.game, [
            Message(at=now, where=Where.PM, to=gm, key=f"{NOTICE}{notices[0].key}/{gm}", text=text)
            for gm in target.gms
        ], origin="shell")


def refusal_text(rows: Sequence[OutboxRow], why: str, target: Target) -> str:
    """What the GMs are told: which messages the forum refused, how each began, and the forum's reason."""
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    items = []
    for row in rows:
        heading = words[row.where].format(to=target.escape(row.to or ""))
        first = target.escape(row.text.strip().splitlines()[0][:200]) if row.text.strip() else ""
        items.append(words["refused_item"].format(what=heading, key=target.escape(row.key), first=first))
    return words["refused"].format(why=target.escape(why), items="\n".join(items))


_HEADINGS = {
    "ru": {"game": "В игровую тему", "vote": "В тему голосования", "pm": "ЛС для {to}",
           "refused": "Форум отказался принять сообщение, оно не отправлено.\nПричина: {why}\n{items}\n"
                      "Остальные сообщения игры отправляются дальше.",
           "refused_item": "— {what} ({key}), начало: {first}"},
    "en": {"game": "To the game thread", "vote": "To the vote thread", "pm": "PM to {to}",
           "refused": "The forum refused a message; it was not sent.\nReason: {why}\n{items}\n"
                      "The game's other messages go on being delivered.",
           "refused_item": "- {what} ({key}), beginning: {first}"},
}


def shadow_text(rows: Sequence[OutboxRow], target: Target) -> str:
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    parts = []
    for row in rows:
        heading = words[row.where].format(to=target.escape(row.to or ""))
        parts.append(f"=== {heading} ===\n{row.text}")
    return "\n\n".join(parts)


def _chunks(rows: list[OutboxRow], target: Target) -> list[list[OutboxRow]]:
    chunks: list[list[OutboxRow]] = []
    size = 0
    for row in rows:
        length = len(row.text) + 60
        if not chunks or size + length > SHADOW_PM_LIMIT:
            chunks.append([])
            size = 0
        chunks[-1].append(row)
        size += length
    return chunks


# --- held for approval ------------------------------------------------------------------------------------

QUEUED_NOTICE = "queued/"  # key prefix of the PMs telling the GMs a post awaits approval

_QUEUED_TEXT = {
    "ru": {"head": "Форум поставил сообщение в очередь на проверку модератором; бот не отправит его снова.\n"
                   "Форум: {why}\n{items}\nОно появится, когда модератор его одобрит.",
           "item": "— {what} ({key}), начало: {first}"},
    "en": {"head": "The forum queued a message for a moderator's approval; the bot will not send it again.\n"
                   "Forum: {why}\n{items}\nIt appears once a moderator approves it.",
           "item": "- {what} ({key}), beginning: {first}"},
}


def _queued(sessions, target: Target, rows: list[OutboxRow], error: PostQueued, now: datetime,
            report: Delivery) -> None:
    """Set the rows aside as "queued" and tell each GM, once per send (a shadow digest is one)."""
    _update(sessions, rows, status="queued", batch=None, remote_id=f"pending:{error.pending_id or ''}",
            last_error=f"{type(error).__name__}: {error}")
    words = _HEADINGS.get(target.language, _HEADINGS["en"])
    text = _QUEUED_TEXT.get(target.language, _QUEUED_TEXT["en"])
    items = []
    for row in rows:
        log.warning("%s: %s (%s) awaits a moderator's approval: %s", target.game,
                    words[row.where].format(to=row.to or ""), row.key, error)
        report.queued.append(row.key)
        if not row.key.startswith(QUEUED_NOTICE):  # a queued notice is only logged
            first = target.escape(row.text.strip().splitlines()[0][:200]) if row.text.strip() else ""
            items.append(text["item"].format(what=words[row.where].format(to=target.escape(row.to or "")),
                                             key=target.escape(row.key), first=first))
    if not items:
        return
    body = text["head"].format(why=target.escape(str(error)), items="\n".join(items))
    with sessions.begin() as session:
        enqueue(session, target.game_id, target.game, [
            Message(at=now, where=Where.PM, to=gm, key=f"{QUEUED_NOTICE}{rows[0].key}/{gm}", text=body)
            for gm in target.gms], origin="shell")


# --- state changes, one transaction each ---------------------------------------------------------------------


def _update(sessions, rows: list[OutboxRow], **values) -> None:
    with sessions.begin() as session:
        session.execute(update(OutboxRow).where(OutboxRow.id.in_([r.id for r in rows])).values(**values))


def _mark_attempt(sessions, rows, now, batch) -> None:
    _update(sessions, rows, status="attempted", attempted_at=now, batch=batch, attempts=OutboxRow.attempts + 1)


MERGED = "merged:"  # a remote id's prefix: the forum appended the post to the bot's previous one (MyBB)


def _mark_sent(sessions, rows, remote: str | None, now) -> None:
    # a merge is delivery all the same (the marker is in the older post); `game status` tells the operator
    remote_id = MERGED + remote if getattr(remote, "merged", False) else remote or ""
    _update(sessions, rows, status="sent", remote_id=remote_id, sent_at=now, last_error=None)


def _mark_uncertain(sessions, rows) -> None:
    log.warning("%d message(s) may or may not have been sent before a crash; not re-sent: %s",
                len(rows), ", ".join(r.key for r in rows))
    _update(sessions, rows, status="uncertain", last_error="interrupted; this adapter cannot search sent PMs")


def _reset(sessions, rows, why: str) -> None:
    _update(sessions, rows, status="pending", batch=None, last_error=why)


def _note_error(sessions, rows, error: ForumError) -> None:
    _update(sessions, rows, last_error=f"{type(error).__name__}: {error}")
