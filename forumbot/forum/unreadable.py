"""Posts the bot cannot read faithfully, and the PMs telling the GMs about them (issue 17 item 17, issue 26
item 9).

A post nested deeper than the parser's bound (forumbot.forum.htmlparse: [b] typed 250 times, quotes in quotes), or
holding bytes its page's charset cannot show (forumbot.forum.http_page.UNDECODABLE), is skipped by the reader, its page
read on without it: it is that post's problem, never its page's. Each such post is named to every GM once (the
outbox key is the post's), so a GM can read it on the forum and act (a GM `голос` for a vote it held)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Callable, Iterable, Sequence

from forumbot.model import Message, Where

KEY = "unreadable/"


@dataclass(frozen=True)
class UnreadablePost:
    """A post the reader skipped: where it is, who wrote it, and why it was not read."""

    topic: str
    id: str
    author: str
    why: str = "nesting"


# per reason the reader skipped the post (UnreadablePost.why), per language
_WORDS = {
    "nesting": {
        "ru": "Бот не смог прочитать сообщение {id} от {author} в теме {topic}: в нём слишком глубоко вложены теги "
              "(цитаты или форматирование). Оно пропущено и не засчитано. Прочитайте его на форуме; если в нём "
              "голос или ход, внесите его командой ГМа.",
        "en": "The bot could not read post {id} by {author} in thread {topic}: its tags (quotes or formatting) "
              "nest too deep. It was skipped and not counted. Read it on the forum; if it holds a vote or a move, "
              "enter it with a GM command.",
    },
    # issue 26 item 9: bytes the page's charset cannot show (a damaged or unconverted post); browsers show them
    # as U+FFFD, so what they said is unknown to the bot and to the players alike. No U+FFFD in the text: a
    # windows-1251 board would get it as "&#65533;"
    "bytes": {
        "ru": "Бот не смог прочитать сообщение {id} от {author} в теме {topic}: в нём есть байты не в кодировке "
              "форума (повреждённый или не перекодированный текст). Оно пропущено и не засчитано. Прочитайте его "
              "на форуме; если в нём голос или ход, внесите его командой ГМа.",
        "en": "The bot could not read post {id} by {author} in thread {topic}: it holds bytes not in the forum's "
              "charset (damaged or unconverted text). It was skipped and not counted. Read it on the forum; if it "
              "holds a vote or a move, enter it with a GM command.",
    },
}


def take(adapter: Any, topic: str) -> list[UnreadablePost]:
    """The posts `adapter` skipped since last asked, filed under `topic` as configured (an adapter that skips
    none keeps AdapterBase's `take_unreadable`, which has none)."""
    return [replace(p, topic=topic) for p in adapter.take_unreadable()]


def notices(posts: Iterable[UnreadablePost], gms: Sequence[str], language: str, at: datetime,
            escape: Callable[[str], str]) -> list[Message]:
    """One PM per skipped post and GM, keyed by the post: queued once however many ticks read it again."""
    out: list[Message] = []
    for post in posts:
        kind = _WORDS.get(post.why, _WORDS["nesting"])
        words = kind.get(language, kind["en"])
        text = words.format(id=escape(post.id), author=escape(post.author or "?"), topic=post.topic)  # the thread as the config names it
        out.extend(Message(at=at, where=Where.PM, to=gm, key=f"{KEY}{post.topic}/{post.id}/{gm}", text=text)
                   for gm in gms)
    return out
