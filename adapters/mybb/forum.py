"""MyBB 1.8, driven by the MYBB profile.

Flows as observed on a real MyBB 1.8.37 board (fixtures/mybb/README.md):
- `my_post_key` is one per session and has no timing rule; success pages are 200 "friendly redirects"
  whose meta refresh names the new post (`pid=`);
- posts within `postmergemins` of the bot's own last post in a thread are appended to it: the reply is read
  from the thread's last page first, so a pid that is not newer than the last one there means "merged";
- 60 s between posts and between PMs (the transport paces both); at most 5 recipients per PM;
- a deleted PM goes to the trash (fid 4) and still counts against the PM quota; deleted there, it is gone:
  after deleting read PMs the adapter empties the trash, so the quota never fills with them;
- dates: old ones absolute ("26.11.2026, 15:07"), recent ones relative, with the exact date in a `title`
  where MyBB gives one ("Today"/"Yesterday"); "N hours ago" counts back from the server's Date header.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta, timezone
from typing import Sequence

from lxml import etree

from adapters.dates import parse_forum_date
from adapters.html.dom import (
    clean_text, find_form, form_action, form_fields, meta_refresh_url, select, select_one, text,
)
from adapters.html.forum import HtmlForum
from adapters.html.inbox import same_account
from adapters.html.profile import HtmlProfile
from adapters.mybb.profile import MYBB, MYBB_MAX_RECIPIENTS
from forumbot.forum.adapter import CONFERENCE, ForumPM, LOCK, OWN_PM, PREVIEW, ReplyId
from forumbot.errors import FormRejected, ForumError, LoginRequired, PageFormatChanged, PartlySent, PostQueued
from forumbot.forum.http_page import Page

log = logging.getLogger(__name__)

# get_thread_link(): the thread itself (plain or SEO URL, maybe its last post), as a reply into the queue leads
_THREAD_LINK = re.compile(r"showthread\.php\?(?:.*&(?:amp;)?)?tid=\d+|thread-\d+(?:-lastpost)?\.html")


class MybbForum(HtmlForum):
    """MyBB adapter. `MybbForum(base_url, username, password, timezone_name="Europe/Moscow")`; the zone is
    the one the forum shows the bot's account (MyBB prints no zone at all)."""
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM, LOCK, CONFERENCE, PREVIEW}

    engine = "mybb"
    profile: HtmlProfile = MYBB
    deletes_pms = True

    # --- login ----------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired("mybb: no password configured")
        page = self.get(self.url("login"))
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
            return
        spec = self.profile.forms["login"]
        result = self.forms.submit(page, "login", {spec.fields["username"]: self.username,
                                             spec.fields["password"]: self._password}, action="login")
        text = self.forms.error_text(result) or self._notice_text(result)
        if self._has_user_cookie() and not self.forms.error_text(result):
            return
        self.forms.raise_for_errors(result, default=LoginRequired, text=text)
        raise LoginRequired("mybb: login failed")

    def _has_user_cookie(self) -> bool:
        return any(c.name == "mybbuser" and c.value for c in self.transport.session.cookies)

    def _notice_text(self, page: Page) -> str:
        """MyBB's stand-alone error page ('error' template) has no error box; its message is a table cell."""
        return " ".join(clean_text(td) for td in select(page.tree(), self.profile.selectors["notice"]))

    # --- reply ------------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        # a flood refusal posts nothing: the transport waits it out (when short) and sends once more
        return self.transport.paced("post", lambda: self.with_login(lambda: self._reply(topic, text)))

    def _reply(self, topic: str, text: str) -> str:
        tid = self.topic_id(topic)
        # The last page: its newest pid tells a merge apart from a new post, and it carries the quick reply.
        last = self.get(self.url("last_page", topic=tid))
        last_pid = self.max_post_id(last.tree(), self.profile.selectors["post"])
        spec = self.profile.forms["reply"]
        form_page = last
        quick = find_form(last.tree(), spec.selector, spec.needs)
        if quick is None:
            form_page = self.get(self.url("reply", topic=tid))
        else:
            # The quick reply's lastpid is the thread's newest post, even on an earlier page.
            lastpid = dict(form_fields(quick)).get("lastpid", "")
            last_pid = int(lastpid) if lastpid.isdigit() else last_pid
        result = self.forms.submit(form_page, "reply", {spec.fields["message"]: text}, action="post")
        target = meta_refresh_url(result.tree(), result.url) if result.status == 200 else result.location
        m = self.forms.matches("posted", target or "")
        if m and not self.forms.error_text(result):
            pid = int(m.group(1))
            merged = self.profile.hooks["merge"](pid, last_pid)
            if merged:
                log.info("mybb: reply merged into the bot's post %s in thread %s", pid, tid)
            return ReplyId(str(pid), merged=merged)
        if target and not m and not self.forms.error_text(result) and _THREAD_LINK.search(target):
            # newreply.php sends a post into the moderation queue to the thread, not to the post (its forced
            # redirect page, redirect_newreply_moderation): taken, not out, never sent again
            said = " ".join(clean_text(td) for td in select(result.tree(), "table.tborder td.trow1"))  # its message
            raise PostQueued(f"mybb: the reply to thread {tid} awaits a moderator's approval (the board says: "
                             f"{said[:200]})")
        self.forms.raise_for_errors(result, flood_action="post", text=self.forms.error_text(result) or self._notice_text(result))
        raise PageFormatChanged("mybb: reply gave neither a post id nor an error")

    def preview_reply(self, topic: str, text: str) -> None:
        """The full reply form (newreply.php?tid=N) sent with its "Preview Post" button (`previewpost`): newreply.php
        checks the thread, the bot's right to reply there (canpostreplys, a closed thread) and the message
        (PostDataHandler's verify_message: its length), then shows the post rendered above the form again; the
        preview turns `do_newreply` into `newreply` before anything is inserted, and starts no flood timer (that
        is validate_post's, which a preview never calls). The handshake's reply flow (issue 28 item 4); a refusal
        is a ForumError in the board's words."""
        self.with_login(lambda: self._preview_reply(topic, text))

    def _preview_reply(self, topic: str, text: str) -> None:
        tid = self.topic_id(topic)
        page = self.get(self.url("reply", topic=tid))  # no permission or a closed thread: an error page, no form
        result = self.forms.submit(page, "reply", {self.profile.forms["reply"].fields["message"]: text},
                                   action="read", submit="previewpost")
        said = self.forms.error_text(result)  # the form shown again with inline_error's box: nothing previewed
        preview = select_one(result.tree(), self.profile.selectors["preview"]) if result.status == 200 else None
        if not said and preview is not None and " ".join(text.split()) in " ".join(clean_text(preview).split()):
            return
        spec = self.profile.forms["reply"]
        if not said and find_form(result.tree(), spec.selector, spec.needs) is None:
            said = self._notice_text(result)  # the 'error' template's page in place of the form (its table cell)
        if said:
            self.forms.raise_for_errors(result, flood_action="post", text=said)
        raise PageFormatChanged(f"mybb: the reply preview of thread {tid} showed no preview ({result.url})")

    # --- PMs --------------------------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.with_login(lambda: self._fetch_pms(after))

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str | None]:
        # 20 PMs a page: a busy night overflows page 1, the walk reads the older pages too
        return self.inbox.fetch_numbered_pms(after, lambda page: self._inbox_rows(page.tree()),
                                             lambda _, pid, subject: self.inbox.read_pm(pid, subject), self._delete)

    def _inbox_rows(self, tree: etree._Element) -> dict[str, str]:
        rows: dict[str, str] = {}
        for link in select(tree, self.profile.selectors["pm_row_link"]):
            pid = self.query_value(link.get("href", ""), "pmid")
            if pid:
                rows[pid] = " ".join(text(link).split())
        return rows

    def _delete(self, inbox: Page, ids: list[str]) -> None:
        """Tick the PMs in the folder form and press "delete" (MyBB moves them to the trash); then empty the
        trash, where they still count against the PM quota (a full quota holds new PMs back)."""
        self.forms.submit(inbox, "folder", {f"check[{i}]": "1" for i in ids}, action="read")
        self._empty_trash(ids)

    def _empty_trash(self, ids: Sequence[str] = ()) -> None:
        """Delete every PM in the trash (fid 4): MyBB deletes for good what is deleted there. Two requests, only
        in a cycle that deleted something; a failure is logged, not raised (the PMs were read and stored). The
        ones just deleted go by id too: the trash shows 20 a page, two pages' worth were deleted."""
        trash = self.get(self.url("trash"))
        rows = self._inbox_rows(trash.tree())
        if not rows:
            return
        result = self.forms.submit(trash, "folder", {f"check[{i}]": "1" for i in {**rows, **dict.fromkeys(ids)}},
                             action="read")
        problem = self.forms.error_text(result)
        if problem or result.status >= 400:
            log.warning("mybb: emptying the PM trash failed (HTTP %s) %s", result.status, problem)

    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The id of the bot's copy of a PM to `to` holding `marker`, if it was sent (outbox crash recovery):
        MyBB keeps it in Sent Items (fid 2) because the compose form asks for a copy (`options[savecopy]`)."""
        return self.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        sent = self.read_page(self.url("sentbox"))
        return self.inbox.own_pm_in(self._sent_rows(sent.tree()), to, marker)

    def _sent_rows(self, tree: etree._Element) -> list[tuple[str, str, list[str]]]:
        """(pm id, its page, recipients) per row of Sent Items, newest first (MyBB's default order)."""
        rows = []
        for link in select(tree, self.profile.selectors["pm_row_link"]):
            pid = self.query_value(link.get("href", ""), "pmid")
            row = next((a for a in link.iterancestors() if a.tag == "tr"), None)
            if pid and row is not None:
                names = [text(a).strip() for a in select(row, self.profile.selectors["pm_sent_to"])]
                rows.append((pid, self.url("pm", pm=pid), names))
        return rows

    def send_pm(self, to: str, subject: str, text: str) -> str:
        names = [n.strip() for n in to.split(",") if n.strip()]
        # MyBB refuses more than maxpmrecipients (5 for registered users): send in batches.
        for i in range(0, len(names), MYBB_MAX_RECIPIENTS):
            batch = ", ".join(names[i:i + MYBB_MAX_RECIPIENTS])
            # per batch, pacing and re-login alike: a flood or an expired session on the second batch must not
            # send the first again (issue 7 item 5 follow-up)
            try:
                self.transport.paced("pm", lambda: self.with_login(lambda: self._send_one(batch, subject, text)))
            except ForumError as e:
                if i == 0:
                    raise
                # the first batches are out: the outbox must find them (Sent Items) rather than send them again
                raise PartlySent(f"mybb: PM sent to {', '.join(names[:i])}, not to {', '.join(names[i:])}: "
                                 f"{type(e).__name__}: {e}", names[:i], names[i:], e) from e
        return ""  # MyBB's answer names no PM id

    def _send_one(self, to: str, subject: str, text: str) -> None:
        spec = self.profile.forms["compose"]
        page = self.get(self.url("compose"))
        result = self.forms.submit(page, "compose", {spec.fields["to"]: to, spec.fields["subject"]: subject,
                                               spec.fields["message"]: text}, action="pm")
        if not self.forms.error_text(result) and meta_refresh_url(result.tree(), result.url):
            return
        self.forms.raise_for_errors(result, flood_action="pm", text=self.forms.error_text(result) or self._notice_text(result))

    # --- accounts -------------------------------------------------------------------------------------------

    def _account_exists(self, name: str) -> bool | None:
        """The member list filtered by names beginning with `name`, in name order (open to guests and
        Registered users on a stock board): the account exists if a row is `name` case-folded; a member list
        without it (MyBB's "no members found" included) means no such account. A page that is not the member
        list (no permission to view it) cannot tell."""
        tree = self.member_page(name).tree()
        rows = [text(a) for a in select(tree, self.profile.selectors["member_row"])]
        if any(same_account(row, name) for row in rows):
            return True
        return False if select_one(tree, self.profile.selectors["member_search"]) is not None else None

    # --- the board's zone (check-config --online) -------------------------------------------------------------

    def board_utc_offset(self) -> timedelta | None:
        """The UTC offset the board shows the bot's account now: the footer's clock ("Текущее время:
        29.11.2026, 15:07", "Current time: ...") against the server's Date header; None when either is missing.
        Read after `login`: a guest sees the board's default zone, not the account's."""
        page = self.get("index.php")
        return shown_utc_offset(page.tree(), page.server_time(), self.profile.date_order)

    # --- closing a thread (R-13) -----------------------------------------------------------------------------------

    def _moderation(self, topic: str) -> tuple[Page, etree._Element | None, bool]:
        """The thread page, its thread-moderation form (showthread_moderationoptions: `moderation.php`, hidden
        modtype=thread, tid, my_post_key, `select[name=action]`, shown to a moderator; its `openclosethread` option
        only with canopenclosethreads) and whether the thread is closed (the quick reply's moderator box
        `modoptions[closethread]`, checked on a closed thread; else the "Thread Closed" reply button)."""
        tid = self.topic_id(topic)
        page = self.get(self.url("topic", topic=tid))
        tree = page.tree()
        form = next((f for f in select(tree, "form[action*='moderation.php']")
                     if select_one(f, "option[value='openclosethread']") is not None), None)
        box = select_one(tree, "input[name='modoptions[closethread]']")
        closed = box.get("checked") is not None if box is not None else \
            select_one(tree, "a.closed_button, .closed_button") is not None
        return page, form, closed

    def may_lock(self, topic: str) -> bool | None:
        return self._moderation(topic)[1] is not None

    def lock_thread(self, topic: str, locked: bool) -> None:
        self.with_login(lambda: self._lock_thread(topic, locked))

    def _lock_thread(self, topic: str, locked: bool) -> None:
        """moderation.php's `openclosethread` toggles (closed → open, else closed) after verify_post_check and
        is_moderator(fid, canopenclosethreads) (else error_no_permission), then moderation_redirect to the
        thread: so the state is read first and the toggle sent only when it differs."""
        page, form, closed = self._moderation(topic)
        if form is None:
            raise FormRejected(f"mybb: the bot may not close thread {self.topic_id(topic)} (no Open / Close Thread "
                               f"in its moderation options: the account needs canopenclosethreads in this forum)")
        if closed == locked:
            return
        fields = [(k, v) for k, v in form_fields(form) if k != "action"] + [("action", "openclosethread")]
        result = self.transport.post_form(form_action(form, page.url), fields, charset=page.charset, action="lock")
        if result.status in (301, 302, 303) or meta_refresh_url(result.tree(), result.url):
            return
        self.forms.raise_for_errors(result)


def shown_utc_offset(tree: etree._Element, server_now: datetime | None, date_order: str = "auto") -> timedelta | None:
    clock = select_one(tree, "#current_time")
    if clock is None or server_now is None:
        return None
    shown_text = text(clock)
    for label in select(clock, "strong"):  # "Текущее время:"; the date is the rest
        shown_text = shown_text.replace(text(label), "", 1)
    shown = parse_forum_date(shown_text, timezone.utc, server_now, date_order)
    if shown is None:
        return None
    # the clock shows minutes only and the page took a moment to come: zones are whole quarter hours
    quarters = round((shown - server_now) / timedelta(minutes=15))
    offset = timedelta(minutes=15 * quarters)
    if offset > timedelta(hours=14):  # "Сегодня" read in UTC can fall on the wrong day near midnight
        offset -= timedelta(days=1)
    elif offset < timedelta(hours=-12):
        offset += timedelta(days=1)
    return offset
