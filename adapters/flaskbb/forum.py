"""FlaskBB 3.0 with the conversations plugin, driven by the FLASKBB profile.

Flows as observed on a real FlaskBB 3.0.0rc5 (fixtures/flaskbb/README.md):
- every form carries a Flask-WTF `csrf_token` (one per session, no timing rule); a good login answers 302,
  a bad one re-shows the form with a flashed "Wrong username or password.";
- topics: `/topic/{id}?page=N`, 10 posts per page by default, post ids global and increasing; a reply answers
  302 to `/post/{new id}`; times are `<time datetime>` in ISO 8601 with an offset;
- PMs are "conversations": each user holds his own copy of one (the inbox lists copies the user started as
  well as received ones, newest change first; each row shows the time of its last message). A player may
  answer inside the bot's role PM or start a new conversation; either way the messages have ids, so a PM is
  one message from someone other than the bot. The cursor keeps, per conversation, the last message time
  seen and the highest message id taken, so a crash after reading (which marks it read) loses nothing;
- a new conversation answers 302 to the sent list; a full message quota answers 302 to the inbox with a
  flashed error (ask the admin to lift the quota for the bot: a GM bot fills 50 messages in one game).
FlaskBB renders Markdown: text from players is escaped with `escape_markdown`.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Iterator, Mapping

from lxml import etree

from adapters.html.dom import clean_text, inner_html, select, select_one, text
from adapters.html.forms import HtmlForms
from adapters.html.forum import HtmlForum
from adapters.html.inbox import same_account
from adapters.html.topics import HtmlTopics
from adapters.flaskbb.profile import FLASKBB
from adapters.html.profile import HtmlProfile
from forumbot.forum.adapter import ForumPM, OWN_PM, ReplyId
from forumbot.errors import FormRejected, LoginRequired, PageFormatChanged
from forumbot.markup import escape_markdown
from forumbot.forum.transport_settings import TRANSPORT_SETTINGS
from forumbot.forum.http_page import Page

log = logging.getLogger(__name__)

# Inbox pages read at most per cycle: the rows are newest-first, so only a burst this big needs more.
MAX_INBOX_PAGES = 20
# Sent conversations to the recipient that find_own_pm opens, newest first.
OWN_PM_LOOKBACK = 3



class FlaskbbForms(HtmlForms):
    """FlaskBB's forms: a full message quota and an unknown recipient are refusals of their own."""

    def raise_for_errors(self, page: Page, default: type[Exception] | None = FormRejected, *,
                         flood_action: str = "post", text: str | None = None) -> None:
        text = text if text is not None else self.error_text(page)
        if text and self.matches("quota", text):
            raise FormRejected(f"flaskbb: the bot's message quota is full: {text}")
        if text and self.matches("no_recipient", text):
            raise FormRejected(f"flaskbb: no such user: {text}")
        super().raise_for_errors(page, default, flood_action=flood_action, text=text)


class FlaskbbTopics(HtmlTopics):
    """FlaskBB's topics: the bot's recent pages found by page 1's numbered links."""

    def recent_pages(self, tid: str) -> Iterator[Page]:
        first = self.topic_page(self.site.url("topic", topic=tid), tid)[0]
        numbers = [self._page_number(a) for a in select(first.tree(), self.profile.selectors["page_link"])]
        return self.numbered_recent_pages(tid, first, max([1, *(n for n in numbers if n)]))

    def _page_number(self, link: etree._Element) -> int | None:
        value = HtmlForum.query_value(link.get("href", ""), "page")
        return int(value) if value and value.isdigit() else None


