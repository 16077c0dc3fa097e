"""vBulletin 3.8 / 4.2, driven by the VBULLETIN profile.

Written against two real saved thread pages (fixtures/vbulletin/README.md: 3.8.11 logged in, 4.2.3 guest) and
the engine's documented flows; what no saved page shows is in VBULLETIN.unverified:
- login posts the navbar form with the password as md5 (`vb_login_md5password`, and `_utf` of the UTF-8
  bytes), the plain field emptied as vB's md5hash() does; success sets the `bbuserid` cookie;
- every form carries `securitytoken` (guest: "guest"; logged in: "TIMESTAMP-sha1"), read from the form as served;
- threads are read through printthread.php (200 posts a page where the board's maxposts allows, absolute
  dates) when its posts carry ids, else through showthread.php; the choice is made once per adapter;
- a reply goes through the quick reply form `form#qrform` of the last page (else newreply.php); the answer is
  a redirect (or a "thank you" page with a meta refresh) to showthread.php?p=NEW;
- PMs: inbox private.php, one message private.php?do=showpm&pmid=, send private.php?do=insertpm with
  `recipients` separated by ';' and a copy kept in Sent Items (folderid=-1), where find_own_pm looks.
Russian boards on vB 3.8 are often windows-1251: pages are decoded and forms encoded in the charset served.
"""

from __future__ import annotations

import hashlib
import json
import logging
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Iterator

from lxml import etree

from adapters.html.dom import (
    clean_text, find, find_form, form_action, form_fields, meta_refresh_url, select, select_one, text,
)
from adapters.html.forms import HtmlForms
from adapters.html.forum import HtmlForum
from adapters.html.profile import HtmlProfile, frozen_map
from adapters.html.topics import HtmlTopics
from adapters.vbulletin.profile import VBULLETIN
from forumbot.forum.adapter import ForumPM, ForumPost, LOCK, OWN_PM, PREVIEW, ReplyId
from forumbot.errors import FormRejected, LoginRequired, PageFormatChanged, PmNotAllowed, PostQueued
from forumbot.forum.http_page import Page

log = logging.getLogger(__name__)
# After a refused login no new try for this long: verify_strike_status() locks every login from the address for
# 15 minutes after 5 failures within them, and each try while locked counts as one more.
LOGIN_HOLD = 900.0


def md5_password(password: str) -> tuple[str, str]:
    """What vB's md5hash() puts in vb_login_md5password and vb_login_md5password_utf: md5 of the password with
    characters above U+00FF as &#N; entities (str_to_ent) over Latin-1 bytes, and md5 of its UTF-8 bytes."""
    ent = "".join(c if ord(c) < 256 else f"&#{ord(c)};" for c in password)
    return (hashlib.md5(ent.encode("latin-1")).hexdigest(), hashlib.md5(password.encode("utf-8")).hexdigest())


def print_profile(profile: HtmlProfile) -> HtmlProfile:
    """The profile that reads printthread.php: its post markup and URLs in place of showthread's."""
    sel = profile.selectors
    return replace(
        profile,
        urls=frozen_map({**profile.urls, "topic": profile.urls["print"], "topic_page": profile.urls["print_page"]}),
        selectors=frozen_map({**sel, "post": sel["print_post"], "author": sel["print_author"], "time": sel["print_time"],
                       "body": sel["print_body"]}),
        pagination=replace(profile.pagination, per_page=200),
    )


class VbulletinForms(HtmlForms):
    """vBulletin's forms: errors where the engine's error templates put them, and a redirect page is no error."""

    def error_text(self, page: Page) -> str:
        # a list in a td.alt1 is construct_errors' only after its POSTERROR comment: a thread review's or a preview's
        # numbered list is a player's message; a list inside a post's message is never an error
        found = [e for e in select(page.tree(), self.profile.selectors["error"])
                 if not any((a.get("id") or "").startswith("post_message_") for a in e.iterancestors())
                 and not _unmarked_list_item(e)]
        said = " ".join(clean_text(e) for e in found)
        # a redirect page ("Thank you for posting!") is no error, whatever a style puts in its panel
        if said and meta_refresh_url(page.tree(), page.url) and page.status == 200:
            return ""
        return said


def _posterror_cell(cell: etree._Element) -> bool:
    """Whether a td holds newpost_preview's `<!--POSTERROR do not remove this comment-->` (vB 3.8.11's
    vbulletin-style.xml 11759): the mark of construct_errors' list."""
    return any("POSTERROR" in (n.text or "") for n in cell.iter(etree.Comment))


