"""Invision Community 4, driven by the INVISION profile.

Posts are read from the comment wrapper's `data-quotedata` JSON (member, unix time, comment id: exact, seen on
a real page, fixtures/invision/README.md); `time[datetime]` is the fallback. The flows follow the IPS 4
templates, no real page of them was saved (INVISION.unverified):
- login: `login/` form with `csrfKey`, `auth`, `password`, `_processLogin=usernamepassword`; success is a
  redirect and the `ips4_member_id` cookie;
- a reply is the topic's comment form (`commentform_{tid}_submitted`, `topic_comment_{tid}` as HTML) posted
  back to the topic; the answer redirects to `.../page/N/#comment-NEW` (or `?do=findComment&comment=NEW`);
- a reply that goes to the moderation queue is answered exactly as a published one (IPS 4's
  Content\\Item::commentForm redirects to lastCommentPageUrl() either way): the sign is the forms/modQueueMessage
  box (`div.ipsMessage_warning`) IPS puts right before the comment form whenever the member's new comments are
  moderated (the forum's preview_posts, the member's mod_posts). Read off the form page already fetched, and
  the new comment then found marked `ipsModerated` on the redirect's page (one request, only when the box was
  shown: a box of another kind must not hold a published post back), it makes the answer PostQueued: taken,
  not out, never sent again; after a crash, find_own_post finds the same comment by the profile's `held`
  mark (`article.ipsModerated`) and says PostQueued too, so the outbox records it queued, not sent;
- PMs are Messenger conversations: `messenger/` lists them, `messenger/{id}/` shows the messages (each with
  its own data-quotedata), `messenger/compose/` starts one (the answer redirects to `messenger/{id}/`);
- a board without friendly URLs (IPS's htaccess_mod_rewrite off) has no `login/` or `topic/N/` to answer (the
  web server's 404): IPS writes every URL as `index.php?/path`, the path's own query joined with `&`
  (`index.php?/topic/1/&do=findComment&comment=2`); a base URL holding `index.php?` says so, and every route
  goes through it, as XenForo's route base does. Threads given as `.../index.php?/topic/...` while base_url
  lacks it are a config problem named before any request (thread_problem), and a `login/` the web server answers
  with 404 says which base_url to set, not "no login form".
"""

from __future__ import annotations

import html
import json
import logging
import re
from dataclasses import replace
from typing import Iterator
from urllib.parse import urljoin

from lxml import etree

from adapters.html.extract import extract_posts
from adapters.html.dom import find, select, select_one, text
from adapters.html.forum import HtmlForum
from adapters.html.inbox import HtmlInbox
from adapters.html.pagechecks import check_complete, check_page
from adapters.html.topics import HtmlTopics
from adapters.html.profile import HtmlProfile
from adapters.invision.profile import INVISION
from forumbot.forum.adapter import ForumPM, LOCK, OWN_PM, ReplyId, ThreadAddressProblem
from forumbot.errors import FormRejected, FormTransient, LoginRequired, PageFormatChanged, PmNotAllowed, PostQueued
from forumbot.forum.http_page import Page

log = logging.getLogger(__name__)

# Conversations left at once when the Messenger is full (a game's PMs then have room for a while).
LEAVE_AT_ONCE = 5


def to_html(message: str) -> str:
    """The editor field takes HTML: each line a paragraph, the text escaped."""
    return "".join(f"<p>{html.escape(line) or '&nbsp;'}</p>" for line in message.split("\n"))


class InvisionInbox(HtmlInbox):
    """Invision's inbox: the bot's sent PM is its first message of a conversation."""
    site: InvisionForum

    def read_pm(self, pid: str, subject: str, path: str | None = None) -> ForumPM:
        """For own_pm_in: the bot's first message of conversation `pid`."""
        page = self.site.read_page(path or self.site.url("conversation", pm=pid))
        mine = [m for m in self.site._messages(page) if m.author.casefold() == self.username.casefold()]
        if not mine:  # a conversation a player started: nothing of the bot's to find in it
            return ForumPM(id=pid, author="", author_id=None, sent_at=self.site.ctx(page).now, subject=subject,
                           text="", html="")
        return mine[0]


