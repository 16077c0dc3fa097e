"""Discourse through its JSON API: the same interface without HTML pages.

- topics: /t/{id}.json gives the first chunk of posts and `post_stream.stream`, every post id in order;
  posts not in the chunk come from /t/{id}/posts.json?post_ids[]=...; only ids after the cursor are fetched;
- replies and PMs: POST /posts.json (a PM is a new topic with archetype=private_message);
- inbox: /topics/private-messages/{username}.json lists PM conversations; a conversation whose
  highest_post_number passed the cursor is read with /t/{id}.json;
- auth: a User API key (headers User-Api-Key / User-Api-Client-Id), an admin key (Api-Key / Api-Username),
  or a session login: GET /session/csrf, then POST /session with the X-CSRF-Token header;
- 429 carries Retry-After (the transport waits or raises FloodLimited).
Post text is `cooked` HTML with quotes (aside.quote), spoilers, details and code removed.
"""

from __future__ import annotations

import json
from datetime import timezone
from typing import Any, Mapping, Sequence

from adapters.dates import parse_iso
from adapters.html import clean_text, parse, select
from forumbot.adapter import ForumPM, ForumPost
from forumbot.errors import FloodLimited, FormRejected, LoginRequired, PageFormatChanged
from forumbot.markup import escape_markdown
from forumbot.transport import Page, Transport

STRIP = ("aside.quote", "div.spoiler", "div.spoiled", "details", "pre", "code")
QUOTES = "aside.quote, blockquote"
CHUNK = 20  # Discourse serves at most about 20 posts per request
REGULAR, MODERATOR_ACTION = 1, 2  # post_type values kept; small actions (3) and whispers (4) are not posts
DEFAULT_LIMITS = {"post": 5.0, "pm": 5.0}


class DiscourseForum:
    engine = "discourse"

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str | None = None,
        *,
        api_key: str | None = None,
        api_client_id: str | None = None,
        admin_api_key: str | None = None,
        transport: Transport | None = None,
        intervals: Mapping[str, float] | None = None,
        **transport_options: Any,
    ) -> None:
        self.username = username
        self._password = password
        self.transport = transport or Transport(
            base_url, bot=username, intervals={**DEFAULT_LIMITS, **(intervals or {})}, **transport_options)
        headers = self.transport.session.headers
        headers["Accept"] = "application/json"
        if api_key:
            headers["User-Api-Key"] = api_key
            if api_client_id:
                headers["User-Api-Client-Id"] = api_client_id
        elif admin_api_key:
            headers["Api-Key"] = admin_api_key
            headers["Api-Username"] = username
        self._keyed = bool(api_key or admin_api_key)
        self._csrf: str | None = None

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
        csrf = self._json(self.transport.get("session/csrf", headers={"X-Requested-With": "XMLHttpRequest"}))
        self._csrf = csrf.get("csrf")
        page = self.transport.post_form("session", [("login", self.username), ("password", self._password)],
                                        action="login", headers=self._write_headers(), follow=True)
        data = self._json(page, allow_error=True)
        if page.status >= 400 or data.get("error") or "user" not in data:
            raise LoginRequired(f"discourse: login refused: {data.get('error') or page.status}")

    def _write_headers(self) -> dict[str, str]:
        h = {"X-Requested-With": "XMLHttpRequest"}
        if self._csrf:
            h["X-CSRF-Token"] = self._csrf
        return h

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
        recipients = ",".join(n.strip() for n in to.split(",") if n.strip())
        data = self._create({"title": subject, "raw": text, "target_recipients": recipients,
                             "archetype": "private_message"}, action="pm")
        return str(data["id"])

    def _create(self, payload: Mapping[str, Any], action: str) -> dict[str, Any]:
        page = self.transport.post_json("posts.json", payload, action=action, headers=self._write_headers())
        data = self._json(page, allow_error=True)
        if page.status in (401, 403):
            raise LoginRequired(f"discourse: not allowed: {_errors(data) or page.status}")
        if page.status >= 400:
            if data.get("error_type") == "rate_limit":
                wait = (data.get("extras") or {}).get("wait_seconds")
                raise FloodLimited(f"discourse: {_errors(data)}", retry_after=float(wait) if wait else None)
            raise FormRejected(f"discourse: {_errors(data) or page.status}")
        if "id" not in data:
            raise PageFormatChanged("discourse: /posts.json answered without a post id")
        return data

    def find_own_post(self, topic: str, marker: str) -> str | None:
        tid = self.topic_id(topic)
        data = self._json(self.transport.get(f"t/{tid}.json"))
        tail = data.get("post_stream", {}).get("stream", [])[-CHUNK:]
        for p in reversed(self._posts(tid, data, tail)):
            if p.get("username") == self.username and (marker in (p.get("raw") or "") or marker in (p.get("cooked") or "")):
                return str(p["id"])
        return None

    # --- PMs ------------------------------------------------------------------------------------------------

    def fetch_pms(self, after: str | None = None) -> tuple[list[ForumPM], str | None]:
        seen: dict[str, int] = json.loads(after)["t"] if after else {}
        listing = self._json(self.transport.get(f"topics/private-messages/{self.username}.json"))
        pms: list[ForumPM] = []
        for t in listing.get("topic_list", {}).get("topics", []):
            key, high = str(t["id"]), int(t.get("highest_post_number") or 0)
            if high <= seen.get(key, 0):
                continue
            data = self._json(self.transport.get(f"t/{key}.json"))
            stream = data.get("post_stream", {}).get("stream", [])
            posts = self._posts(key, data, stream[-max(high - seen.get(key, 0), 1):] if seen.get(key) else stream)
            for p in posts:
                if int(p.get("post_number", 0)) > seen.get(key, 0) and p.get("username") != self.username \
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


def _errors(data: Mapping[str, Any]) -> str:
    errs = data.get("errors")
    return "; ".join(map(str, errs)) if isinstance(errs, list) else str(data.get("error") or "")
