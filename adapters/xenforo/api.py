"""XenForo 2.1+ through its REST API (`/api/`), chosen with `api_key_env` in the forum table (issue 18 item 4).

The key is a *user key* a super admin makes for the bot's account (ACP > Setup > API keys) with the scopes
thread:read, thread:write, conversation:read, conversation:write, user:read; it is sent as `XF-Api-Key` and
acts with the account's permissions. Endpoints and fields as xenforo.com/docs/dev/rest-api documents them
(ENGINES.md §12): JSON with ids and unix times, no CSRF, no HTML, and no flood check on posts and conversation
messages, so a Setup's role PMs go out at once. Error answers are `{"errors": [{"code", "message", ...}]}`.
What the emulator could not take from a served answer (the wording of a missing-scope error) is matched
loosely: any error naming a scope.
"""

from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Mapping

from forumbot.forum.adapter import (
    ACCOUNTS, CLOSE_CONVERSATION, CONFERENCE, COOKIES, OWN_PM, REREAD, THREAD_PAGE, AdapterBase, ForumPM, ForumPost,
    ReplyId,
)
from forumbot.errors import ConfigError, FormRejected, LoginRequired, PageFormatChanged, PostGone, PostQueued
from forumbot.markup import escape_bbcode
from forumbot.forum.transport_settings import TRANSPORT_SETTINGS
from forumbot.forum.http_page import Page
from forumbot.forum.transport import Transport

log = logging.getLogger(__name__)

SCOPES = ("thread:read", "thread:write", "conversation:read", "conversation:write", "user:read")
MAX_PAGES = 200  # pages of one thread or conversation read at most in one call (a loop guard)
CONVERSATION_PAGES = 5  # pages of the conversation list read at most per inbox check
OWN_PM_LOOKBACK = 3
_QUOTE = re.compile(r"\[(quote|spoiler|ispoiler|code)(?:=[^\]]*)?\].*?\[/\1\]", re.I | re.S)