class InvisionTopics(HtmlTopics):
    """Invision's topics: the bot's recent page found as its replies find it."""
    site: InvisionForum

    def recent_pages(self, tid: str) -> Iterator[Page]:
        """The last page only, found through page 1's pagination."""
        page = self.site._last_page(tid)
        check_complete(page, self.profile)
        yield page


class InvisionForum(HtmlForum):
    """Invision Community 4. `InvisionForum(base_url, username, password)`; times are exact (unix/ISO)."""
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM, LOCK}
    topics_type = InvisionTopics
    inbox_type = InvisionInbox

    engine = "invision"
    profile: HtmlProfile = INVISION
    prints_local_times = False

    @classmethod
    def thread_problem(cls, thread: str, base_url: str) -> ThreadAddressProblem | str | None:
        """A board without rewrite writes its topics `index.php?/topic/...`: threads given so while base_url lacks
        `index.php?` would send the login to `login/`, which only the web server answers (404)."""
        route = re.match(r"(.*?index\.php\?)/?topic/", str(thread).strip())
        if route and "index.php?" not in base_url:
            return ThreadAddressProblem("needs_route", str(thread), "Invision", route.group(1) + "/")
        return super().thread_problem(thread, base_url)

    # --- login ----------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired("invision: no password configured")
        page = self.transport.get(self.url("login"))
        if page.status == 404 and "index.php?" not in self.transport.base_url:
            raise PageFormatChanged(
                f"invision: {page.url} answers 404: a board without friendly URLs serves only index.php?/...; set "
                f"the forum's base_url to {self.transport.url('index.php?/')!r}")
        check_page(page, self.profile)
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
            return
        spec = self.profile.forms["login"]
        result = self.forms.submit(page, "login", {spec.fields["username"]: self.username,
                                             spec.fields["password"]: self._password}, action="login")
        if self._member_cookie() and not self.forms.error_text(result):
            return
        if select_one(result.tree(), self.profile.selectors["two_step"]) is not None:
            raise LoginRequired("invision: the bot's account asks for a two-step (MFA) code at login: turn two-step "
                                "verification off for the bot's account (a bot cannot type the code)")
        self.forms.raise_for_errors(result, default=LoginRequired)
        raise LoginRequired("invision: login failed")

    def _member_cookie(self) -> bool:
        return any(c.name.endswith("member_id") and c.value not in ("", "0") for c in self.transport.session.cookies)

    # --- reply ------------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        return self.transport.paced("post", lambda: self.with_login(lambda: self._reply(topic, text)))

    def _last_page(self, tid: str) -> Page:
        page = self.get(self.url("topic", topic=tid))
        last = select(page.tree(), "ul.ipsPagination li.ipsPagination_last a, ul.ipsPagination li.ipsPagination_page a")
        if last:
            page = self.get(last[-1].get("href", ""))
        return page

    def _reply(self, topic: str, text: str) -> str:
        tid = self.topic_id(topic)
        page = self._last_page(tid)
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is None:
            raise LoginRequired(f"invision: not logged in ({page.url})")
        form = self.forms.form(page, "reply")
        field = next((el.get("name") for el in find(form, ".//textarea") if el.get("name", "").endswith(f"_{tid}")
                      or el.get("name", "").startswith("topic_comment")), None)
        if field is None:
            raise PageFormatChanged(f"invision: no comment field in the reply form of topic {tid}")
        submitted = next((el.get("name") for el in find(form, ".//input[@type='hidden']")
                          if el.get("name", "").endswith("_submitted")), None)
        values = {field: to_html(text)}
        if submitted:
            values[submitted] = "1"
        queue = _mod_queue_notice(form)
        result = self.forms.submit(page, "reply", values, action="post", form=form)
        m = self.forms.matches("posted", result.location or "") if result.status in (301, 302, 303) else None
        if m and queue and not self._published(result.location or "", m.group(1)):
            raise PostQueued(f"invision: the reply to topic {tid} awaits a moderator's approval (the board says: "
                             f"{queue[:200]})", pending_id=m.group(1))
        if m:
            return ReplyId(m.group(1))
        self.forms.raise_for_errors(result, flood_action="post")
        raise PageFormatChanged("invision: reply gave neither a comment id nor an error")

    def _published(self, location: str, cid: str) -> bool:
        """Whether comment `cid`, on the page the reply's redirect names, stands published: a warning box before
        the form said the reply would be queued, and the author sees his queued comment marked `ipsModerated`
        (IPS 4's templates); one request, made only when such a box was shown. Not found: taken as queued."""
        page = self.get(location.split("#", 1)[0])
        found = find(page.tree(), f"//*[@id='elComment_{cid}']")
        return bool(found) and "ipsModerated" not in (found[0].get("class") or "")

    _rereading = ""  # the topic reread_from is reading: IPS's findComment URL names it

    def reread_from(self, topic, post_id, ids=()):
        # IPS's findComment URL names the topic too
        self._rereading = self.topic_id(topic)
        return super().reread_from(topic, post_id, ids)

    def url(self, name: str, **values) -> str:
        if name == "post_page" and "topic" not in values:
            values["topic"] = self._rereading
        path = super().url(name, **values)
        if "index.php?" not in self.transport.base_url:
            return path
        # a board without rewrite: the route after index.php?/ (resolved against the base URL, it replaces
        # whatever followed "index.php?"); IPS reads the path from the query string, the path's own query after "&"
        return "index.php?/" + path.replace("?", "&", 1)

    # --- PMs (Messenger) --------------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.with_login(lambda: self._fetch_pms(after))

    def _conversations(self, tree: etree._Element) -> list[tuple[str, str, str, list[str], str]]:
        """(id, href, title, members, latest time) per conversation row."""
        sel = self.profile.selectors
        out = []
        for row in select(tree, sel["pm_row"]):
            cid = row.get("data-conversationid") or row.get("data-messageid") or ""
            link = select_one(row, sel["pm_row_link"])
            when = select_one(row, sel["pm_row_time"])
            if not cid.isdigit() or link is None:
                continue
            members = [" ".join(text(a).split()) for a in select(row, sel["pm_row_users"])]
            if not members:
                # IPS 4 lists participants as plain text (§12): the row's text less the title stands for them;
                # _members_named picks whole names out of it
                members = [" ".join(text(row).replace(text(link), " ", 1).split())]
            latest = when.get("datetime", "") if when is not None else ""
            if "ipsDataItem_unread" in (row.get("class") or ""):
                # unread: opened whatever its time says (a reply in the second of the bot's own message leaves
                # the row's time, shown to the second, where the cursor has it)
                latest += "+unread"
            out.append((cid, link.get("href", ""), " ".join(text(link).split()), members, latest))
        return out

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str | None]:
        # cursor: the newest message id read per conversation, and the row time it was read at: a conversation
        # is opened again only when its latest time moved (an idle inbox costs one request)
        cur: dict[str, list] = json.loads(after) if after else {}
        inbox = self.read_page(self.url("inbox"))
        # rows come latest first: while a whole page changed, the next one may hold changed ones too
        pages, _ = self.inbox.inbox_pages(inbox, lambda page: {c[0]: c for c in self._conversations(page.tree())},
                                          lambda cid, c: not (c[4] and c[4] == cur.get(cid, [0, ""])[1]))
        rows = {cid: row for _, page_rows in reversed(pages) for cid, row in page_rows.items()}
        out: list[ForumPM] = []
        for cid, href, title, _, latest in rows.values():
            seen_id, seen_at = cur.get(cid, [0, ""])
            if latest and latest == seen_at:
                continue
            page = self.read_page(href or self.url("conversation", pm=cid))
            messages = self._messages(page)
            fresh = [m for m in messages if int(m.id) > int(seen_id)]
            out.extend(replace_subject(m, title) for m in fresh if m.author.casefold() != self.username.casefold())
            top = max([int(seen_id), *(int(m.id) for m in messages)])
            cur[cid] = [top, latest.removesuffix("+unread")]  # read now: an unread row opens again
        out.sort(key=lambda p: int(p.id))
        return out, json.dumps(cur, separators=(",", ":"), sort_keys=True)

    def _messages(self, page: Page) -> list[ForumPM]:
        sel = self.profile.selectors
        profile = self.profile.with_selectors(post=sel["pm_message"])
        subject_el = select_one(page.tree(), sel["pm_subject"])
        subject = " ".join(text(subject_el).split()) if subject_el is not None else ""
        posts = extract_posts(page.tree(), profile, self.ctx(page), "")
        return [ForumPM(id=p.id, author=p.author, author_id=p.author_id, sent_at=p.posted_at, subject=subject,
                        text=p.text, html=p.html, sent_latest=p.posted_latest) for p in posts]

    def find_own_pm(self, to: str, marker: str) -> str | None:
        return self.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        inbox = self.read_page(self.url("inbox"))
        rows = [(cid, href or self.url("conversation", pm=cid), _members_named(members, to, self.username))
                for cid, href, _, members, _ in self._conversations(inbox.tree())]
        rows.sort(key=lambda r: -int(r[0]))
        return self.inbox.own_pm_in(rows, to, marker)

    def send_pm(self, to: str, subject: str, text: str) -> str:
        return self.transport.paced("pm", lambda: self.with_login(lambda: self._send_pm(to, subject, text)))

    def _send_pm(self, to: str, subject: str, text: str) -> str:
        try:
            return self._compose(to, subject, text)
        except FormRejected as e:
            # the default Members group keeps 50 conversations (g_max_messages) and then answers "Your inbox is
            # full" (HTTP 403): leave the oldest the bot is in, then start this one
            if isinstance(e, FormTransient) or not self.forms.matches("quota", str(e)) or not self._leave_oldest():
                raise
            return self._compose(to, subject, text)

    def _leave_oldest(self, count: int = LEAVE_AT_ONCE) -> bool:
        """Leave the `count` conversations with the oldest activity (read already: a conversation's rows are read
        each tick); False when there is none to leave."""
        inbox = self.read_page(self.url("inbox"))
        rows = sorted(self._conversations(inbox.tree()), key=lambda r: (r[4], int(r[0])))[:count]
        if not rows:
            return False
        token = _csrf_key(inbox)
        for cid, href, title, _, _ in rows:
            target = href or self.url("conversation", pm=cid)
            sep = "&" if "?" in target else "?"
            self.get(f"{target}{sep}do=leaveConversation&csrfKey={token}")
            log.info("invision: the Messenger is full; left conversation %s (%s)", cid, title)
        return True

    def _compose(self, to: str, subject: str, text: str) -> str:
        spec = self.profile.forms["compose"]
        page = self.get(self.url("compose"))
        said = self.forms.error_text(page)
        if page.status == 403 and said:  # messenger.php's execute(): the Messenger switched off for the bot
            raise PmNotAllowed(f"invision: the board does not let the bot use the Messenger: «{said}» (an "
                               "administrator must allow the bot's account and group to send personal messages)", said)
        form = self.forms.form(page, "compose")
        submitted = next((el.get("name") for el in find(form, ".//input[@type='hidden']")
                          if el.get("name", "").endswith("_submitted")), None)
        # one member per line: IPS splits messenger_to on newlines, not commas (§12)
        values = {spec.fields["to"]: "\n".join(n.strip() for n in to.split(",") if n.strip()),
                  spec.fields["subject"]: subject, spec.fields["message"]: to_html(text)}
        if submitted:
            values[submitted] = "1"
        result = self.forms.submit(page, "compose", values, action="pm", form=form)
        m = self.forms.matches("pm_sent", result.location or "") if result.status in (301, 302, 303) else None
        if m:
            return m.group(1)
        if result.status == 403 and not self.forms.error_text(result):
            raise FormRejected(f"invision: HTTP 403 from {result.url}")
        self.forms.raise_for_errors(result, flood_action="pm")
        raise PageFormatChanged("invision: sending a PM gave neither a conversation nor an error")

    # --- locking a topic (R-13; unverified: checked against the emulator only) -------------------------------------

    def lock_link(self, topic: str) -> tuple[str, str] | None:
        """The moderation menu's lock item (Content\\Controller::moderate: `?do=moderate&action=lock|unlock&
        csrfKey=`): `lock` on an open topic, `unlock` on a locked one, shown only with canLock. None: not shown."""
        tid = self.topic_id(topic)
        page = self.get(self.url("topic", topic=tid))
        for link in select(page.tree(), "a[href*='do=moderate']"):
            href = urljoin(page.url, html.unescape(link.get("href", "")))
            action = self.query_value(href, "action")
            if action in ("lock", "unlock"):
                return action, href
        return None

    def may_lock(self, topic: str) -> bool | None:
        return self.lock_link(topic) is not None

    def lock_thread(self, topic: str, locked: bool) -> None:
        self.with_login(lambda: self._lock_thread(topic, locked))

    def _lock_thread(self, topic: str, locked: bool) -> None:
        """A GET of the menu's link (its csrfKey checked), answered with a redirect to the topic; a member without
        canLock gets the error page (`#elErrorMessage`). lock on a locked topic is not offered: nothing to do."""
        want = "lock" if locked else "unlock"
        link = self.lock_link(topic)
        if link is None:
            raise FormRejected(f"invision: the bot may not {want} topic {self.topic_id(topic)} (no lock in its "
                               f"moderation menu: the account needs the moderator's lock permission in this forum)")
        shown, href = link
        if shown != want:
            return  # already so
        result = self.transport.get(href, follow=False, action="lock")
        if result.status in (301, 302, 303):
            return
        self.forms.raise_for_errors(result)



