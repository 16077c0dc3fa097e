"""The bot's own public posts on the pages (issue 20 item 3: "links to both threads and to every bot post"): the
opening post, each count, each day's and night's result, the death and GM announcements.

A post is linked once the outbox delivered it and the forum gave its post id (`game export` keeps these ids, so
`replay --pages` links the same posts); a post not delivered, or delivered where the forum showed no id, is not
mentioned. Only posts in the game's threads (the sign-up's own too, S-1): a PM is never read here, and an outbox
key is never shown (a key can name a seat; what the page shows is the post's own first line, as the thread shows
it)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from forumbot.model import Message
from forumbot.outbox.store import MARKER

PUBLIC = ("game", "vote", "signup")  # the sign-up's own thread too (S-1)
_MARKUP = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]|\*\*|" + MARKER.pattern, re.I)


@dataclass(frozen=True)
class BotPost:
    key: str  # the message's outbox key: for finding a post, never shown
    at: datetime
    thread: str  # game | vote
    title: str  # the post's first line, markup removed
    url: str


def first_line(text: str) -> str:
    """A post's first non-empty line with its markup removed, cut at 200 characters."""
    return next((ln.strip() for ln in _MARKUP.sub("", text).splitlines() if ln.strip()), "")[:200]


def bot_posts(messages: Iterable[Message], posts: dict[str, str], post_url: str) -> list[BotPost]:
    """The bot's public posts the forum holds with a known id (`posts`: message key -> the forum's post id), in
    time order; none without `post_url`."""
    if not post_url or not posts:
        return []
    out = []
    for m in messages:
        where = str(m.where)
        forum_id = posts.get(m.key, "")
        if where in PUBLIC and forum_id:
            out.append(BotPost(m.key, m.at, where, first_line(m.text), post_url.replace("{id}", forum_id)))
    return out


def by_key(posts: list[BotPost]) -> dict[str, str]:
    """Message key -> the post's URL."""
    return {p.key: p.url for p in posts}


def forum_post_id(remote_id: str | None) -> str:
    """The forum's post id from the outbox's record of a delivery: a post MyBB merged into the bot's previous one
    is in that one; "" where the forum gave none (or the post awaits a moderator)."""
    value = remote_id or ""
    if value.startswith("merged:"):
        value = value.removeprefix("merged:")
    if value.startswith("pending:"):
        return ""
    return value