class XenforoApiForum(AdapterBase):
    """`XenforoApiForum(base_url, username, api_key)`: every flow through `base_url/api/`."""
    CAPABILITIES = frozenset({COOKIES, REREAD, ACCOUNTS, OWN_PM, THREAD_PAGE, CONFERENCE, CLOSE_CONVERSATION})

    engine = "xenforo"
    markup = "bbcode"
    prints_local_times = False

    def __init__(self, base_url: str, username: str, api_key: str, **transport_options: Any) -> None:
        self.username = username
        root = base_url.rsplit("index.php?", 1)[0]  # the API lives at <board>/api/ whatever the URL style
        self.transport = Transport(root, bot=username, extra_headers={"XF-Api-Key": api_key}, **transport_options)
        self._kept: dict[str, str] = {}  # "recipients|subject" -> the conversation the bot keeps for them

    def __repr__(self) -> str:
        return f"XenforoApiForum({self.transport.base_url!r}, {self.username!r})"

    @classmethod
    def from_config(cls, forum: Any, password: str | None) -> "XenforoApiForum":
        extra: Mapping[str, Any] = getattr(forum, "extra", {}) or {}
        name = str(extra["api_key_env"])
        key = os.environ.get(name)
        if not key:
            raise ConfigError(f"forums.{forum.name}.api_key_env: environment variable {name} is not set")
        options = {k: extra[k] for k in TRANSPORT_SETTINGS if k in extra and k != "intervals"}
        return cls(forum.base_url, forum.login, key, **options)

    def escape(self, text: str) -> str:
        return escape_bbcode(text)

    def export_cookies(self) -> str:
        return json.dumps({"kept": self._kept}, sort_keys=True)

    def import_cookies(self, data: str) -> None:
        self._kept.update(json.loads(data).get("kept") or {})

    # --- requests -------------------------------------------------------------------------------------------

    def call(self, method: str, path: str, params: Any = None, data: list[tuple[str, str]] | None = None,
             action: str = "read") -> dict[str, Any]:
        if method == "GET":
            page = self.transport.get("api/" + path, params=params)
        else:
            page = self.transport.post_form("api/" + path, data or [], action=action)
        return self.answer(page)

    def answer(self, page: Page) -> dict[str, Any]:
        try:
            body = page.json()
        except ValueError:
            raise PageFormatChanged(f"xenforo api: {page.url} answered HTTP {page.status} without JSON "
                                    "(is the API switched off, $config['enableApi']?)") from None
        errors = body.get("errors") if isinstance(body, dict) else None
        if errors:
            said = "; ".join(f"{e.get('code', '')}: {e.get('message', '')}" if isinstance(e, dict) else str(e)
                             for e in errors)
            if page.status == 401 or any(isinstance(e, dict) and "api_key" in str(e.get("code", ""))
                                         and "scope" not in str(e.get("code", "")) for e in errors):
                raise LoginRequired(f"xenforo api: the key was refused: {said}")
            raise FormRejected(f"xenforo api: {said}")
        if not isinstance(body, dict):
            raise PageFormatChanged(f"xenforo api: {page.url} answered {body!r:.200}")
        return body

    # --- account --------------------------------------------------------------------------------------------

    def login(self) -> None:
        """No login: the key is the session. /api/me says whose key it is: the bot's, or a config error."""
        me = self.call("GET", "me/").get("me") or {}
        if _fold(str(me.get("username", ""))) != _fold(self.username):
            raise LoginRequired(f"xenforo api: the key acts as {me.get('username')!r}, not as {self.username!r}: "
                                "make a user key for the bot's account")

    def check_account(self, threads: list[str]) -> list[str]:
        """check-config --online: each scope the bot needs that the key lacks, by name. Read scopes are tried
        with a read; write scopes cannot be tried without writing: the key's refusal names them at the first
        post or PM."""
        problems = []
        probes: list[tuple[str, str, dict[str, int] | None]] = [
            ("user:read", "me/", None), ("conversation:read", "conversations/", None)]
        probes += [("thread:read", f"threads/{self.topic_id(t)}/posts", {"page": 1}) for t in threads[:1]]
        for scope, path, params in probes:
            try:
                self.call("GET", path, params)
            except (FormRejected, LoginRequired) as e:
                if "scope" in str(e).casefold():
                    problems.append(f"the API key lacks the scope {scope} ({e}); give it {', '.join(SCOPES)}")
                else:
                    raise
        return problems

    # --- threads --------------------------------------------------------------------------------------------

    def topic_id(self, topic: str) -> str:
        m = re.search(r"(?:threads/(?:[^/?#&]*\.)?|^)(\d+)", str(topic).strip())
        if not m:
            raise ValueError(f"not a xenforo thread: {topic!r}")
        return m.group(1)

    def thread_page(self, topic: str, number: int = 1) -> tuple[list[ForumPost], int]:
        """One page of a thread's posts and the number of its last page (`forumbot probe`)."""
        return self._page(self.topic_id(topic), number)

    def _page(self, tid: str, number: int) -> tuple[list[ForumPost], int]:
        body = self.call("GET", f"threads/{tid}/posts", {"page": number})
        last = int((body.get("pagination") or {}).get("last_page") or 1)
        return [self._post(p, tid) for p in body.get("posts") or []], last

    def _post(self, p: Mapping[str, Any], topic: str) -> ForumPost:
        message = str(p.get("message", ""))
        edited = p.get("last_edit_date")
        return ForumPost(id=str(p["post_id"]), topic=topic, author=str(p.get("username", "")),
                         author_id=str(p.get("user_id")) if p.get("user_id") else None,
                         posted_at=_utc(p["post_date"]), edited_at=_utc(edited) if edited else None,
                         edit_count=1 if edited else 0, text=_QUOTE.sub("", message).strip(), html=message,
                         quoted=bool(re.search(r"\[quote", message, re.I)),
                         held=p.get("message_state") == "moderated")

    def fetch_posts(self, topic: str, after: str | None = None) -> tuple[list[ForumPost], str | None]:
        tid = self.topic_id(topic)
        cur = json.loads(after) if after else {"page": 1, "last": 0}
        number, last_id = int(cur.get("page", 1)), int(cur.get("last", 0))
        out: dict[str, ForumPost] = {}
        for _ in range(MAX_PAGES):
            posts, last = self._page(tid, number)
            out.update((p.id, p) for p in posts)
            if number >= last:
                break
            number += 1
        top = max([last_id, *(int(i) for i in out)])
        found = sorted(out.values(), key=lambda p: int(p.id))
        return [replace(p, topic=topic) for p in found], json.dumps({"page": number, "last": top})

    def reread_from(self, topic: str, post_id: str, ids: Any = ()) -> list[ForumPost]:
        tid = self.topic_id(topic)
        page = self.transport.get(f"api/posts/{post_id}/")
        # deleted (hard: 404 not found; soft: 403 not viewable), not the key refused (issue 26 item 3)
        if page.status == 404 or page.status == 403 and b"api_key" not in page.content and b"scope" not in page.content:
            raise PostGone(f"xenforo api: post {post_id} of thread {tid} answered HTTP {page.status}")
        position = int((self.answer(page).get("post") or {}).get("position", 0))
        posts: list[ForumPost] = []
        per_page = 20
        number = position // per_page + 1
        for _ in range(MAX_PAGES):
            found, last = self._page(tid, number)
            posts += found
            if number >= last:
                break
            number += 1
        return [replace(p, topic=topic) for p in posts if int(p.id) >= int(post_id)]

    def reply(self, topic: str, text: str) -> str:
        body = self.call("POST", "posts/", data=[("thread_id", self.topic_id(topic)), ("message", text)],
                         action="post")
        post = body.get("post") or {}
        if post.get("message_state") == "moderated":
            raise PostQueued(f"xenforo api: the reply awaits a moderator's approval (post {post.get('post_id')})",
                             str(post.get("post_id")))
        if not post.get("post_id"):
            raise FormRejected(f"xenforo api: the reply gave no post ({body})")
        return ReplyId(str(post["post_id"]))

    def find_own_post(self, topic: str, marker: str) -> str | None:
        tid = self.topic_id(topic)
        posts, last = self._page(tid, 1)
        for number in range(last, max(last - 2, 0), -1):
            page = posts if number == 1 else self._page(tid, number)[0]
            for p in reversed(page):
                if _fold(p.author) == _fold(self.username) and marker in p.html:
                    if p.held:  # the author's own post awaiting approval: not out (outbox recovery)
                        raise PostQueued(f"xenforo api: the bot's post {p.id} in thread {tid}, found after an "
                                         "interrupted send, awaits a moderator's approval", p.id)
                    return p.id
        return None

    # --- conversations --------------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        seen: dict[str, list] = (json.loads(after) if after else {}).get("c", {})
        cursor = {k: list(v) for k, v in seen.items()}
        pms: list[ForumPM] = []
        for conv in self._conversations():
            cid, when = str(conv["conversation_id"]), conv.get("last_message_date")
            if seen.get(cid, [None])[0] == when:
                continue  # newest change first: the rest are older (read on to the pages' end, a few at most)
            last_mid = int(seen.get(cid, [None, 0])[1] or 0)
            messages = self._messages(cid, str(conv.get("title", "")))
            # M-15: the bot and more than one other recipient (whether `recipients` holds the starter too is
            # unverified: a conversation the bot started with several, or a player with the bot alone, counts alike)
            recipients = {_fold(str(n)) for n in (conv.get("recipients") or {}).values()}
            shared = len(recipients - {_fold(self.username)}) > 1
            pms += [replace(m, shared=shared) for m in messages
                    if int(m.id) > last_mid and _fold(m.author) != _fold(self.username)]
            cursor[cid] = [when, max([last_mid, *(int(m.id) for m in messages)])]
            if conv.get("is_unread"):
                self.call("POST", f"conversations/{cid}/mark-read", action="read")
        pms.sort(key=lambda m: int(m.id))
        return pms, json.dumps({"c": cursor}, separators=(",", ":"), sort_keys=True)

    def inbox_counts(self) -> tuple[int, int]:
        """The conversations the list shows and how many are unread, read without opening one (opening marks it
        read): what `forumbot probe` reports of the inbox."""
        conversations = self._conversations()
        return len(conversations), sum(1 for c in conversations if c.get("is_unread"))

    def _conversations(self) -> list[Mapping[str, Any]]:
        out: list[Mapping[str, Any]] = []
        for number in range(1, CONVERSATION_PAGES + 1):
            body = self.call("GET", "conversations/", {"page": number})
            out += body.get("conversations") or []
            if number >= int((body.get("pagination") or {}).get("last_page") or 1):
                break
        return out

    def _messages(self, cid: str, title: str) -> list[ForumPM]:
        out: list[ForumPM] = []
        for number in range(1, MAX_PAGES + 1):
            body = self.call("GET", f"conversations/{cid}/messages", {"page": number})
            for m in body.get("messages") or []:
                text = str(m.get("message", ""))
                out.append(ForumPM(id=str(m["message_id"]), author=str(m.get("username", "")),
                                   author_id=str(m.get("user_id")) if m.get("user_id") else None,
                                   sent_at=_utc(m["message_date"]), subject=title,
                                   text=_QUOTE.sub("", text).strip(), html=text))
            if number >= int((body.get("pagination") or {}).get("last_page") or 1):
                break
        return out

    def send_pm(self, to: str, subject: str, text: str) -> str:
        names = [n.strip() for n in to.split(",") if n.strip()]
        key = ",".join(sorted(_fold(n) for n in names)) + "|" + _fold(subject)
        kept = self._kept.get(key)
        if kept:
            try:
                self.call("POST", "conversation-messages/", data=[("conversation_id", kept), ("message", text)],
                          action="pm")
                return kept
            except FormRejected as e:
                log.info("xenforo api: conversation %s not answerable (%s); starting a new one", kept, e)
        ids = [self._user_id(n) for n in names]
        data = [*(("recipient_ids[]", i) for i in ids), ("title", subject.strip() or text.strip()[:100] or "—"),
                ("message", text)]
        conv = self.call("POST", "conversations/", data=data, action="pm").get("conversation") or {}
        if not conv.get("conversation_id"):
            raise FormRejected(f"xenforo api: conversation with {to} not started")
        self._kept[key] = str(conv["conversation_id"])
        return self._kept[key]

    def close_conversation(self, to: str, subject: str) -> None:
        """M-15: the conversation the bot started with `to` under `subject` locked against replies: `POST
        conversations/{id}` with `conversation_open` 0 (Api\\Controller\\Conversation::actionPost; its starter may,
        canEdit). Found in the kept ones, else the newest of the bot's in the list with those recipients."""
        names = {_fold(n) for n in to.split(",") if n.strip()}
        cid = self._kept.get(",".join(sorted(names)) + "|" + _fold(subject))
        if cid is None:
            cid = next((str(c["conversation_id"]) for c in self._conversations()
                        if _fold(str(c.get("username", ""))) == _fold(self.username)
                        and _fold(str(c.get("title", ""))) == _fold(subject.strip())
                        and {_fold(str(n)) for n in (c.get("recipients") or {}).values()} - {_fold(self.username)}
                        == names), None)
        if cid is None:
            raise FormRejected(f"xenforo api: no conversation the bot started with {to} under {subject!r} to lock")
        self.call("POST", f"conversations/{cid}/", data=[("conversation_open", "0")], action="pm")

    def _user_id(self, name: str) -> str:
        exact = self.call("GET", "users/find-name", {"username": name}).get("exact")
        if not exact or _fold(str(exact.get("username", ""))) != _fold(name):
            raise FormRejected(f"xenforo api: no such user: {name}")
        return str(exact["user_id"])

    def account_exists(self, name: str) -> bool | None:
        """users/find-name's exact match; None when the key may not ask (no `user:read` scope): a refusal is not
        "no such user" (issue 28 item 4)."""
        name = " ".join(name.split())
        try:
            exact = self.call("GET", "users/find-name", {"username": name}).get("exact")
        except FormRejected as e:
            log.warning("xenforo api: users/find-name refused (%s); account %r not checked", e, name)
            return None
        return isinstance(exact, dict) and _fold(str(exact.get("username", ""))) == _fold(name)

    def find_own_pm(self, to: str, marker: str) -> str | None:
        wanted = {_fold(n) for n in to.split(",") if n.strip()}
        opened = 0
        for conv in self._conversations():
            names = {_fold(str(n)) for n in (conv.get("recipients") or {}).values()}
            if not wanted & names:
                continue
            if opened >= OWN_PM_LOOKBACK:
                break
            opened += 1
            cid = str(conv["conversation_id"])
            if any(_fold(m.author) == _fold(self.username) and marker in m.html
                   for m in self._messages(cid, str(conv.get("title", "")))):
                return cid
        return None


def _utc(unix: Any) -> datetime:
    return datetime.fromtimestamp(int(unix), timezone.utc)


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()
