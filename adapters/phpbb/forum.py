"""phpBB 3.2/3.3 (prosilver and prosilver-like styles), driven by the PHPBB profile.

Flows as observed on a real phpBB 3.3.10 board (fixtures/phpbb/README.md):
- every protected form carries creation_time/form_token and is refused if posted in the second it was
  served, so each POST waits >= 1.1 s after its GET (through the transport's injectable sleep);
- a reply carries topic_cur_post_id; if someone posted meanwhile phpBB re-shows the form with a post review
  and posts nothing: the re-shown form (fresh tokens, new topic_cur_post_id) is submitted again;
- PMs: the inbox lists them; reading one marks it read; PMs the caller has acknowledged (their ids are in
  the cursor it hands back) are deleted, so the 50-message folder never fills and holds new ones back.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import timedelta
from typing import Iterator
from urllib.parse import urljoin

from lxml import etree

from adapters.html.dom import (
    clean_text, fill, find_form, form_action, form_fields, meta_refresh_url, select, select_one, submit_field, text,
)
from adapters.html.forms import FORM_MIN_AGE
from adapters.html.forum import HtmlForum
from adapters.html.inbox import same_account
from adapters.html.profile import HtmlProfile
from adapters.html.topics import HtmlTopics
from adapters.phpbb.profile import PHPBB
from forumbot.forum.adapter import CONFERENCE, ForumPM, LOCK, OWN_PM, PREVIEW, ReplyId, ThreadAddressProblem
from forumbot.errors import FormRejected, FormTransient, LoginRequired, PageFormatChanged, PmNotAllowed, PostQueued
from forumbot.forum.http_page import Page

log = logging.getLogger(__name__)

STALE_RETRIES = 3


_POST_LINK = re.compile(r"viewtopic\.php\?(?:[^#]*[&;])?p=(\d+)")


class PhpbbTopics(HtmlTopics):
    """phpBB's topics: the bot's recent pages found by page 1's offsets."""

    def recent_pages(self, tid: str) -> Iterator[Page]:
        """Page 1's links give the other pages' offsets: the last two, then page 1."""
        first = self.topic_page(self.site.url("topic", topic=tid), tid)[0]
        links = [HtmlForum.query_value(a.get("href", ""), "start") for a in
                 select(first.tree(), self.profile.selectors["page_link"])]
        starts = sorted({int(s) for s in links if s and s.isdigit()})
        for start in reversed(starts[-2:]):
            yield self.topic_page(self.site.url("topic_page", topic=tid, start=start), tid)[0]
        yield first


