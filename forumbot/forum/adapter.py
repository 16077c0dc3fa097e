"""The one interface every forum engine implements (DESIGN.md, "The adapter interface")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, Protocol, runtime_checkable


@dataclass(frozen=True)
class ForumPost:
    """A post as read from a topic page (or API)."""

    id: str
    topic: str
    author: str
    author_id: str | None
    posted_at: datetime  # aware; where the forum shows the time only roughly, the earliest instant it allows (C-1)
    edited_at: datetime | None  # aware, if the forum shows it
    edit_count: int
    text: str  # quotes, spoilers, code and signature removed; formatting may remain
    html: str  # the post body as served
    quoted: bool = False  # the body held a quote (removed from `text`): a vote post with one is no vote (H-3, M-7)
    posted_latest: datetime | None = None  # the latest instant a rough time ("1 минуту назад", "15:07") allows
    # the forum holds it for a moderator's approval: shown to its author (and moderators), not to the players
    held: bool = False


class ReplyId(str):
    """A post id as `reply` returns it. `merged` is True when the forum appended the text to the bot's
    previous post (MyBB postmergemins): the message is delivered, inside that older post."""

    merged: bool

    def __new__(cls, value: str, merged: bool = False) -> "ReplyId":
        obj = super().__new__(cls, value)
        obj.merged = merged
        return obj


@dataclass(frozen=True)
class ForumPM:
    """A private message in the bot's inbox."""

    id: str
    author: str
    author_id: str | None
    sent_at: datetime  # aware; the earliest instant a rough time allows (C-1)
    subject: str
    text: str  # quotes removed
    html: str
    sent_latest: datetime | None = None  # the latest instant a rough time allows; None: `sent_at` is exact


# Optional abilities, declared once on the adapter class in CAPABILITIES (the shell asks `can`, never probes):
REREAD = "reread_from"  # reread_from(topic, post_id, ids): a thread re-read from a post on, as it is now (C-11)
ACCOUNTS = "account_exists"  # account_exists(name) -> bool | None (a GM `замена`'s new account)
UNREAD_PMS = "unread_pms"  # shows_unread_pms and unread_pms_shown(): the page header's unread-PM count
OWN_PM = "find_own_pm"  # find_own_pm(to, marker): the bot's sent PM carrying a marker (outbox recovery)
COOKIES = "cookies"  # export_cookies() -> str and import_cookies(str): a session the store keeps
# lock_thread(topic, locked) closes (True) or opens (False) a thread as the forum's moderator; done when the
# thread already is so; FormRejected when the forum refuses. may_lock(topic) -> bool | None reads whether the bot's
# account has that control on the thread's page (None: the page does not tell), locking nothing.
LOCK = "lock_thread"


class AdapterBase:
    """What every adapter class may declare beyond the protocol: the optional abilities it implements."""

    CAPABILITIES: ClassVar[frozenset[str]] = frozenset()


def can(adapter: object, capability: str) -> bool:
    """Whether an adapter declares an optional ability (an adapter not built on AdapterBase declares none)."""
    return capability in getattr(adapter, "CAPABILITIES", frozenset())


@runtime_checkable
class ForumAdapter(Protocol):
    """A forum engine. Cursors are opaque strings the adapter alone understands (None: from the start).

    Optional, outside the protocol: `reread_from(topic, post_id, ids) -> list[ForumPost]`, every post of
    `topic` from the one `post_id` (whose page it starts at; `ids` are the stored ids from it on) to the end,
    as they are now. The daemon calls it once before a day's or runoff's deadline resolves, so an edit of a
    vote post on an older page is seen (C-11); without it, such edits may be missed. When `post_id` itself is
    no longer there it raises PostGone (its link answers 404/403 or an error) or returns posts without it; the
    daemon then starts again at the next stored post.

    Optional, too: `account_exists(name) -> bool | None`, whether the forum has an account of that name
    (None: it cannot tell). The daemon asks it once for the new account of a GM `замена`, so a replacement
    by a name nobody holds is refused instead of leaving the seat's PMs undeliverable."""

    def login(self) -> None: ...

    def fetch_posts(self, topic: str, after: str | None = None) -> tuple[list[ForumPost], str | None]:
        """Posts newer than `after`, reading only pages that can hold them; and the new cursor.

        Already-seen posts on the pages read (the page of the last post seen is always read) come back too,
        as they are now, so an edit is noticed (C-11) at no extra request; the store keeps what changed."""
        ...

    def reply(self, topic: str, text: str) -> str:
        """Post `text` in `topic`; return the forum's post id."""
        ...

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]: ...

    def send_pm(self, to: str, subject: str, text: str) -> str:
        """Send a PM; return the forum's id for it (or '' where the forum shows none)."""
        ...

    def find_own_post(self, topic: str, marker: str) -> str | None:
        """The id of the bot's post in `topic` that contains `marker`, if any (outbox crash recovery). A post found
        but held for a moderator's approval (the author sees his own queued post) raises PostQueued naming it:
        it is on its way, not out, and must be neither counted sent nor sent again."""
        ...
