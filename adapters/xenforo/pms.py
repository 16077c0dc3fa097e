"""XenForo 2 conversations (PMs), as ENGINES.md §12 reads them from XF's own templates and controllers.

- the list (`conversation_list_macros`): rows `div.structItem--conversation`, whose title link is
  `a.structItem-title` itself (a theme wrapping it in a div is met too), newest change first;
- a conversation's messages (`conversation_message_macros`) carry no `data-content`: each message's id is on
  `span.u-anchorTarget#convMessage-N` inside it;
- XF 2.3 calls them "direct messages": links and redirects are `direct-messages/slug.ID/`; whether
  `conversations/` still routes there is unverified, so a 404 on it switches to `direct-messages/` (and back);
- starting a conversation is flood-checked with floodCheckLengthDiscussion (180 s stock), a reply inside one with
  floodCheckLength (30 s). The bot keeps one conversation per recipient set and subject (a game's subject is
  its name): the first PM to a player starts it, every later one of that game is a reply into it. A Setup's
  role PMs still start one each (180 s apart); a game's night answers and GM notices do not wait 180 s each.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from typing import Any, Callable, Protocol, TypeVar

from lxml import etree

from adapters.html.dom import clean_text, inner_html, select, select_one, text
from adapters.html.forms import HtmlForms
from adapters.html.pagechecks import check_charset, check_complete, check_error_box
from adapters.html.profile import HtmlProfile
from adapters.html.site import PageSite
from forumbot.forum.adapter import ForumPM
from forumbot.errors import FormRejected, LoginRequired, PageFormatChanged
from forumbot.forum.http_page import Page

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_INBOX_PAGES = 20  # conversation list pages read at most per check
MAX_CONVERSATION_PAGES = 50  # pages of one conversation (20 messages each)
OWN_PM_LOOKBACK = 3  # recent conversations with the recipient that find_own_pm opens
KEPT_CONVERSATIONS = 200  # conversations remembered for replies (the oldest forgotten first)
ROUTES = ("conversations", "direct-messages")
_MESSAGE_ID = re.compile(r"(\d+)$")


class ConversationSite(PageSite, Protocol):
    """What the conversations part reads off XenforoForum besides its pages: the bot's name, its forms, its re-login,
    its token-carrying POST, and the unread count the last logged-in page showed."""

    @property
    def username(self) -> str: ...
    @property
    def forms(self) -> HtmlForms: ...
    def with_login(self, fn: Callable[[], T]) -> T: ...
    def post(self, path: str, fields: list[tuple[str, str]], *, action: str, refresh: str,
             default: type[Exception] = ...) -> dict[str, Any]: ...
    def unread_count_seen(self) -> int | None: ...


class Conversations:
    """XenforoForum's conversations part (`XenforoForum.conversations`): the PM flows, over the adapter's pages."""

    def __init__(self, site: ConversationSite) -> None:
        self.site = site
        self.early: dict[str, tuple[Page, float]] = {}  # pages the inbox check read for the topic reads to come
        self._handed: str | None = None  # the PM cursor this process last handed back
        self.last_topic_page: str | None = None  # the topic page read last: the next cycle reads it again
        self._route = ROUTES[0]
        self._route_known = False  # read from a page served, or from the stored session
        self._paths: dict[str, str] = {}  # conversation id -> its canonical path, as the list links it
        self._kept: dict[str, str] = {}
        # the same, from the conversation list rows this process read (the bot's own, by participants and
        # title): a conversation started by a process killed before it stored its session is found there
        self._listed: dict[str, str] = {}  # "recipients|subject" folded -> the conversation id the bot started

    @property
    def profile(self) -> HtmlProfile:
        return self.site.profile

    @property
    def username(self) -> str:
        return self.site.username

    # --- state kept in the session --------------------------------------------------------------------------

    def export_conversations(self) -> dict[str, Any]:
        """Kept with the session, saved after the cycle stored its cursor: the next process (a cron tick) trusts
        the unread count of the page it reads anyway only when handed that same cursor back (a cursor lost in
        a crash differs: the list is read), so an idle tick costs no request for the inbox."""
        return {"route": self._route, "kept": dict(self._kept), "handed": self._handed,
                "last_page": self.last_topic_page}

    def import_conversations(self, data: dict[str, Any]) -> None:
        if data.get("route") in ROUTES:
            self._route, self._route_known = data["route"], True
        self._kept.update({str(k): str(v) for k, v in (data.get("kept") or {}).items()})
        if isinstance(data.get("handed"), str) and isinstance(data.get("last_page"), str):
            self._handed, self.last_topic_page = data["handed"], data["last_page"]

    def dm_url(self, name: str, **values: Any) -> str:
        return self.site.url(name, **values).replace(f"{ROUTES[0]}/", f"{self._route}/", 1)

    def dm_get(self, name: str, **values: Any) -> Page:
        """A conversation page under the route the board serves (XF 2.3: direct-messages/, unverified)."""
        page = self.read_routed(self.dm_url(name, **values))
        return page

    def read_routed(self, path: str) -> Page:
        page = self.site.get(path)
        if page.status == 404 and f"{self._route}/" in path:
            other = ROUTES[1] if self._route == ROUTES[0] else ROUTES[0]
            log.info("xenforo: %s/ is not served; using %s/", self._route, other)
            self._route = other
            page = self.site.get(path.replace(f"{ROUTES[1] if other == ROUTES[0] else ROUTES[0]}/", f"{other}/", 1))
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is None:  # as read_page, one request
            raise LoginRequired(f"xenforo: not logged in ({page.url})")
        check_complete(page, self.profile)  # and the checks read_page makes (issue 17 items 16, 18)
        check_charset(page, self.profile)
        check_error_box(page, self.profile)
        self._route_known = True
        return page

    def known_route(self) -> None:
        """Before a POST: the route the board serves, read once (a new session reads the list once)."""
        if not self._route_known:
            self.dm_get("inbox")

    # --- reading --------------------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        if self._idle_inbox(after):
            return [], after
        pms, cursor = self.site.with_login(lambda: self._fetch_pms(after))
        self._handed = cursor
        return pms, cursor

    def _idle_inbox(self, after: str | None) -> bool:
        """Whether the inbox has nothing new, known at no request of its own: the topic page the last cycle
        ended on (read again by every cycle, as it holds the newest posts) is read now, early, and kept for the
        topic read that follows; it shows `conversations_unread`. Trusted only when `after` is the cursor this
        process handed back (so it was stored: reading a conversation marks it read, and after a lost answer
        the count would hide its messages). A new process reads the list once."""
        path = self.last_topic_page
        if after is None or after != self._handed or path is None:
            return False
        try:
            page = self.site.get(path)
        except LoginRequired:
            return False  # the list read logs in again
        self.early[path] = (page, self.site.transport.clock())
        return (select_one(page.tree(), self.profile.selectors["logged_in"]) is not None
                and self.site.unread_count_seen() == 0)

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str]:
        seen: dict[str, list] = (json.loads(after) if after else {}).get("c", {})
        changed: list[tuple[str, str, str, bool, bool]] = []  # (id, last message time, title, the bot's and
        # unanswered, shared: the bot and more than one other participant)
        unread_met = 0
        page = self.dm_get("inbox")
        for number in range(MAX_INBOX_PAGES):
            tree = page.tree()
            rows = self._rows(tree)
            unread = self.site.unread_count_seen()
            if number == 0 and not rows and unread:
                # the list's container on an empty list is not known (§12 gives the rows): the page's own count
                # of unread conversations says whether "none" can be true
                raise PageFormatChanged(f"xenforo: {page.url} lists no conversation the profile reads, yet counts "
                                        f"{unread} unread (conversations_unread): not read as an empty inbox "
                                        "(a custom style? override selectors.pm_row and pm_row_link)")
            fresh = [r for r in rows if seen.get(r[0], [None])[0] != r[1]]
            changed.extend((*r[:3], r[5], self._shared(r[4])) for r in fresh)
            unread_met += sum(1 for r in rows if r[3])
            nxt = select_one(tree, self.profile.selectors["inbox_next"])
            # Rows come newest change first: a page with nothing new ends the search, unless the page counts
            # unread conversations not met yet.
            if nxt is None or (not fresh and unread_met >= (unread or 0)):
                break
            page = self.site.read_page(nxt.get("href", ""))
        pms: list[ForumPM] = []
        cursor = {k: list(v) for k, v in seen.items()}
        for cid, when, title, opened_by_bot, shared in changed:
            last_mid = int(seen.get(cid, [None, 0])[1] or 0)
            if opened_by_bot:  # the bot's own PM, no answer yet: nothing to read
                cursor[cid] = [when, last_mid]
                continue
            messages = self._read_conversation(cid, title)
            pms.extend(replace(m, shared=shared) for m in messages
                       if int(m.id) > last_mid and _fold(m.author) != _fold(self.username))
            cursor[cid] = [when, max([last_mid, *(int(m.id) for m in messages)])]
        pms.sort(key=lambda m: int(m.id))
        return pms, json.dumps({"c": cursor}, separators=(",", ":"), sort_keys=True)

    def _shared(self, participants: list[str]) -> bool:
        """M-15: a conversation of the bot and more than one other member (the mafia's conference, or a player
        writing to the bot and others at once): its messages are `ForumPM.shared`. The list row names the starter
        and every recipient (conversation_list_macros: `ul.structItem-parts`)."""
        return len({_fold(p) for p in participants} - {_fold(self.username)}) > 1

    def _rows(self, tree: etree._Element) -> list[tuple[str, str, str, bool, list[str], bool]]:
        """(conversation id, last message time, title, unread, participants, started by the bot and not
        answered) per row of the list."""
        sel = self.profile.selectors
        rows = []
        for row in select(tree, sel["pm_row"]):
            link = select_one(row, sel["pm_row_link"])
            m = self.site.forms.matches("conversation", link.get("href", "")) if link is not None else None
            if m is None or link is None:
                continue
            when = select_one(row, sel["pm_row_time"])
            stamp = (when.get("data-time") or when.get("datetime") or text(when)) if when is not None else ""
            users = [" ".join(text(u).split()) for u in select(row, sel["pm_row_users"])]
            replies = select_one(row, sel["pm_row_replies"])
            unanswered = (_fold(row.get("data-author", "")) == _fold(self.username) and replies is not None
                          and text(replies).strip() == "0")
            if _fold(row.get("data-author", "")) == _fold(self.username):
                others = ",".join(u for u in users if _fold(u) != _fold(self.username))
                self._listed.setdefault(_key(others, " ".join(text(link).split())), m.group(1))
            # the list links slug.ID/unread: the conversation itself is slug.ID/ (no redirect from the bare id)
            self._paths[m.group(1)] = re.sub(r"(?<=/)(?:unread|latest)$", "", link.get("href", ""))
            rows.append((m.group(1), stamp, " ".join(text(link).split()),
                         "is-unread" in (row.get("class") or "").split(), users, unanswered))
        return rows

    def _read_conversation(self, cid: str, title: str = "") -> list[ForumPM]:
        sel = self.profile.selectors
        out: list[ForumPM] = []
        known = self._paths.get(cid)
        page = self.site.read_page(known) if known else self.dm_get("conversation", pm=cid)
        for _ in range(MAX_CONVERSATION_PAGES):
            tree = page.tree()
            head = select_one(tree, sel["pm_subject"])
            title = " ".join(text(head).split()) if head is not None else title
            ctx = self.site.ctx(page)
            for msg in self._messages(tree):
                anchor = select_one(msg, sel["pm_anchor"])
                m = _MESSAGE_ID.search(anchor.get("id", "") if anchor is not None else msg.get("data-content", ""))
                body = select_one(msg, sel["pm_body"])
                when = select_one(msg, sel["pm_time"])
                sent = self.profile.hooks["pm_time"](when, ctx) if when is not None else None
                if m is None or body is None or sent is None:
                    raise PageFormatChanged(f"xenforo: conversation {cid} has a message without id, body or time")
                author = select_one(msg, sel["pm_author"])
                name = " ".join(text(author).split()) if author is not None else msg.get("data-author", "")
                out.append(ForumPM(id=m.group(1), author=name, author_id=None, sent_at=sent.earliest,
                                   sent_latest=sent.latest if sent.rough else None, subject=title,
                                   text=clean_text(body, self.profile.strip), html=inner_html(body)))
            nxt = select_one(tree, sel["next_page"])
            if nxt is None or not nxt.get("href"):
                break
            page = self.site.read_page(nxt.get("href", ""))
        return out

    def _messages(self, tree: etree._Element) -> list[etree._Element]:
        """The messages of a conversation page: the articles the profile names, else (a theme with other
        classes) the article around each convMessage anchor."""
        sel = self.profile.selectors
        found = [m for m in select(tree, sel["pm_message"]) if select_one(m, sel["pm_anchor"]) is not None
                 or m.get("data-content")]
        if found:
            return found
        out = []
        for anchor in select(tree, sel["pm_anchor"]):
            article = next((a for a in anchor.iterancestors("article") if select_one(a, sel["pm_body"]) is not None),
                           None)
            if article is not None and article not in out:
                out.append(article)
        return out

    # --- sending --------------------------------------------------------------------------------------------

    def send_pm(self, to: str, subject: str, text: str) -> str:
        key = _key(to, subject)
        kept = self._kept.get(key) or self._listed.get(key)
        if kept is not None:
            try:
                return self.site.transport.paced(
                    "pm", lambda: self.site.with_login(lambda: self._reply_in(kept, text)))
            except FormRejected as e:  # the conversation left or deleted: a new one
                log.info("xenforo: conversation %s not answerable (%s); starting a new one", kept, e)
                self._kept.pop(key, None)
                self._listed.pop(key, None)
        cid = self.site.transport.paced(
            "pm_start", lambda: self.site.with_login(lambda: self._start(to, subject, text)))
        self._kept[key] = cid
        while len(self._kept) > KEPT_CONVERSATIONS:
            self._kept.pop(next(iter(self._kept)))
        return cid

    def _start(self, to: str, subject: str, text: str) -> str:
        """One conversation with every recipient in `to` (XF takes a comma-separated list); its id."""
        names = [n.strip() for n in to.split(",") if n.strip()]
        spec = self.profile.forms["compose"]
        title = subject.strip() or (text.strip().splitlines() or ["—"])[0][:100]  # XF requires a title
        fields = [(spec.fields["to"], ", ".join(names)), (spec.fields["subject"], title),
                  (spec.fields["message"], text)]
        self.known_route()
        path = self.dm_url("compose")
        answer = self.site.post(path, fields, action="pm_start", refresh=self._token_page(path))
        m = self.site.forms.matches("conversation", str(answer.get("redirect") or ""))
        if m is None:
            raise FormRejected(f"xenforo: conversation with {to} not started ({answer.get('message') or answer})")
        return m.group(1)

    def _reply_in(self, cid: str, text: str) -> str:
        self.known_route()
        path = self.dm_url("conversation_reply", pm=cid)
        refresh = self._token_page(self.dm_url("conversation", pm=cid))
        answer = self.site.post(path, [("message", text)], action="pm", refresh=refresh)
        if not answer.get("redirect"):
            raise FormRejected(f"xenforo: reply in conversation {cid} gave no message ({answer})")
        return cid

    def close_conversation(self, to: str, subject: str) -> None:
        """M-15: the conversation the bot started with `to` under `subject` locked against replies. XF lets its
        starter edit it (ConversationMaster::canEdit) and so clear conversation_open (Conversation::actionEdit's
        `conversation_locked`; the title is required again); a locked one takes no reply, not even the starter's
        (canReply). Done again when already locked."""
        self.site.with_login(lambda: self._close(to, subject))

    def _close(self, to: str, subject: str) -> None:
        key = _key(to, subject)
        if key not in self._kept and key not in self._listed:
            self._rows(self.dm_get("inbox").tree())  # a process whose session was lost: the list names it
        cid = self._kept.get(key) or self._listed.get(key)
        if cid is None:
            raise FormRejected(f"xenforo: no conversation the bot started with {to} under {subject!r} to lock")
        self.known_route()
        title = subject.strip() or "—"
        answer = self.site.post(self.dm_url("conversation_edit", pm=cid), [("title", title), ("conversation_locked", "1")],
                                action="pm", refresh=self._token_page(self.dm_url("conversation", pm=cid)))
        if not answer.get("redirect"):
            raise FormRejected(f"xenforo: conversation {cid} not locked ({answer})")

    def _token_page(self, path: str) -> str:
        """A page to read a token from before a POST to `path`: its route as the board serves it."""
        return path.replace(f"{ROUTES[0]}/", f"{self._route}/", 1)

    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The conversation the bot started with `to` that holds `marker`, if it went out (outbox recovery):
        a new one or a reply into one kept."""
        return self.site.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        wanted = {_fold(n) for n in to.split(",") if n.strip()}
        rows = self._rows(self.dm_get("inbox").tree())
        opened = 0
        for cid, _, title, _, users, _ in rows:
            if not wanted & {_fold(u) for u in users}:
                continue
            if opened >= OWN_PM_LOOKBACK:
                break
            opened += 1
            for msg in self._read_conversation(cid, title):
                if _fold(msg.author) == _fold(self.username) and (marker in msg.text or marker in msg.html):
                    return cid
        return None


def _key(to: str, subject: str) -> str:
    names = sorted(_fold(n) for n in to.split(",") if n.strip())
    return ",".join(names) + "|" + _fold(subject)


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()
