"""The HTTP side shared by every forum adapter: one session per (forum, account), politely paced.

What it does for the adapters:
- one `requests.Session` whose cookies the daemon keeps in its store (`export_cookies` / `import_cookies`,
  or `export_state` / `import_state`, which also carry the time of the last post and PM);
- a stable User-Agent naming the bot (phpBB ties a session to the browser string);
- minimum intervals per action ("post", "pm", "read", "login"), so the forum's flood control never fires;
- retries with back-off that honour `Retry-After`, for requests that are safe to repeat;
- decoding by the charset the server declares (header, else the page's meta tag), never by guessing,
  and form bodies encoded in the page's charset;
- typed errors for what the daemon must react to (`ForumUnavailable`, `FloodLimited`, `CaptchaRequired`).

The clock and sleep are injectable, so tests never wait for real.
"""

from __future__ import annotations

import email.utils
import json
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping, Sequence
from urllib.parse import urlencode, urljoin

import requests
from lxml import etree

from forumbot.errors import CaptchaRequired, FloodLimited, ForumUnavailable

DEFAULT_USER_AGENT = "Mozilla/5.0 (compatible; forumbot; forum Mafia game master; account {bot})"

# Statuses after which the same request may simply be tried again.
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})

# Pages are decoded by their declared charset, then handed to libxml2 as UTF-8 with that encoding forced:
# a meta tag naming another charset can then not make lxml misread them (it returns an empty tree silently).
_HTML_PARSER = etree.HTMLParser(recover=True, no_network=True, encoding="utf-8")


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)


def declared_charset(content_type: str | None, content: bytes) -> str | None:
    """The charset the server declared: the Content-Type header first, then the page's own meta tag."""
    if content_type:
        m = _HEADER_CHARSET.search(content_type)
        if m:
            return m.group(1).lower()
    m = _META_CHARSET.search(content[:4096])
    return m.group(1).decode("ascii").lower() if m else None


def _retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header: either delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


@dataclass
class Page:
    """One response, decoded. `url` is the final URL; `location` is set for an unfollowed redirect."""

    url: str
    status: int
    headers: Mapping[str, str]
    content: bytes
    charset: str
    _text: str | None = field(default=None, repr=False)
    _tree: Any = field(default=None, repr=False)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.content.decode(self.charset, errors="replace")
        return self._text

    @property
    def location(self) -> str | None:
        loc = self.headers.get("Location")
        return urljoin(self.url, loc) if loc else None

    def tree(self) -> Any:
        """The page as an lxml tree from libxml2's HTML parser (parsed once)."""
        if self._tree is None:
            # UTF-8 as served needs no round trip through str.
            data = self.content if self.charset in ("utf-8", "utf8") else self.text.encode("utf-8")
            root = etree.fromstring(data, _HTML_PARSER, base_url=self.url) if data.strip() else None
            self._tree = root if root is not None else etree.fromstring("<html></html>", _HTML_PARSER)
        return self._tree

    def json(self) -> Any:
        return json.loads(self.text)

    def server_time(self) -> datetime | None:
        """The server's clock from the Date header: the 'now' that relative dates on the page count from."""
        value = self.headers.get("Date")
        if not value:
            return None
        try:
            return email.utils.parsedate_to_datetime(value).astimezone(timezone.utc)
        except (TypeError, ValueError):
            return None


