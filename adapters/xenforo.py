"""XenForo 2.x, driven by the XENFORO profile.

XenForo is closed source and no board runs here. Thread pages are read as real saved pages show them
(fixtures/xenforo/README.md); the flows no saved page shows (login, reply, conversations, error answers) follow
XenForo's documented behaviour and are listed in `XENFORO.unverified`, so `forumbot probe` names them.
- every page carries the CSRF token as `html[data-csrf]`: POSTs send it as `_xfToken` (one token per `xf_csrf`
  cookie, so the one from the last page read serves; "Security error occurred" is met by reading a page again);
- POSTs ask for `_xfResponseType=json`: the answer is `{"status": "ok", "redirect": URL}` or
  `{"status": "error", "errors": [...]}` (XF\\Mvc\\Renderer\\Json), read by HtmlForum.json_answer; a flood is the
  error "You must wait at least N seconds before performing this action." (responseFlooding);
- thread pages are `threads/ID/page-N` (20 posts, a board setting), post times `time.u-dt[data-time]` in unix
  time, exact; a reply answers a redirect to `posts/ID/`;
- PMs are conversations: `conversations/` lists them newest change first, `conversations/add` starts one (its
  answer redirects to `conversations/slug.ID/`). Every logged-in page carries
  `XF.config.visitorCounts.conversations_unread`: the inbox check reads the topic page the cycle will read
  anyway (the last one read), early, and hands it to the topic read: an idle inbox check costs no request.
  The count is trusted only when the cursor handed in is the one this process handed back (stored, so nothing
  read before was lost); a new process reads the list once.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Iterator, Mapping

from lxml import etree

from adapters.extract import page_info
from adapters.hooks import hook
from adapters.html import clean_text, inner_html, select, select_one, text
from adapters.htmlforum import HtmlForum, ReplyId
from adapters.profiles import XENFORO, HtmlProfile
from forumbot.adapter import ForumPM, OWN_PM
from forumbot.errors import FormRejected, LoginRequired, PageFormatChanged
from forumbot.transport import TRANSPORT_SETTINGS, Page

log = logging.getLogger(__name__)

MAX_INBOX_PAGES = 20  # conversation list pages read at most per check
MAX_CONVERSATION_PAGES = 50  # pages of one conversation (20 messages each)
OWN_PM_LOOKBACK = 3  # recent conversations with the recipient that find_own_pm opens
EARLY_MAX_AGE = 30.0  # seconds a page the inbox check read stays good for the topic read of the same cycle
_UNREAD = re.compile(r"conversations_unread['\"]?\s*:\s*['\"]?(\d+)")
_MESSAGE_ID = re.compile(r"(\d+)$")


class XenforoForum(HtmlForum):
    """XenForo 2 adapter: `XenforoForum(base_url, username, password, timezone_name="Europe/Moscow")`."""
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM}

    engine = "xenforo"
    profile: HtmlProfile = XENFORO
    prints_local_times = False  # <time data-time>: unix times; timezone_name only for a time without one

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._csrf: str | None = None
        self._unread: int | None = None  # conversations_unread on the last logged-in page read
        self._handed: str | None = None  # the PM cursor this process last handed back
        self._last_topic_page: str | None = None  # the topic page read last: the next cycle reads it again
        self._reading = False
        self._early: dict[str, tuple[Page, float]] = {}  # pages the inbox check read for the topic reads to come

    @classmethod
    def from_config(cls, forum: Any, password: str | None) -> "XenforoForum":
        """Built by the daemon from a `[forums.NAME]` table (engine = "xenforo")."""
        extra: Mapping[str, Any] = getattr(forum, "extra", {}) or {}
        options = {k: extra[k] for k in TRANSPORT_SETTINGS | {"profile", "delete_read_pms"} if k in extra}
        zone = extra.get("timezone_name", extra.get("timezone", "UTC"))  # only for a time without data-time
        return cls(forum.base_url, forum.login, password, timezone_name=zone, **options)

    # --- pages: every one carries the token and the unread count -------------------------------------------

    def get(self, path: str, *, follow: bool = True) -> Page:
        early = self._early.pop(path, None)
        if early is not None and self.transport.clock() - early[1] <= EARLY_MAX_AGE:
            return early[0]  # read by this cycle's inbox check: the same page, not asked for twice
        page = super().get(path, follow=follow)
        root = page.tree()
        token = root.get("data-csrf")
        if token:
            self._csrf = token
        if root.get("data-logged-in") == "true":
            m = _UNREAD.search(page.text)
            self._unread = int(m.group(1)) if m else None
        return page

    def _fetch_posts(self, topic: str, after: str | None):
        self._reading = True
        try:
            return super()._fetch_posts(topic, after)
        finally:
            self._reading = False

    def _topic_page(self, path: str, tid: str):
        if self._reading:  # not a re-read or a search for the bot's post: the next cycle reads this page again
            self._last_topic_page = path
        return super()._topic_page(path, tid)

    def post(self, path: str, fields: list[tuple[str, str]], *, action: str, refresh: str,
             default: type[Exception] = FormRejected) -> dict[str, Any]:
        """POST `fields` with the token and JSON answer asked for; a rejected token is renewed from `refresh`
        (a page read again) and the form sent once more (nothing was done the first time)."""
        for attempt in (1, 2):
            if not self._csrf or attempt == 2:
                self.get(refresh)
            if not self._csrf:
                raise PageFormatChanged(f"xenforo: no html[data-csrf] on {refresh}")
            page = self.transport.post_form(path, [*fields, ("_xfToken", self._csrf), ("_xfResponseType", "json")],
                                            action=action)
            try:
                return self.json_answer(page, default, flood_action=action)
            except FormRejected as e:
                if attempt == 1 and self.matches("form_invalid", str(e)):
                    log.info("xenforo: token refused; reading %s for a fresh one", refresh)
                    continue
                raise
        raise AssertionError("unreachable")

    def raise_for_text(self, text: str, *, flood_action: str = "post") -> None:
        if self.matches("login_required", text):
            raise LoginRequired(f"xenforo: not logged in: {text}")
        if self.matches("no_recipient", text):
            raise FormRejected(f"xenforo: no such user: {text}")
        super().raise_for_text(text, flood_action=flood_action)

    # --- login ------------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired("xenforo: no password configured")
        page = self.get(self.url("login"))
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
            return
        spec = self.profile.forms["login"]
        fields = [(spec.fields["username"], self.username), (spec.fields["password"], self._password),
                  *((k, v) for k, v in spec.fixed.items() if k != "_xfResponseType"),
                  ("_xfRedirect", self.transport.base_url)]
        try:
            answer = self.post(self.url("login_post"), fields, action="login", refresh=self.url("login"),
                               default=LoginRequired)
        except FormRejected as e:  # "requested user could not be found" reads like a PM's unknown recipient
            raise LoginRequired(f"xenforo: login refused: {e}") from None
        if self.matches("two_step", str(answer.get("redirect", ""))):
            raise LoginRequired("xenforo: the bot's account asks for two-step verification; switch it off")

    # --- reply ------------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        # a flood refusal posts nothing: the transport waits it out (when short) and sends once more
        return self.transport.paced("post", lambda: self.with_login(lambda: self._reply(topic, text)))

    def _reply(self, topic: str, text: str) -> str:
        tid = self.topic_id(topic)
        field = self.profile.forms["reply"].fields["message"]
        answer = self.post(self.url("reply", topic=tid), [(field, text)], action="post",
                           refresh=self.url("topic", topic=tid))
        where = str(answer.get("redirect") or "")
        m = self.matches("posted", where)
        if m:
            return ReplyId(m.group(1))
        # a thread under moderation redirects to the thread with "awaiting approval": nothing to count as sent
        raise FormRejected(f"xenforo: reply to thread {tid} gave no post ({answer.get('message') or where})")

    # --- find own post ----------------------------------------------------------------------------------------

    def recent_pages(self, tid: str) -> Iterator[Page]:
        first = self._topic_page(self.url("topic", topic=tid), tid)[0]
        return self.numbered_recent_pages(tid, first, page_info(first.tree(), self.profile, 1).pages or 1)

    # --- PMs: conversations -----------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        if self._idle_inbox(after):
            return [], after
        pms, cursor = self.with_login(lambda: self._fetch_pms(after))
        self._handed = cursor
        return pms, cursor

    def _idle_inbox(self, after: str | None) -> bool:
        """Whether the inbox has nothing new, known at no request of its own: the topic page the last cycle
        ended on (read again by every cycle, as it holds the newest posts) is read now, early, and kept for the
        topic read that follows; it shows `conversations_unread`. Trusted only when `after` is the cursor this
        process handed back (so it was stored: reading a conversation marks it read, and after a lost answer
        the count would hide its messages). A new process reads the list once."""
        path = self._last_topic_page
        if after is None or after != self._handed or path is None:
            return False
        try:
            page = self.get(path)
        except LoginRequired:
            return False  # the list read logs in again
        self._early[path] = (page, self.transport.clock())
        return select_one(page.tree(), self.profile.selectors["logged_in"]) is not None and self._unread == 0

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str]:
        seen: dict[str, list] = (json.loads(after) if after else {}).get("c", {})
        changed: list[tuple[str, str, str, bool]] = []  # (id, last message time, title, the bot's, unanswered)
        unread_met = 0
        path = self.url("inbox")
        for _ in range(MAX_INBOX_PAGES):
            tree = self.read_page(path).tree()
            rows = self._rows(tree)
            fresh = [r for r in rows if seen.get(r[0], [None])[0] != r[1]]
            changed.extend((*r[:3], r[5]) for r in fresh)
            unread_met += sum(1 for r in rows if r[3])
            nxt = select_one(tree, self.profile.selectors["inbox_next"])
            # Rows come newest change first: a page with nothing new ends the search, unless the page counts
            # unread conversations not met yet.
            unread = self._unread or 0
            if nxt is None or (not fresh and unread_met >= unread):
                break
            path = nxt.get("href", "")
        pms: list[ForumPM] = []
        cursor = {k: list(v) for k, v in seen.items()}
        for cid, when, title, opened_by_bot in changed:
            last_mid = int(seen.get(cid, [None, 0])[1] or 0)
            if opened_by_bot:  # the bot's own PM, no answer yet: nothing to read
                cursor[cid] = [when, last_mid]
                continue
            messages = self._read_conversation(cid, title)
            pms.extend(m for m in messages if int(m.id) > last_mid and _fold(m.author) != _fold(self.username))
            cursor[cid] = [when, max([last_mid, *(int(m.id) for m in messages)])]
        pms.sort(key=lambda m: int(m.id))
        return pms, json.dumps({"c": cursor}, separators=(",", ":"), sort_keys=True)

    def _rows(self, tree: etree._Element) -> list[tuple[str, str, str, bool, list[str], bool]]:
        """(conversation id, last message time, title, unread, participants, started by the bot and not
        answered) per row of the list."""
        sel = self.profile.selectors
        rows = []
        for row in select(tree, sel["pm_row"]):
            link = select_one(row, sel["pm_row_link"])
            m = self.matches("conversation", link.get("href", "")) if link is not None else None
            if m is None:
                continue
            when = select_one(row, sel["pm_row_time"])
            stamp = (when.get("data-time") or when.get("datetime") or text(when)) if when is not None else ""
            users = [" ".join(text(u).split()) for u in select(row, sel["pm_row_users"])]
            replies = select_one(row, sel["pm_row_replies"])
            unanswered = (_fold(row.get("data-author", "")) == _fold(self.username) and replies is not None
                          and text(replies).strip() == "0")
            rows.append((m.group(1), stamp, " ".join(text(link).split()),
                         "is-unread" in (row.get("class") or "").split(), users, unanswered))
        return rows

    def _read_conversation(self, cid: str, title: str = "") -> list[ForumPM]:
        sel = self.profile.selectors
        out: list[ForumPM] = []
        path = self.url("conversation", pm=cid)
        for _ in range(MAX_CONVERSATION_PAGES):
            page = self.read_page(path)
            tree = page.tree()
            head = select_one(tree, sel["pm_subject"])
            title = " ".join(text(head).split()) if head is not None else title
            ctx = self.ctx(page)
            for msg in select(tree, sel["pm_message"]):
                m = _MESSAGE_ID.search(msg.get("data-content", ""))
                body = select_one(msg, sel["pm_body"])
                when = select_one(msg, sel["pm_time"])
                sent = hook(self.profile, "pm_time")(when, ctx) if when is not None else None
                if m is None or body is None or sent is None:
                    raise PageFormatChanged(f"xenforo: conversation {cid} has a message without id, body or time")
                author = select_one(msg, sel["pm_author"])
                name = " ".join(text(author).split()) if author is not None else msg.get("data-author", "")
                out.append(ForumPM(id=m.group(1), author=name, author_id=None, sent_at=sent.earliest,
                                   sent_latest=sent.latest if sent.rough else None, subject=title,
                                   text=clean_text(body, self.profile.strip), html=inner_html(body)))
            nxt = select_one(tree, self.profile.selectors["next_page"])
            if nxt is None or not nxt.get("href"):
                break
            path = nxt.get("href", "")
        return out

    def send_pm(self, to: str, subject: str, text: str) -> str:
        return self.transport.paced("pm", lambda: self.with_login(lambda: self._send_pm(to, subject, text)))

    def _send_pm(self, to: str, subject: str, text: str) -> str:
        """One conversation with every recipient in `to` (XF takes a comma-separated list); its id."""
        names = [n.strip() for n in to.split(",") if n.strip()]
        spec = self.profile.forms["compose"]
        title = subject.strip() or (text.strip().splitlines() or ["—"])[0][:100]  # XF requires a title
        fields = [(spec.fields["to"], ", ".join(names)), (spec.fields["subject"], title),
                  (spec.fields["message"], text)]
        answer = self.post(self.url("compose"), fields, action="pm", refresh=self.url("compose"))
        m = self.matches("conversation", str(answer.get("redirect") or ""))
        if m is None:
            raise FormRejected(f"xenforo: conversation with {to} not started ({answer.get('message') or answer})")
        return m.group(1)

    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The conversation the bot started with `to` that holds `marker`, if it went out (outbox recovery)."""
        return self.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        wanted = {_fold(n) for n in to.split(",") if n.strip()}
        rows = self._rows(self.read_page(self.url("inbox")).tree())
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


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()
