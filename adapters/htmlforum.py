"""What phpBB and MyBB adapters share: profile-driven reading, form submission, error classification,
cursors, and re-login when a session has expired."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeVar
from urllib.parse import quote, urljoin
from zoneinfo import ZoneInfo

from lxml import etree

from adapters.extract import extract_posts, page_info, post_id, query_params, user_id
from adapters.hooks import Context, hook
from adapters.html import (
    clean_text, fill, find_form, form_action, form_fields, inner_html, select, select_one, submit_field, text,
)
from adapters.overrides import apply_overrides, override_warnings
from adapters.pagechecks import check_charset, check_error_box, check_pm_list, check_posts_whole
from adapters.profiles import HtmlProfile
from forumbot.adapter import (  # noqa: F401 (ReplyId: the engines import it from here)
    ACCOUNTS, COOKIES, REREAD, UNREAD_PMS, AdapterBase, ForumPM, ForumPost, ReplyId,
)
from forumbot.errors import (
    CaptchaRequired, FloodLimited, FormRejected, FormTransient, LoginRequired, PageFormatChanged, PageIncomplete,
)
from forumbot.markup import escape_bbcode
from forumbot.transport import TRANSPORT_SETTINGS, Page, Transport
from forumbot.unreadable import UnreadablePost

log = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")

# phpBB rejects a form posted in the second it was issued (FORM_INVALID); 1.1 s clears the boundary.
FORM_MIN_AGE = 1.1

# A re-read before a deadline follows "next" links at most this far (a loop guard; a day is far shorter).
MAX_REREAD_PAGES = 200

# An inbox walk follows "next" links at most this far (a loop guard: 50 pages of 20 is a thousand unread PMs).
MAX_INBOX_PAGES = 50

# Sent PMs to the recipient that find_own_pm opens, newest first: recovery runs before anything else is sent.
OWN_PM_LOOKBACK = 3

_HTML_END = re.compile(rb"</html\s*>", re.IGNORECASE)


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


class HtmlForum(AdapterBase):
    """Base of the HTML adapters. Subclasses set `profile` and implement the engine's flows."""
    CAPABILITIES = frozenset({COOKIES, REREAD, ACCOUNTS, UNREAD_PMS})

    profile: HtmlProfile
    # What the config reads off the adapter class (forumbot.config.engine_traits), so a new engine needs no line
    # in forumbot: the forum-table settings it takes besides engine, login, base_url, password_env and markup;
    # whether its pages print local times without a zone (read in `timezone_name`, which then defaults to the
    # zone of the forum's games); the markup its posts are written in.
    settings: frozenset[str] = TRANSPORT_SETTINGS | {"timezone_name", "delete_read_pms", "profile"}
    prints_local_times: bool = True
    markup: str = "bbcode"

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
        self.delete_read_pms = delete_read_pms
        self.inbox_usage: tuple[int, int] | None = None  # (messages, limit) when the forum shows it
        # the header's unread-PM count of each topic page read since `unread_pms_shown` last asked (None: unread)
        self._pm_header: list[int | None] = []
        self._unreadable: dict[str, UnreadablePost] = {}  # posts skipped by the reads since `take_unreadable`

    @classmethod
    def config_warnings(cls, forum: Any, poll_seconds: float) -> list[str]:
        """What check-config warns about in the forum table (a ForumConfig): an unwise profile override."""
        return override_warnings(cls.profile, forum.extra.get("profile"))

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
            raise ValueError(f"not a {self.profile.engine} topic: {topic!r}")
        return m.group(1)

    def ctx(self, page: Page) -> Context:
        now = page.server_time() or datetime.fromtimestamp(self.transport.clock(), timezone.utc)
        return Context(self.profile, self.tz, now)

    def get(self, path: str, *, follow: bool = True) -> Page:
        page = self.transport.get(path, follow=follow)
        self.check_page(page)
        return page

    def check_page(self, page: Page) -> None:
        """Raise for pages that stand in the way: a captcha, or the login form where content was expected."""
        if page.status >= 400 and page.status not in (401, 403, 404):
            raise PageFormatChanged(f"{page.url}: HTTP {page.status}")
        tree = page.tree()
        if select_one(tree, self.profile.selectors["captcha"]) is not None:
            raise CaptchaRequired(f"{self.profile.engine}: captcha on {page.url}")

    def read_page(self, path: str) -> Page:
        """A page only the logged-in bot sees that it reads to decide on (PM folders, PMs): served without the
        logged-in marks (a login form, MyBB's no-permission page, both HTTP 200) it is LoginRequired, not an
        empty inbox; a page that does not end as a complete page ends is PageIncomplete, so nothing is decided
        on part of it (issue 7 item 9). Topic pages: `_topic_page`."""
        page = self.get(path)
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is None:
            raise LoginRequired(f"{self.profile.engine}: not logged in ({page.url})")
        self.check_complete(page)
        check_charset(page, self.profile)
        check_error_box(page, self.profile)
        return page

    def check_complete(self, page: Page) -> None:
        """A complete page has its closing </html> and the engine's page-end element (footer), which come after
        the posts and rows; a response cut short with HTTP 200 lacks them, and lxml would parse it silently."""
        if _HTML_END.search(page.content) is None or select_one(page.tree(), self.profile.selectors["page_end"]) is None:
            raise PageIncomplete(f"{self.profile.engine}: {page.url} came back incomplete "
                                 f"({len(page.content)} bytes, no end of page); read again later")

    def is_login_page(self, page: Page) -> bool:
        tree = page.tree()
        spec = self.profile.forms["login"]
        return (select_one(tree, self.profile.selectors["logged_in"]) is None
                and find_form(tree, spec.selector, spec.needs) is not None)

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
        """The posts the topic reads skipped since the last call (forumbot.unreadable), and forget them."""
        out, self._unreadable = list(self._unreadable.values()), {}
        return out

    # --- the unread-PM count in the header (issue 8) ----------------------------------------------------------

    @property
    def shows_unread_pms(self) -> bool:
        """Whether topic pages are read for the header's unread-PM count (the profile names where and how)."""
        return "pm_header" in self.profile.selectors and "pm_header" in self.profile.hooks

    def unread_pms_shown(self) -> int | None:
        """The unread-PM count the headers of the topic pages read since the last call show (the highest: one
        page showing a PM is enough), and forget those pages. None when no page was read, or one of them showed
        no count that reads as one (a guest's page, another style, a language the hook does not know): the
        caller reads the inbox then."""
        seen, self._pm_header = self._pm_header, []
        return max(seen) if seen and None not in seen else None  # type: ignore[type-var]

    def _note_pm_header(self, tree: etree._Element) -> None:
        if self.shows_unread_pms:
            self._pm_header.append(self.header_unread_pms(tree))

    def header_unread_pms(self, tree: etree._Element) -> int | None:
        """The unread-PM count one page's header shows; None when it shows none that reads as one."""
        found = select(tree, self.profile.selectors["pm_header"])
        return hook(self.profile, "pm_header")(found[0]) if len(found) == 1 else None

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
        if self.is_login_page(page):
            raise LoginRequired(f"{self.profile.engine}: {page.url} shows a login form")
        self.check_complete(page)
        return page

    def _account_exists(self, name: str) -> bool | None:
        return None

    # --- forms ----------------------------------------------------------------------------------------------

    def form(self, page: Page, name: str) -> etree._Element:
        spec = self.profile.forms[name]
        form = find_form(page.tree(), spec.selector, spec.needs)
        if form is None:
            if self.is_login_page(page):
                raise LoginRequired(f"{self.profile.engine}: not logged in ({page.url})")
            self.raise_for_errors(page, default=None)
            raise PageFormatChanged(f"{self.profile.engine}: no {name} form on {page.url}")
        return form

    def submit(self, page: Page, name: str, values: Mapping[str, str], *, action: str,
               form: etree._Element | None = None, submit: str | None = None, served_at: float | None = None,
               follow: bool = False) -> Page:
        """Post a form as served: every field it carries, the known ones overwritten, to its resolved action."""
        spec = self.profile.forms[name]
        form = form if form is not None else self.form(page, name)
        fields = fill(form_fields(form), {**spec.fixed, **values})
        button = submit_field(form, submit or spec.submit or "") if (submit or spec.submit) else None
        if button:
            fields.append(button)
        elif submit or spec.submit:
            fields.append((submit or spec.submit or "", "1"))
        if served_at is not None:
            age = self.transport.clock() - served_at
            if age < FORM_MIN_AGE:
                self.transport.sleep(FORM_MIN_AGE - age)
        return self.transport.post_form(form_action(form, page.url), fields, charset=page.charset, action=action,
                                        follow=follow)

    def error_text(self, page: Page) -> str:
        return " ".join(clean_text(e) for e in select(page.tree(), self.profile.selectors["error"]))

    def matches(self, kind: str, text: str) -> re.Match[str] | None:
        pattern = self.profile.messages.get(kind)
        return re.search(pattern, text, re.IGNORECASE) if pattern and text else None

    def raise_for_errors(self, page: Page, default: type[Exception] | None = FormRejected, *,
                         flood_action: str = "post", text: str | None = None) -> None:
        """Turn an error the forum showed into the typed error the daemon reacts to."""
        self.check_page(page)
        text = text if text is not None else self.error_text(page)
        if not text:
            if default is not None:
                raise default(f"{self.profile.engine}: unexpected answer from {page.url}")
            return
        self.raise_for_text(text, flood_action=flood_action)

    def raise_for_text(self, text: str, *, flood_action: str = "post") -> None:
        """The typed error for an error message the forum gave (on a page or in a JSON answer)."""
        if self.matches("flood", text):
            m = self.matches("flood_seconds", text)
            wait = float(m.group(1)) if m else self.transport.intervals.get(flood_action)
            raise FloodLimited(f"{self.profile.engine}: flood limit: {text}", retry_after=wait)
        if self.matches("form_invalid", text):
            raise FormTransient(f"{self.profile.engine}: form token rejected: {text}")
        if self.matches("bad_login", text):
            raise LoginRequired(f"{self.profile.engine}: login refused: {text}")
        raise FormRejected(f"{self.profile.engine}: {text}")

    def json_answer(self, page: Page, default: type[Exception] = FormRejected, *, flood_action: str = "post",
                    errors_key: str = "errors", status_key: str = "status") -> dict[str, Any]:
        """The answer of a form posted for a JSON reply (XenForo's `_xfResponseType=json`): errors it lists are
        raised as the typed error the profile's messages name (flood, token, login), as on an HTML error page;
        anything else is handed back. An unfollowed redirect counts as {"redirect": its target}; an HTML page
        in its place (a login page, an error page) is judged as a page."""
        if page.status in (301, 302, 303) and page.location:
            return {status_key: "ok", "redirect": page.location}
        try:
            answer = page.json()
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            if self.is_login_page(page):
                raise LoginRequired(f"{self.profile.engine}: not logged in ({page.url})")
            self.raise_for_errors(page, default=default, flood_action=flood_action)
            raise default(f"{self.profile.engine}: unexpected answer from {page.url}")
        errors = answer.get(errors_key)
        if errors or answer.get(status_key) == "error":
            items = errors.values() if isinstance(errors, dict) else errors if isinstance(errors, list) else [errors]
            said = " ".join(" ".join(str(e).split()) for e in items if e) or "error without a message"
            # the status (XF answers errors with 200, 400 or 403) says nothing the message does not
            self.raise_for_text(said, flood_action=flood_action)
        return answer

    # --- topic reading ----------------------------------------------------------------------------------------

    def page_path(self, tid: str, index: int, per_page: int) -> str:
        """The page that holds the post with 0-based `index`."""
        pag = self.profile.pagination
        if pag.kind == "offset":
            start = (index // per_page) * per_page
            return self.url("topic", topic=tid) if start == 0 else self.url("topic_page", topic=tid, start=start)
        number = index // per_page + 1
        return self.url("topic", topic=tid) if number == 1 else self.url("topic_page", topic=tid, start=number)

    def fetch_posts(self, topic: str, after: str | None = None) -> tuple[list[ForumPost], str | None]:
        posts, cursor = self.with_login(lambda: self._fetch_posts(topic, after))
        # The daemon files posts under the thread as configured (often a URL) and routes them to a game by
        # it; under the bare topic id they would reach no game.
        return [replace(p, topic=topic) for p in posts], cursor

    def _fetch_posts(self, topic: str, after: str | None) -> tuple[list[ForumPost], str | None]:
        tid = self.topic_id(topic)
        cur = json.loads(after) if after else {"n": 0, "last": 0}
        seen_n, last_id = int(cur.get("n", 0)), int(cur.get("last", 0))
        per_page = int(cur.get("pp") or self.profile.pagination.per_page)
        # Start at the page holding the last post already seen: it always exists, and a new post is on it or
        # after it. An idle topic costs one request.
        index = max(seen_n - 1, 0)
        new: list[ForumPost] = []
        # Posts already seen on the pages read anyway: handed back too, so an edit is noticed (C-11). The
        # store records only what changed; the last page is read every cycle, so recent votes are covered.
        again: dict[str, ForumPost] = {}
        read: dict[str, tuple[Page, etree._Element, list[ForumPost]]] = {}  # no page is fetched twice
        while True:
            path = self.page_path(tid, index, per_page)
            if path not in read:
                read[path] = self._topic_page(path, tid)
            page, tree, posts = read[path]
            param = self._page_param(index, per_page)
            info = page_info(tree, self.profile, param)
            count = len(select(tree, self.profile.selectors["post"]))
            # Learn the real page size (a user setting on MyBB): from offsets, else from a full page.
            if info.per_page:
                per_page = info.per_page
            elif info.has_next and count:
                per_page = count
            page_start = param if self.profile.pagination.kind == "offset" else (param - 1) * per_page
            # Posts deleted before our position shift everything left: if the first page read, the one that
            # should hold the last post seen, is all new, the posts after it may start a page earlier. One
            # step back at most; a later page all new is simply where new posts opened a page (issue 7 item 5).
            if last_id and page_start > 0 and posts and int(posts[0].id) > last_id and len(read) == 1:
                index = page_start - 1
                continue
            new.extend(p for p in posts if int(p.id) > last_id)
            again.update((p.id, p) for p in posts if int(p.id) <= last_id)
            if not info.has_next:
                seen_n = page_start + count
                break
            index = page_start + per_page
        last = max([last_id, *(int(p.id) for p in new)])
        out = sorted([*again.values(), *new], key=lambda p: int(p.id))
        return out, json.dumps({"n": seen_n, "last": last, "pp": per_page}, separators=(",", ":"))

    # --- the PM inbox ---------------------------------------------------------------------------------------

    def inbox_pages(self, first: Page, rows_of: Callable[[Page], Mapping[str, R]],
                    is_new: Callable[[str, R], bool]) -> tuple[list[tuple[Page, dict[str, R]]], bool]:
        """The inbox's first page and, while every row of the last page read is new, the older pages its "next"
        link leads to (one request each): more PMs than a page holds may arrive between two ticks, and the
        older ones, read later, would sit below the cursor and be skipped for ever. Rows come newest first, so a
        page that shows a row already seen ends the walk; a page 1 that does (the idle case) or that is not
        full (it links no next page) costs nothing more. A linked page without rows is PageFormatChanged,
        never "no more PMs"; so is a first page without rows and without the profile's PM list container. Gives
        each page read with its rows (key -> what `rows_of` gave), and whether the last page read links a further
        one."""
        sel = self.profile.selectors.get("inbox_next") or self.profile.selectors["next_page"]
        pages = [(first, dict(rows_of(first)))]
        if not pages[0][1]:
            check_pm_list(first, self.profile)  # no rows: an empty inbox only where the list itself is there
        visited = {first.url}
        while True:
            page, rows = pages[-1]
            link = select_one(page.tree(), sel)
            href = link.get("href", "") if link is not None else ""
            if not href:
                return pages, False
            if not rows or not all(is_new(k, v) for k, v in rows.items()):
                return pages, True
            path = urljoin(page.url, href)
            if path in visited or len(pages) >= MAX_INBOX_PAGES:
                log.warning("%s: the inbox walk stopped at %s after %d pages; older PMs are read later",
                            self.profile.engine, path, len(pages))
                return pages, True
            older = self.read_page(path)
            visited.add(older.url)
            older_rows = dict(rows_of(older))
            if not older_rows:
                raise PageFormatChanged(f"{self.profile.engine}: inbox page {older.url} (linked as the next "
                                        "one) shows no PMs")
            pages.append((older, older_rows))

    def fetch_numbered_pms(self, after: str | None, rows_of: Callable[[Page], Mapping[str, R]],
                           open_pm: Callable[[Page, str, R], ForumPM],
                           delete: Callable[[Page, list[str]], None] | None,
                           first: Callable[[Page], None] | None = None,
                           inbox: Page | None = None) -> tuple[list[ForumPM], str]:
        """PMs of an inbox whose rows carry growing PM ids (phpBB, MyBB, vBulletin, SMF, mybb.ru), over the
        pages `inbox_pages` walks. Cursor: {"max": the newest id read, "del": ids read, not deleted yet}. The
        read ones are deleted a tick later (the daemon has stored them by then), by id through the first page's
        folder form: those on later pages too, so two pages' worth of read PMs leave none behind.
        `delete` None: the engine deletes nothing, the cursor keeps no "del". `first` looks at page 1 alone
        (phpBB's folder usage); `inbox` is page 1 when the engine has read it already (SMF)."""
        cur = self.cursor_set(after)
        seen = int(cur.get("max", 0))
        inbox = inbox or self.read_page(self.url("inbox"))
        if first is not None:
            first(inbox)
        pages, more = self.inbox_pages(inbox, rows_of, lambda pid, _: int(pid) > seen)
        rows: dict[str, R] = {}
        page_of: dict[str, Page] = {}
        for page, page_rows in pages:
            for pid, row in page_rows.items():
                if pid not in rows:
                    rows[pid], page_of[pid] = row, page
        # a read PM not on the pages read sits on a later page (when there is one): deleted by id all the same
        done = [pid for pid in map(str, cur.get("del", [])) if pid in rows or more]
        if done and delete is not None and self.delete_read_pms:
            delete(pages[0][0], done)
        fresh = sorted((pid for pid in rows if int(pid) > seen), key=int)
        pms = [open_pm(page_of[pid], pid, rows[pid]) for pid in fresh]
        top = max([seen, *(int(p) for p in fresh)])
        return pms, json.dumps({"max": top, "del": fresh if delete is not None else []}, separators=(",", ":"))

    def _read_pm(self, pid: str, subject: str, path: str | None = None) -> ForumPM:
        """One PM's page (phpBB, MyBB): author, date by the profile's pm_time hook, text without signature."""
        page = self.read_page(path or self.url("pm", pm=pid))
        sel = self.profile.selectors
        engine = self.profile.engine
        view = select_one(page.tree(), sel["pm_view"])
        body = select_one(view, sel["body"]) if view is not None else None
        if view is None or body is None:
            raise PageFormatChanged(f"{engine}: PM {pid} has no message body")
        author = select_one(view, sel["pm_author"])
        when = select_one(view, sel["pm_time"])
        sent = hook(self.profile, "pm_time")(when, self.ctx(page)) if when is not None else None
        if sent is None:
            raise PageFormatChanged(f"{engine}: PM {pid} has no readable date")
        subject_el = select_one(view, sel["pm_subject"]) if "pm_subject" in sel else None
        return ForumPM(
            id=pid, author=text(author).strip() if author is not None else "",
            author_id=user_id(author), sent_at=sent.earliest, sent_latest=sent.latest if sent.rough else None,
            subject=text(subject_el).strip() if subject_el is not None else subject,
            text=clean_text(body, (*self.profile.strip, sel["signature"])), html=inner_html(body))

    def find_own_post(self, topic: str, marker: str) -> str | None:
        return self.with_login(lambda: self._find_own_post(topic, marker))

    def _find_own_post(self, topic: str, marker: str) -> str | None:
        tid = self.topic_id(topic)
        for page in self.recent_pages(tid):
            hit = self.own_posts_with(page.tree(), page, tid, marker)
            if hit:
                return hit
        return None

    def recent_pages(self, tid: str) -> Iterator[Page]:
        """The pages where a message the bot posted lately may be, newest first, each read when the one before
        did not hold it: the last two (the bot's message is recent). Whole pages only: a marker missed on a
        page cut short would send the message twice. Here the last page, then the page its `prev_page` link
        names; an engine that finds its pages otherwise overrides this alone."""
        page = self._topic_page(self.url("last_page", topic=tid), tid)[0]
        yield page
        prev = select_one(page.tree(), self.profile.selectors["prev_page"])
        if prev is not None:
            yield self._topic_page(urljoin(page.url, prev.get("href", "")), tid)[0]

    def numbered_recent_pages(self, tid: str, first: Page, last: int) -> Iterator[Page]:
        """`recent_pages` for engines that number their pages from 1 and show the count on page 1 (FlaskBB,
        XenForo): the last two, then page 1 (already read) when it is one of them."""
        for number in range(last, max(last - 2, 1), -1):
            yield self._topic_page(self.url("topic_page", topic=tid, start=number), tid)[0]
        if last <= 2:
            yield first

    def _topic_page(self, path: str, tid: str) -> tuple[Page, etree._Element, list[ForumPost]]:
        """A whole topic page, its tree and its posts. Topics may be open to guests: only a page without posts
        is taken for a login page; a page cut short is PageIncomplete (issue 7 item 9)."""
        page = self.get(path)
        tree = page.tree()
        if not select(tree, self.profile.selectors["post"]) and self.is_login_page(page):
            raise LoginRequired(f"{self.profile.engine}: topic {tid} needs login")
        self.check_complete(page)
        check_charset(page, self.profile)
        self._note_pm_header(tree)
        skipped: list[UnreadablePost] = []
        posts = extract_posts(tree, self.profile, self.ctx(page), tid, skipped)
        check_posts_whole(page, self.profile, posts, select(tree, self.profile.selectors["post"]))
        self._unreadable.update((p.id, p) for p in skipped)
        if not posts and not select(tree, self.profile.selectors["post"]):
            check_error_box(page, self.profile)  # what the forum said in the posts' place, when it said it
            raise PageFormatChanged(f"{self.profile.engine}: no posts on {page.url}")
        return page, tree, posts

    def reread_from(self, topic: str, post_id: str, ids: Sequence[str] = ()) -> list[ForumPost]:
        """Every post of `topic` from the page holding `post_id` to the last page, as they are now.

        Run before a day's deadline resolves, so an edit of a vote post on an older page is seen (C-11). The
        forum's post link lands on the right page; the pages after it are followed by their "next" links.
        `ids` (the stored ids from `post_id` on) is not needed here: pages hold every post."""
        posts = self.with_login(lambda: self._reread_from(topic, post_id))
        return [replace(p, topic=topic) for p in posts]

    def _reread_from(self, topic: str, post_id: str) -> list[ForumPost]:
        tid = self.topic_id(topic)
        path = self.url("post_page", post=int(post_id))
        out: dict[str, ForumPost] = {}
        visited: set[str] = set()
        while len(visited) < MAX_REREAD_PAGES:
            page, tree, posts = self._topic_page(path, tid)
            visited.add(page.url)
            out.update((p.id, p) for p in posts)
            link = select_one(tree, self.profile.selectors["next_page"])
            href = link.get("href", "") if link is not None else ""
            if not href:
                break
            path = urljoin(page.url, href)
            if path in visited:
                break
        return sorted(out.values(), key=lambda p: int(p.id))

    def _page_param(self, index: int, per_page: int) -> int:
        start = (index // per_page) * per_page
        return start if self.profile.pagination.kind == "offset" else start // per_page + 1

    def own_pm_in(self, rows: Sequence[tuple[str, str, Sequence[str]]], to: str, marker: str) -> str | None:
        """The id of the bot's sent PM to `to` that holds `marker`, from a sent folder's rows (pm id, page path,
        recipients), newest first; None if the recently sent ones to those recipients lack it. A PM sent in
        batches (MyBB: 5 recipients at most) counts as found once one batch is: sending it again would
        duplicate it for those who have it, which is worse than the gap the warning names."""
        wanted = {_fold(n) for n in to.split(",") if n.strip()}
        covered: set[str] = set()
        found: str | None = None
        opened = 0
        for pid, path, recipients in rows:
            names = {_fold(n) for n in recipients}
            if not names & wanted:
                continue
            if opened >= OWN_PM_LOOKBACK:
                break
            opened += 1
            pm = self._read_pm(pid, "", path)
            if _fold(pm.author) == _fold(self.username) and (marker in pm.text or marker in pm.html):
                found = found or pid
                covered |= names & wanted
                if covered >= wanted:
                    break
        if found is not None and not covered >= wanted:
            log.warning("%s: PM %s was sent to %s but not to %s before an interruption; not sent again",
                        self.profile.engine, marker, ", ".join(sorted(covered)), ", ".join(sorted(wanted - covered)))
        return found

    def own_posts_with(self, tree: etree._Element, page: Page, topic: str, marker: str) -> str | None:
        for post in reversed(extract_posts(tree, self.profile, self.ctx(page), topic)):
            if post.author == self.username and (marker in post.text or marker in post.html):
                return post.id
        return None

    @staticmethod
    def query_value(url: str, key: str) -> str | None:
        values = query_params(url).get(key)
        return values[0] if values else None

    @staticmethod
    def max_post_id(tree: etree._Element, selector: str) -> int | None:
        ids = [int(i) for i in (post_id(el) for el in select(tree, selector)) if i]
        return max(ids) if ids else None

    @staticmethod
    def cursor_set(after: str | None) -> dict[str, Any]:
        return json.loads(after) if after else {"max": 0, "del": []}


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def same_account(shown: str, name: str) -> bool:
    """An account name as the forum shows it is `name` (C-3: case-folded only, spaces as one)."""
    return _fold(shown) == _fold(name)
