"""Players' posts awaiting a moderator's approval, as a bot that moderates the forum sees them.

A GM often makes the bot's account a moderator (to pin or close the threads). phpBB, SMF, MyBB, Invision and
XenForo's API then show it every post in the approval queue, marked (`ForumPost.held`): the players cannot see them.
Such a post is no input while it waits (C-3: what the players' thread shows is what counts): it is neither stored
nor counted, and each GM is told once per post (the outbox key is the post's), so the GM can approve it or reject
it. Once approved it is read as any post first seen then: a new input whose read time is that tick (C-13 governs one
stamped before a deadline already resolved), never an edit of anything stored. The bot's own held posts are the
outbox's business (PostQueued) and pass through. An approval is seen where the post's page is read again: the
thread's last page every tick, the vote thread from the day's first post at the re-read before its deadline (C-11).
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable, Iterable, Sequence

from forumbot.forum.adapter import ForumPost
from forumbot.model import Message, Where

KEY = "held/"

_WORDS = {
    "ru": "Сообщение {id} от {author} в теме {topic} ждёт одобрения модератора: игроки его не видят, и бот его не "
          "засчитывает, пока оно не одобрено. Одобренное бот прочитает как новое сообщение с того хода, когда "
          "увидит его (если оно написано до уже подведённых итогов, итоги не меняются). Одобрите или отклоните "
          "его на форуме.",
    "en": "Post {id} by {author} in thread {topic} awaits a moderator's approval: the players cannot see it, and "
          "the bot does not count it while it waits. Once approved, the bot reads it as a new post from the tick "
          "that first sees it (one written before results already announced changes none of them). Approve or "
          "reject it on the forum.",
}


def split(posts: Iterable[ForumPost], bot: str) -> tuple[list[ForumPost], list[ForumPost]]:
    """(the posts to store, the players' posts held for a moderator). The bot's account is matched as C-3
    matches authors: exactly, ignoring case only."""
    readable: list[ForumPost] = []
    held: list[ForumPost] = []
    me = bot.casefold()
    for post in posts:
        (held if post.held and post.author.casefold() != me else readable).append(post)
    return readable, held


def notices(posts: Iterable[ForumPost], topic: str, gms: Sequence[str], language: str, at: datetime,
            escape: Callable[[str], str]) -> list[Message]:
    """One PM per held post and GM, keyed by the post: queued once however many ticks read it held."""
    words = _WORDS.get(language, _WORDS["en"])
    out: list[Message] = []
    for post in posts:
        text = words.format(id=escape(post.id), author=escape(post.author or "?"), topic=topic)
        out.extend(Message(at=at, where=Where.PM, to=gm, key=f"{KEY}{topic}/{post.id}/{gm}", text=text)
                   for gm in gms)
    return out
