"""XenForo 2.x, driven by the XENFORO profile.

XenForo is closed source and no board runs here. Thread pages are read as real saved pages show them
(fixtures/xenforo/README.md); the flows no saved page shows (login, reply, conversations, error answers) follow
XenForo's documented behaviour and are listed in `XENFORO.unverified`, so `forumbot probe` names them.
- every page carries the CSRF token as `html[data-csrf]`: POSTs send it as `_xfToken` (one token per `xf_csrf`
  cookie, so the one from the last page read serves; "Security error occurred" is met by reading a page again);
- POSTs ask for `_xfResponseType=json`: the answer is `{"status": "ok", "redirect": URL}` or
  `{"status": "error", "errors": [...]}` (XF\\Mvc\\Renderer\\Json), read by HtmlForms.json_answer; a flood is the
  error "You must wait at least N seconds before performing this action." (responseFlooding);
- thread pages are `threads/ID/page-N` (20 posts, a board setting), post times `time.u-dt[data-time]` in unix
  time, exact; a reply answers a redirect to `posts/ID/`;
- PMs are conversations: `conversations/` lists them newest change first, `conversations/add` starts one (its
  answer redirects to `conversations/slug.ID/`). Every logged-in page carries
  `XF.config.visitorCounts.conversations_unread`: the inbox check reads the topic page the cycle will read
  anyway (the last one read), early, and hands it to the topic read: an idle inbox check costs no request.
  The count is trusted only when the cursor handed in is the one this process handed back (stored, so nothing
  read before was lost); a new process reads the list once (adapters/xenforo/pms.py).
What ENGINES.md §12 adds (read from XF's own templates and controllers):
- a wrong password re-renders the login view: `{"status": "ok", "html": {...}}` with no redirect. That is a
  refused login (the board's words from its div.blockMessage--error), and no second try follows for
  LOGIN_HOLD seconds, kept in the exported session, so ticks do not walk the account into XF's login lockout;
- a reply awaiting approval redirects to `threads/...?pending_approval=1`: PostQueued, on its way, not refused;
- boards without friendly URLs serve `index.php?threads/...`: with a base URL ending in `index.php?` every route
  is appended to it (urljoin would drop the query).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from typing import TYPE_CHECKING, Any, Iterator, Mapping
from urllib.parse import urljoin

from lxml import etree

from adapters.html.extract import page_info
from adapters.html.dom import select_one
from adapters.html.forms import HtmlForms
from adapters.html.forum import HtmlForum
from adapters.html.profile import HtmlProfile
from adapters.html.topics import HtmlTopics
from adapters.xenforo.profile import XENFORO
from adapters.xenforo import answers
from adapters.xenforo.pms import Conversations
from forumbot.forum.adapter import CLOSE_CONVERSATION, CONFERENCE, ForumPM, ForumPost, LOCK, OWN_PM, PREVIEW
from forumbot.forum.adapter import ReplyId, ThreadAddressProblem
from forumbot.errors import FormRejected, LoginRequired, PageFormatChanged, PostQueued
from forumbot.forum.transport_settings import TRANSPORT_SETTINGS
from forumbot.forum.http_page import Page

if TYPE_CHECKING:  # (imported when used: only an API key loads the API flows)
    from adapters.xenforo.api import XenforoApiForum

log = logging.getLogger(__name__)

EARLY_MAX_AGE = 30.0  # seconds a page the inbox check read stays good for the topic read of the same cycle
# After a refused login no new attempt for this long (XF locks an account out after repeated failures): a GM
# fixing the password runs `forumbot tick` at once anyway (a new password resets the hold: it is per password).
LOGIN_HOLD = 900.0
FIND_LIMIT = 10  # the users members/find lists at most (Member::actionFind fetches 10)
_UNREAD = re.compile(r"conversations_unread['\"]?\s*:\s*['\"]?(\d+)")


class XenforoForms(HtmlForms):
    """XenForo's forms: the refusals its answers name (answers.refusal) before the shared ones."""

    def raise_for_text(self, text: str, *, flood_action: str = "post") -> None:
        refusal = answers.refusal(self.matches, text, flood_action)
        if refusal is not None:
            raise refusal
        super().raise_for_text(text, flood_action=flood_action)


