"""The outbox's rows: each message stored once under its stable key with its marker, where a game's messages go
(Target), what a delivery did (Delivery), and each change of a row's state, one transaction each."""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from typing import Callable, Collection, Iterable

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from forumbot.errors import ForumError
from forumbot.forum.adapter import ReplyId
from forumbot.model import Message, Where
from forumbot.store.models import OutboxRow
from forumbot.store.records import insert_ignore

log = logging.getLogger("forumbot.outbox")  # the outbox's logger, as before the split: the log lines read the same


# The tag at the end of each message the bot sends: how it finds its own posts again (find_own_post, a restore's
# check) and what the pages strip from a post's first line. One shape, written by `marker`, read by MARKER.
MARKER = re.compile(r"#fb:[0-9a-f]{8}")


def marker(game: str, key: str) -> str:
    return "#fb:" + hashlib.sha256(f"{game}\n{key}".encode()).hexdigest()[:8]


def with_marker(text: str, tag: str) -> str:
    return f"{text}\n\n{tag}"


def enqueue(session: Session, game_id: int, game: str, messages: Iterable[Message], origin: str,
            stored: Collection[str] = ()) -> int:
    """Store the messages whose keys are new; return how many were. Known keys cost no write. `stored`: keys the
    caller knows the outbox has (the tip's due messages, issue 19): only the others are looked up."""
    messages = [m for m in messages if m.key not in stored] if stored else list(messages)
    if not messages:
        return 0
    keys = select(OutboxRow.key).where(OutboxRow.game_id == game_id)
    if stored:
        keys = keys.where(OutboxRow.key.in_({m.key for m in messages}))
    known = set(session.scalars(keys))
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
class Destination:
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
    # C-14: keys of the interim counts and reminders of phases already resolved; never sent, withheld instead
    stale: frozenset[str] = frozenset()

    signup_thread: str = ""  # the sign-up's own thread (S-1); "" = the game thread

    def topic(self, where: str) -> str:
        if where == Where.SIGNUP:
            return self.signup_thread or self.game_thread
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
    # keys of the game's own PMs the forum refused for good, stored as inputs of the game (S-4: a refused offer)
    undelivered: list[str] = field(default_factory=list)

    def then(self, later: "Delivery") -> "Delivery":
        """This delivery and a later one of the same tick, as one (the error is the later one's)."""
        return Delivery(self.sent + later.sent, self.recovered + later.recovered, self.uncertain + later.uncertain,
                        self.refused + later.refused, later.error, self.ids + later.ids, self.queued + later.queued,
                        self.undelivered + later.undelivered)


# --- state changes, one transaction each ---------------------------------------------------------------------


def update_rows(sessions, rows: list[OutboxRow], **values) -> None:
    with sessions.begin() as session:
        session.execute(update(OutboxRow).where(OutboxRow.id.in_([r.id for r in rows])).values(**values))


def mark_attempt(sessions, rows, now, batch) -> None:
    update_rows(sessions, rows, status="attempted", attempted_at=now, batch=batch, attempts=OutboxRow.attempts + 1)


MERGED = "merged:"  # a remote id's prefix: the forum appended the post to the bot's previous one (MyBB)


def mark_sent(sessions, rows, remote: str | None, now) -> None:
    # a merge is delivery all the same (the marker is in the older post); `game status` tells the operator
    remote_id = MERGED + remote if isinstance(remote, ReplyId) and remote.merged else remote or ""
    update_rows(sessions, rows, status="sent", remote_id=remote_id, sent_at=now, last_error=None)


def mark_uncertain(sessions, rows) -> None:
    log.warning("%d message(s) may or may not have been sent before a crash; not re-sent: %s",
                len(rows), ", ".join(r.key for r in rows))
    update_rows(sessions, rows, status="uncertain", last_error="interrupted; this adapter cannot search sent PMs")


def reset_row(sessions, rows, why: str) -> None:
    update_rows(sessions, rows, status="pending", batch=None, last_error=why)


def withhold(session: Session, game_id: int, keys: Collection[str]) -> int:
    """C-14: the rows of these keys still waiting to go out are withheld, never sent: an interim count or reminder
    of a phase already resolved, queued before its deadline while the forum was failing. A row already sent, or
    "attempted" (it may be on the forum: recovery looks first), stays as it is. Returns how many were withheld."""
    if not keys:
        return 0
    ids = list(session.scalars(select(OutboxRow.id).where(  # a read first: a tick with none of them writes nothing
        OutboxRow.game_id == game_id, OutboxRow.status == "pending", OutboxRow.key.in_(sorted(keys)))))
    if ids:
        session.execute(update(OutboxRow).where(OutboxRow.id.in_(ids)).values(
            status="withheld", batch=None, last_error="its phase was resolved before it could be sent (C-14)"))
        log.info("game %s: %d interim count(s)/reminder(s) of a resolved phase withheld, never sent late (C-14)",
                 game_id, len(ids))
    return len(ids)


def note_error(sessions, rows, error: ForumError) -> None:
    update_rows(sessions, rows, last_error=f"{type(error).__name__}: {error}")
