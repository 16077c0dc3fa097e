"""PunBB / FluxBB 1.5, driven by the PUNBB profile; the base of the hosted mybb.ru engine (adapters/mybbru/forum.py).

Flows as observed on a live FluxBB 1.5.11 board (Visman's fork, Russian, "New PMS" module; fixtures/punbb/):
- login, reply and PM send all answer 200 with a "redirect" page (meta refresh), never a 302; a refused form
  comes back with its errors in `#posterror`; pages a guest may not see are a 403 "У вас нет прав" or a redirect
  page to login.php;
- a reply's redirect names the new post (`viewtopic.php?pid=N#pN`); a second post within g_post_flood (30 s)
  is refused with "Хотя бы 30 секунд должно пройти ...", and PMs have their own 30 s timer (pmsn_last_post);
- topic pages are numbered (`&p=2`), 25 posts each (a board and user setting: learned from the pages);
- post times are "29.11.2026 17:29" or "Сегодня 10:08" in the zone the bot's profile shows, to the minute;
- PMs are dialogues: the folder "Новые" lists dialogues with unread messages, a dialogue page shows its messages
  in topic markup, a new PM is a new dialogue with one recipient.
"""

from __future__ import annotations

import json
import logging
from typing import Iterator, Sequence
from urllib.parse import urljoin

from lxml import etree

from adapters.html.extract import extract_posts
from adapters.html.dom import clean_text, find, meta_refresh_url, select, select_one, text
from adapters.html.inbox import cursor_set, same_account
from adapters.html.forms import HtmlForms
from adapters.html.forum import HtmlForum
from adapters.html.topics import HtmlTopics
from adapters.html.pagechecks import error_box
from adapters.html.profile import HtmlProfile
from adapters.punbb.profile import PUNBB
from forumbot.forum.adapter import ForumPM, ForumPost, LOCK, OWN_PM, PREVIEW, ReplyId
from forumbot.errors import (ForumError, ForumUnavailable, FormRejected, LoginRequired, PageFormatChanged, PartlySent,
                             PmNotAllowed, PostQueued)
from forumbot.forum.http_page import Page

log = logging.getLogger(__name__)

# Dialogues opened when looking for a PM sent before an interruption (newest first).
OWN_PM_LOOKBACK = 3
# Pages of one dialogue followed at most (a loop guard; a game's dialogue is a page or two).
MAX_DIALOGUE_PAGES = 20


class PunbbForms(HtmlForms):
    """PunBB's forms: a redirect page's message box is its "done", not an error."""

    def error_text(self, page: Page) -> str:
        """A redirect page is the engine's "done": its message box (the same markup as an error's on mybb.ru)
        is no error."""
        if select_one(page.tree(), self.profile.selectors["redirect"]) is not None:
            return ""
        return super().error_text(page)


class PunbbTopics(HtmlTopics):
    """PunBB's topics: the page before the last found by its number."""

    def recent_pages(self, tid: str) -> Iterator[Page]:
        """PunBB 1.2 (mybb.ru) prints no "previous" link: the page before is the shown page's number less one."""
        last = self.topic_page(self.site.url("last_page", topic=tid), tid)[0]
        yield last
        shown = select_one(last.tree(), self.profile.selectors["current_page"])
        number = text(shown).strip() if shown is not None else ""
        if number.isdigit() and int(number) > 1:
            before = int(number) - 1
            path = (self.site.url("topic", topic=tid) if before == 1
                    else self.site.url("topic_page", topic=tid, start=before))
            yield self.topic_page(path, tid)[0]