class Transport:
    """HTTP for one (forum, account).

    base_url: the forum root, e.g. "https://forum.example/phpBB3/" (relative paths resolve against it).
    bot: the bot's account name, shown in the default User-Agent.
    intervals: minimum seconds between two actions of a kind, e.g. {"post": 15, "pm": 15}.
    max_wait: if pacing would have to sleep longer than this, raise FloodLimited(retry_after) instead,
        so a cron tick does not block for a minute (None: always sleep).
    clock / sleep: wall-clock seconds and a sleeper; tests pass fakes.
    """

    def __init__(
        self,
        base_url: str,
        *,
        bot: str = "forumbot",
        user_agent: str | None = None,
        intervals: Mapping[str, float] | None = None,
        retries: int = 3,
        backoff: float = 2.0,
        timeout: float | tuple[float, float] = (10.0, 30.0),
        max_wait: float | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        session: requests.Session | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.intervals: dict[str, float] = dict(intervals or {})
        self.retries = retries
        self.backoff = backoff
        self.timeout = timeout
        self.max_wait = max_wait
        self.clock = clock
        self.sleep = sleep
        self.session = session or requests.Session()
        self.session.headers["User-Agent"] = user_agent or DEFAULT_USER_AGENT.format(bot=bot)
        self.session.headers.update(extra_headers or {})
        self.last_action: dict[str, float] = {}
        self.requests_made = 0  # for the polling bench and request-count tests

    # --- URLs -----------------------------------------------------------------------------------------

    def url(self, path: str) -> str:
        return urljoin(self.base_url, path)

    # --- pacing ---------------------------------------------------------------------------------------

    def wait_turn(self, action: str) -> None:
        """Sleep until `action` may run again; FloodLimited if that is longer than max_wait."""
        interval = self.intervals.get(action, 0.0)
        last = self.last_action.get(action)
        if not interval or last is None:
            return
        gap = interval - (self.clock() - last)
        if gap <= 0:
            return
        if self.max_wait is not None and gap > self.max_wait:
            raise FloodLimited(f"next {action} allowed in {gap:.0f} s", retry_after=gap)
        self.sleep(gap)

    def done(self, action: str) -> None:
        self.last_action[action] = self.clock()

    # --- requests -------------------------------------------------------------------------------------

    def get(self, path: str, *, params: Mapping[str, Any] | Sequence[tuple[str, Any]] | None = None,
            headers: Mapping[str, str] | None = None, follow: bool = True, action: str = "read") -> Page:
        """A GET: safe to repeat, so timeouts and 5xx are retried."""
        return self._send("GET", path, params=params, headers=headers, follow=follow, action=action, idempotent=True)

    def post_form(self, path: str, fields: Iterable[tuple[str, str]], *, charset: str = "utf-8",
                  action: str = "read", follow: bool = False, headers: Mapping[str, str] | None = None) -> Page:
        """POST a form body encoded in the page's charset (characters it lacks become &#NNNN;).

        Not retried after the request may have reached the server: a second POST could double-post;
        the caller looks for its post (find_own_post) instead.
        """
        body = urlencode(list(fields), encoding=charset, errors="xmlcharrefreplace")
        hdrs = {"Content-Type": f"application/x-www-form-urlencoded; charset={charset}", **(headers or {})}
        return self._send("POST", path, data=body.encode("ascii"), headers=hdrs, follow=follow, action=action,
                          idempotent=False)

    def post_json(self, path: str, payload: Any, *, action: str = "read",
                  headers: Mapping[str, str] | None = None, method: str = "POST") -> Page:
        hdrs = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        return self._send(method, path, data=json.dumps(payload).encode("utf-8"), headers=hdrs, follow=True,
                          action=action, idempotent=False)

    def _send(self, method: str, path: str, *, params: Any = None, data: bytes | None = None,
              headers: Mapping[str, str] | None = None, follow: bool, action: str, idempotent: bool) -> Page:
        url = self.url(path)
        self.wait_turn(action)
        attempt = 0
        while True:
            attempt += 1
            self.requests_made += 1
            try:
                resp = self.session.request(method, url, params=params, data=data, headers=headers,
                                            timeout=self.timeout, allow_redirects=follow)
            except requests.exceptions.ConnectTimeout as exc:  # nothing reached the server
                if attempt > self.retries:
                    raise ForumUnavailable(f"{method} {url}: cannot connect ({exc.__class__.__name__})") from exc
                self.sleep(self._backoff(attempt))
                continue
            except requests.exceptions.RequestException as exc:
                if not idempotent or attempt > self.retries:
                    raise ForumUnavailable(f"{method} {url}: {exc.__class__.__name__}") from exc
                self.sleep(self._backoff(attempt))
                continue
            page = self._page(resp)
            self._check_challenge(page)
            if resp.status_code in _RETRY_STATUSES:
                wait = _retry_after(resp.headers.get("Retry-After"), self.clock())
                # A 429 was refused before any work was done, so even a POST may be repeated.
                repeatable = idempotent or resp.status_code == 429
                if repeatable and attempt <= self.retries and (self.max_wait is None or (wait or 0) <= self.max_wait):
                    self.sleep(wait if wait is not None else self._backoff(attempt))
                    continue
                if resp.status_code == 429:
                    raise FloodLimited(f"{method} {url}: 429 Too Many Requests", retry_after=wait)
                raise ForumUnavailable(f"{method} {url}: HTTP {resp.status_code}")
            if action != "read":
                self.done(action)
            return page

    def _backoff(self, attempt: int) -> float:
        return self.backoff * (2 ** (attempt - 1))

    @staticmethod
    def _page(resp: requests.Response) -> Page:
        content = resp.content or b""
        charset = declared_charset(resp.headers.get("Content-Type"), content) or "utf-8"
        try:
            "".encode(charset)
        except LookupError:
            charset = "utf-8"
        return Page(url=resp.url, status=resp.status_code, headers=resp.headers, content=content, charset=charset)

    @staticmethod
    def _check_challenge(page: Page) -> None:
        """Anti-bot fronts (Cloudflare and the like): detect, never try to defeat."""
        h = page.headers
        if h.get("cf-mitigated", "").lower() == "challenge":
            raise CaptchaRequired(f"{page.url}: anti-bot challenge (cf-mitigated)")
        if page.status in (403, 429, 503) and b"/cdn-cgi/challenge-platform" in page.content[:200_000]:
            raise CaptchaRequired(f"{page.url}: anti-bot challenge page")

    # --- cookies and pacing state for the daemon's store ------------------------------------------------

    def export_cookies(self) -> dict[str, Any]:
        """The cookie jar as plain JSON-able data."""
        return {
            "cookies": [
                {"name": c.name, "value": c.value, "domain": c.domain, "path": c.path,
                 "expires": c.expires, "secure": c.secure}
                for c in self.session.cookies
            ]
        }

    def import_cookies(self, data: Mapping[str, Any]) -> None:
        for c in data.get("cookies", []):
            self.session.cookies.set(c["name"], c["value"], domain=c.get("domain", ""), path=c.get("path", "/"),
                                     expires=c.get("expires"), secure=bool(c.get("secure")))

    def export_state(self) -> dict[str, Any]:
        """Cookies plus the time of the last post/PM, so a new process (a cron tick) keeps the pace."""
        return {**self.export_cookies(), "last_action": dict(self.last_action)}

    def import_state(self, data: Mapping[str, Any]) -> None:
        self.import_cookies(data)
        self.last_action.update({k: float(v) for k, v in data.get("last_action", {}).items()})

    def clear_cookies(self) -> None:
        self.session.cookies.clear()
