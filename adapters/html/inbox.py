"""The PM side of an HTML forum (HtmlForum's inbox part): the header's unread-PM count (issue 8), the inbox walked page
by page, a PM read, and the bot's own sent PM found by its marker."""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, Mapping, Sequence, TypeVar
from urllib.parse import urljoin

from lxml import etree

from adapters.html.extract import user_id
from adapters.html.dom import clean_text, inner_html, select, select_one, text
from adapters.html.pagechecks import check_pm_list
from adapters.html.profile import HtmlProfile
from adapters.html.site import PageSite
from forumbot.forum.adapter import ForumPM
from forumbot.errors import PageFormatChanged
from forumbot.forum.http_page import Page

log = logging.getLogger("adapters.html.forum")  # HtmlForum's logger, as before the split: log lines read the same
R = TypeVar("R")

# An inbox walk follows "next" links at most this far (a loop guard: 50 pages of 20 is a thousand unread PMs).
MAX_INBOX_PAGES = 50

# Sent PMs to the recipient that find_own_pm opens, newest first: recovery runs before anything else is sent.
OWN_PM_LOOKBACK = 3


class HtmlInbox:
    """The adapter's inbox part (`HtmlForum.inbox`); an engine that reads its PMs otherwise subclasses it and names
    the subclass in its adapter's `inbox_type`. Pages come through the adapter's fetcher (`site`); the topics part
    hands it each topic page read (`note_pm_header`)."""

    def __init__(self, site: PageSite, username: str, delete_read_pms: bool) -> None:
        self.site = site
        self.username = username
        self.delete_read_pms = delete_read_pms
        # the header's unread-PM count of each topic page read since `unread_pms_shown` last asked (None: unread)
        self._pm_header: list[int | None] = []

    @property
    def profile(self) -> HtmlProfile:
        return self.site.profile

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

    def note_pm_header(self, tree: etree._Element) -> None:
        if self.shows_unread_pms:
            self._pm_header.append(self.header_unread_pms(tree))

    def header_unread_pms(self, tree: etree._Element) -> int | None:
        """The unread-PM count one page's header shows; None when it shows none that reads as one."""
        found = select(tree, self.profile.selectors["pm_header"])
        return self.profile.hooks["pm_header"](found[0]) if len(found) == 1 else None

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
            older = self.site.read_page(path)
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
        cur = cursor_set(after)
        seen = int(cur.get("max", 0))
        inbox = inbox or self.site.read_page(self.site.url("inbox"))
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

    def read_pm(self, pid: str, subject: str, path: str | None = None) -> ForumPM:
        """One PM's page (phpBB, MyBB): author, date by the profile's pm_time hook, text without signature."""
        page = self.site.read_page(path or self.site.url("pm", pm=pid))
        sel = self.profile.selectors
        engine = self.profile.engine
        view = select_one(page.tree(), sel["pm_view"])
        body = select_one(view, sel["body"]) if view is not None else None
        if view is None or body is None:
            raise PageFormatChanged(f"{engine}: PM {pid} has no message body")
        author = select_one(view, sel["pm_author"])
        when = select_one(view, sel["pm_time"])
        sent = self.profile.hooks["pm_time"](when, self.site.ctx(page)) if when is not None else None
        if sent is None:
            raise PageFormatChanged(f"{engine}: PM {pid} has no readable date")
        subject_el = select_one(view, sel["pm_subject"]) if "pm_subject" in sel else None
        return ForumPM(
            id=pid, author=text(author).strip() if author is not None else "",
            author_id=user_id(author), sent_at=sent.earliest, sent_latest=sent.latest if sent.rough else None,
            subject=text(subject_el).strip() if subject_el is not None else subject,
            text=clean_text(body, (*self.profile.strip, sel["signature"])), html=inner_html(body),
            shared="pm_shared" in sel and bool(select(view, sel["pm_shared"])))

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
            pm = self.read_pm(pid, "", path)
            if _fold(pm.author) == _fold(self.username) and (marker in pm.text or marker in pm.html):
                found = found or pid
                covered |= names & wanted
                if covered >= wanted:
                    break
        if found is not None and not covered >= wanted:
            log.warning("%s: PM %s was sent to %s but not to %s before an interruption; not sent again",
                        self.profile.engine, marker, ", ".join(sorted(covered)), ", ".join(sorted(wanted - covered)))
        return found


def cursor_set(after: str | None) -> dict[str, Any]:
    """A numbered inbox's cursor ({"max": the newest id read, "del": ids read, not deleted yet}) as data."""
    return json.loads(after) if after else {"max": 0, "del": []}


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def same_account(shown: str, name: str) -> bool:
    """An account name as the forum shows it is `name` (C-3: case-folded only, spaces as one)."""
    return _fold(shown) == _fold(name)
