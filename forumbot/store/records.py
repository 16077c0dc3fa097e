"""Reading-side bookkeeping: forums, cursors and raw inputs, written only when something actually changed.

A quiet cycle must not write (a 20-game tick every few minutes would otherwise churn the disk), so every
function here compares before it writes.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Iterable, cast

from sqlalchemy import CursorResult, Executable, select
from sqlalchemy.orm import Session

from forumbot.forum.adapter import ForumPM, ForumPost
from forumbot.store.models import CursorRow, ForumRow, GameRow, InputRow


def insert_ignore(session: Session, model: type, values: dict[str, Any], keys: list[str]) -> bool:
    """INSERT unless a row with the same unique `keys` exists (a concurrent tick may have stored it)."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        # imported here: only the database's own dialect is loaded
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        statement: Executable = pg_insert(model).values(**values).on_conflict_do_nothing(index_elements=keys)
    elif dialect == "sqlite":
        # imported here, as above
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert
        statement = sqlite_insert(model).values(**values).on_conflict_do_nothing(index_elements=keys)
    else:  # pragma: no cover - only the two supported databases
        raise NotImplementedError(dialect)
    result = session.execute(statement)
    return bool(cast(CursorResult[Any], result).rowcount)  # an INSERT's result is a cursor's


def forum_id(session: Session, name: str, engine: str) -> int:
    found = session.scalar(select(ForumRow.id).where(ForumRow.name == name))
    if found is None:
        insert_ignore(session, ForumRow, {"name": name, "engine": engine}, ["name"])
        found = session.scalars(select(ForumRow.id).where(ForumRow.name == name)).one()
    return found


def get_cursor(session: Session, forum: int, stream: str) -> str | None:
    return session.scalar(select(CursorRow.value).where(CursorRow.forum_id == forum, CursorRow.stream == stream))


def set_cursor(session: Session, forum: int, stream: str, value: str | None) -> None:
    row = session.scalar(select(CursorRow).where(CursorRow.forum_id == forum, CursorRow.stream == stream))
    if row is None:
        if value is not None:
            insert_ignore(session, CursorRow, {"forum_id": forum, "stream": stream, "value": value},
                          ["forum_id", "stream"])
    elif row.value != value and value is not None:
        row.value = value


def topic_stream(topic: str) -> str:
    return f"topic:{topic}"


def phase_stream(game_id: int) -> str:
    return f"game:{game_id}:phase"


def reread_stream(game_id: int) -> str:
    return f"game:{game_id}:reread"


def seen_stream(topic: str) -> str:
    """The digest of the posts the last read of `topic` stored (`posts_digest`)."""
    return f"seen:{topic}"


def posts_digest(posts: Iterable[ForumPost]) -> str:
    """What `store_posts` compares of these posts (`_edited`), as one value: a read giving the same digest as the
    one that last stored the thread's posts changes no row, so it need not be compared row by row."""
    seen = [(p.id, p.author, p.text, p.edit_count, p.edited_at is None, getattr(p, "quoted", None)) for p in posts]
    return hashlib.sha256(json.dumps(seen, ensure_ascii=False).encode()).hexdigest()


INBOX = "inbox"


def store_posts(session: Session, forum: int, posts: Iterable[ForumPost], now: datetime,
                topic: str | None = None) -> int:
    """Store new posts and record edits of known ones; return how many rows changed.

    `topic`: the thread as the config names it (and as it was asked for), which is how games find their
    posts; an adapter may spell `ForumPost.topic` differently (an id for a URL).
    """
    return _store(session, forum, [
        dict(kind="post", topic=topic if topic is not None else p.topic, item_id=p.id, author=p.author, author_id=p.author_id, posted_at=p.posted_at,
             edited_at=p.edited_at, edit_count=p.edit_count, subject="", text=p.text, html=p.html,
             quoted=bool(getattr(p, "quoted", False)), posted_latest=getattr(p, "posted_latest", None))
        for p in posts
    ], now)


