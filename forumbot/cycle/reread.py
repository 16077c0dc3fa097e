"""The remembered phase of each game and the re-read of the vote thread before a day's deadline (C-11)."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.cycle import held_posts
from forumbot.forum.adapter import REREAD, ForumAdapter, ForumPost, can
from forumbot.config.types import GameConfig
from forumbot.errors import PostGone
from forumbot.engine.results import GameRun
from forumbot.store.models import CursorRow, InputRow
from forumbot.store.records import (get_cursor, mark_deleted, phase_stream, posts_digest, reread_stream, seen_stream,
                                    set_cursor, store_posts)
from forumbot.cycle.context import Context, GameOutcome

log = logging.getLogger("forumbot.tick")  # the tick's logger, as before the split: the log lines read the same


# --- the re-read before a day's deadline (C-11) ---------------------------------------------------------------
#
# An ordinary cycle reads only the last page of the vote thread, so an edit of a vote post on an older page of a
# busy day would go unseen. Each fold's open phase is remembered (a cursor row, written only when it changes);
# when a cycle is about to fold past the deadline of a remembered day or runoff, it first re-reads the vote
# thread from the page holding the phase's first post still on the forum (a deleted one's link answers 404, 403
# or elsewhere: the next is tried), so every edit made during the phase is stored before the deadline is
# resolved. A second cursor row marks the deadline re-read: once per deadline, whatever the cycles.

_warned_no_reread: set[str] = set()
EARLIER_STARTS = 3  # stored posts before the phase tried as the re-read's start when every post of it is gone


def phase_value(result: GameRun) -> str:
    """The fold's open phase as remembered (the phase cursor's value); with R-12, the day the last majority ended
    or will end (the dashboard shows it)."""
    value: dict[str, object] = {
        "phase": result.phase,
        "opens": result.phase_opens.isoformat() if result.phase_opens else None,
        "deadline": result.next_deadline.isoformat() if result.next_deadline else None,
    }
    last = result.history[-1] if result.history else None
    if last is not None and last.majority is not None:
        value["majority"] = {"day": last.label, "nick": last.majority[0], "at": last.majority[1].isoformat(),
                             "ended": last.closed is not None}
    return json.dumps(value, sort_keys=True)


def remember_phase(session: Session, forum_id: int, game_id: int, result: GameRun, known: str | None) -> None:
    value = phase_value(result)
    if value != known:  # a quiet cycle neither writes nor asks again
        set_cursor(session, forum_id, phase_stream(game_id), value)


def closed_early(known: str | None, result: GameRun) -> datetime | None:
    """When the remembered day or runoff is over in this fold before its scheduled deadline: when it closed (the
    next phase's opening; None when the fold went further than one phase, or the phase is not over)."""
    if not known:
        return None
    last = json.loads(known)
    if last.get("phase", "").split(" ")[0] not in ("day", "runoff") or not last.get("deadline"):
        return None
    if result.phase == last["phase"] or result.phase_opens is None:
        return None
    if result.phase_opens >= datetime.fromisoformat(last["deadline"]):
        return None  # closed at (or after) its deadline: the ordinary re-read has run
    return result.phase_opens


def _reread_from_first_there(ctx: Context, adapter: ForumAdapter, reread: Callable[..., list[ForumPost]],
                             topic: str, ids: list[str], earlier: list[str],
                             ) -> tuple[list[ForumPost], str | None, list[str]]:
    """The re-read from the first of the phase's stored posts `ids` still on the forum, else from the newest of
    `earlier` (stored posts before the phase, oldest first) that is: its posts, the post it started at (None:
    none could) and the posts tried first whose own link said they are gone (PostGone, or a re-read without
    them: a deleted post's link may answer 404, 403 or a redirect elsewhere, issue 26 item 3)."""
    order = [*earlier, *ids]
    refused: list[str] = []
    for start in [*ids, *reversed(earlier)]:
        at = order.index(start)
        try:
            posts = ctx.retry(adapter, lambda: reread(topic, start, order[at:]))  # called before the loop goes on
        except PostGone:
            posts = []
        if any(p.id == start for p in posts):
            return posts, start, refused
        refused.append(start)
    return [], None, refused


def reread_before_deadline(ctx: Context, adapter: ForumAdapter, game: GameConfig, game_id: int, forum_id: int,
                            started: datetime, until: datetime, outcome: GameOutcome,
                            closed_at: datetime | None = None,
                            waiting: list[tuple[str, list[ForumPost]]] | None = None) -> str | None:
    """Re-read the vote thread if the remembered phase is a day or runoff about to be resolved and not re-read
    for this deadline yet (the sign-up's thread for an open sign-up about to close, S-1); return the remembered phase (its cursor value). `closed_at`: the fold shows the phase
    closed then, before its deadline (a GM `конец-фазы`). `waiting` gets the players' posts found held for a
    moderator, by thread (the GMs are told)."""
    with ctx.sessions.begin() as session:
        values = dict(session.execute(select(CursorRow.stream, CursorRow.value).where(
            CursorRow.forum_id == forum_id, CursorRow.stream.in_([phase_stream(game_id), reread_stream(game_id)]))).all())
    known, done = values.get(phase_stream(game_id)), values.get(reread_stream(game_id))
    if not known:
        return known
    last = json.loads(known)
    kind = last.get("phase", "").split(" ")[0]
    # S-1: an open sign-up is re-read before its close like a day: a post deleted by then was never made
    if kind not in ("day", "runoff", "signup") or not last.get("deadline") \
            or not last.get("opens") or done == last["deadline"]:
        return known
    if closed_at is None and datetime.fromisoformat(last["deadline"]) > until:
        return known
    resolved_at = closed_at or datetime.fromisoformat(last["deadline"])
    reread = adapter.reread_from if can(adapter, REREAD) else None  # type: ignore[attr-defined]
    if reread is None:
        adapter_class = type(adapter).__name__
        if adapter_class not in _warned_no_reread:
            _warned_no_reread.add(adapter_class)
            log.warning("%s: %s cannot re-read a thread; edits of vote posts on older pages may be missed (C-11)",
                        game.name, adapter_class)
        return known
    opens = datetime.fromisoformat(last["opens"])
    topics = [game.signup_thread] if kind == "signup" else [game.vote_thread]  # S-1: its own thread or the game's
    if last["phase"].startswith("day ") and game.options.get("post_minimum") and game.game_thread != game.vote_thread:
        topics.append(game.game_thread)  # the day's game-thread posts are counted at the deadline too
    for topic in topics:  # a GM's `конец-фазы` closes it before its deadline: the log names when it really ended
        _reread_topic(ctx, adapter, reread, game, topic, forum_id, opens, started, resolved_at, outcome, waiting,
                      f"{last['phase']} {'closed by a GM at' if closed_at else 'ends at'} {resolved_at.isoformat()}")
    with ctx.sessions.begin() as session:
        set_cursor(session, forum_id, reread_stream(game_id), last["deadline"])
    return known


def _which(game: GameConfig, topic: str) -> str:
    if topic == game.vote_thread:
        return "the vote thread"
    return "the game thread" if topic == game.game_thread else "the sign-up thread"


def _reread_topic(ctx: Context, adapter: ForumAdapter, reread: Callable[..., list[ForumPost]], game: GameConfig,
                  topic: str, forum_id: int, opens: datetime, started: datetime, resolved_at: datetime,
                  outcome: GameOutcome, waiting: list[tuple[str, list[ForumPost]]] | None, phase: str) -> None:
    """One thread's posts of the phase re-read from its first one still there (C-11): stored, edits and
    deletions included."""
    with ctx.sessions.begin() as session:
        ids = list(session.scalars(select(InputRow.item_id).where(
            InputRow.forum_id == forum_id, InputRow.kind == "post", InputRow.topic == topic,
            InputRow.posted_at >= opens).order_by(InputRow.posted_at, InputRow.id)))
        earlier = list(reversed(session.scalars(select(InputRow.item_id).where(
            InputRow.forum_id == forum_id, InputRow.kind == "post", InputRow.topic == topic,
            InputRow.posted_at < opens, InputRow.deleted_at.is_(None)).order_by(
            InputRow.posted_at.desc(), InputRow.id.desc()).limit(EARLIER_STARTS)).all()))
    posts, start, refused = ([], None, []) if not ids else \
        _reread_from_first_there(ctx, adapter, reread, topic, ids, earlier)
    log.info("%s: %s; re-read %s from post %s (%d posts)", game.name, phase, _which(game, topic), start or "-",
             len(posts))
    seen = {p.id for p in posts}
    if start in ids:
        # C-11: a stored post of the phase missing from the re-read, with a later one found, was deleted. A
        # missing tail tells nothing (a read cut short). The posts before the start each answered gone.
        last_seen = max(n for n, i in enumerate(ids) if i in seen)
        gone = [i for i in ids[:last_seen] if i not in seen]
    elif start is not None or not earlier:
        # every post of the phase answered gone, and the re-read from an earlier post (or none stored before
        # the phase, so none to start at) shows none of them
        gone = [i for i in refused if i in ids and i not in seen]
    else:
        log.warning("%s: no post of %s could be re-read from (posts %s all answered gone); edits and deletions "
                    "of the day's posts may be missed (C-11)", game.name, _which(game, topic), ", ".join(refused))
        gone = []
    if refused:
        log.info("%s: posts %s of %s answered gone when the re-read tried to start at them",
                 game.name, ", ".join(refused), _which(game, topic))
    # a post awaiting a moderator is there, not gone, but no input while it waits (forumbot.cycle.held_posts)
    posts, held = held_posts.split(posts, ctx.config.forums[game.forum].login)
    if waiting is not None:
        waiting.append((topic, held))
    with ctx.sessions.begin() as session:
        outcome.stored += store_posts(session, forum_id, posts, started, topic=topic)
        outcome.stored += mark_deleted(session, forum_id, topic, gone, resolved_at)
        # what the thread's rows now hold: a later read is compared with these posts (tick.py)
        set_cursor(session, forum_id, seen_stream(topic), posts_digest(posts))
