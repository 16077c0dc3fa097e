"""A database restored from an older copy: the forum already holds what the bot said since that copy.

The restored outbox has those messages as pending (or not at all: the fold queues them again under the same
stable keys), so they would go out twice (issue 26 item 5). A tick sees this where it reads anyway: the bot's
own posts in the game and vote threads carry their outbox markers, and the restored cursors make the tick read
again every post since the copy. An own post whose marker the outbox holds as pending, or does not hold at all,
shows the database is behind the forum. That is noted durably (a cursor row, written with the posts that showed
it, so a tick killed before it delivers loses nothing). While the note holds the inbox is read whatever the
thread pages' unread-PM count says (tick_inbox.py): the PMs read since the copy are stored again from the
restored cursor, so the fold sees the GM commands and night moves the forum already answered. The tick that
queues the fold's messages then makes every due pending row of the game "attempted", and delivery looks for
each in the threads and the sent PMs before it sends anything, exactly as after a crash between sending and
recording. An adapter that cannot search its sent PMs leaves such a PM "uncertain" (the GM sees it in `game
status`): a check result sent twice is worse than one the GM re-sends by hand. In the normal case this costs
no request: only the posts already read are looked at.
Since the copy the bot may have sent only PMs, which no post shows: `forumbot db restored`, run by the operator
after putting the copy back, notes every running game behind the forum all the same (deploy/README.md).
On a forum where the bot deletes the PMs it has read (`delete_read_pms`, the default) those read since the copy
are gone, and with them the GMs' commands and the night's moves since then: the tick that acts on the note tells
each GM so by PM, once (deploy/README.md, "The PMs since the copy").
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Iterable, Sequence, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session

from forumbot.forum.adapter import ForumAdapter, ForumPost
from forumbot.model import Message, Where
from forumbot.outbox.store import MARKER
from forumbot.store.models import GameRow, OutboxRow
from forumbot.store.records import get_cursor, set_cursor
from forumbot.texts import TABLES

log = logging.getLogger("forumbot.outbox")

BEHIND = "1"  # the note's value while it holds
BEHIND_WHY = "the database is behind the forum (restored from an older copy?): looked for before sending"


def behind_stream(game_id: int) -> str:
    return f"game:{game_id}:behind"


def is_behind(session: Session, forum_id: int, game_id: int) -> bool:
    """Whether the game's database is noted behind the forum (until `look_first` acts on the note)."""
    return get_cursor(session, forum_id, behind_stream(game_id)) == BEHIND


def loses_read_pms(adapter: ForumAdapter) -> bool:
    """Whether the adapter deletes the PMs it has read (an engine with a delete flow, `delete_read_pms` on):
    adapters that never delete lack the flags, and read those PMs again after a restore."""
    return adapter.deletes_pms and adapter.delete_read_pms


def lost_pms_notices(gms: Sequence[str], language: str, at: datetime) -> list[Message]:
    """One PM to each GM: the PMs read since the copy were deleted from the inbox, so their commands and the
    night's moves since then are lost. Keyed by the tick that acts on the note: once for each restore."""
    text = TABLES.get(language, TABLES["ru"])["gm.restored_pms_lost"]
    return [Message(at=at, where=Where.PM, to=gm, key=f"restored/{at.isoformat()}/{gm}", text=text) for gm in gms]


def own_markers(posts: Iterable[ForumPost], bot: str, since: datetime) -> set[str]:
    """The outbox markers in the bot's own posts from `since` on (several where the forum merged its posts)."""
    me = bot.casefold()
    return {tag for post in posts if post.author.casefold() == me and post.posted_at >= since
            for tag in MARKER.findall(post.text + post.html)}


def note_if_behind(session: Session, forum_id: int, game_id: int, posts: list[ForumPost], bot: str) -> bool:
    """Note (durably) that the game's database is behind the forum when an own post carries a marker the outbox
    holds as pending or not at all; return whether it did. Only posts from the game's start on count: a game
    before it in the same threads, played from another database, is no sign of a restore; markers of any game
    of this database count as known (a season's earlier game)."""
    if not any(post.author.casefold() == bot.casefold() for post in posts):
        return False
    markers = own_markers(posts, bot, session.get_one(GameRow, game_id).started_at)
    if not markers:
        return False
    delivered = set(session.scalars(select(OutboxRow.marker).where(
        OutboxRow.marker.in_(markers), OutboxRow.status != "pending")))
    unsent = sorted(markers - delivered)
    if not unsent:
        return False
    log.warning("game %s: the forum holds %d post(s) of the bot the database has as unsent (%s): the database is "
                "behind the forum; every unsent message is looked for before it is sent", game_id, len(unsent),
                ", ".join(unsent))
    set_cursor(session, forum_id, behind_stream(game_id), BEHIND)
    return True


def look_first(session: Session, forum_id: int, game_id: int, until: datetime) -> int:
    """When the game's database was noted behind the forum: make every due pending row "attempted", so delivery
    looks for it on the forum first, and clear the note; return how many rows. Call it after the fold's
    messages are queued, in the same transaction."""
    if not is_behind(session, forum_id, game_id):
        return 0
    changed = cast(CursorResult[Any], session.execute(update(OutboxRow).where(  # an UPDATE's result is a cursor's
        OutboxRow.game_id == game_id, OutboxRow.status == "pending", OutboxRow.due_at <= until,
    ).values(status="attempted", last_error=BEHIND_WHY))).rowcount
    set_cursor(session, forum_id, behind_stream(game_id), "0")
    return changed


def note_restored(session: Session) -> list[str]:
    """`forumbot db restored`: the operator says the database was put back from a copy. Every game still
    delivering is noted behind the forum, as an own post would show it: this covers a copy after which the bot
    sent only PMs (a night's acknowledgements), which no post in the threads shows. Returns the games' names."""
    games = list(session.execute(select(GameRow.id, GameRow.name, GameRow.forum_id).where(
        GameRow.status.in_(("running", "stopping"))).order_by(GameRow.name)))
    for game_id, _, forum_id in games:
        set_cursor(session, forum_id, behind_stream(game_id), BEHIND)
    return [name for _, name, _ in games]