def store_pms(session: Session, forum: int, pms: Iterable[ForumPM], now: datetime) -> int:
    """Store new PMs: one to the bot alone as a "pm", one written to the bot and others at once (the mafia's
    conference conversation, M-15, or a CC) as a "conv": a game reads it as no move (its sender is told so, the
    mafia's talk in their conversation aside) but a GM's as his command (forumbot/engine/conference.py)."""
    return _store(session, forum, [
        dict(kind="conv" if getattr(p, "shared", False) else "pm", topic="", item_id=p.id, author=p.author,
             author_id=p.author_id, posted_at=p.sent_at, edited_at=None, edit_count=0, subject=p.subject,
             text=p.text, html=p.html, quoted=None, posted_latest=getattr(p, "sent_latest", None))
        for p in pms
    ], now)


# an input kind (at most 10 characters, the column's width): the forum refused for good to deliver one of the
# bot's PMs (a full inbox); the fold reads it as `Where.UNDELIVERED`
REFUSED_PM = "refused"


def store_undelivered(session: Session, game_id: int, outbox_id: int, key: str, to: str, now: datetime) -> int:
    """The forum refused for good to deliver the game's PM `key` (its outbox row `outbox_id`) to `to` (a full
    inbox, PMs closed): stored as an input of that game (topic: the game's name), so its fold sees it (S-4: an offer
    it carried passes on) and an export carries it. Stored once per outbox row."""
    game = session.get_one(GameRow, game_id)
    return _store(session, game.forum_id, [
        dict(kind=REFUSED_PM, topic=game.name, item_id=str(outbox_id), author=to, author_id=None, posted_at=now,
             edited_at=None, edit_count=0, subject="", text=key, html="", quoted=None, posted_latest=None)], now)


def _store(session: Session, forum: int, items: list[dict], now: datetime) -> int:
    """Store `items` (each with its input `kind`), one query a thread for the rows already known."""
    if not items:
        return 0
    changed = 0
    by_topic: dict[str, list[dict]] = {}
    for item in items:
        by_topic.setdefault(item["topic"], []).append(item)
    for topic, group in by_topic.items():
        ids, kinds = sorted({item["item_id"] for item in group}), sorted({item["kind"] for item in group})
        known = {(row.kind, row.item_id): row for row in session.scalars(select(InputRow).where(
            InputRow.forum_id == forum, InputRow.kind.in_(kinds), InputRow.topic == topic,
            InputRow.item_id.in_(ids)))}
        for item in group:
            row = known.get((item["kind"], item["item_id"]))
            if row is None:
                values = dict(item, forum_id=forum, first_text=item["text"],
                              first_edited_at=item["edited_at"], first_seen_at=now, first_quoted=item["quoted"])
                changed += insert_ignore(session, InputRow, values, ["forum_id", "kind", "topic", "item_id"])
            elif _edited(row, item):  # the first stamp stays: a later read of a rough time only drifts (C-1)
                # an edit: the current text follows the forum, the first text and first edit time stay (C-11)
                row.text, row.html = item["text"], item["html"]
                row.edited_at, row.edit_count = item["edited_at"], item["edit_count"]
                if item["quoted"] is not None and row.quoted != item["quoted"]:
                    row.quoted = item["quoted"]
                if row.first_edited_at is None:
                    row.first_edited_at = item["edited_at"]
                changed += 1
    return changed


def mark_deleted(session: Session, forum: int, topic: str, ids: Iterable[str], at: datetime) -> int:
    """C-11: the posts `ids` of `topic` were gone when the thread was re-read at the deadline `at`; return how
    many rows changed (a post marked once keeps its first mark)."""
    ids = list(ids)
    if not ids:
        return 0
    rows = session.scalars(select(InputRow).where(
        InputRow.forum_id == forum, InputRow.kind == "post", InputRow.topic == topic, InputRow.item_id.in_(ids),
        InputRow.deleted_at.is_(None)))
    changed = 0
    for row in rows:
        row.deleted_at = at
        changed += 1
    return changed


def _edited(row: InputRow, item: dict) -> bool:
    """A re-read shows an edit: the text, the edit count, the edit marker or the presence of a quote changed.

    Adapters hand back already-seen posts every cycle; an edit time alone moving is no edit, since a relative
    one ("5 минут назад", "2 hours ago") drifts from read to read, and only the earliest edit time counts (C-11).
    """
    return (row.text != item["text"] or row.edit_count != item["edit_count"]
            or (row.edited_at is None) != (item["edited_at"] is None)
            or (item["quoted"] is not None and bool(row.quoted) != item["quoted"]))
