"""An in-process forum: the adapter replay and tests run against, so they exercise the real pipeline.

It keeps topics and PM boxes in memory, stamps what the bot writes with an injectable clock, and can be told
to fail the next calls (to test how the daemon survives a forum outage).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Callable, ClassVar, Sequence

from forumbot.forum.adapter import ACCOUNTS, CONFERENCE, LOCK, OWN_PM, REREAD, AdapterBase, ForumPM, ForumPost, ReplyId
from forumbot.errors import ForumError, FormRejected
from forumbot.markup import escape_bbcode


@dataclass
class _PM:
    pm: ForumPM
    to: str


@dataclass
class MemoryForum(AdapterBase):
    """A forum held in memory. `bot` is the bot's account; `clock` stamps the bot's own posts and PMs."""
    CAPABILITIES = frozenset({REREAD, ACCOUNTS, OWN_PM, LOCK, CONFERENCE})

    # read by forumbot.config.types.engine_traits: its forum-table settings, zoned times, markup
    settings: ClassVar[frozenset[str]] = frozenset({"page_size"})
    prints_local_times: ClassVar[bool] = False
    markup: ClassVar[str] = "bbcode"

    bot: str = "bot"
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(timezone.utc))
    topics: dict[str, list[ForumPost]] = field(default_factory=dict)
    pms: list[_PM] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)  # every adapter call, for request-count assertions
    page_size: int = 20  # fetch_posts reads from the page of the last post seen, like the HTML adapters
    # The forum's accounts, when a test sets them: a PM to any other name is refused as by a real forum, and
    # account_exists answers. None: every name is taken to exist, and account_exists cannot tell.
    accounts: set[str] | None = None
    # MyBB's post merging, when a test sets it: a reply right after the bot's own last post of the topic is
    # appended to that post, and `reply` says so (ReplyId.merged)
    merge_replies: bool = False
    # whether the bot's account moderates here (may lock), the threads closed now, and each lock done
    moderator: bool = True
    locked: set[str] = field(default_factory=set)
    lock_log: list[tuple[str, bool, datetime]] = field(default_factory=list)
    # accounts whose PM inbox is full, when a test sets them: a PM to one is refused for good, as phpBB refuses it
    # ("folder is full", the recipient's quota)
    full_inboxes: set[str] = field(default_factory=set)
    _failures: list[ForumError] = field(default_factory=list)
    _next_id: int = 1

    # --- what tests and replay use to play the other side ----------------------------------------------

    def add_post(
        self, topic: str, author: str, text: str, at: datetime, edited_at: datetime | None = None,
        quoted: bool = False, latest: datetime | None = None, held: bool = False,
    ) -> ForumPost:
        """`quoted`: the post held a quote, which the adapter removed from `text` (as the HTML adapters do);
        `latest`: the forum shows its time only roughly, from `at` to `latest` (C-1); `held`: it awaits a
        moderator's approval, shown to its author and to the bot as a moderator, not to the players."""
        post = ForumPost(
            id=self._new_id(), topic=topic, author=author, author_id=None, posted_at=at,
            edited_at=edited_at, edit_count=1 if edited_at else 0, text=text, html=text, quoted=quoted,
            posted_latest=latest, held=held,
        )
        self.topics.setdefault(topic, []).append(post)
        return post

    def edit_post(self, post_id: str, text: str, at: datetime) -> None:
        for posts in self.topics.values():
            for i, post in enumerate(posts):
                if post.id == post_id:
                    posts[i] = replace(post, text=text, html=text, edited_at=at, edit_count=post.edit_count + 1)
                    return
        raise KeyError(post_id)

    def approve_post(self, post_id: str) -> None:
        """A moderator approves a held post: the players see it now, with its first time and text."""
        for posts in self.topics.values():
            for i, post in enumerate(posts):
                if post.id == post_id:
                    posts[i] = replace(post, held=False)
                    return
        raise KeyError(post_id)

    def delete_post(self, post_id: str) -> None:
        """A moderator deletes the post: it is gone from its thread (C-11)."""
        for posts in self.topics.values():
            for i, post in enumerate(posts):
                if post.id == post_id:
                    del posts[i]
                    return
        raise KeyError(post_id)

    def add_pm(self, author: str, text: str, at: datetime, to: str | None = None, subject: str = "",
               latest: datetime | None = None, shared: bool = False) -> ForumPM:
        """`shared`: written to the bot and others at once (a reply in the mafia's conversation, M-15)."""
        pm = ForumPM(id=self._new_id(), author=author, author_id=None, sent_at=at, subject=subject, text=text,
                     html=text, sent_latest=latest, shared=shared)
        self.pms.append(_PM(pm, to or self.bot))
        return pm

    def fail_next(self, *errors: ForumError) -> None:
        """The next len(errors) adapter calls raise these, in order."""
        self._failures.extend(errors)

    def posts_by(self, author: str, topic: str | None = None) -> list[ForumPost]:
        return [p for t, posts in self.topics.items() if topic in (None, t) for p in posts if p.author == author]

    def pms_to(self, nick: str) -> list[ForumPM]:
        return [p.pm for p in self.pms if p.to == nick]

    # --- the adapter interface ---------------------------------------------------------------------------

    def escape(self, text: str) -> str:
        return escape_bbcode(text)

    def login(self) -> None:
        self._call("login")

    def fetch_posts(self, topic: str, after: str | None = None) -> tuple[list[ForumPost], str | None]:
        self._call(f"fetch_posts {topic}")
        posts = self.topics.get(topic, [])
        start = int(after or 0)
        # The page holding the last post seen is read again: its posts come back as they are now, so an edit
        # of a recent post is noticed (C-11); an edit further back is not, as on a real forum.
        first = (start - 1) // self.page_size * self.page_size if start else 0
        return list(posts[first:]), str(len(posts))

    def reread_from(self, topic: str, post_id: str, ids: Sequence[str] = ()) -> list[ForumPost]:
        """Every post from the page holding `post_id` to the end, as they are now (one call, like one read)."""
        self._call(f"reread_from {topic}")
        posts = self.topics.get(topic, [])
        at = next((n for n, p in enumerate(posts) if p.id == post_id), None)
        if at is None:
            return []
        return list(posts[at // self.page_size * self.page_size:])

    def reply(self, topic: str, text: str) -> str:
        self._call(f"reply {topic}")
        posts = self.topics.get(topic, [])
        if self.merge_replies and posts and posts[-1].author == self.bot:
            last = posts[-1]
            posts[-1] = replace(last, text=f"{last.text}\n\n{text}", html=f"{last.html}\n\n{text}")
            return ReplyId(last.id, merged=True)
        return ReplyId(self.add_post(topic, self.bot, text, self.clock()).id)

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        self._call("fetch_pms")
        mine = [p.pm for p in self.pms if p.to == self.bot]
        start = int(after or 0)
        return mine[start:], str(len(mine))

    def account_exists(self, name: str) -> bool | None:
        self._call(f"account_exists {name}")
        return self._exists(name)

    def send_pm(self, to: str, subject: str, text: str) -> str:
        self._call(f"send_pm {to}")
        if self._exists(to) is False:
            raise FormRejected(f"memory: no such user: {to}")
        if full := sorted(n for n in to.split(", ") if n.casefold() in {f.casefold() for f in self.full_inboxes}):
            raise FormRejected(f"memory: the recipient's folder is full: {', '.join(full)}")
        pm = ForumPM(id=self._new_id(), author=self.bot, author_id=None, sent_at=self.clock(),
                     subject=subject, text=text, html=text)
        self.pms.append(_PM(pm, to))
        return pm.id

    def find_own_post(self, topic: str, marker: str) -> str | None:
        self._call(f"find_own_post {topic}")
        for post in reversed(self.topics.get(topic, [])):
            if post.author == self.bot and marker in post.text:
                return post.id
        return None

    def may_lock(self, topic: str) -> bool | None:
        self._call(f"may_lock {topic}")
        return self.moderator

    def lock_thread(self, topic: str, locked: bool) -> None:
        """Close or open `topic`, as its moderator; a thread already so is left be. Posts still arrive in a closed
        thread (moderators post there; a forum's lock does not remove what is in flight)."""
        self._call(f"lock_thread {topic} {'lock' if locked else 'unlock'}")
        if not self.moderator:
            raise FormRejected(f"memory: not a moderator of {topic}")
        if (topic in self.locked) != locked:
            (self.locked.add if locked else self.locked.discard)(topic)
            self.lock_log.append((topic, locked, self.clock()))

    def find_own_pm(self, to: str, marker: str) -> str | None:
        for p in reversed(self.pms):
            if p.to == to and p.pm.author == self.bot and marker in p.pm.text:
                return p.pm.id
        return None

    # ------------------------------------------------------------------------------------------------------

    def _call(self, what: str) -> None:
        self.calls.append(what)
        if self._failures:
            raise self._failures.pop(0)

    def _exists(self, name: str) -> bool | None:
        if self.accounts is None:
            return None
        return name.casefold() in {a.casefold() for a in self.accounts | {self.bot}}

    def _new_id(self) -> str:
        self._next_id += 1
        return str(self._next_id - 1)
