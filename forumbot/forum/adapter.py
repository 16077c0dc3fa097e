"""The one interface every forum engine implements (DESIGN.md, "The adapter interface")."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any, ClassVar, Mapping, Protocol, runtime_checkable

from forumbot.forum.unreadable import UnreadablePost
from forumbot.markup import escape_bbcode
from forumbot.texts import TABLES


@dataclass(frozen=True)
class ThreadAddressProblem:
    """Why a game's thread address names no thread on an engine, as facts the shell words in the GMs' language
    (issue 28 item 2). kind: "not_a_thread" (a forum's or a post's address; `fix` is what a thread's looks like),
    "not_a_topic" (Discourse: a category's; `fix` likewise), "needs_route" (a board without friendly URLs; `fix`
    is the base_url to set)."""
    kind: str
    thread: str
    engine: str
    fix: str

    def said(self, t: Mapping[str, str]) -> str:
        return t[f"check.thread.{self.kind}"].format(thread=self.thread, engine=self.engine, fix=self.fix)

    def __str__(self) -> str:  # a log line, a custom caller: the operators' English
        return self.said(TABLES["en"])


@dataclass(frozen=True)
class ConfigWarning:
    """What an engine finds unwise in its forum table, as facts the shell words in the GMs' language (issue 28):
    `kind` names the text `check.engine.KIND` of the texts' tables, `fields` fill it."""
    kind: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def said(self, t: Mapping[str, str]) -> str:
        return t[f"check.engine.{self.kind}"].format(**self.fields)

    def __str__(self) -> str:  # a log line of `run`: the operators' English
        return self.said(TABLES["en"])


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
    # M-15: the PM was written to the bot and others at once (a reply in the mafia's conference conversation, as
    # its To line or participants show): stored apart, never read as a move or a command
    shared: bool = False


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
# M-15: the adapter sends one PM to several names (`send_pm` with `to` listing them, comma-separated) whose replies
# every recipient sees, and marks a PM written to the bot and others as `ForumPM.shared`: the mafia's conference
# may be a conversation there (conference = "conversation"); elsewhere it is the relay
CONFERENCE = "conference"
# M-15: close_conversation(to, subject) locks the conversation the bot started with `to` (names, comma-separated)
# under `subject`, so no one replies in it any more (the bot neither); FormRejected when there is none or the forum
# refuses. Where the adapter has it, the conference is locked after the PM that closes it (outbox/locks.py)
CLOSE_CONVERSATION = "close_conversation"
# preview_reply(topic, text): the reply form sent through its preview button, nothing posted (a ForumError in the
# board's words when the form or the preview is refused; False where the board's version previews in a way no source
# shows, nothing sent: «не проверено»): the handshake's reply flow (issue 28 item 4)
PREVIEW = "preview_reply"
THREAD_PAGE = "thread_page"  # thread_page(topic, number) -> (posts, pages): an API engine's page, for `probe`


class AdapterBase:
    """What every adapter declares beyond the protocol, each with the value of an engine that lacks it: the shell
    reads these and never probes an adapter for a name (issue 27 item 2; tests/adapters/test_capabilities.py)."""

    # the optional abilities it implements (the names above); the shell asks `can`
    CAPABILITIES: ClassVar[frozenset[str]] = frozenset()
    # What the config reads off the adapter class, so a new engine needs no line in forumbot: the forum-table
    # settings it takes besides engine, login, base_url, password_env and markup; whether its pages print local
    # times without a zone (read in `timezone_name`, which then defaults to the zone of the forum's games); the
    # markup its posts are written in.
    settings: ClassVar[frozenset[str]] = frozenset()
    prints_local_times: ClassVar[bool] = False
    markup: ClassVar[str] = "bbcode"
    engine: str = "?"  # the engine's name, as `engine =` names it
    # an HTML engine's markup as data (adapters/html/profile.py: urls, selectors, limits, unverified); None for an
    # engine without pages to read (Discourse, XenForo's API, the memory forum)
    profile: Any = None
    tz: tzinfo | None = None  # the zone the forum prints its times in, where the adapter reads them so
    # whether the engine's inbox flow deletes the PMs read, and whether this forum has it on (`delete_read_pms`):
    # then a database restored from a copy cannot read again those read since (outbox/restore.py)
    deletes_pms: ClassVar[bool] = False
    delete_read_pms: bool = False

    @property
    def shows_unread_pms(self) -> bool:
        """Whether topic pages are read for the header's unread-PM count (UNREAD_PMS)."""
        return False

    def escape(self, text: str) -> str:
        """`text` made inert in the engine's markup, for names and words a player wrote."""
        return escape_bbcode(text)

    def unread_count_seen(self) -> int | None:
        """The unread-PM count the last page read showed, for an engine whose every page carries one (XenForo);
        None where it shows none. What `forumbot probe` reports beside the inbox."""
        return None

    def topic_id(self, topic: str) -> str:
        """The topic id in a thread's address or number (ValueError: not a thread this engine can name); an engine
        that reads addresses overrides it."""
        return topic

    @classmethod
    def thread_problem(cls, thread: str, base_url: str) -> "ThreadAddressProblem | str | None":
        """What is wrong with a thread's address, seen without the network (`check-config`); None: nothing. A
        ThreadAddressProblem is said in the GMs' language; a plain string (an adapter of one's own) as it is."""
        return None

    @classmethod
    def config_warnings(cls, forum: Any, poll_seconds: float) -> "list[ConfigWarning | str]":
        """What in a forum table will work but cost (check-config prints them, `run` logs them); a ConfigWarning
        is said in the GMs' language, a plain string (an adapter of one's own) as it is."""
        return []

    def check_account(self, threads: list[str]) -> list[str]:
        """What the bot's account lacks for these threads, where the engine can tell (check-config --online)."""
        return []

    def board_utc_offset(self) -> timedelta | None:
        """The UTC offset the board shows the bot's account times in, where the engine can read it; else None."""
        return None

    def account_said(self) -> str:
        """The board's own words on the last account `account_exists` asked about ("The requested user does not
        exist."), where its page said any; else "". A typo is named to the GM in them (issue 28 item 4)."""
        return ""

    def take_unreadable(self) -> list[UnreadablePost]:
        """The posts the reads since the last call skipped as unreadable (forum/unreadable.py), and forget them."""
        return []


def can(adapter: AdapterBase | ForumAdapter, capability: str) -> bool:
    """Whether an adapter declares an optional ability."""
    return capability in adapter.CAPABILITIES


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

    # what the shell reads off every adapter, declared on AdapterBase with the value of an engine that lacks it
    CAPABILITIES: ClassVar[frozenset[str]]
    deletes_pms: ClassVar[bool]
    delete_read_pms: bool

    @property
    def shows_unread_pms(self) -> bool: ...

    def escape(self, text: str) -> str: ...

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