def replace_subject(pm: ForumPM, title: str) -> ForumPM:
    return pm if pm.subject else replace(pm, subject=title)


def _members_named(members: list[str], to: str, bot: str) -> list[str]:
    """The names of `to` a conversation row shows (as links, or within its plain text), the bot's left out."""
    fold = (lambda n: " ".join(n.split()).casefold())
    shown = [fold(m) for m in members]
    names = [n.strip() for n in to.split(",") if n.strip()]
    out = [n for n in names if any(fold(n) == s or f" {fold(n)}" in f" {s.replace(',', ' , ')} " for s in shown)]
    return [n for n in out if fold(n) != fold(bot)]


# forms/modQueueMessage: <div class="ipsMessage ipsMessage_warning"><p class='ipsType_reset'>mod_queue_message</p>
_MOD_QUEUE = "preceding::div[contains(concat(' ', normalize-space(@class), ' '), ' ipsMessage_warning ')]"


def _mod_queue_notice(form: etree._Element) -> str:
    """The words of the mod-queue box shown before the comment form ("" when there is none): a warning box
    between the page's last comment and the form (a board's announcement above the posts is none of it)."""
    for box in reversed(find(form, _MOD_QUEUE)):
        if find(box, "following::*[@data-commentid]"):
            break  # above a comment: not the form's
        return " ".join(text(box).split())
    return ""


def _csrf_key(page: Page) -> str:
    """The page's csrfKey: a form's hidden input, else ipsSettings in the head's script."""
    found = page.tree().xpath("//input[@name='csrfKey']/@value")
    if found:
        return str(found[0])
    m = re.search(r"csrfKey[\"']?\s*[:=]\s*[\"']([0-9a-f]+)", page.text)
    return m.group(1) if m else ""
