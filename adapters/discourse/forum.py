"""Discourse through its JSON API: the same interface without HTML pages.

- topics: /t/{id}.json gives the first chunk of posts and `post_stream.stream`, every post id in order;
  posts not in the chunk come from /t/{id}/posts.json?post_ids[]=...; only ids after the cursor are fetched;
- replies: POST /posts.json with topic_id. A post held for a moderator's approval answers 200
  `{"action": "enqueued", "pending_post": ...}` (PostsController#backwards_compatible_json): PostQueued;
- PMs: one PM topic per player, found in the bot's private-messages list and replied to; a new one is opened
  only when there is none (non-staff may open 20 a day, max_personal_messages_per_day);
- inbox: /topics/private-messages/{username}.json lists PM conversations, most recently bumped first, 30 a
  page (`more_topics_url` names the next); a conversation whose highest_post_number passed the cursor is read
  with /t/{id}.json, and the list is followed while every conversation on a page has something new;
- auth, in order of preference: an admin API key (Api-Key + Api-Username, or Api-User-Id), the default;
  a user API key (User-Api-Key, 2,880 requests a day); a password login (GET /session/csrf, then POST /session
  with X-CSRF-Token), which is impossible on SSO boards and limited to 6 logins a minute, 30 an hour. In
  password mode every write carries the CSRF token; a session restored from the store fetches a token before
  its first write instead of being refused ("BAD CSRF") and paying a full login;
- 429 carries Retry-After (the transport waits or raises FloodLimited).
Post text is `cooked` HTML with quotes (aside.quote), spoilers, details and code removed.

DiscourseForum is put together from its parts: discourse_account (check-config's look at the account) and
discourse_pms (PM topics, the inbox); discourse_text reads a post's words.
"""

from __future__ import annotations

import json
import os
from datetime import timezone
from typing import Any, Mapping, Sequence

from adapters.dates import parse_iso
from adapters.discourse.account import account_problems, config_warnings
from adapters.discourse.pms import DiscoursePMs
from adapters.discourse.text import CHUNK, MODERATOR_ACTION, REGULAR, cooked_text, is_quoted, username_lower
from forumbot.forum.adapter import (
    COOKIES, OWN_PM, REREAD, AdapterBase, ConfigWarning, ForumPM, ForumPost, ThreadAddressProblem,
)
from forumbot.errors import ConfigError, FloodLimited, FormRejected, LoginRequired, PageFormatChanged, PostQueued
from forumbot.markup import escape_markdown
from forumbot.forum.transport_settings import TRANSPORT_SETTINGS
from forumbot.forum.http_page import Page
from forumbot.forum.transport import Transport

DEFAULT_LIMITS = {"post": 5.0, "pm": 5.0}
BAD_CSRF = b'["BAD CSRF"]'  # ApplicationController#handle_unverified_request, with status 403


