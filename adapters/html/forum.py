"""What phpBB and MyBB adapters share: profile-driven reading, form submission, error classification,
cursors, and re-login when a session has expired.

HtmlForum is put together from its parts: `forms` (an HtmlForms object, or the engine's `forms_type`: forms and
the errors they answer with), `topics` (an HtmlTopics, or the engine's `topics_type`: reading a topic, finding the
bot's post, the re-read) and `inbox` (an HtmlInbox, or the engine's `inbox_type`: the unread-PM count, the inbox,
the bot's sent PM); here are the pages, the session, accounts and the cursors. The parts read pages through the
adapter (adapters.html.site).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Callable, ClassVar, Mapping, Sequence, TypeVar
from urllib.parse import quote, urljoin
from zoneinfo import ZoneInfo

from lxml import etree

from adapters.html.extract import post_id, query_params
from adapters.html.hooks import Context
from adapters.html.dom import select, select_one
from adapters.html.forms import HtmlForms
from adapters.html.inbox import HtmlInbox
from adapters.html.topics import HtmlTopics
from adapters.html.overrides import apply_overrides
from adapters.html.pagechecks import check_charset, check_complete, check_error_box, check_page, is_login_page
from adapters.html.profile import HtmlProfile
from forumbot.forum.adapter import (
    ACCOUNTS, COOKIES, REREAD, UNREAD_PMS, AdapterBase, ForumPost, ThreadAddressProblem,
)
from forumbot.errors import LoginRequired, PageFormatChanged
from forumbot.markup import escape_bbcode
from forumbot.forum.transport_settings import TRANSPORT_SETTINGS
from forumbot.forum.http_page import Page
from forumbot.forum.transport import Transport
from forumbot.forum.unreadable import UnreadablePost

log = logging.getLogger(__name__)
T = TypeVar("T")

def merge_intervals(engine: Mapping[str, float], configured: Mapping[str, float]) -> dict[str, float]:
    """The engine's flood timers with a forum table's on top: a configured action replaces every engine timer
    naming it, shared ones included (phpBB's "post+pm"), so `intervals = {post = 5, pm = 5}` is what it says."""
    named = {action for key in configured for action in key.split("+")}
    kept: dict[str, float] = {}
    for key, seconds in engine.items():
        rest = [action for action in key.split("+") if action not in named]
        if rest:  # the actions the table does not name keep the engine's timer
            kept["+".join(rest)] = seconds
    return {**kept, **configured}


def thread_address_problem(profile: HtmlProfile, thread: str, base_url: str) -> ThreadAddressProblem:
    """What is wrong with a thread address the engine cannot name, and what a thread's address looks like."""
    example = urljoin(base_url.rstrip("/") + "/", profile.urls["topic"].format(topic=123))
    return ThreadAddressProblem("not_a_thread", str(thread), profile.engine, example)


class HtmlForum(AdapterBase):
    """Base of the HTML adapters. Subclasses set `profile` and implement the engine's flows."""
    CAPABILITIES = frozenset({COOKIES, REREAD, ACCOUNTS, UNREAD_PMS})

    profile: HtmlProfile
    # What the config reads off the adapter class (forumbot.config.types.engine_traits), so a new engine needs no line
    # in forumbot: the forum-table settings it takes besides engine, login, base_url, password_env and markup;
    # whether its pages print local times without a zone (read in `timezone_name`, which then defaults to the
    # zone of the forum's games); the markup its posts are written in.
    settings: ClassVar[frozenset[str]] = TRANSPORT_SETTINGS | {"timezone_name", "delete_read_pms", "profile"}
    prints_local_times: ClassVar[bool] = True
    markup: ClassVar[str] = "bbcode"
    # whether the engine's inbox flow deletes the PMs read (the inbox part's fetch_numbered_pms with a `delete`): with
    # `delete_read_pms` on, a database restored from a copy cannot read again those read since (outbox_restore.py)
    deletes_pms: ClassVar[bool] = False
    tz: ZoneInfo  # the zone the forum prints its times in (`timezone_name`)
    # the part that finds, posts and judges the forum's forms: an engine whose forms answer differently names
    # its own HtmlForms subclass here
    forms_type: ClassVar[type[HtmlForms]] = HtmlForms
    # the part that reads topics (new posts, the bot's own post, the re-read): an engine that reads them otherwise
    # names its own HtmlTopics subclass here
    topics_type: ClassVar[type[HtmlTopics]] = HtmlTopics
    # the part that reads PMs (the header's unread count, the inbox walked, a PM, the bot's sent PM): an engine
    # whose PMs read otherwise names its own HtmlInbox subclass here
    inbox_type: ClassVar[type[HtmlInbox]] = HtmlInbox

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str | None = None,
        *,
        timezone_name: str = "UTC",
        transport: Transport | None = None,
        profile: HtmlProfile | Mapping[str, Mapping[str, Any]] | None = None,
        intervals: Mapping[str, float] | None = None,
        delete_read_pms: bool = True,
        **transport_options: Any,
    ) -> None:
        if isinstance(profile, HtmlProfile):
            self.profile = profile
        elif profile:  # a forum table's [profile] overrides (issue 9 item 5), checked by the config already
            self.profile = apply_overrides(self.profile, profile)
        self.username = username
        self._password = password  # never logged, never in repr
        self.tz = ZoneInfo(timezone_name)
        self.transport = transport or Transport(
            base_url, bot=username, intervals=merge_intervals(self.profile.limits, intervals or {}),
            **transport_options)
        self.forms = self.forms_type(self)
        self.delete_read_pms = delete_read_pms
        self.inbox_usage: tuple[int, int] | None = None  # (messages, limit) when the forum shows it
        self._member_said = ""  # the notice on the last member page read (account_said)
        self.inbox = self.inbox_type(self, username, delete_read_pms)
        self.topics = self.topics_type(self, username, self.inbox.note_pm_header)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.transport.base_url!r}, {self.username!r})"

    # --- session kept by the daemon between processes ---------------------------------------------------------

    def export_cookies(self) -> str:
        """Cookies and flood times as JSON: the daemon stores them, so the next cron tick neither logs in again
        nor posts before the forum's flood timer allows it."""
        return json.dumps(self.transport.export_state(), sort_keys=True)

    def import_cookies(self, data: str) -> None:
        self.transport.import_state(json.loads(data))

    # --- markup -------------------------------------------------------------------------------------------

    def escape(self, text: str) -> str:
        return escape_bbcode(text)

    # --- pages ----------------------------------------------------------------------------------------------

    def url(self, name: str, **values: Any) -> str:
        return self.profile.urls[name].format(**values)

    def topic_id(self, topic: str) -> str:
        m = re.search(self.profile.topic_id, str(topic).strip())
        if not m:
            raise ValueError(thread_address_problem(self.profile, topic, self.transport.base_url))
        return m.group(1)

    @classmethod
    def thread_problem(cls, thread: str, base_url: str) -> ThreadAddressProblem | str | None:
        """Why `thread` (a game's game_thread or vote_thread) names no thread on this engine, None if it does:
        checked before the game starts, so a forum's or a post's address is a config error, not a tick's crash."""
        if re.search(cls.profile.topic_id, str(thread).strip()):
            return None
        return thread_address_problem(cls.profile, thread, base_url)

    def login(self) -> None:
        """The engine's login flow: each engine's adapter has its own."""
        raise NotImplementedError(f"{type(self).__name__} has no login flow")

    def ctx(self, page: Page) -> Context:
        now = page.server_time() or datetime.fromtimestamp(self.transport.clock(), timezone.utc)
        return Context(self.profile, self.tz, now)

    def get(self, path: str, *, follow: bool = True) -> Page:
        page = self.transport.get(path, follow=follow)
        check_page(page, self.profile)
        return page

    def read_page(self, path: str) -> Page:
        """A page only the logged-in bot sees that it reads to decide on (PM folders, PMs): served without the
        logged-in marks (a login form, MyBB's no-permission page, both HTTP 200) it is LoginRequired, not an
        empty inbox; a page that does not end as a complete page ends is PageIncomplete, so nothing is decided
        on part of it (issue 7 item 9). Topic pages: `topics.topic_page`."""
        page = self.get(path)
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is None:
            raise LoginRequired(f"{self.profile.engine}: not logged in ({page.url})")
        check_complete(page, self.profile)
        check_charset(page, self.profile)
        check_error_box(page, self.profile)
        return page

    def with_login(self, fn: Callable[[], T]) -> T:
        """Run `fn`; if the session expired and we know the password, log in once and run it again."""
        try:
            return fn()
        except LoginRequired:
            if not self._password:
                raise
            self.login()
            return fn()

    def take_unreadable(self) -> list[UnreadablePost]:
        """The posts the topic reads skipped since the last call (forumbot.forum.unreadable), and forget them."""
        out, self.topics.unreadable = list(self.topics.unreadable.values()), {}
        return out

    # --- topics: the topics part, behind the session's re-login ---------------------------------------------

    def fetch_posts(self, topic: str, after: str | None = None) -> tuple[list[ForumPost], str | None]:
        posts, cursor = self.with_login(lambda: self.topics.fetch_posts(topic, after))
        # The daemon files posts under the thread as configured (often a URL) and routes them to a game by
        # it; under the bare topic id they would reach no game.
        return [replace(p, topic=topic) for p in posts], cursor

    def find_own_post(self, topic: str, marker: str) -> str | None:
        return self.with_login(lambda: self.topics.find_own_post(topic, marker))

    def reread_from(self, topic: str, post_id: str, ids: Sequence[str] = ()) -> list[ForumPost]:
        """`ids` (the stored ids from `post_id` on) is not needed here: pages hold every post."""
        posts = self.with_login(lambda: self.topics.reread_from(topic, post_id))
        return [replace(p, topic=topic) for p in posts]

    # --- the unread-PM count in the header: the inbox part's ---------------------------------------------------

    @property
    def shows_unread_pms(self) -> bool:
        return self.inbox.shows_unread_pms

    def unread_pms_shown(self) -> int | None:
        return self.inbox.unread_pms_shown()

    # --- accounts -------------------------------------------------------------------------------------------

    def account_exists(self, name: str) -> bool | None:
        """Whether the forum has an account of that name (compared case-folded, C-3); None when the board does
        not let the bot tell (the page it asks is not shown to it, or reads as neither answer). Asked for
        the new account of a GM `замена` (issue 7 item 2), so a PM to nobody is not queued for the seat."""
        name = " ".join(name.split())
        if not name:
            return False
        try:
            return self.with_login(lambda: self._account_exists(name))
        except LoginRequired:
            if not self._password:
                raise
            # logged in again, and still shown a login form: the bot may not see profiles here
            log.warning("%s: the board does not show the bot who its members are; account %r not checked",
                        self.profile.engine, name)
            return None

    def member_page(self, name: str) -> Page:
        """The engine's page about member `name` (profile or filtered member list), whole and as the bot."""
        page = self.get(self.url("member", user=quote(name, safe="")))
        if is_login_page(page, self.profile):
            raise LoginRequired(f"{self.profile.engine}: {page.url} shows a login form")
        check_complete(page, self.profile)
        self._member_said = self.forms.notice_text(page) or self.forms.error_text(page)
        return page

    def account_said(self) -> str:
        return self._member_said

    def _account_exists(self, name: str) -> bool | None:
        return None

    @staticmethod
    def query_value(url: str, key: str) -> str | None:
        values = query_params(url).get(key)
        return values[0] if values else None

    @staticmethod
    def max_post_id(tree: etree._Element, selector: str) -> int | None:
        ids = [int(i) for i in (post_id(el) for el in select(tree, selector)) if i]
        return max(ids) if ids else None