class FlaskbbForum(HtmlForum):
    """FlaskBB adapter: `FlaskbbForum(base_url, username, password)`."""
    forms_type = FlaskbbForms
    topics_type = FlaskbbTopics
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM}

    engine = "flaskbb"
    profile: HtmlProfile = FLASKBB
    settings = TRANSPORT_SETTINGS | {"profile"}
    prints_local_times = False  # its dates carry their zone
    markup = "markdown"

    @classmethod
    def from_config(cls, forum: Any, password: str | None) -> "FlaskbbForum":
        """Built by the daemon from a `[forums.NAME]` table (engine = "flaskbb")."""
        extra: Mapping[str, Any] = getattr(forum, "extra", {}) or {}
        options = {k: extra[k] for k in cls.settings if k in extra}
        return cls(forum.base_url, forum.login, password, **options)

    def escape(self, text: str) -> str:
        return escape_markdown(text)

    # --- login ------------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired("flaskbb: no password configured")
        page = self.get(self.url("login"))
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
            return
        spec = self.profile.forms["login"]
        result = self.forms.submit(page, "login", {spec.fields["username"]: self.username,
                                             spec.fields["password"]: self._password}, action="login")
        if result.status in (301, 302, 303) and "auth/login" not in (result.location or ""):
            return
        self.forms.raise_for_errors(result, default=LoginRequired)

    def get(self, path: str, *, follow: bool = True) -> Page:
        # login_required answers 302 to /auth/login?next=...: followed, that is the login form
        page = super().get(path, follow=follow)
        if "/auth/login" in page.url and not path.startswith(self.url("login")):
            raise LoginRequired(f"flaskbb: {path} needs login")
        return page

    # --- reply ------------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        return self.with_login(lambda: self._reply(topic, text))

    def _reply(self, topic: str, text: str) -> str:
        tid = self.topic_id(topic)
        form_page = self.get(self.url("reply", topic=tid))
        field = self.profile.forms["reply"].fields["message"]
        result = self.forms.submit(form_page, "reply", {field: text}, action="post")
        if result.status in (301, 302, 303):
            m = self.forms.matches("posted", result.location or "")
            if m:
                return ReplyId(m.group(1))
            if "auth/login" in (result.location or ""):
                raise LoginRequired(f"flaskbb: replying to topic {tid} needs login")
            # "You are not allowed to post a reply": flashed on the topic page it leads to
            self.forms.raise_for_errors(self.get(result.location or self.url("topic", topic=tid)))
        self.forms.raise_for_errors(result, flood_action="post")
        raise PageFormatChanged("flaskbb: reply gave neither a post id nor an error")

    # --- PMs: conversations -----------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.with_login(lambda: self._fetch_pms(after))

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str | None]:
        seen: dict[str, list] = (json.loads(after) if after else {}).get("c", {})
        changed: list[tuple[str, str, str]] = []  # (conversation id, last message time, subject)
        unread_met = 0
        path = self.url("inbox")
        for _ in range(MAX_INBOX_PAGES):
            inbox = self.read_page(path)
            tree = inbox.tree()
            rows = self._inbox_rows(tree)
            fresh = [r for r in rows if seen.get(r[0], [None])[0] != r[1]]
            changed.extend(r[:3] for r in fresh)
            unread_met += sum(1 for r in rows if r[3])
            nxt = select_one(tree, self.profile.selectors["inbox_next"])
            # Rows come newest change first: a page with nothing new ends the search, unless the navbar
            # counts unread conversations not met yet (one the bot read meanwhile can sort above them).
            if nxt is None or (not fresh and unread_met >= self._unread_badge(tree)):
                break
            path = nxt.get("href", "")
        pms: list[ForumPM] = []
        cursor = {k: list(v) for k, v in seen.items()}
        for cid, when, subject in changed:
            last_mid = int(seen.get(cid, [None, 0])[1] or 0)
            messages = self._read_conversation(cid, subject)
            new = [m for m in messages if int(m.id) > last_mid]
            pms.extend(m for m in new if m.author.casefold() != self.username.casefold())
            top = max([last_mid, *(int(m.id) for m in messages)])
            cursor[cid] = [when, top]
        pms.sort(key=lambda m: int(m.id))
        return pms, json.dumps({"c": cursor}, separators=(",", ":"), sort_keys=True)

    def _unread_badge(self, tree: etree._Element) -> int:
        badge = select_one(tree, self.profile.selectors["pm_unread_badge"])
        value = text(badge).strip() if badge is not None else ""
        return int(value) if value.isdigit() else 0

    def _inbox_rows(self, tree: etree._Element) -> list[tuple[str, str, str, bool]]:
        """(conversation id, last message time as shown, subject, unread) per row."""
        sel = self.profile.selectors
        rows = []
        for row in select(tree, sel["pm_row"]):
            link = select_one(row, sel["pm_row_link"])
            when = select_one(row, sel["pm_row_time"])
            cid = _conversation_id(link.get("href", "")) if link is not None else None
            if cid is None or link is None:
                continue  # "No conversations found."
            rows.append((cid, when.get("datetime", "") if when is not None else "",
                         " ".join(text(link).split()), "unread" in (row.get("class") or "").split()))
        return rows

    def _read_conversation(self, cid: str, subject: str = "") -> list[ForumPM]:
        page = self.read_page(self.url("conversation", pm=cid))
        sel = self.profile.selectors
        tree = page.tree()
        head = select_one(tree, sel["pm_subject"])
        subject = text(head).strip() if head is not None else subject
        ctx = self.ctx(page)
        out = []
        for msg in select(tree, sel["pm_message"]):
            mid = msg.get("id", "")[3:]
            body = select_one(msg, sel["pm_body"])
            when = select_one(msg, sel["pm_time"])
            sent = self.profile.hooks["pm_time"](when, ctx) if when is not None else None
            if not mid.isdigit() or body is None or sent is None:
                raise PageFormatChanged(f"flaskbb: conversation {cid} has a message without id, body or time")
            author = select_one(msg, sel["pm_author"])
            out.append(ForumPM(id=mid, author=" ".join(text(author).split()) if author is not None else "",
                               author_id=None, sent_at=sent.earliest, sent_latest=sent.latest if sent.rough else None,
                               subject=subject,
                               text=clean_text(body, self.profile.strip), html=inner_html(body)))
        return out

    def send_pm(self, to: str, subject: str, text: str) -> str:
        return self.with_login(lambda: self._send_pm(to, subject, text))

    def _send_pm(self, to: str, subject: str, text: str) -> str:
        ids = [self._send_one(name.strip(), subject, text) for name in to.split(",") if name.strip()]
        return ",".join(i for i in ids if i)

    def _send_one(self, to: str, subject: str, text: str) -> str:
        spec = self.profile.forms["compose"]
        page = self.get(self.url("compose"))
        result = self.forms.submit(page, "compose", {spec.fields["to"]: to, spec.fields["subject"]: subject,
                                               spec.fields["message"]: text}, action="pm")
        target = result.location or ""
        if result.status in (301, 302, 303) and target.rstrip("/").endswith("conversations/sent"):
            sent = self.get(target)
            newest = self._sent_rows(sent.tree())
            return next((cid for cid, name in newest if name.casefold() == to.casefold()), "")
        if result.status in (301, 302, 303):
            # the quota check redirects to the inbox with the reason flashed there
            self.forms.raise_for_errors(self.get(target), flood_action="pm")
        self.forms.raise_for_errors(result, flood_action="pm")
        raise FormRejected(f"flaskbb: PM to {to} not sent")

    def _sent_rows(self, tree: etree._Element) -> list[tuple[str, str]]:
        """(conversation id, recipient) per row of the sent list, newest first."""
        sel = self.profile.selectors
        rows = []
        for row in select(tree, sel["pm_row"]):
            link = select_one(row, sel["pm_row_link"])
            users = select(row, sel["pm_row_users"])
            cid = _conversation_id(link.get("href", "")) if link is not None else None
            if cid and len(users) >= 2:
                rows.append((cid, " ".join(text(users[1]).split())))
        return rows

    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The conversation id of a PM to `to` holding `marker`, if it was sent (outbox crash recovery)."""
        return self.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        names = {n.strip().casefold() for n in to.split(",") if n.strip()}
        sent = self.read_page(self.url("sentbox"))
        candidates = [cid for cid, name in self._sent_rows(sent.tree()) if name.casefold() in names]
        for cid in candidates[:OWN_PM_LOOKBACK]:
            for msg in self._read_conversation(cid):
                if msg.author.casefold() == self.username.casefold() and (marker in msg.text or marker in msg.html):
                    return cid
        return None

    def _account_exists(self, name: str) -> bool | None:
        """The profile page `/user/<name>`: FlaskBB finds it by the name spelled exactly, as its conversation
        form finds a recipient, so a 404 means a PM to that name would be refused too."""
        page = self.member_page(name)
        if page.status == 404:
            return False
        shown = select_one(page.tree(), self.profile.selectors["member_name"])
        return same_account(text(shown), name) if shown is not None else None

def _conversation_id(href: str) -> str | None:
    parts = [p for p in href.split("/") if p]
    if "conversations" in parts:
        i = parts.index("conversations")
        if i + 1 < len(parts) and parts[i + 1].isdigit():
            return parts[i + 1]
    return None