class PhpbbForum(HtmlForum):
    """phpBB adapter. `PhpbbForum(base_url, username, password, timezone_name="Europe/Moscow")`; the zone is
    the one the forum shows the bot's account (PM dates and edit notices carry no zone)."""
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM, LOCK, PREVIEW, CONFERENCE}
    topics_type = PhpbbTopics

    engine = "phpbb"
    profile: HtmlProfile = PHPBB
    deletes_pms = True

    @property
    def user_ids(self) -> dict[str, str]:
        """Recipient name, case-folded -> phpBB user id, learnt by PMs sent (a property, not set in __init__:
        the daemon builds adapters from __init__'s signature)."""
        return self.__dict__.setdefault("_user_ids", {})

    # --- threads named by a post's link ---------------------------------------------------------------------

    @classmethod
    def thread_problem(cls, thread: str, base_url: str) -> ThreadAddressProblem | str | None:
        if _POST_LINK.search(str(thread)):
            return None  # `topic_id` reads which topic the post is in
        return super().thread_problem(thread, base_url)

    def topic_id(self, topic: str) -> str:
        """The topic's number; for a post's link (`viewtopic.php?p=N`, what "copy link" on a post gives) the
        number of the topic phpBB shows it in, read once from that page's title link (prosilver's
        viewtopic_body.html: `h2.topic-title a` to U_VIEW_TOPIC, `viewtopic.php?t=N`)."""
        post = _POST_LINK.search(str(topic))
        if post is None or re.search(self.profile.topic_id, str(topic).strip()):
            return super().topic_id(topic)
        known = self.__dict__.setdefault("_post_topics", {})
        if post.group(1) not in known:
            page = self.get(self.url("post_page", post=post.group(1)))
            link = select_one(page.tree(), "h2.topic-title a[href]")
            found = re.search(self.profile.topic_id, link.get("href", "")) if link is not None else None
            if found is None:
                raise PageFormatChanged(f"phpbb: no topic link on {page.url} (the post {post.group(1)} named by "
                                        f"{topic!r} is gone or the bot cannot see it)")
            known[post.group(1)] = found.group(1)
        return known[post.group(1)]

    # --- login ----------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired("phpbb: no password configured")
        for attempt in (1, 2):
            page = self.get(self.url("login"))
            if select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
                return
            served = self.transport.clock()
            spec = self.profile.forms["login"]
            result = self.forms.submit(page, "login", {spec.fields["username"]: self.username,
                                                 spec.fields["password"]: self._password},
                                 action="login", served_at=served)
            if self._logged_in(result):
                return
            text = self.forms.error_text(result)
            if self.forms.matches("form_invalid", text) and attempt == 1:
                continue  # a token from the wrong second: one fresh try
            self.forms.raise_for_errors(result, default=LoginRequired, text=text)
        raise LoginRequired("phpbb: login failed")

    def _logged_in(self, page: Page) -> bool:
        if page.status in (301, 302, 303) and page.location:
            for c in self.transport.session.cookies:
                if c.name.endswith("_u") and c.value not in ("", "1"):
                    return True
            return "mode=login" not in page.location
        return page.status == 200 and select_one(page.tree(), self.profile.selectors["logged_in"]) is not None

    # --- reply ------------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        # a flood refusal posts nothing: the transport waits it out (when short) and sends once more
        return self.transport.paced("post", lambda: self.with_login(lambda: self._reply(topic, text)))

    def _reply(self, topic: str, text: str) -> str:
        tid = self.topic_id(topic)
        page = self.get(self.url("reply", topic=tid))
        served = self.transport.clock()
        field = self.profile.forms["reply"].fields["message"]
        for _ in range(STALE_RETRIES + 1):
            result = self.forms.submit(page, "reply", {field: text}, action="post", served_at=served)
            if result.status in (301, 302, 303) and result.location:
                m = self.forms.matches("posted", result.location)
                if m:
                    return ReplyId(m.group(1))
                raise PageFormatChanged(f"phpbb: reply redirected to {result.location}")
            if result.status == 200:
                self._raise_if_queued(result, tid)
            if result.status == 200 and self.profile.hooks["stale"](result.tree(), self.profile):
                # New posts arrived since the form was served; the re-shown form is current: send it again.
                log.info("phpbb: topic %s moved on while replying; resubmitting", tid)
                page, served = result, self.transport.clock()
                continue
            self.forms.raise_for_errors(result, flood_action="post")
        raise FormTransient(f"phpbb: topic {tid} kept moving; reply not posted")

    def preview_reply(self, topic: str, text: str) -> None:
        """The reply form sent with its Preview button (posting.php's `preview`): phpBB shows the message rendered
        in `div#preview` above the form again and posts nothing (the handshake's reply flow, issue 28 item 4). No
        form (no right to reply) or an error box is a ForumError in the board's words."""
        self.with_login(lambda: self._preview_reply(topic, text))

    def _preview_reply(self, topic: str, text: str) -> None:
        tid = self.topic_id(topic)
        page = self.get(self.url("reply", topic=tid))
        served = self.transport.clock()  # a form sent within a second of serving it is silently shown again
        field = self.profile.forms["reply"].fields["message"]
        result = self.forms.submit(page, "reply", {field: text}, action="read", submit="preview", served_at=served)
        preview = select_one(result.tree(), "#preview") if result.status == 200 else None
        if preview is not None and " ".join(text.split()) in " ".join(clean_text(preview).split()):
            return
        self.forms.raise_for_errors(result, flood_action="post")
        raise PageFormatChanged(f"phpbb: the reply preview of topic {tid} showed no preview ({result.url})")

    def _raise_if_queued(self, result: Page, tid: str) -> None:
        """A reply held for approval: posting.php answers with its message page (POST_STORED_MOD) and a meta refresh
        to the topic, `viewtopic.php?t=N` (submit_post names the post only when it is visible), where a published
        reply is a redirect to `p=N#pN`. PostQueued: taken, not out, never sent again."""
        box = select_one(result.tree(), self.profile.selectors["success_message"])
        target = meta_refresh_url(result.tree(), result.url) or ""
        to_topic = re.search(r"viewtopic\.php\?(?:.*&)?t=\d+", target) and not self.forms.matches("posted", target)
        if box is not None and to_topic:
            words = " ".join(text(box).split())
            raise PostQueued(f"phpbb: the reply to topic {tid} awaits a moderator's approval (the board says: "
                             f"{words[:200]})")

    # --- PMs --------------------------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.with_login(lambda: self._fetch_pms(after))

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str | None]:
        return self.inbox.fetch_numbered_pms(after, self._inbox_rows,
                                             lambda _, pid, subject: self.inbox.read_pm(pid, subject),
                                             self._delete, first=self._note_usage)

    def _inbox_rows(self, inbox: Page) -> dict[str, str]:
        """pm id -> subject, for every row of the inbox page."""
        sel = self.profile.selectors
        rows: dict[str, str] = {}
        for row in select(inbox.tree(), sel["pm_row"]):
            link = select_one(row, sel["pm_row_link"])
            pid = self.query_value(link.get("href", ""), "p") if link is not None else None
            if pid and link is not None:
                rows[pid] = " ".join(text(link).split())
        return rows

    def _note_usage(self, inbox: Page) -> None:
        for p in select(inbox.tree(), self.profile.selectors["folder_status"]):
            m = self.forms.matches("folder_count", text(p))
            if m:
                self.inbox_usage = (int(m.group(1)), int(m.group(2)))
                if self.inbox_usage[0] >= self.inbox_usage[1]:
                    log.warning("phpbb: the bot's PM inbox is full (%s of %s); new PMs are held back",
                                *self.inbox_usage)
                return

    def _delete(self, inbox: Page, ids: list[str]) -> None:
        """Mark the PMs and choose "delete marked"; phpBB then asks to confirm."""
        form = self.forms.form(inbox, "folder")
        served = self.transport.clock()
        fields = [f for f in form_fields(form) if f[0] != "marked_msg_id[]"]
        fields = fill(fields, dict(self.profile.forms["folder"].fixed))
        fields += [("marked_msg_id[]", i) for i in ids]
        button = submit_field(form, self.profile.forms["folder"].submit or "submit_mark")
        if button:
            fields.append(button)
        age = self.transport.clock() - served
        if age < FORM_MIN_AGE:
            self.transport.sleep(FORM_MIN_AGE - age)
        confirm_page = self.transport.post_form(form_action(form, inbox.url), fields, charset=inbox.charset)
        if find_form(confirm_page.tree(), self.profile.forms["confirm"].selector) is None:
            log.warning("phpbb: no delete confirmation for PMs %s", ids)
            return
        self.forms.submit(confirm_page, "confirm", {}, action="read")

    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The id of the bot's PM to `to` holding `marker`, if it was sent (outbox crash recovery). phpBB keeps a
        sent PM in the outbox until its recipient reads it, then in the sentbox: both are looked at."""
        return self.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        for folder in ("outbox", "sentbox"):
            page = self.read_page(self.url(folder))
            found = self.inbox.own_pm_in(self._sent_rows(page), to, marker)
            if found is not None:
                return found
        return None

    def _sent_rows(self, folder: Page) -> list[tuple[str, str, list[str]]]:
        """(pm id, its page, recipients) per row of a sent folder, newest first. The row's link names the folder
        (f=-2 outbox, f=-1 sentbox): phpBB looks the PM up in the folder the link gives."""
        sel = self.profile.selectors
        rows = []
        for row in select(folder.tree(), sel["pm_row"]):
            link = select_one(row, sel["pm_row_link"])
            href = link.get("href", "") if link is not None else ""
            pid = self.query_value(href, "p")
            if pid:
                rows.append((pid, urljoin(folder.url, href), [text(a) for a in select(row, sel["pm_sent_to"])]))
        return rows

    def send_pm(self, to: str, subject: str, text: str) -> str:
        return self.transport.paced("pm", lambda: self.with_login(lambda: self._send_pm(to, subject, text)))

    def _send_pm(self, to: str, subject: str, text: str) -> str:
        names = [n.strip() for n in to.split(",") if n.strip()]
        spec = self.profile.forms["compose"]
        added = self._compose_to_known(names)
        if added is None:
            page = self._compose_page(self.url("compose"))
            served = self.transport.clock()
            values = {spec.fields["subject"]: subject, spec.fields["message"]: text,
                      spec.fields["to"]: "\n".join(names)}
            # Name -> user id: phpBB resolves `username_list` when "add" is pressed and re-shows the form.
            added = self.forms.submit(page, "compose", values, action="read", submit="add_to", served_at=served)
            ids = self.profile.hooks["recipients"](added.tree(), self.profile)
            if len(ids) < len(names):
                self.forms.raise_for_errors(added, text=self.forms.error_text(added) or f"unknown recipient among {names}")
            learnt = ids[0] if len(names) == 1 and len(ids) == 1 else None
        else:
            learnt = None
        served = self.transport.clock()
        result = self.forms.submit(added, "compose", {spec.fields["to"]: "", spec.fields["subject"]: subject,
                                                spec.fields["message"]: text},
                             action="pm", served_at=served)
        target = meta_refresh_url(result.tree(), result.url) if result.status == 200 else result.location
        if target and select_one(result.tree(), self.profile.selectors["success_message"]) is not None:
            if learnt is not None:  # kept once a PM reached it: the next PM to this name skips the "add" round trip
                self.user_ids[names[0].casefold()] = learnt
            m = self.forms.matches("pm_sent", target)
            return m.group(1) if m else ""
        self.forms.raise_for_errors(result, flood_action="pm")
        return ""

    def _compose_page(self, url: str) -> Page:
        """The compose form's page; PmNotAllowed where ucp_pm_compose.php's trigger_error('NO_AUTH_SEND_MESSAGE')
        stands in its place: the bot's group lacks «Can send private messages» (u_sendpm), and every PM would
        meet the same page."""
        page = self.get(url)
        words = [" ".join(text(p).split()) for p in select(page.tree(), self.profile.selectors["message_text"])]
        said = next((w for w in words if self.forms.matches("no_pm_permission", w)), "")
        if said:
            raise PmNotAllowed(f"phpbb: the board does not let the bot send private messages: «{said}» (give the "
                               "bot's group the permission «Can send private messages», u_sendpm)", said)
        return page

    def _compose_to_known(self, names: list[str]) -> Page | None:
        """The compose form with a recipient whose user id an earlier PM learnt: one GET (`&u=ID`) instead of the
        form and its "add" round trip, so a PM costs 2 requests, not 3 (issue 17 item 15). None when the id is
        not known, or now names someone else (a renamed account): the caller resolves the name again."""
        uid = self.user_ids.get(names[0].casefold()) if len(names) == 1 else None
        if uid is None:
            return None
        page = self._compose_page(self.url("compose_to", user=uid))
        tree = page.tree()
        shown = [text(a) for a in select(tree, self.profile.selectors["pm_recipient_name"])
                 if self.query_value(a.get("href", ""), "u") == uid]
        if (self.profile.hooks["recipients"](tree, self.profile) == [uid] and len(shown) == 1
                and same_account(shown[0], names[0])):
            return page
        del self.user_ids[names[0].casefold()]
        return None

    # --- the session kept between processes: cookies, flood times, and the user ids PMs learnt ----------------

    def export_cookies(self) -> str:
        data = self.transport.export_state()
        if self.user_ids:
            data["user_ids"] = dict(self.user_ids)
        return json.dumps(data, sort_keys=True)

    def import_cookies(self, data: str) -> None:
        state = json.loads(data)
        self.transport.import_state(state)
        ids = state.get("user_ids")
        if isinstance(ids, dict):
            self.user_ids.update({str(k): str(v) for k, v in ids.items() if str(v).isdigit()})

    # --- accounts -------------------------------------------------------------------------------------------

    def _account_exists(self, name: str) -> bool | None:
        """The profile by name (`memberlist.php?mode=viewprofile&un=`, open to Registered users on a stock
        board): shown, the account exists if its name is `name` case-folded (phpBB also finds a name by its
        look-alike-folded spelling, which is another account as far as C-3 goes); "no such user" is a 404 with
        the notice box. Anything else (no permission to view profiles) cannot tell."""
        page = self.member_page(name)
        tree = page.tree()
        shown = select_one(tree, self.profile.selectors["member_name"])
        if shown is not None:
            return same_account(text(shown), name)
        if page.status == 404 and select_one(tree, self.profile.selectors["message_panel"]) is not None:
            return False
        return None

    # --- closing a topic (R-13) ------------------------------------------------------------------------------------

    def quickmod_actions(self, topic: str) -> dict[str, str]:
        """The topic's quick-moderation links by action (viewtopic.php's quickmod_array, shown in prosilver's
        `#quickmod` dropdown: `mcp.php?f=F&t=T&quickmod=1&redirect=…&action=lock`). phpBB lists `lock` only on an
        open topic and `unlock` only on a closed one, and each only to an account with `m_lock` there (or, for
        `lock`, `f_user_lock` on its own topic)."""
        tid = self.topic_id(topic)
        page = self.get(self.url("topic", topic=tid))
        actions: dict[str, str] = {}
        for link in select(page.tree(), "a[href*='quickmod=1']"):
            href = urljoin(page.url, link.get("href", ""))
            action = self.query_value(href, "action")
            if action:
                actions.setdefault(action, href)
        return actions

    def may_lock(self, topic: str) -> bool | None:
        """Whether the bot may close and open the topic, read from its page only: `unlock` needs m_lock, so
        either link is a moderator's (an own-topic `lock` without m_lock could not be undone: not enough)."""
        actions = self.quickmod_actions(topic)
        return "unlock" in actions or ("lock" in actions and self._moderates(actions))

    @staticmethod
    def _moderates(actions: dict[str, str]) -> bool:
        # the topic log is listed only with m_ in the forum (viewtopic.php: 'topic_logs' => m_)
        return "topic_logs" in actions

    def lock_thread(self, topic: str, locked: bool) -> None:
        self.with_login(lambda: self._lock_thread(topic, locked))

    def _lock_thread(self, topic: str, locked: bool) -> None:
        """mcp.php's lock_unlock: the quickmod link answers with confirm_box's form (`form#confirm`: the hidden
        fields, confirm_uid, sess, confirm_key; buttons confirm/cancel); posted with `confirm`, the topic is set and
        the answer is trigger_error's message page with a meta refresh back to the topic. An account without the
        right is never shown the link; a page without the confirm form is the board's refusal, in its words."""
        want, done = ("lock", "unlock") if locked else ("unlock", "lock")
        actions = self.quickmod_actions(topic)
        if want not in actions:
            if done in actions:
                return  # already so (another moderator, or an earlier try whose answer was lost)
            raise FormRejected(f"phpbb: the bot may not {want} topic {self.topic_id(topic)} (its moderation tools "
                               f"offer no {want}: the account needs the moderator's right m_lock in this forum)")
        page = self.get(actions[want])
        served = self.transport.clock()
        form = find_form(page.tree(), "form#confirm")
        if form is None:
            self.forms.raise_for_errors(page, text=self.forms.notice_text(page) or self.forms.error_text(page))
            return
        fields = form_fields(form) + [submit_field(form, "confirm") or ("confirm", "1")]
        age = self.transport.clock() - served
        if age < FORM_MIN_AGE:
            self.transport.sleep(FORM_MIN_AGE - age)
        result = self.transport.post_form(form_action(form, page.url), fields, charset=page.charset, action="lock")
        if result.status in (301, 302, 303) or meta_refresh_url(result.tree(), result.url):
            return
        self.forms.raise_for_errors(result, text=self.forms.notice_text(result) or self.forms.error_text(result))

    # --- the board's zone (check-config --online) -------------------------------------------------------------

    def board_utc_offset(self) -> timedelta | None:
        """The UTC offset the board shows the bot's account now, from the footer of its index page
        (prosilver: "Часовой пояс: UTC+03:00", "All times are UTC+03:00"); None when the page does not say.
        Read after `login`: a guest sees the board's default zone, not the account's."""
        return shown_utc_offset(self.get("index.php").tree())


_UTC_OFFSET = re.compile(r"^(?:UTC|GMT)\s*(?:([+-−])\s*(\d{1,2})(?::?(\d{2}))?)?$")


def shown_utc_offset(tree: etree._Element) -> timedelta | None:
    """The offset a prosilver-like page prints in its footer ("UTC", "UTC+03:00", "UTC-04:30")."""
    # the footer's zone is a span with the zone's name as its title; BBCode cannot put a title in a post
    for span in select(tree, "span[title]"):
        m = _UTC_OFFSET.match(" ".join(text(span).split()))
        if m:
            sign, hours, minutes = m.groups()
            offset = timedelta(hours=int(hours or 0), minutes=int(minutes or 0))
            return -offset if sign in ("-", "−") else offset
    return None
