"""SMF 2.1 (Simple Machines Forum, default "Curve2" theme), driven by the SMF profile.

Flows as observed on a real SMF 2.1.4 board (fixtures/smf/README.md):
- every form carries the session pair as a hidden input whose *name* is random per session (also in the page's
  JS as `smf_session_var` / `smf_session_id`); forms are posted as served, and the pair is added from the JS
  where a form lacks it. The login form carries a second random pair (the login token) the same way;
- a login within 2 s of the previous one from the IP gets a 403 "wait about 2 seconds": waited out once;
- floods (posts and PMs, each its own spamWaitTime timer, 5 s stock, per IP) are 403 error pages, not a
  login page: FloodLimited with the wait the message names. Two posts in the same second both pass SMF's check
  on MariaDB (REPLACE reports one row), so the transport's own pacing is what keeps the bot under the limit;
- a reply redirects to `topic=T.new#new`, not to the new message: its id is read from that page (the bot's
  newest post there that is newer than the form's `last_msg`), else from the last page; an error after SMF
  accepted the post is ForumUnavailable ("maybe sent": the outbox looks for the marker before posting again);
- an author's edit within edit_wait_time (90 s stock) leaves no edit notice, so such an edit is not seen (C-11);
- PMs through `index.php?action=pm`: the inbox and sent items are asked for newest first; in the stock display
  mode ("all at once") a folder page holds the PMs themselves, so reading new PMs costs no extra request; in
  "one at a time" mode each is opened (`pmsg=N`); "conversation" mode (one row per conversation, which hides
  earlier PMs) is switched to "all at once" once.
  Read PMs the caller acknowledged are deleted (SMF has no trash: they are gone). SMF asks a member with fewer
  than 5 posts (pm_posts_verification) for a captcha on every PM: CaptchaRequired then;
- escaping is [nobbc]: SMF 2.1 turns the base's zero-width spaces into U+FFFD.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import urljoin

from lxml import etree

from adapters.html.extract import user_id
from adapters.html.dom import clean_text, form_action, form_fields, inner_html, select, select_one, submit_field, text
from adapters.html.forms import HtmlForms
from adapters.html.inbox import HtmlInbox, same_account
from adapters.html.forum import HtmlForum
from adapters.html.pagechecks import check_complete
from adapters.html.profile import HtmlProfile
from adapters.smf.profile import SMF, SMF_MAX_RECIPIENTS, SMF_PMS_PER_HOUR
from forumbot.forum.adapter import ForumPM, LOCK, OWN_PM, PREVIEW, ReplyId
from forumbot.errors import (
    FloodLimited, ForumError, ForumUnavailable, FormRejected, LoginRequired, PageFormatChanged, PostQueued,
)
from forumbot.forum.transport_settings import PACE_MARGIN
from forumbot.forum.http_page import Page

log = logging.getLogger(__name__)

_SESSION_VAR = re.compile(r"""smf_session_var\s*=\s*["']([0-9A-Za-z_]+)["']""")
_SESSION_ID = re.compile(r"""smf_session_id\s*=\s*["']([0-9A-Za-z]+)["']""")
_REDIRECTS = (301, 302, 303)
_NOBBC_CLOSE = re.compile(r"\[/nobbc\]", re.IGNORECASE)
# the member list's pages read for one name at most (30 members a page stock): a name held in more names than that
# is not told
MEMBER_PAGES = 10


class SmfForms(HtmlForms):
    """SMF's forms: its flood message names the whole limit, so the wait gets a margin."""

    def raise_for_errors(self, page: Page, default: type[Exception] | None = FormRejected, *,
                         flood_action: str = "post", text: str | None = None) -> None:
        try:
            super().raise_for_errors(page, default, flood_action=flood_action, text=text)
        except FloodLimited as e:
            # The message names the whole limit, not what is left; the refused attempt itself restarted SMF's
            # timer (log_floodcontrol is REPLACEd either way), which lets go only of entries strictly older than
            # the limit, in whole seconds: the limit plus a margin from now (seen live: 5 s exactly was refused).
            raise FloodLimited(str(e), retry_after=(e.retry_after or 0.0) + PACE_MARGIN) from None


class SmfInbox(HtmlInbox):
    """SMF's inbox: a PM read off its own page as the folder shows it."""
    site: SmfForum

    def read_pm(self, pid: str, subject: str, path: str | None = None) -> ForumPM:
        return self.site._pm_on(self.site.read_page(path or self.site.url("pm", pm=pid)), pid, subject)


class SmfForum(HtmlForum):
    """SMF 2.1 adapter. `SmfForum(base_url, username, password, timezone_name="Europe/Moscow")`; base_url is the
    folder holding index.php; the zone is the one the forum shows the bot's account (SMF prints no zone)."""
    forms_type = SmfForms
    inbox_type = SmfInbox
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM, LOCK, PREVIEW}

    engine = "smf"
    profile: HtmlProfile = SMF
    deletes_pms = True

    # --- markup -------------------------------------------------------------------------------------------

    def escape(self, text: str) -> str:
        """Text shown literally: inside [nobbc] SMF fires no tag, smiley, autolink or @mention. The base's
        zero-width spaces do not do for SMF: 2.1 replaces invisible characters with U+FFFD (seen live, "[�b]"),
        and numeric entities come back as typed. A "[/nobbc]" in the text is split across two blocks."""
        if not text:
            return text
        return "[nobbc]" + _NOBBC_CLOSE.sub(lambda m: m.group(0)[:5] + "[/nobbc][nobbc]" + m.group(0)[5:], text) + "[/nobbc]"

    # --- session pair ---------------------------------------------------------------------------------------

    @staticmethod
    def session_pair(page: Page) -> dict[str, str]:
        """{random name: session id} as the page's JavaScript states it; {} where the page has none."""
        head = page.text[:200_000]
        var, sid = _SESSION_VAR.search(head), _SESSION_ID.search(head)
        return {var.group(1): sid.group(1)} if var and sid else {}

    def submit_smf(self, page: Page, name: str, values: dict[str, str], *, action: str,
                   submit: str | None = None) -> Page:
        """A form as served, plus the session pair where the form does not carry it; redirects not followed:
        where SMF sends the browser tells success from failure. `submit`: the button pressed, if not the form's."""
        form = self.forms.form(page, name)
        have = {n for n, _ in form_fields(form)}
        extra = {k: v for k, v in self.session_pair(page).items() if k not in have}
        return self.forms.submit(page, name, {**extra, **values}, action=action, form=form, submit=submit)

    # --- login ----------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired("smf: no password configured")
        spec = self.profile.forms["login"]
        for attempt in (1, 2):
            page = self.get(self.url("login"))
            if select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
                return
            result = self.submit_smf(page, "login", {spec.fields["username"]: self.username,
                                                     spec.fields["password"]: self._password}, action="login")
            if result.status in _REDIRECTS and result.location:
                # login2 -> login2;sa=check (which checks the cookie came back) -> the index, logged in
                landed = self.get(urljoin(result.url, result.location))
                if select_one(landed.tree(), self.profile.selectors["logged_in"]) is not None:
                    return
                raise LoginRequired("smf: login accepted but the session did not hold (cookies refused?)")
            text = self.forms.error_text(result)
            wait = self.forms.matches("login_wait", text)
            if wait:
                seconds = float(next(g for g in wait.groups() if g))
                if attempt == 1:
                    # SMF refuses a login within 2 s of the last one from this IP (spamProtection('login')).
                    self.transport.sleep(seconds + PACE_MARGIN)
                    continue
                raise FloodLimited(f"smf: login refused as too soon: {text}", retry_after=seconds + PACE_MARGIN)
            self.forms.raise_for_errors(result, default=LoginRequired, text=text)
        raise LoginRequired("smf: login failed")

    # --- reply ------------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        # a flood refusal posts nothing: the transport waits it out (when short) and sends once more
        return self.transport.paced("post", lambda: self.with_login(lambda: self._reply(topic, text)))

    def _reply(self, topic: str, text: str) -> str:
        tid = self.topic_id(topic)
        page = self.get(self.url("reply", topic=tid))
        form = self.forms.form(page, "reply")
        last = dict(form_fields(form)).get("last_msg", "")
        last_msg = int(last) if last.isdigit() else 0
        result = self.submit_smf(page, "reply", {self.profile.forms["reply"].fields["message"]: text}, action="post")
        if result.status in _REDIRECTS and result.location:
            target = urljoin(result.url, result.location)
            m = self.forms.matches("posted", target)
            if m:
                return ReplyId(m.group(1))
            try:
                return ReplyId(self._new_post_id(target, tid, last_msg))
            except PostQueued:
                raise
            except ForumError as e:
                # Posted, id unknown: not "failed" (the outbox would post it again) but "maybe sent", so the
                # marker is looked for first; and not LoginRequired, which would run the reply again.
                raise ForumUnavailable(f"smf: reply to topic {tid} was accepted, but its id could not be read "
                                       f"({e})") from e
        self.forms.raise_for_errors(result, flood_action="post")
        raise PageFormatChanged("smf: reply gave neither a redirect nor an error")

    def preview_reply(self, topic: str, text: str) -> None:
        """The reply form sent with its Preview button (`preview`) to action=post2: Post2() checks the topic (locked
        without moderate_board: topic_locked), the bot's right to reply (post_reply_any/own), the session and the
        message as for a post, then, previewing, returns to Post() before spamProtection('post') and before
        anything is stored: nothing posted, no flood timer. Post() shows the message rendered in
        `#preview_body` over the form again, and a serious error in the form's `div.errorbox` (a minor one, such
        as new replies since the form was served, is a `noticebox` and previews all the same). The handshake's
        reply flow (issue 28 item 4); a refusal is a ForumError in the board's words."""
        self.with_login(lambda: self._preview_reply(topic, text))

    def _preview_reply(self, topic: str, text: str) -> None:
        tid = self.topic_id(topic)
        page = self.get(self.url("reply", topic=tid))  # a locked topic or no permission: a fatal error, no form
        result = self.submit_smf(page, "reply", {self.profile.forms["reply"].fields["message"]: text},
                                 action="read", submit="preview")
        said = self.forms.error_text(result)
        preview = select_one(result.tree(), self.profile.selectors["preview"]) if result.status == 200 else None
        if not said and preview is not None and " ".join(text.split()) in " ".join(clean_text(preview).split()):
            return
        if said:  # a fatal error page or the form's error box, in the board's words
            self.forms.raise_for_errors(result, flood_action="post", text=said)
        raise PageFormatChanged(f"smf: the reply preview of topic {tid} showed no preview ({result.url})")

    def _new_post_id(self, path: str, tid: str, last_msg: int) -> str:
        """The id of the post just made: the bot's newest post newer than the topic's last message when the form
        was served, on the page the reply redirected to (`topic=T.new#new`, the bot's first unread post: its own
        new one, or an earlier one others made since it last read), else on the last page."""
        for where in (path, self.url("last_page", topic=tid)):
            posts = self.topics.topic_page(where, tid)[2]
            mine = [p for p in posts if p.author == self.username and int(p.id) > last_msg]
            if mine:
                new = max(mine, key=lambda p: int(p.id))
                if new.held:  # SMF shows the author his post awaiting approval (Display.php): taken, not out
                    raise PostQueued(f"smf: the reply to topic {tid} awaits a moderator's approval (post {new.id})",
                                     pending_id=new.id)
                return new.id
        raise PageFormatChanged(f"smf: topic {tid} does not show the bot's new post")

    # --- find own post ----------------------------------------------------------------------------------------

    # --- PMs --------------------------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.with_login(lambda: self._fetch_pms(after))

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str | None]:
        inbox = self.read_page(self.url("inbox"))
        if select_one(inbox.tree(), self.profile.selectors["pm_conversation_mode"]) is not None:
            # One row per conversation hides a player's earlier PM behind the later one: switch the account to
            # "all at once" (the next mode in SMF's cycle), once, and read again.
            log.warning("smf: the bot's PM display mode is 'conversation'; switching it to 'all at once'")
            self.get(self.url("pm_display_mode"))
            inbox = self.read_page(self.url("inbox"))
            if select_one(inbox.tree(), self.profile.selectors["pm_conversation_mode"]) is not None:
                raise PageFormatChanged("smf: the PM inbox stays in conversation mode; set the bot's PM display "
                                        "mode to 'all at once' in its profile")
        return self.inbox.fetch_numbered_pms(
            after, lambda page: {pid: subject for pid, subject, _ in self._rows(page.tree())},
            lambda page, pid, subject: self._pm_on(page, pid, subject)
            if self._pm_element(page.tree(), pid) is not None else self.inbox.read_pm(pid, subject),
            self._delete, inbox=inbox)

    def _rows(self, tree: etree._Element) -> list[tuple[str, str, list[str]]]:
        """(pm id, subject, the names in the From/To column) per row of a folder page, newest first."""
        sel = self.profile.selectors
        rows = []
        for tr in select(tree, sel["pm_row"]):
            box = select_one(tr, sel["pm_row_box"])
            pid = box.get("value", "") if box is not None else ""
            if not pid.isdigit():
                continue
            link = select_one(tr, sel["pm_row_link"])
            names = [" ".join(text(a).split()) for a in select(tr, sel["pm_row_users"])]
            rows.append((pid, " ".join(text(link).split()) if link is not None else "", names))
        return sorted(rows, key=lambda r: -int(r[0]))

    def _pm_element(self, tree: etree._Element, pid: str) -> etree._Element | None:
        return select_one(tree, self.profile.selectors["pm_view"].format(pm=pid))

    def _pm_on(self, page: Page, pid: str, subject: str) -> ForumPM:
        sel = self.profile.selectors
        view = self._pm_element(page.tree(), pid)
        body = select_one(view, sel["body"]) if view is not None else None
        if view is None or body is None:
            raise PageFormatChanged(f"smf: PM {pid} is not on {page.url}")
        author = select_one(view, sel["pm_author"])
        when = select_one(view, sel["pm_time"])
        sent = self.profile.hooks["pm_time"](when, self.ctx(page)) if when is not None else None
        if sent is None:
            raise PageFormatChanged(f"smf: PM {pid} has no readable date")
        subject_el = select_one(view, sel["pm_subject"])
        return ForumPM(
            id=pid, author=" ".join(text(author).split()) if author is not None else "",
            author_id=user_id(author), sent_at=sent.earliest, sent_latest=sent.latest if sent.rough else None,
            subject=" ".join(text(subject_el).split()) if subject_el is not None else subject,
            text=clean_text(body, (*self.profile.strip, sel["signature"])), html=inner_html(body))

    def _delete(self, folder: Page, ids: list[str]) -> None:
        """Tick the PMs in the folder form and press "delete selected" (no confirmation without JavaScript).
        A failure is logged, not raised: the PMs were read and handed over; the next cycle tries again."""
        spec = self.profile.forms["folder"]
        form = self.forms.form(folder, "folder")
        fields = [f for f in form_fields(form) if f[0] != "pms[]"]
        have = {n for n, _ in fields}
        fields += [(k, v) for k, v in self.session_pair(folder).items() if k not in have]
        fields += [("pms[]", i) for i in ids]
        fields.append(submit_field(form, spec.submit or "") or (spec.submit or "", "1"))
        result = self.transport.post_form(form_action(form, folder.url), fields, charset=folder.charset)
        problem = self.forms.error_text(result)
        if problem or result.status >= 400:
            log.warning("smf: deleting read PMs %s failed (HTTP %s) %s", ids, result.status, problem)

    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The id of the bot's PM to `to` holding `marker`, if it was sent (outbox crash recovery): SMF keeps a
        copy of every sent PM in the sent folder (`f=sent`)."""
        return self.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        sent = self.read_page(self.url("sentbox"))
        rows = [(pid, self.url("sent_pm", pm=pid), names) for pid, _, names in self._rows(sent.tree())]
        return self.inbox.own_pm_in(rows, to, marker)

    def send_pm(self, to: str, subject: str, text: str) -> str:
        names = [n.strip() for n in to.split(",") if n.strip()]
        # SMF refuses more than max_pm_recipients (10 stock) at once: send in batches.
        for i in range(0, len(names), SMF_MAX_RECIPIENTS):
            batch = ", ".join(names[i:i + SMF_MAX_RECIPIENTS])
            # per batch: a flood on the second must not send the first again
            self.transport.paced("pm", lambda: self.with_login(lambda: self._send_one(batch, subject, text)))
        return ""  # SMF's answer names no PM id

    def _send_one(self, to: str, subject: str, text: str) -> None:
        spec = self.profile.forms["compose"]
        page = self.get(self.url("compose"))
        # SMF checks the hourly PM limit when it serves the form (a 403 error page, seen live), and again on send
        self.raise_if_hourly_limit(page)
        result = self.submit_smf(page, "compose", {spec.fields["to"]: to, spec.fields["subject"]: subject,
                                                   spec.fields["message"]: text}, action="pm")
        if result.status in _REDIRECTS and self.forms.matches("pm_sent", result.location or ""):
            return
        report = [clean_text(e) for e in select(result.tree(), self.profile.selectors["pm_send_log"])]
        if any(self.forms.matches("pm_partly_sent", line) for line in report):
            # SMF sent it to some and re-showed the form for the rest: raising would have the outbox send it to
            # everyone again; a duplicated PM is worse than a missing one the GM can see in the log.
            log.warning("smf: PM %r sent only in part: %s", subject, "; ".join(report))
            return
        problem = self.forms.error_text(result)
        self.raise_if_hourly_limit(result, problem)
        if result.status in _REDIRECTS:
            raise ForumUnavailable(f"smf: PM to {to} went to {result.location}, not to the sent notice; "
                                   "it may have been sent")
        self.forms.raise_for_errors(result, flood_action="pm", text=problem)

    def raise_if_hourly_limit(self, page: Page, problem: str | None = None) -> None:
        """pm_spam_settings' PMs an hour (20 stock for a Regular Member, as the bot is): FloodLimited, so the
        outbox sends the PM later; as a plain error page it would be a refusal for good, and the PM lost."""
        problem = self.forms.error_text(page) if problem is None else problem
        hourly = self.forms.matches("pm_hourly", problem)
        if hourly:
            limit = int(next(g for g in hourly.groups() if g) or SMF_PMS_PER_HOUR)
            # The oldest PM of the hour leaves the window first; when is not shown: the average spacing.
            raise FloodLimited(f"smf: PM limit: {problem}", retry_after=3600.0 / max(limit, 1))

    # --- accounts -------------------------------------------------------------------------------------------

    def _account_exists(self, name: str) -> bool | None:
        """The member list searched by name (issue 28 item 4: `check-config --online` said «не проверено» on SMF):
        SMF lists every account whose shown name holds `name` (case-folded by the database), by name, a page at a
        time; the account exists if a row is `name` case-folded (C-3). The list with no such row on any of its pages
        means no such account; a page that is not the list (the bot's group may not view it: a 403 error page)
        cannot tell, nor can a list longer than `MEMBER_PAGES` pages."""
        page = self.member_page(name)
        for _ in range(MEMBER_PAGES):
            tree = page.tree()
            if select_one(tree, self.profile.selectors["member_search"]) is None:
                return None
            if any(same_account(text(a), name) for a in select(tree, self.profile.selectors["member_row"])):
                return True
            following = select_one(tree, self.profile.selectors["next_page"])
            if following is None:
                return False
            page = self.get(urljoin(page.url, following.get("href", "")))
            check_complete(page, self.profile)
        log.warning("smf: over %d pages of members hold %r in their names; account not checked", MEMBER_PAGES, name)
        return None

    # --- closing a topic (R-13) ------------------------------------------------------------------------------------

    def lock_link(self, topic: str) -> tuple[str, str] | None:
        """The topic's lock button (Display.php's mod_buttons['lock'], shown with lock_any, or lock_own on the
        account's own topic): `index.php?action=lock;topic=T.0;sa=lock|unlock;<session var>=<session id>`. Its `sa`
        says what it does: `lock` on an open topic, `unlock` on a closed one. None: the account has no such button."""
        tid = self.topic_id(topic)
        page = self.get(self.url("topic", topic=tid))
        for link in select(page.tree(), "a[href*='action=lock;']"):
            href = urljoin(page.url, link.get("href", ""))
            action = re.search(r"[;&?]sa=(lock|unlock)\b", href)
            if action:
                return action.group(1), href
        return None

    def may_lock(self, topic: str) -> bool | None:
        """Whether the bot may close and open the topic, read from its page: the lock button is shown only with the
        right (lock_own on its own topic locks it as a member, locked = 2, which SMF lets it open again too)."""
        return self.lock_link(topic) is not None

    def lock_thread(self, topic: str, locked: bool) -> None:
        self.with_login(lambda: self._lock_thread(topic, locked))

    def _lock_thread(self, topic: str, locked: bool) -> None:
        """Topic.php's LockTopic: a GET checked by its session pair (checkSession('get')), which toggles the topic
        and redirects back to it (`topic=T.0;moderate`); an account without lock_any/lock_own gets the fatal
        error page (`cannot_lock_any`), a topic set meanwhile `error_topic_(un)locked_already`."""
        want = "lock" if locked else "unlock"
        link = self.lock_link(topic)
        if link is None:
            raise FormRejected(f"smf: the bot may not {want} topic {self.topic_id(topic)} (no lock button on its "
                               f"page: the account needs the lock_any permission in this board)")
        shown, href = link
        if shown != want:
            return  # already so
        result = self.transport.get(href, follow=False, action="lock")
        if result.status in _REDIRECTS and "action=lock" not in (result.location or ""):
            return
        self.forms.raise_for_errors(result)
