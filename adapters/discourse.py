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
"""

from __future__ import annotations

import json
import logging
import os
import unicodedata
from datetime import timezone
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import parse_qs, quote, urlsplit

from adapters.dates import parse_iso
from adapters.html import clean_text, parse, select
from adapters.htmlforum import MAX_INBOX_PAGES
from forumbot.adapter import COOKIES, OWN_PM, REREAD, AdapterBase, ForumPM, ForumPost
from forumbot.errors import ConfigError, FloodLimited, FormRejected, LoginRequired, PageFormatChanged, PostQueued
from forumbot.markup import escape_markdown
from forumbot.transport import TRANSPORT_SETTINGS, Page, Transport

STRIP = ("aside.quote", "div.spoiler", "div.spoiled", "details", "pre", "code")
QUOTES = "aside.quote, blockquote"
CHUNK = 20  # Discourse serves at most about 20 posts per request
REGULAR, MODERATOR_ACTION = 1, 2  # post_type values kept; small actions (3) and whispers (4) are not posts
DEFAULT_LIMITS = {"post": 5.0, "pm": 5.0}
USER_API_DAILY = 2880  # GlobalSetting.max_user_api_reqs_per_day
REQUESTS_PER_CYCLE = 3  # at least: the game thread, the vote thread and the PM list
BAD_CSRF = b'["BAD CSRF"]'  # ApplicationController#handle_unverified_request, with status 403

log = logging.getLogger(__name__)


class DiscourseForum(AdapterBase):
    CAPABILITIES = frozenset({COOKIES, REREAD, OWN_PM})
    engine = "discourse"
    # read by forumbot.config.engine_traits: its forum-table settings, zoned times, markup
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
        # PM topics by recipients (lower-case names, without the bot), most recently active first
        self._pm_topics: dict[frozenset[str], list[tuple[str, str]]] = {}
        self._pm_list_read = False

    def __repr__(self) -> str:
        return f"DiscourseForum({self.transport.base_url!r}, {self.username!r})"

    def escape(self, text: str) -> str:
        return escape_markdown(text)

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

    # --- the account, for check-config --online -------------------------------------------------------------

    def check_account(self, topics: Sequence[str] = ()) -> list[str]:
        """What the bot's account lacks to run a game, from /u/{username}.json (UserCardSerializer:
        trust_level, admin, moderator, can_send_private_messages) and, for each of `topics`, who opened it."""
        data = self._json(self.transport.get(f"u/{quote(username_lower(self.username), safe='')}.json"))
        user = data.get("user")
        if not isinstance(user, dict) or "trust_level" not in user:
            raise PageFormatChanged(f"discourse: /u/{self.username}.json has no user.trust_level")
        level = int(user.get("trust_level") or 0)
        staff = bool(user.get("admin") or user.get("moderator"))
        problems: list[str] = []
        if staff:
            return problems
        can_pm = user.get("can_send_private_messages")
        if can_pm is False or (can_pm is None and level < 1):
            problems.append(f"account {self.username} may not send PMs (trust level {level}; Discourse lets "
                            "trust level 1 and up send them, personal_message_enabled_groups): raise it to "
                            "trust level 1 or make it a moderator")
        if level < 1:
            problems.append(f"account {self.username} is trust level 0: at most 3 replies in a topic it did not "
                            "open (newuser_max_replies_per_topic) and one post per 30 s: raise it to trust "
                            "level 1 or make it a moderator")
        for tid in dict.fromkeys(self.topic_id(t) for t in topics):
            info = self._json(self.transport.get(f"t/{tid}.json"))
            opener = (info.get("details") or {}).get("created_by") or {}
            if self._mine(opener) or (
                    user.get("id") is not None and info.get("user_id") == user.get("id")):
                continue  # the topic's opener may post any number of times in a row
            problems.append(f"account {self.username} is not staff and did not open topic {tid}: Discourse "
                            "refuses its 4th post in a row there (max_consecutive_replies, default 3), so a "
                            "quiet thread stops the vote counts: make the account a moderator, open the "
                            "thread with it, or set max_consecutive_replies to 0")
        return problems

    @classmethod
    def config_warnings(cls, forum: Any, poll_seconds: float) -> list[str]:
        """What check-config warns about in a Discourse forum table (`forum`: a ForumConfig)."""
        options: Mapping[str, Any] = forum.extra
        admin = options.get("admin_api_key_env") or options.get("admin_api_key")
        user = options.get("user_api_key_env") or options.get("api_key")
        out = []
        if user and not admin and poll_seconds < REQUESTS_PER_CYCLE * 86400 / USER_API_DAILY:
            needed = 86400 / max(float(poll_seconds), 1.0) * REQUESTS_PER_CYCLE
            out.append(f"a user API key allows {USER_API_DAILY:,} requests a day (max_user_api_reqs_per_day), "
                       f"and poll_seconds = {poll_seconds:g} needs about {needed:,.0f}: poll every "
                       f"{REQUESTS_PER_CYCLE * 86400 // USER_API_DAILY} s or more, or use an admin API key "
                       "(admin_api_key_env)")
        if not admin and not user:
            out.append("no API key: the bot logs in with its password (impossible on a board with SSO, and "
                       "limited to 6 logins a minute): an admin API key (admin_api_key_env) is preferred")
        if admin and not options.get("api_user_id") and not forum.login.isascii():
            out.append("the login is not ASCII, and Discourse may not match it in the Api-Username header: if it "
                       "refuses the key (invalid_api_credentials), set api_user_id to the account's id "
                       "(user.id in /u/{login}.json)")
        if options.get("admin_api_key") or options.get("api_key"):
            out.append("an API key is written in the file: put it in an environment variable and name that in "
                       "admin_api_key_env (or user_api_key_env)")
        return out

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

    # --- writing --------------------------------------------------------------------------------------------

    def reply(self, topic: str, text: str) -> str:
        data = self._create({"topic_id": int(self.topic_id(topic)), "raw": text}, action="post")
        return str(data["id"])

    def send_pm(self, to: str, subject: str, text: str) -> str:
        """Reply in the PM topic the bot already has with exactly these recipients; open one only when there is
        none (or the forum refuses a reply there, e.g. it was closed). Its title is `subject` then."""
        names = _recipients(to)
        topic = self._pm_topic(names, subject)
        if topic is not None:
            try:
                data = self._create({"topic_id": int(topic), "raw": text}, action="pm")
                return str(data["id"])
            except PostQueued:
                raise
            except FormRejected as e:
                log.warning("discourse: a reply in PM topic %s was refused (%s); opening a new one", topic, e)
                self._forget_pm_topic(names, topic)
        data = self._create({"title": subject, "raw": text, "target_recipients": ",".join(names),
                             "archetype": "private_message"}, action="pm")
        if data.get("topic_id") is not None:
            key = self._key(names)
            self._pm_topics[key] = [(str(data["topic_id"]), subject), *self._pm_topics.get(key, [])]
        return str(data["id"])

    def _pm_topic(self, names: Sequence[str], subject: str) -> str | None:
        """The PM topic with exactly `names` (and the bot): one titled `subject` if any, else the most recently
        active; the bot's PM list is read once per process when the inbox has not been read yet."""
        key = self._key(names)
        if key not in self._pm_topics and not self._pm_list_read:
            self._learn_pm_topics(self._json(self.transport.get(self._pm_list_path())))
        found = self._pm_topics.get(key) or []
        for tid, title in found:
            if title == subject:
                return tid
        return found[0][0] if found else None

    def _mine(self, item: Mapping[str, Any]) -> bool:
        """Written by the bot: usernames compare as Discourse keys them, whatever case the config uses."""
        return username_lower(str(item.get("username") or "")) == username_lower(self.username)

    def _key(self, names: Sequence[str]) -> frozenset[str]:
        return frozenset(username_lower(n) for n in names) - {username_lower(self.username)}

    def _forget_pm_topic(self, names: Sequence[str], topic: str) -> None:
        key = self._key(names)
        self._pm_topics[key] = [(t, title) for t, title in self._pm_topics.get(key, []) if t != topic]

    def _pm_list_path(self) -> str:
        return f"topics/private-messages/{quote(username_lower(self.username), safe='')}.json"

    def _learn_pm_topics(self, listing: Mapping[str, Any]) -> None:
        """Index the PM list's topics by their participants (TopicListItemSerializer: `participants` are the
        topic's users but the one asking, at most 3, named through the top-level `users`; `allowed_user_count`
        counts them all). Topics with a group among the recipients, closed or archived ones are skipped."""
        users = {u.get("id"): str(u.get("username", "")) for u in listing.get("users", []) if isinstance(u, dict)}
        me = username_lower(self.username)
        found: dict[frozenset[str], list[tuple[str, str]]] = {}
        for t in listing.get("topic_list", {}).get("topics", []):
            if t.get("closed") or t.get("archived") or t.get("participant_groups"):
                continue
            names = frozenset(username_lower(users.get(p.get("user_id"), ""))
                              for p in t.get("participants") or []) - {me}
            if not names or "" in names or t.get("allowed_user_count") not in (None, len(names) + 1):
                continue
            found.setdefault(names, []).append((str(t["id"]), str(t.get("title", ""))))
        self._pm_topics = found
        self._pm_list_read = True

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

    def find_own_pm(self, to: str, marker: str) -> str | None:
        """The id of the bot's PM to `to` that contains `marker`, if any (outbox crash recovery): looked for at
        the end of each PM topic the bot has with exactly those recipients, from a fresh read of its PM list."""
        self._learn_pm_topics(self._json(self.transport.get(self._pm_list_path())))
        for tid, _ in self._pm_topics.get(self._key(_recipients(to)), []):
            data = self._json(self.transport.get(f"t/{tid}.json"))
            tail = data.get("post_stream", {}).get("stream", [])[-CHUNK:]
            for p in reversed(self._posts(tid, data, tail)):
                if self._mine(p) and (
                        marker in (p.get("raw") or "") or marker in (p.get("cooked") or "")):
                    return str(p["id"])
        return None

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        seen: dict[str, int] = json.loads(after)["t"] if after else {}
        listing = self._pm_list(lambda t: int(t.get("highest_post_number") or 0) > seen.get(str(t["id"]), 0))
        self._learn_pm_topics(listing)
        pms: list[ForumPM] = []
        for t in listing.get("topic_list", {}).get("topics", []):
            key, high = str(t["id"]), int(t.get("highest_post_number") or 0)
            if high <= seen.get(key, 0):
                continue
            data = self._json(self.transport.get(f"t/{key}.json"))
            stream = data.get("post_stream", {}).get("stream", [])
            posts = self._posts(key, data, stream[-max(high - seen.get(key, 0), 1):] if seen.get(key) else stream)
            for p in posts:
                if int(p.get("post_number", 0)) > seen.get(key, 0) and not self._mine(p) \
                        and p.get("post_type", REGULAR) == REGULAR:
                    pms.append(ForumPM(
                        id=str(p["id"]), author=p.get("username", ""),
                        author_id=str(p["user_id"]) if p.get("user_id") is not None else None,
                        sent_at=parse_iso(p["created_at"]).astimezone(timezone.utc),
                        subject=data.get("title", t.get("title", "")),
                        text=cooked_text(p.get("cooked") or ""), html=p.get("cooked") or ""))
            seen[key] = max([seen.get(key, 0), high, *(int(p.get("post_number", 0)) for p in posts)])
        pms.sort(key=lambda pm: (pm.sent_at, int(pm.id)))
        return pms, json.dumps({"t": seen}, sort_keys=True)

    def _pm_list(self, is_new: Callable[[Mapping[str, Any]], bool]) -> dict[str, Any]:
        """The PM list's first page and, while every conversation on the last page read has something new, the
        pages after it, as one listing. More conversations than a page holds may be bumped between two ticks;
        the list is sorted by bump, so those on page 2 would otherwise be read never (their new messages lie
        below the cursor once they are bumped no more). A page holding one conversation with nothing new ends
        the walk: the idle case costs one request."""
        path = self._pm_list_path()
        first = self._json(self.transport.get(path))
        users = list(first.get("users") or [])
        topics = list((first.get("topic_list") or {}).get("topics") or [])
        page, last = first, 0
        for _ in range(MAX_INBOX_PAGES - 1):
            shown = (page.get("topic_list") or {}).get("topics") or []
            more = (page.get("topic_list") or {}).get("more_topics_url")
            if not more or not shown or not all(is_new(t) for t in shown):
                break
            number = parse_qs(urlsplit(str(more)).query).get("page", [""])[0]
            if not number.isdigit() or int(number) <= last:
                raise PageFormatChanged(f"discourse: {path}: more_topics_url {more!r} names no later page")
            last = int(number)
            page = self._json(self.transport.get(f"{path}?page={last}"))
            users.extend(page.get("users") or [])
            topics.extend((page.get("topic_list") or {}).get("topics") or [])
        else:
            log.warning("discourse: the PM list walk stopped after %d pages; older conversations are read later",
                        MAX_INBOX_PAGES)
        return {"users": users, "topic_list": {"topics": topics}}

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


def cooked_text(cooked: str) -> str:
    """The words of a post: `cooked` HTML without quotes, spoilers, details and code."""
    if not cooked.strip():
        return ""
    root = parse(f"<div>{cooked}</div>")
    body = root.find(".//body")
    return clean_text(body if body is not None else root, STRIP)


def is_quoted(cooked: str) -> bool:
    """The post quotes someone: a quote box (removed from the text) or a Markdown `>` block (H-3, M-7)."""
    if "quote" not in cooked:
        return False
    root = parse(f"<div>{cooked}</div>")
    return bool(select(root, QUOTES))


def username_lower(name: str) -> str:
    """The name as Discourse keys it (User.normalize_username: NFC, then lower case). Sent so in Api-Username:
    Discourse lower-cases that header's raw bytes, which leaves a Cyrillic capital as it is."""
    return unicodedata.normalize("NFC", name).lower()


def _recipients(to: str) -> list[str]:
    return [n.strip() for n in to.split(",") if n.strip()]


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