def _unmarked_list_item(el: etree._Element) -> bool:
    """An `li` in a td.alt1 without the POSTERROR mark (the quick reply's error cell td#qr_error_td aside)."""
    if el.tag != "li":
        return False
    cell = next((a for a in el.iterancestors() if a.tag == "td"), None)
    if cell is None or "alt1" not in (cell.get("class") or "").split() or cell.get("id") == "qr_error_td":
        return False
    return not _posterror_cell(cell)


class VbulletinTopics(HtmlTopics):
    """vBulletin's topics: read through printthread.php while its posts carry ids, else through showthread.php."""
    site: VbulletinForum

    def fetch_posts(self, topic: str, after: str | None) -> tuple[list[ForumPost], str | None]:
        cur = json.loads(after) if after else {}
        failed: PageFormatChanged | None = None
        if self.site._print is not False and cur.get("m", "print") == "print":
            try:
                with self.site._reading(True):
                    posts, cursor = super().fetch_posts(topic, after)
                self.site._print = True
                return posts, cursor
            except PageFormatChanged as e:
                failed = e
        posts, cursor = super().fetch_posts(topic, _show_cursor(after))
        if failed is not None:
            # printthread off (no permission, a plugin) or its posts without ids, while showthread reads:
            # showthread from now on
            log.info("vbulletin: printthread.php not usable (%s); reading showthread.php", failed)
            self.site._print = False
        data = json.loads(cursor or "{}")
        data["m"] = "show"
        return posts, json.dumps(data, separators=(",", ":"))