class PunbbForum(HtmlForum):
    """PunBB / FluxBB adapter. `PunbbForum(base_url, username, password, timezone_name="Europe/Moscow")`;
    the zone is the one the forum shows the bot's account (PunBB prints none)."""
    forms_type = PunbbForms
    topics_type = PunbbTopics
    CAPABILITIES = HtmlForum.CAPABILITIES | {OWN_PM, LOCK, PREVIEW}

    engine = "punbb"
    profile: HtmlProfile = PUNBB

    # --- login ----------------------------------------------------------------------------------------------

    def login(self) -> None:
        if not self._password:
            raise LoginRequired(f"{self.profile.engine}: no password configured")
        page = self.get(self.url("login"))
        if select_one(page.tree(), self.profile.selectors["logged_in"]) is not None:
            return
        spec = self.profile.forms["login"]
        form = self.forms.form(page, "login")
        self._check_password_fits(form, spec.fields["password"])
        result = self.forms.submit(page, "login", {spec.fields["username"]: self.username,
                                             spec.fields["password"]: self._password}, action="login", form=form)
        if not self.forms.error_text(result) and (self.redirect_target(result) or self._logged_in(result)):
            return
        self.forms.raise_for_errors(result, default=LoginRequired)
        raise LoginRequired(f"{self.profile.engine}: login failed")

    def _check_password_fits(self, form: etree._Element, name: str) -> None:
        """mybb.ru's password input has maxlength=16: a browser cuts a longer password, and so the board stored
        the cut one or none; say so rather than fail as a wrong password (the password itself is not shown)."""
        field = find(form, ".//input[@name=$n]", n=name)
        limit = field[0].get("maxlength", "") if field else ""
        if limit.isdigit() and len(self._password or "") > int(limit):
            raise LoginRequired(f"{self.profile.engine}: password is {len(self._password or '')} characters; "
                                f"the login form takes at most {limit}: set a shorter password for the bot")

    def _logged_in(self, page: Page) -> bool:
        return select_one(page.tree(), self.profile.selectors["logged_in"]) is not None

    def redirect_target(self, page: Page) -> str | None:
        """Where a PunBB "redirect" page (HTTP 200, meta refresh) or a real redirect sends the browser."""
        if page.status in (301, 302, 303):
            return page.location
        if page.status == 200 and select_one(page.tree(), self.profile.selectors["redirect"]) is not None:
            return meta_refresh_url(page.tree(), page.url)
        return None

    def require_login(self, page: Page) -> None:
        """A form page served without the logged-in marks (a 403 "нет прав", a redirect to login.php, the login
        form) means the session is gone: LoginRequired, so with_login logs in once and tries again."""
        if not self._logged_in(page):
            raise LoginRequired(f"{self.profile.engine}: not logged in ({page.url})")

    # --- accounts -------------------------------------------------------------------------------------------

    def _account_exists(self, name: str) -> bool | None:
        """userlist.php filtered by `username LIKE name` (issue 28 item 6): the account exists if a row is `name`
        case-folded (C-3; the board's database folds case as its PM form's `username=` lookup does); the filter
        form with no such row means no such account. A list without the filter (the group may not search users:
        every member listed, page by page) cannot tell that a name is missing, nor can a page with no list."""
        # userlist.php turns `*` into SQL's `%` and escapes `_` as `\_`, which SQLite's LIKE (no ESCAPE clause)
        # reads as a backslash: a name with `_` was never found there. `*` in its place finds it on any database,
        # and the rows are compared with the name itself.
        tree = self.member_page(name.replace("_", "*").replace("%", "*")).tree()
        rows = [text(a) for a in select(tree, self.profile.selectors["member_row"])]
        if any(same_account(row, name) for row in rows):
            return True
        filtered = select_one(tree, self.profile.selectors["member_search"]) is not None
        return False if filtered and select_one(tree, "#users1") is not None else None

    # --- reply ------------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        # a flood refusal posts nothing: the transport waits it out (when short) and sends once more
        return self.transport.paced("post", lambda: self.with_login(lambda: self._reply(topic, text)))

    def _reply(self, topic: str, text: str) -> str:
        tid = self.topic_id(topic)
        page = self.get(self.url("reply", topic=tid))
        self.require_login(page)
        spec = self.profile.forms["reply"]
        form = self.forms.form(page, "reply")
        extra = dict(self.profile.hooks["prepare_reply"](page.tree()))
        result = self.forms.submit(page, "reply", {**extra, spec.fields["message"]: text}, action="post", form=form)
        target = self.redirect_target(result) or ""
        m = self.forms.matches("posted", target)
        if m and not self.forms.error_text(result):
            return ReplyId(m.group(1))
        if target and not self.forms.error_text(result) and self.forms.matches("queued", target):
            # "done", but sent to the topic or forum rather than to a post: held for a moderator only when the
            # board says so (mybb.ru's premoderation: unverified); any other such redirect may have posted it, so
            # its marker is looked for before anything is sent again
            said = error_box(result, self.profile)[:200]
            if self.forms.matches("queued_text", said):
                raise PostQueued(f"{self.profile.engine}: the reply to topic {tid} awaits a moderator's approval "
                                 f"(the board answered: {said})")
            raise ForumUnavailable(f"{self.profile.engine}: the reply to topic {tid} led to {target}, naming no post "
                                   f"and not saying it awaits a moderator (the board answered: «{said}»); it may "
                                   "be posted: looked for before it is sent again")
        self.forms.raise_for_errors(result, flood_action="post")
        raise PageFormatChanged(f"{self.profile.engine}: reply gave neither a post id nor an error")

    def preview_reply(self, topic: str, text: str) -> None:
        """The reply form (post.php?tid=N) sent with its Preview button (`preview`): FluxBB 1.5's post.php checks
        the topic and the bot's right to reply (post_replies, a closed topic: a 403 "no permission" page before any
        form) and the message, skips its flood check for a preview, inserts nothing, and shows the message rendered
        in `#postpreview` above the form again, or the errors in `#posterror`. The handshake's reply flow (issue 28
        item 4); a refusal is a ForumError in the board's words."""
        self.with_login(lambda: self._preview_reply(topic, text))

    def _preview_reply(self, topic: str, text: str) -> None:
        tid = self.topic_id(topic)
        page = self.get(self.url("reply", topic=tid))
        self.require_login(page)
        form = self.forms.form(page, "reply")  # no form: the board's refusal raised in its words
        extra = dict(self.profile.hooks["prepare_reply"](page.tree()))
        result = self.forms.submit(page, "reply", {**extra, self.profile.forms["reply"].fields["message"]: text},
                                   action="read", form=form, submit="preview")
        said = self.forms.error_text(result)
        preview = select_one(result.tree(), self.profile.selectors["preview"]) if result.status == 200 else None
        if not said and preview is not None and " ".join(text.split()) in " ".join(clean_text(preview).split()):
            return
        if said:
            self.forms.raise_for_errors(result, flood_action="post", text=said)
        raise PageFormatChanged(f"{self.profile.engine}: the reply preview of topic {tid} showed no preview "
                                f"({result.url})")

    # --- PMs: New PMS dialogues --------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.with_login(lambda: self._fetch_pms(after))

    def _fetch_pms(self, after: str | None) -> tuple[list[ForumPM], str | None]:
        """Dialogues whose reply count changed since the cursor are opened, newest first as listed. Not the
        "Новые" folder: opening a dialogue marks it read, so a tick that died before storing what it read would
        never see those messages listed as new again; a reply count stays changed until the cursor moves."""
        cur = cursor_set(after)
        seen = int(cur.get("max", 0))
        known: dict[str, str] = dict(cur.get("dlg", {}))
        listing = self.read_page(self.url("pm_list"))
        self._note_usage(listing)
        # newest first: while every dialogue of a page changed, the next page may hold changed ones too
        pages, _ = self.inbox.inbox_pages(listing, lambda page: {r[0]: r for r in self._dialogue_rows(page.tree())},
                                          lambda tid, r: known.get(tid) != r[3])
        listed = {tid: row for _, page_rows in reversed(pages) for tid, row in page_rows.items()}
        pms: list[ForumPM] = []
        counts: dict[str, str] = {}
        for tid, subject, users, replies in listed.values():
            counts[tid] = replies
            if known.get(tid) == replies:
                continue
            for post in self._dialogue(tid):
                if int(post.id) > seen and _fold(post.author) != _fold(self.username):
                    pms.append(self._as_pm(post, subject))
        pms.sort(key=lambda p: int(p.id))
        top = max([seen, *(int(p.id) for p in pms)])
        return pms, json.dumps({"max": top, "dlg": counts}, separators=(",", ":"), sort_keys=True)

    def _note_usage(self, page: Page) -> None:
        """'Моя переписка: 5%' in the folder menu: the share of the PM quota in use (kept as (percent, 100))."""
        for li in select(page.tree(), self.profile.selectors["pm_usage"]):
            m = self.forms.matches("pm_usage_percent", text(li))
            if m:
                self.inbox_usage = (int(m.group(1)), 100)
                return

    def _dialogue_rows(self, tree: etree._Element) -> list[tuple[str, str, list[str], str]]:
        """(dialogue id, subject, [sender, recipient], reply count) per row of a dialogue list, as listed."""
        rows = []
        for row in select(tree, self.profile.selectors["pm_row"]):
            link = select_one(row, self.profile.selectors["pm_row_link"])
            tid = self.query_value(link.get("href", ""), "tid") if link is not None else None
            if tid and link is not None:
                users = [" ".join(text(td).split()) for td in select(row, self.profile.selectors["pm_row_users"])]
                count = select_one(row, self.profile.selectors["pm_row_replies"])
                rows.append((tid, " ".join(text(link).split()), users[:2], text(count).strip() if count is not None else ""))
        return rows

    def _dialogue(self, tid: str) -> list[ForumPost]:
        """Every message of one dialogue, following its pages; reading it marks it read on the board."""
        path = self.url("dialogue", pm=tid)
        out: dict[str, ForumPost] = {}
        visited: set[str] = set()
        while len(visited) < MAX_DIALOGUE_PAGES:
            page = self.read_page(path)
            visited.add(page.url)
            tree = page.tree()
            posts = extract_posts(tree, self.profile, self.ctx(page), tid)
            if not posts:
                raise PageFormatChanged(f"{self.profile.engine}: no messages in dialogue {tid} ({page.url})")
            out.update((p.id, p) for p in posts)
            nxt = select_one(tree, self.profile.selectors["pm_next"])
            if nxt is None or not nxt.get("href"):
                break
            path = urljoin(page.url, nxt.get("href", ""))
            if path in visited:
                break
        return sorted(out.values(), key=lambda p: int(p.id))

    @staticmethod
    def _as_pm(post: ForumPost, subject: str) -> ForumPM:
        return ForumPM(id=post.id, author=post.author, author_id=post.author_id, sent_at=post.posted_at,
                       sent_latest=post.posted_latest, subject=subject, text=post.text, html=post.html)

    def send_pm(self, to: str, subject: str, text: str) -> str:
        names = [n.strip() for n in to.split(",") if n.strip()]
        if not names:
            raise FormRejected(f"{self.profile.engine}: PM without a recipient")
        ids: list[str] = []
        # A dialogue has one recipient: one per name, each paced (a flood on the second must not resend the first).
        for i, name in enumerate(names):
            try:
                ids.append(self.transport.paced("pm", lambda: self.with_login(lambda: self._send_one(name, subject,
                                                                                                  text))))
            except ForumError as e:
                if i == 0:
                    raise
                # the first are out (a full box or an outage at the next): the outbox sends on to the rest only
                raise PartlySent(f"{self.profile.engine}: PM sent to {', '.join(names[:i])}, not to "
                                 f"{', '.join(names[i:])}: {type(e).__name__}: {e}", names[:i], names[i:], e) from e
        return ids[0] if len(ids) == 1 else ",".join(ids)

    def _send_one(self, to: str, subject: str, text: str) -> str:
        """New PMS counts dialogues against the quota (100 for Members): to a name the bot already has a
        dialogue with, the PM goes into that dialogue, its subject as a bold first line; else a new dialogue."""
        if "dialogue_reply" in self.profile.urls:
            listing = self.read_page(self.url("pm_list"))
            tid = self._dialogue_with(self._dialogue_rows(listing.tree()), to)
            if tid is not None:
                return self._into_dialogue(tid, subject, text)
        spec = self.profile.forms["compose"]
        page = self.get(self.url("compose"))
        self.require_login(page)
        said = error_box(page, self.profile)
        if said and self.forms.matches("no_permission", said):  # the group may not send PMs: the form is not shown
            raise PmNotAllowed(f"{self.profile.engine}: the board does not let the bot send private messages: "
                               f"«{said}» (the bot's group needs the right to send them)", said)
        # a new dialogue needs a subject (at most 70 characters): the text's first words stand in for none
        subject = subject.strip() or (text.strip().splitlines() or ["…"])[0][:70]
        result = self.forms.submit(page, "compose", {spec.fields["to"]: to, spec.fields["subject"]: subject,
                                               spec.fields["message"]: text}, action="pm")
        return self._pm_sent(result)

    def _dialogue_with(self, rows: Sequence[tuple[str, str, list[str], str]], name: str) -> str | None:
        """The newest dialogue between the bot and `name`, whoever opened it."""
        pair = {_fold(self.username), _fold(name)}
        return next((tid for tid, _s, users, _c in rows if len(users) >= 2 and {_fold(u) for u in users[:2]} == pair),
                    None)

    def _into_dialogue(self, tid: str, subject: str, text: str) -> str:
        page = self.get(self.url("dialogue_reply", pm=tid))
        self.require_login(page)
        spec = self.profile.forms["dialogue_reply"]
        body = f"[b]{self.escape(subject)}[/b]\n\n{text}" if subject.strip() else text
        result = self.forms.submit(page, "dialogue_reply", {spec.fields["message"]: body}, action="pm")
        return self._pm_sent(result)

    def _pm_sent(self, result: Page) -> str:
        target = self.redirect_target(result)
        if target and not self.forms.error_text(result):
            m = self.forms.matches("pm_sent", target)
            return m.group(1) if m else ""
        self.forms.raise_for_errors(result, flood_action="pm")
        raise PageFormatChanged(f"{self.profile.engine}: PM send gave neither a redirect nor an error")

    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The id of the bot's message to `to` holding `marker`, if it was sent (outbox crash recovery): the
        dialogue list holds the bot's own dialogues too, newest first, with sender and recipient."""
        return self.with_login(lambda: self._find_own_pm(to, marker))

    def _find_own_pm(self, to: str, marker: str) -> str | None:
        listing = self.read_page(self.url("pm_list"))
        return self.own_message_in(self._dialogue_rows(listing.tree()), to, marker)

    def own_message_in(self, rows: Sequence[tuple[str, str, list[str], str]], to: str, marker: str) -> str | None:
        """Dialogues between the bot and a name in `to` (either may have opened it: PMs go into existing ones)."""
        wanted = {_fold(n) for n in to.split(",") if n.strip()}
        me = _fold(self.username)
        opened = 0
        for tid, _subject, users, _count in rows:
            pair = {_fold(u) for u in users[:2]}
            if len(users) < 2 or me not in pair or not (pair - {me}) & wanted:
                continue
            if opened >= OWN_PM_LOOKBACK:
                break
            opened += 1
            for post in reversed(self._dialogue(tid)):
                if _fold(post.author) == me and (marker in post.text or marker in post.html):
                    return post.id
        return None

    # --- closing a topic (R-13) ------------------------------------------------------------------------------------

    def close_link(self, topic: str) -> tuple[str, str, str] | None:
        """The topic's moderator link (FluxBB 1.5's footer.php, shown to a moderator of the forum or an admin):
        `moderate.php?fid=F&close=T&csrf_hash=…` on an open topic, `…&open=T&…` on a closed one (PunBB 1.2, which
        mybb.ru derives from: no csrf_hash); with the page's address. None: not shown."""
        tid = self.topic_id(topic)
        page = self.get(self.url("topic", topic=tid))
        for link in select(page.tree(), "a[href*='moderate.php']"):
            href = urljoin(page.url, link.get("href", ""))
            for action in ("close", "open"):
                if self.query_value(href, action) == tid:
                    return action, href, page.url
        return None

    def may_lock(self, topic: str) -> bool | None:
        return self.close_link(topic) is not None

    def lock_thread(self, topic: str, locked: bool) -> None:
        self.with_login(lambda: self._lock_thread(topic, locked))

    def _lock_thread(self, topic: str, locked: bool) -> None:
        """moderate.php (open/close, one topic by GET): confirm_referrer('viewtopic.php') checks the link's
        csrf_hash (FluxBB 1.5) or the Referer (PunBB 1.2: the topic page is sent as it), the topic is set, and
        redirect() answers with its redirect page (a meta refresh) or a 302; a member who moderates nothing there
        gets message('No permission'), 403."""
        want = "close" if locked else "open"
        link = self.close_link(topic)
        if link is None:
            raise FormRejected(f"punbb: the bot may not {want} topic {self.topic_id(topic)} (no moderator links on "
                               f"its page: the account must moderate this forum)")
        shown, href, topic_page = link
        if shown != want:
            return  # already so
        result = self.transport.get(href, follow=False, action="lock", headers={"Referer": topic_page})
        if result.status in (301, 302, 303) or meta_refresh_url(result.tree(), result.url):
            return
        self.forms.raise_for_errors(result)


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()