class XenforoTopics(HtmlTopics):
    """XenForo's topics: the page a read ends on noted for the next cycle's inbox check, the thread's canonical
    address learnt from each page, the bot's recent pages found by page 1's count."""
    site: XenforoForum

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reading = False

    def fetch_posts(self, topic: str, after: str | None) -> tuple[list[ForumPost], str | None]:
        self._reading = True
        try:
            return super().fetch_posts(topic, after)
        finally:
            self._reading = False

    def topic_page(self, path: str, tid: str) -> tuple[Page, etree._Element, list[ForumPost]]:
        if self._reading:  # not a re-read or a search for the bot's post: the next cycle reads this page again
            self.site.conversations.last_topic_page = path
        read = super().topic_page(path, tid)
        self.site._learn_canonical(read[0].url, tid)
        return read

    def recent_pages(self, tid: str) -> Iterator[Page]:
        first = self.topic_page(self.site.url("topic", topic=tid), tid)[0]
        return self.numbered_recent_pages(tid, first, page_info(first.tree(), self.profile, 1).pages or 1)


class XenforoForum(HtmlForum):
    """XenForo 2 adapter: `XenforoForum(base_url, username, password, timezone_name="Europe/Moscow")`."""
    forms_type = XenforoForms
    topics_type = XenforoTopics
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM, LOCK, PREVIEW, CONFERENCE, CLOSE_CONVERSATION}

    engine = "xenforo"
    profile: HtmlProfile = XENFORO
    prints_local_times = False  # <time data-time>: unix times; timezone_name only for a time without one
    settings = HtmlForum.settings | {"api_key_env"}  # with it, every flow goes through /api/ (xenforo_api.py)

    def __init__(self, base_url: str, *args: Any, **kwargs: Any) -> None:
        # a board without friendly URLs: "https://host/forum/index.php?" takes every route appended to it
        self._route_base = base_url if base_url.endswith("?") else ""
        super().__init__(base_url.rsplit("index.php?", 1)[0] if self._route_base else base_url, *args, **kwargs)
        self._csrf: str | None = None
        self._unread: int | None = None  # conversations_unread on the last logged-in page read
        self._canonical: dict[str, str] = {}  # thread id -> its canonical URL (slug.ID/), as the board serves it
        self.conversations = Conversations(self)  # the PM flows (adapters/xenforo/pms.py)

    def unread_count_seen(self) -> int | None:
        """`conversations_unread` as the last logged-in page read showed it (None: no such page read yet)."""
        return self._unread

    # --- PMs: the conversations part's -------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.conversations.fetch_pms(after)

    def send_pm(self, to: str, subject: str, text: str) -> str:
        return self.conversations.send_pm(to, subject, text)

    def find_own_pm(self, to: str, marker: str) -> str | None:
        return self.conversations.find_own_pm(to, marker)

    def close_conversation(self, to: str, subject: str) -> None:
        self.conversations.close_conversation(to, subject)

    @classmethod
    def thread_problem(cls, thread: str, base_url: str) -> ThreadAddressProblem | str | None:
        """A board without friendly URLs serves every route after `index.php?` (ENGINES.md §12): threads given
        so while base_url lacks it would send the login to `login/`, which such a board does not serve."""
        route = re.match(r"(.*?index\.php\?)threads/", str(thread).strip())
        if route and not base_url.endswith("index.php?"):
            return ThreadAddressProblem("needs_route", str(thread), "XenForo", route.group(1))
        return super().thread_problem(thread, base_url)

    @classmethod
    def from_config(cls, forum: Any, password: str | None) -> "XenforoForum | XenforoApiForum":
        """Built by the daemon from a `[forums.NAME]` table (engine = "xenforo")."""
        extra: Mapping[str, Any] = getattr(forum, "extra", {}) or {}
        options = {k: extra[k] for k in TRANSPORT_SETTINGS | {"profile", "delete_read_pms"} if k in extra}
        zone = extra.get("timezone_name", extra.get("timezone", "UTC"))  # only for a time without data-time
        if extra.get("api_key_env"):
            # imported here: only a forum with an API key loads the API flows (all through /api/, issue 18 item 4)
            from adapters.xenforo.api import XenforoApiForum
            return XenforoApiForum.from_config(forum, password)
        return cls(forum.base_url, forum.login, password, timezone_name=zone, **options)

    def url(self, name: str, **values: Any) -> str:
        canonical = self._canonical.get(str(values.get("topic", ""))) if name in ("topic", "topic_page") else None
        if canonical:  # the thread's own URL: XF answers threads/ID/ with a redirect to it, a request more
            return canonical + (f"page-{values['start']}" if name == "topic_page" else "")
        return self._route_base + super().url(name, **values)

    def topic_id(self, topic: str) -> str:
        tid = super().topic_id(topic)
        self._learn_canonical(str(topic), tid)
        return tid

    def _learn_canonical(self, url: str, tid: str) -> None:
        m = re.search(rf"^(.*?threads/[^/?#&]*\.{tid}/)", url)
        if m and "://" in m.group(1):
            self._canonical[tid] = m.group(1)

    # --- the session: cookies, flood times, the refused login's hold, the conversations kept per player -------

    def export_cookies(self) -> str:
        state = self.transport.export_state()
        return json.dumps({**state, "xf": self.conversations.export_conversations()}, sort_keys=True)

    def import_cookies(self, data: str) -> None:
        state = json.loads(data)
        self.transport.import_state(state)
        self.conversations.import_conversations(state.get("xf") or {})

    # --- pages: every one carries the token and the unread count -------------------------------------------

    def get(self, path: str, *, follow: bool = True) -> Page:
        early = self.conversations.early.pop(path, None)
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
                return self.forms.json_answer(page, default, flood_action=action)
            except FormRejected as e:
                if attempt == 1 and self.forms.matches("form_invalid", str(e)):
                    log.info("xenforo: token refused; reading %s for a fresh one", refresh)
                    continue
                raise
        raise AssertionError("unreachable")

    # --- login ------------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired("xenforo: no password configured")
        held = self.transport.not_before.get(self._login_action(), 0.0) - self.transport.clock()
        if held > 0:  # refused lately with this password: asking again walks towards XF's login lockout
            raise LoginRequired(f"xenforo: the board refused this password; not trying again for {held:.0f} s "
                                "(fix password_env, then run `forumbot tick`)")
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
            self._refused_login()
            raise LoginRequired(f"xenforo: login refused: {e}") from None
        except LoginRequired:
            self._refused_login()
            raise
        if self.forms.matches("two_step", str(answer.get("redirect", ""))):
            self._refused_login()
            raise LoginRequired("xenforo: the bot's account asks for two-step verification; switch it off")
        if not answer.get("redirect"):
            # the login view rendered again ({"status": "ok", "html": ...}): a wrong password, not a session
            self._refused_login()
            said = answers.view_error(answer.get("html"), self.profile.selectors["error"])
            captcha = answers.view_has(answer.get("html"), self.profile.selectors["captcha"])
            if self.forms.matches("captcha_login", said) or (captcha and not said):
                raise answers.captcha_at_login(said)  # loginLimit "captcha": no bot can solve it
            then = " (the board now asks for a CAPTCHA at login: the next try cannot pass)" if captcha else ""
            raise LoginRequired(f"xenforo: login refused: {said or 'the board showed its login form again'}{then}")

    def _login_action(self) -> str:
        # the hold is per password: a GM's new password is tried at once
        return "login:" + hashlib.sha256((self._password or "").encode()).hexdigest()[:12]

    def _refused_login(self) -> None:
        self.transport.not_before[self._login_action()] = self.transport.clock() + LOGIN_HOLD

    # --- accounts ---------------------------------------------------------------------------------------------

    def _account_exists(self, name: str) -> bool | None:
        """Asked the way the conversation form's recipients box asks: `members/find?q=` answers, as
        Pub\\View\\Member\\Find::renderJson, {"results": [{"id": username, "text": username, ...}]}, at most
        FIND_LIMIT users whose name begins with `q` (compared case-insensitively, as XF finds a recipient), and
        nothing for a query shorter than 2 characters."""
        if len(name) < 2:
            return None
        page = self.transport.get(self.url("member_find"), params={"q": name, "_xfResponseType": "json"})
        try:
            answer = self.forms.json_answer(page, PageFormatChanged, flood_action="read")
        except (FormRejected, PageFormatChanged) as e:  # no permission to see members: cannot tell
            log.warning("xenforo: members/find did not answer (%s); account %r not checked", e, name)
            return None
        results = answer.get("results")
        if not isinstance(results, list):
            log.warning("xenforo: members/find answered without results; account %r not checked", name)
            return None
        found = [str(r.get("id", "")) for r in results if isinstance(r, dict)]
        if any(n.casefold() == name.casefold() for n in found):
            return True
        return False if len(found) < FIND_LIMIT else None  # a full list may have left the exact name out

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
        m = self.forms.matches("posted", where)
        if m:
            return ReplyId(m.group(1))
        if self.forms.matches("pending", where):  # taken, held for a moderator: sending it again would queue a copy
            raise PostQueued(f"xenforo: the reply to thread {tid} awaits a moderator's approval")
        raise FormRejected(f"xenforo: reply to thread {tid} gave no post ({answer.get('message') or where})")

    def preview_reply(self, topic: str, text: str) -> None:
        """The reply sent to `threads/{id}/reply-preview` (Pub\\Controller\\Thread::actionReplyPreview, 2.1-2.3):
        XF checks the thread (notFound), the bot's right to reply there (canReply, else noPermission: a locked thread
        or a group without "Reply to threads") and the message as for a reply, then renders it; nothing is posted
        and no flood timer starts (the handshake's reply flow, issue 28 item 4). A refusal is a ForumError in the
        board's words."""
        self.with_login(lambda: self._preview_reply(topic, text))

    def _preview_reply(self, topic: str, text: str) -> None:
        tid = self.topic_id(topic)
        field = self.profile.forms["reply"].fields["message"]
        answer = self.post(self.url("reply_preview", topic=tid), [(field, text)], action="read",
                           refresh=self.url("topic", topic=tid))
        if answers.view_tree(answer.get("html")) is None:
            raise PageFormatChanged(f"xenforo: the reply preview of thread {tid} showed no preview ({answer})")

    # --- locking a thread (R-13; unverified: checked against the emulator only) ------------------------------------

    def _lock_switch(self, topic: str) -> tuple[str | None, bool]:
        """The thread tools' lock switch (`threads/…/quick-close`, `data-xf-click="switch"`, shown with
        canLockUnlock) and whether the thread is locked (`dd.blockStatus-message--locked` above its posts)."""
        tid = self.topic_id(topic)
        page = self.get(self.url("topic", topic=tid))
        tree = page.tree()
        link = select_one(tree, "a[data-xf-click='switch'][href*='quick-close']")
        href = urljoin(page.url, link.get("href", "")) if link is not None else None
        return href, select_one(tree, ".blockStatus-message--locked") is not None

    def may_lock(self, topic: str) -> bool | None:
        return self._lock_switch(topic)[0] is not None

    def lock_thread(self, topic: str, locked: bool) -> None:
        self.with_login(lambda: self._lock_thread(topic, locked))

    def _lock_thread(self, topic: str, locked: bool) -> None:
        """Pub\\Controller\\Thread::actionQuickClose toggles discussion_open: read the state first, POST the
        switch with the token, and take the JSON answer's `discussion_open` where it gives one."""
        href, closed = self._lock_switch(topic)
        tid = self.topic_id(topic)
        if href is None:
            raise FormRejected(f"xenforo: the bot may not lock thread {tid} (no lock in its thread tools: the "
                               f"account needs the moderator's lock/unlock permission in this forum)")
        if closed == locked:
            return
        answer = self.post(href, [], action="lock", refresh=self.url("topic", topic=tid))
        if answer.get("discussion_open") is not None and bool(answer["discussion_open"]) == locked:
            raise FormRejected(f"xenforo: thread {tid} is still {'open' if locked else 'locked'} after the switch")