class VbulletinForum(HtmlForum):
    """vBulletin 3.8/4.2. `VbulletinForum(base_url, username, password, timezone_name="Europe/Moscow",
    printthread=True)`; the zone is the one the board shows the bot's account (vB prints none)."""
    forms_type = VbulletinForms
    topics_type = VbulletinTopics
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM, LOCK, PREVIEW}

    engine = "vbulletin"
    profile: HtmlProfile = VBULLETIN
    deletes_pms = True
    settings = HtmlForum.settings | {"printthread"}

    def __init__(self, base_url: str, username: str, password: str | None = None, *, printthread: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(base_url, username, password, **kwargs)
        # None: not tried yet; False: the board's printable version is off or its posts carry no ids
        self._print: bool | None = None if printthread else False

    # --- login ----------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired("vbulletin: no password configured")
        held = self.transport.not_before.get(self._login_action(), 0.0) - self.transport.clock()
        if held > 0:  # every try counts towards vB's 5 strikes, and a try while locked strikes again
            raise LoginRequired(f"vbulletin: the board refused this password; not trying again for {held:.0f} s "
                                "(5 failed logins lock the account's logins for 15 minutes: fix password_env, then "
                                "run `forumbot tick`)")
        page = self.get(self.url("index"))
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
            return
        spec = self.profile.forms["login"]
        md5, md5_utf = md5_password(self._password)
        result = self.forms.submit(page, "login", {
            spec.fields["username"]: self.username, spec.fields["password"]: "",
            "vb_login_md5password": md5, "vb_login_md5password_utf": md5_utf}, action="login")
        said = self.forms.error_text(result)
        if self._logged_in_cookie() and not said:
            return
        if self.forms.matches("login_locked", said) or self.forms.matches("bad_login", said):  # not a token or an outage
            self.transport.not_before[self._login_action()] = self.transport.clock() + LOGIN_HOLD
        if self.forms.matches("login_locked", said):
            raise LoginRequired(f"vbulletin: the board locked logins after 5 failed attempts: «{said}»; check "
                                "password_env, let 15 minutes pass with no try, then run `forumbot tick`")
        self.forms.raise_for_errors(result, default=LoginRequired)
        raise LoginRequired("vbulletin: login failed")

    def _login_action(self) -> str:
        # the hold is per password: a GM's new password is tried at once
        return "login:" + hashlib.sha256((self._password or "").encode()).hexdigest()[:12]

    def _logged_in_cookie(self) -> bool:
        # the cookie prefix is a board setting ("bb" stock): any *userid cookie naming a member
        return any(c.name.endswith("userid") and c.value not in ("", "0") for c in self.transport.session.cookies)

    # --- reading --------------------------------------------------------------------------------------------

    @contextmanager
    def _reading(self, printable: bool) -> Iterator[None]:
        saved = self.profile
        if printable:
            self.profile = print_profile(saved)
        try:
            yield
        finally:
            self.profile = saved

    # --- reply ------------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        return self.transport.paced("post", lambda: self.with_login(lambda: self._reply(topic, text)))

    def _reply(self, topic: str, text: str) -> str:
        tid = self.topic_id(topic)
        last = self.get(self.url("last_page", topic=tid))
        spec = self.profile.forms["reply"]
        form_page = last
        if find_form(last.tree(), spec.selector, spec.needs) is None:
            form_page = self.get(self.url("reply", topic=tid))
        result = self.forms.submit(form_page, "reply", {spec.fields["message"]: text}, action="post")
        target = result.location if result.status in (301, 302, 303) else meta_refresh_url(result.tree(), result.url)
        m = self.forms.matches("posted", target or "")
        if m and not self.forms.error_text(result):
            return ReplyId(m.group(1))
        if target and self.forms.matches("queued", target) and not self.forms.error_text(result):
            raise PostQueued(f"vbulletin: the reply awaits a moderator's approval ({target})")
        self.forms.raise_for_errors(result, flood_action="post")
        raise PageFormatChanged("vbulletin: reply gave neither a post id nor an error")

    def preview_reply(self, topic: str, text: str) -> bool:
        """The full reply form (newreply.php?do=newreply, never the quick reply's: from there vB's preview only
        opens the full editor, checking nothing) sent with its Preview Post button (`preview`), as vB 3.8.11's
        sources do it (hanson-tapatalk/dbdvb388): newreply.php refuses a closed thread or a member without reply
        rights with standard_error before any form; the preview runs build_new_post's checks (the message's length;
        no flood check while previewing) and returns before the duplicate check and the save, then shows the form
        again under the newpost_preview table: td.alt1 holding the message, or, with errors, the same cell with
        <!--POSTERROR--> and the errors' list. False, nothing sent, where the board is not 3.8 (its generator mark):
        4.2's preview template is in no source read, so its answer could not be told from a changed page. The
        handshake's reply flow (issue 28 item 4); a refusal is a ForumError in the board's words."""
        return self.with_login(lambda: self._preview_reply(topic, text))

    def _preview_reply(self, topic: str, text: str) -> bool:
        tid = self.topic_id(topic)
        page = self.get(self.url("reply", topic=tid))
        form = find_form(page.tree(), _FULL_REPLY_FORM, "message")
        if form is None:
            form = self.forms.form(page, "reply")  # the error page's words (a closed thread, no permission)
        if select_one(page.tree(), "meta[name='generator'][content^='vBulletin 3.8']") is None:
            log.info("vbulletin: the reply preview is verified on 3.8 only; thread %s's board is not 3.8", tid)
            return False
        spec = self.profile.forms["reply"]
        result = self.forms.submit(page, "reply", {spec.fields["message"]: text}, action="read", form=form,
                                   submit="preview")
        tree = result.tree()
        after = find_form(tree, _FULL_REPLY_FORM, "message")
        # $postpreview: the tables above the form again (the page's navbar tables are too, holding neither)
        tables = find(after, "preceding::table[contains(concat(' ', normalize-space(@class), ' '), ' tborder ')]") \
            if after is not None else []
        cells = [cell for table in tables for cell in select(table, "td.alt1")]
        errors = [c for c in cells if _posterror_cell(c)]
        if errors:
            self.forms.raise_for_text(" ".join(clean_text(li) for c in errors for li in select(c, "ol li")))
        wanted = " ".join(text.split())
        if result.status == 200 and any(wanted in " ".join(clean_text(c).split()) for c in cells):
            return True
        if after is None and self.forms.error_text(result):
            self.forms.raise_for_errors(result)  # a standard_error page in the form's place (a bad token)
        raise PageFormatChanged(f"vbulletin: the reply preview of thread {tid} showed no preview ({result.url})")

    # --- PMs --------------------------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.with_login(lambda: self._fetch_pms(after))

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str | None]:
        return self.inbox.fetch_numbered_pms(after, lambda page: self._rows(page.tree()),
                                             lambda _, pid, subject: self.inbox.read_pm(pid, subject), self._delete)

    def _rows(self, tree: etree._Element) -> dict[str, str]:
        rows: dict[str, str] = {}
        for link in select(tree, self.profile.selectors["pm_row_link"]):
            pid = self.query_value(link.get("href", ""), "pmid")
            if pid and pid.isdigit():
                rows[pid] = " ".join(text(link).split())
        return rows

    def _delete(self, inbox: Page, ids: list[str]) -> None:
        spec = self.profile.forms["folder"]
        form = find_form(inbox.tree(), spec.selector, spec.needs)
        if form is None:
            log.warning("vbulletin: no PM folder form to delete read PMs with; the inbox keeps them")
            return
        result = self.forms.submit(inbox, "folder", {f"pm[{i}]": "true" for i in ids}, action="read", form=form)
        if self.forms.error_text(result) or result.status >= 400:
            log.warning("vbulletin: deleting read PMs failed (HTTP %s) %s", result.status, self.forms.error_text(result))

    def find_own_pm(self, to: str, marker: str) -> str | None:
        return self.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        sent = self.read_page(self.url("sentbox"))
        rows = []
        for link in select(sent.tree(), self.profile.selectors["pm_row_link"]):
            pid = self.query_value(link.get("href", ""), "pmid")
            row = next((a for a in link.iterancestors() if a.tag in ("tr", "li")), None)
            if pid and row is not None:
                names = [text(a).strip() for a in select(row, self.profile.selectors["pm_sent_to"])]
                # vB 3.8 names recipients in spans that open member.php by script, no link: the row's text
                # (minus the title) holds them; own_pm_in compares whole names against it
                rest = " ".join(text(row).replace(text(link), " ", 1).split())
                names += [n for n in to.split(",") if n.strip() and _fold(n) in _fold(rest)]
                rows.append((pid, self.url("pm", pm=pid), names))
        rows.sort(key=lambda r: -int(r[0]))
        return self.inbox.own_pm_in(rows, to, marker)

    def send_pm(self, to: str, subject: str, text: str) -> str:
        return self.transport.paced("pm", lambda: self.with_login(lambda: self._send_pm(to, subject, text)))

    def _send_pm(self, to: str, subject: str, text: str) -> str:
        names = ";".join(n.strip() for n in to.split(",") if n.strip())
        spec = self.profile.forms["compose"]
        page = self.get(self.url("compose"))
        said = self.forms.error_text(page)
        if said and self.forms.matches("no_permission", said) and \
                select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
            # print_no_permission() for a member: his group's private message quota is 0
            raise PmNotAllowed(f"vbulletin: the board does not let the bot send private messages: «{said}» (give "
                               "the bot's usergroup a private message quota above 0)", said)
        result = self.forms.submit(page, "compose", {spec.fields["to"]: names, spec.fields["subject"]: subject,
                                               spec.fields["message"]: text}, action="pm")
        target = result.location if result.status in (301, 302, 303) else meta_refresh_url(result.tree(), result.url)
        if target and self.forms.matches("pm_sent", target) and not self.forms.error_text(result):
            return ""  # vB's answer names no PM id
        self.forms.raise_for_errors(result, flood_action="pm")
        raise PageFormatChanged("vbulletin: sending a PM gave neither a redirect nor an error")

    # --- closing a thread (R-13; unverified: checked against tests/emulators/vbulletin.py only) ---------------------

    def _thread_tools(self, topic: str) -> tuple[Page, etree._Element | None, bool]:
        """The thread page, its thread tools form (`form[name=threadadminform]` to postings.php, with the
        `openclosethread` action: shown to a moderator with canopenclose) and whether the thread is closed (its
        reply button is threadclosed.gif)."""
        tid = self.topic_id(topic)
        page = self.get(self.url("topic", topic=tid))
        tree = page.tree()
        form = next((f for f in select(tree, "form[action*='postings.php']")
                     if select_one(f, "input[value='openclosethread'], option[value='openclosethread']") is not None),
                    None)
        return page, form, select_one(tree, "img[src*='threadclosed']") is not None

    def may_lock(self, topic: str) -> bool | None:
        return self._thread_tools(topic)[1] is not None

    def lock_thread(self, topic: str, locked: bool) -> None:
        self.with_login(lambda: self._lock_thread(topic, locked))

    def _lock_thread(self, topic: str, locked: bool) -> None:
        """postings.php `do=openclosethread` toggles, so the thread's state is read first; the answer is vB's
        standard redirect (a 302 or the meta-refresh page), or its no-permission message."""
        page, form, closed = self._thread_tools(topic)
        if form is None:
            raise FormRejected(f"vbulletin: the bot may not close thread {self.topic_id(topic)} (no Open / Close in "
                               f"its thread tools: the account needs canopenclose in this forum)")
        if closed == locked:
            return
        fields = [(k, v) for k, v in form_fields(form) if k != "do"] + [("do", "openclosethread")]
        # relative to the board's root: vB 4's friendly thread addresses (showthread.php/ID-slug) carry <base href>
        action = form_action(form, self.transport.url(""))
        result = self.transport.post_form(action, fields, charset=page.charset, action="lock")
        if result.status in (301, 302, 303) or meta_refresh_url(result.tree(), result.url):
            return
        self.forms.raise_for_errors(result)



# newreply.php's full editor form; the quick reply form is `vbform` too (its id qrform)
_FULL_REPLY_FORM = "form[name='vbform'][action*='newreply.php']:not(#qrform)"


def _show_cursor(after: str | None) -> str | None:
    """A printthread cursor counts posts in pages of 200; showthread pages are smaller: keep the count and the
    last id, drop the page size so the base learns it again."""
    if not after:
        return None
    data = json.loads(after)
    data.pop("pp", None)
    data.pop("m", None)
    return json.dumps(data, separators=(",", ":"))


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()