class DiscourseForum(AdapterBase):
    CAPABILITIES = frozenset({COOKIES, REREAD, OWN_PM})
    engine = "discourse"
    # read by forumbot.config.types.engine_traits: its forum-table settings, zoned times, markup
    settings = TRANSPORT_SETTINGS | {"api_key", "api_client_id", "admin_api_key", "admin_api_key_env",
                                     "user_api_key_env", "api_user_id"}
    prints_local_times = False
    markup = "markdown"

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str | None = None,
        *,
        admin_api_key_env: str | None = None,
        api_user_id: int | str | None = None,
        user_api_key_env: str | None = None,
        api_key: str | None = None,
        api_client_id: str | None = None,
        admin_api_key: str | None = None,
        environ: Mapping[str, str] | None = None,
        transport: Transport | None = None,
        intervals: Mapping[str, float] | None = None,
        **transport_options: Any,
    ) -> None:
        """`admin_api_key_env` / `user_api_key_env` name the environment variables holding the keys (the keys
        themselves may also be passed as `admin_api_key` / `api_key`, e.g. by tests). `api_user_id` makes the
        admin key act for that user id (Api-User-Id) instead of by name."""
        self.username = username
        self._password = password
        env = os.environ if environ is None else environ
        admin_api_key = admin_api_key or _secret(env, "admin_api_key_env", admin_api_key_env)
        api_key = api_key or _secret(env, "user_api_key_env", user_api_key_env)
        self.transport = transport or Transport(
            base_url, bot=username, intervals={**DEFAULT_LIMITS, **(intervals or {})}, **transport_options)
        headers = self.transport.session.headers
        headers["Accept"] = "application/json"
        if admin_api_key:
            self.auth = "admin_api_key"
            headers["Api-Key"] = admin_api_key
            if api_user_id not in (None, ""):
                headers["Api-User-Id"] = str(int(api_user_id))
            else:
                headers["Api-Username"] = username_lower(username)
        elif api_key:
            self.auth = "user_api_key"
            headers["User-Api-Key"] = api_key
            if api_client_id:
                headers["User-Api-Client-Id"] = api_client_id
        else:
            self.auth = "password"
        self._keyed = self.auth != "password"
        self._csrf: str | None = None
        self.pms = DiscoursePMs(username, self.transport, json_of=self._json, create=self._create, posts=self._posts,
                                mine=self._mine)

    def __repr__(self) -> str:
        return f"DiscourseForum({self.transport.base_url!r}, {self.username!r})"

    def escape(self, text: str) -> str:
        return escape_markdown(text)

    # --- the account, for check-config (account.py) -----------------------------------------------------------

    def check_account(self, threads: list[str]) -> list[str]:
        return account_problems(self.username, lambda path: self._json(self.transport.get(path)),
                                [self.topic_id(t) for t in threads], self._mine)

    @classmethod
    def config_warnings(cls, forum: Any, poll_seconds: float) -> list[ConfigWarning | str]:
        return config_warnings(forum, poll_seconds)

    # --- PMs (pms.py) -----------------------------------------------------------------------------------------

    def send_pm(self, to: str, subject: str, text: str) -> str:
        return self.pms.send_pm(to, subject, text)

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        return self.pms.fetch_pms(after)

    def find_own_pm(self, to: str, marker: str) -> str | None:
        return self.pms.find_own_pm(to, marker)

    # --- auth -----------------------------------------------------------------------------------------------

    def login(self) -> None:
        if self._keyed:
            return
        if not self._password:
            raise LoginRequired("discourse: no API key and no password configured")
        self._fetch_csrf()
        page = self.transport.post_form("session", [("login", self.username), ("password", self._password)],
                                        action="login", headers=self._write_headers(), follow=True)
        data = self._json(page, allow_error=True)
        if page.status == 403 and data.get("error_type") == "invalid_access":
            # SessionController#check_local_login_allowed: DiscourseConnect (SSO) or local logins turned off
            raise LoginRequired("discourse: this board takes no password logins (SSO, or local logins off): "
                                "give the bot an admin API key (admin_api_key_env)")
        if page.status >= 400 or data.get("error") or "user" not in data:
            raise LoginRequired(f"discourse: login refused: {data.get('error') or page.status}")

    def _fetch_csrf(self) -> None:
        """SessionController#csrf: the token of the current session (a restored one included)."""
        data = self._json(self.transport.get("session/csrf", headers={"X-Requested-With": "XMLHttpRequest"}))
        token = data.get("csrf")
        if not isinstance(token, str) or not token:
            raise PageFormatChanged("discourse: /session/csrf answered without a csrf token")
        self._csrf = token

    def _write_headers(self) -> dict[str, str]:
        h = {"X-Requested-With": "XMLHttpRequest"}
        if self._csrf:
            h["X-CSRF-Token"] = self._csrf
        return h

    # --- the session kept by the daemon between processes ---------------------------------------------------

    def export_cookies(self) -> str:
        """Cookies and flood times as JSON, so the next cron tick neither logs in again (logins are limited to
        6 a minute, 30 an hour) nor posts before the pace allows. The CSRF token is not kept: it is fetched
        before the first write of a process."""
        return json.dumps(self.transport.export_state(), sort_keys=True)

    def import_cookies(self, data: str) -> None:
        self.transport.import_state(json.loads(data))

    # --- reading --------------------------------------------------------------------------------------------

    def fetch_posts(self, topic: str, after: str | None = None) -> tuple[list[ForumPost], str | None]:
        tid = self.topic_id(topic)
        last = int(json.loads(after)["last"]) if after else 0
        data = self._json(self.transport.get(f"t/{tid}.json"))
        stream: list[int] = data.get("post_stream", {}).get("stream", [])
        wanted = stream[stream.index(last) + 1:] if last in stream else [i for i in stream if i > last]
        # Already-seen posts come back too, as they are now, so an edit is noticed (C-11) without a request of
        # its own: those in the chunk /t/{id}.json served anyway, and the latest ones in the room left in the
        # last posts.json request that new posts need.
        new = set(wanted)
        have = {p["id"] for p in data.get("post_stream", {}).get("posts", [])}
        seen = [i for i in stream if i not in new]
        missing = [i for i in wanted if i not in have]
        room = -len(missing) % CHUNK
        padding = [i for i in reversed(seen) if i not in have][:room] if missing else []
        posts = self._posts(tid, data, [*(i for i in seen if i in have), *padding, *wanted])
        order = {pid: n for n, pid in enumerate(stream)}
        posts.sort(key=lambda p: order.get(p["id"], 0))
        out = [self._post(tid, p) for p in posts if p.get("post_type", REGULAR) in (REGULAR, MODERATOR_ACTION)]
        top = max([last, *wanted]) if wanted else last
        return out, json.dumps({"last": top})

    def reread_from(self, topic: str, post_id: str, ids: Sequence[str] = ()) -> list[ForumPost]:
        """The posts `ids` (the stored ones from `post_id` on) as they are now, CHUNK per posts.json request;
        without `ids`, every post of the topic's stream from `post_id` on. Run before a day's deadline
        resolves, so an edit of an older vote post is seen (C-11)."""
        tid = self.topic_id(topic)
        wanted = [int(i) for i in ids]
        if not wanted:
            data = self._json(self.transport.get(f"t/{tid}.json"))
            stream: list[int] = data.get("post_stream", {}).get("stream", [])
            wanted = [i for i in stream if i >= int(post_id)]
        posts = self._posts(tid, {}, wanted)
        return [self._post(tid, p) for p in posts if p.get("post_type", REGULAR) in (REGULAR, MODERATOR_ACTION)]

    def _posts(self, tid: str, data: Mapping[str, Any], ids: list[int]) -> list[dict[str, Any]]:
        have = {p["id"]: p for p in data.get("post_stream", {}).get("posts", [])}
        missing = [i for i in ids if i not in have]
        for i in range(0, len(missing), CHUNK):
            params = [("post_ids[]", str(pid)) for pid in missing[i:i + CHUNK]]
            more = self._json(self.transport.get(f"t/{tid}/posts.json", params=params))
            have.update({p["id"]: p for p in more.get("post_stream", {}).get("posts", [])})
        return [have[i] for i in ids if i in have]

    def _post(self, tid: str, p: Mapping[str, Any]) -> ForumPost:
        version = int(p.get("version") or 1)
        cooked = p.get("cooked") or ""
        return ForumPost(
            id=str(p["id"]), topic=tid, author=p.get("username", ""),
            author_id=str(p["user_id"]) if p.get("user_id") is not None else None,
            posted_at=parse_iso(p["created_at"]).astimezone(timezone.utc),
            edited_at=parse_iso(p["updated_at"]).astimezone(timezone.utc) if version > 1 and p.get("updated_at") else None,
            edit_count=version - 1, text=cooked_text(cooked), html=cooked, quoted=is_quoted(cooked))

    @staticmethod
    def topic_id(topic: str) -> str:
        """A topic id, or its id from a /t/slug/123 URL."""
        parts = [s for s in str(topic).split("?")[0].split("/") if s]
        for i, part in enumerate(parts):
            if part == "t":
                rest = [x for x in parts[i + 1:] if x.isdigit()]
                if rest:
                    return rest[0]
        if str(topic).strip().isdigit():
            return str(topic).strip()
        raise ValueError(f"not a Discourse topic: {topic!r}")

    @classmethod
    def thread_problem(cls, thread: str, base_url: str) -> ThreadAddressProblem | str | None:
        """Why `thread` names no topic (a category's address, /c/...), checked before the game starts."""
        try:
            cls.topic_id(thread)
        except ValueError:
            example = base_url.rstrip("/") + "/t/mafia-day-1/123"
            return ThreadAddressProblem("not_a_topic", str(thread), "Discourse", example)
        return None

    # --- writing --------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        data = self._create({"topic_id": int(self.topic_id(topic)), "raw": text}, action="post")
        return str(data["id"])

    def _mine(self, item: Mapping[str, Any]) -> bool:
        """Written by the bot: usernames compare as Discourse keys them, whatever case the config uses."""
        return username_lower(str(item.get("username") or "")) == username_lower(self.username)

    def _create(self, payload: Mapping[str, Any], action: str) -> dict[str, Any]:
        if not self._keyed and self._csrf is None:
            self._fetch_csrf()  # a restored session has no token yet: without one the write is refused
        page = self.transport.post_json("posts.json", payload, action=action, headers=self._write_headers())
        if page.status == 403 and not self._keyed and page.content.strip() == BAD_CSRF:
            # refused before the action ran (a token gone stale): a fresh token, then the same request once
            self._fetch_csrf()
            page = self.transport.post_json("posts.json", payload, action=action, headers=self._write_headers())
        data = self._json(page, allow_error=True)
        if page.status == 403 and data.get("error_type") == "invalid_access":
            # logged in, but not allowed here (a closed topic, PMs not allowed): a new login would not help
            raise FormRejected(f"discourse: not allowed: {_errors(data)}")
        if page.status in (401, 403):
            raise LoginRequired(f"discourse: not allowed: {_errors(data) or page.status}")
        if page.status >= 400:
            if data.get("error_type") == "rate_limit":
                wait = (data.get("extras") or {}).get("wait_seconds")
                raise FloodLimited(f"discourse: {_errors(data)}", retry_after=float(wait) if wait else None)
            raise FormRejected(f"discourse: {_errors(data) or page.status}")
        if data.get("action") == "enqueued":
            pending = data.get("pending_post") or {}
            pid = str(pending["id"]) if pending.get("id") is not None else None
            count = data.get("pending_count")
            raise PostQueued(f"discourse: the post awaits a moderator's approval (pending post {pid or '?'}"
                             + (f", {count} of the bot's posts pending" if count else "") + ")", pending_id=pid)
        if "id" not in data:
            raise PageFormatChanged("discourse: /posts.json answered without a post id")
        return data

    def find_own_post(self, topic: str, marker: str) -> str | None:
        tid = self.topic_id(topic)
        data = self._json(self.transport.get(f"t/{tid}.json"))
        tail = data.get("post_stream", {}).get("stream", [])[-CHUNK:]
        for p in reversed(self._posts(tid, data, tail)):
            if self._mine(p) and (marker in (p.get("raw") or "") or marker in (p.get("cooked") or "")):
                return str(p["id"])
        return None

    # --- PMs ------------------------------------------------------------------------------------------------
    # --- helpers --------------------------------------------------------------------------------------------

    @staticmethod
    def _json(page: Page, allow_error: bool = False) -> dict[str, Any]:
        if page.status in (401, 403) and not allow_error:
            raise LoginRequired(f"discourse: {page.url}: HTTP {page.status}")
        if page.status >= 400 and not allow_error:
            raise PageFormatChanged(f"discourse: {page.url}: HTTP {page.status}")
        try:
            data = page.json()
        except ValueError as exc:
            if allow_error:
                return {}
            raise PageFormatChanged(f"discourse: {page.url} is not JSON") from exc
        return data if isinstance(data, dict) else {"value": data}


def _secret(environ: Mapping[str, str], option: str, variable: str | None) -> str | None:
    if not variable:
        return None
    value = environ.get(variable)
    if not value:
        raise ConfigError(f"{option}: environment variable {variable} is not set")
    return value


def _errors(data: Mapping[str, Any]) -> str:
    errs = data.get("errors")
    return "; ".join(map(str, errs)) if isinstance(errs, list) else str(data.get("error") or "")
