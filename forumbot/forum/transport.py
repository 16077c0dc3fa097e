"""The HTTP side shared by every forum adapter: one session per (forum, account), politely paced.

What it does for the adapters:
- one `requests.Session` whose cookies the daemon keeps in its store (`export_cookies` / `import_cookies`,
  or `export_state` / `import_state`, which also carry the time of the last post and PM);
- a stable, ASCII-only User-Agent naming the bot (phpBB ties a session to the browser string; a Cyrillic login
  is percent-encoded in it, since HTTP headers cannot carry it);
- flood timers as the engine keeps them: minimum seconds between actions ("post", "pm", "read", "login"),
  one timer per key, and a key naming several actions ("post+pm") is one timer they share (phpBB);
- a short wait (up to `max_wait`) is slept within the tick, a longer one raises FloodLimited so the outbox
  tries again next tick; `paced` also waits out a flood the forum itself reported, then tries once more;
- retries with back-off that honour `Retry-After`, for requests that are safe to repeat, within a budget of
  seconds per request (a 429 asking for two minutes defers to the next tick instead of stalling it);
- decoding by the charset the server declares (header, else the page's meta tag), never by guessing,
  and form bodies encoded in the page's charset;
- typed errors for what the daemon must react to (`ForumUnavailable`, `FloodLimited`, `CaptchaRequired`).

The clock and sleep are injectable, so tests never wait for real.

Its parts: http_page (the decoded response) and transport_settings (settings, defaults, header values).
"""

from __future__ import annotations

import email.utils
import json
import logging
import time
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar
from urllib.parse import urlencode, urljoin

import requests

from forumbot.errors import CaptchaRequired, FloodLimited, ForumUnavailable
from forumbot.forum.http_page import Page, page_charset
from forumbot.forum.transport_settings import (
    RETRY_STATUSES, EVERY_ACTION, LONGEST_HOLD, MAX_FLOOD_WAIT, PACE_MARGIN, RETRY_BUDGET, seconds_setting,
    flood_timers, header_value, user_agent_for,
)

log = logging.getLogger(__name__)
T = TypeVar("T")


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


class Transport:
    """HTTP for one (forum, account).

    base_url: the forum root, e.g. "https://forum.example/phpBB3/" (relative paths resolve against it).
    bot: the bot's account name, shown (percent-encoded where not ASCII) in the default User-Agent.
    intervals: flood timers: minimum seconds between two actions of a kind, e.g. {"post": 60, "pm": 60}
        (MyBB: two timers), or {"post+pm": 15} (phpBB: one timer for posts and PMs together).
    max_wait: the longest flood wait slept within a tick; a longer one raises FloodLimited(retry_after)
        instead, so the outbox tries again next tick (None: always sleep).
    retry_budget: the most one request sleeps in retries (back-off, Retry-After) before it raises.
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
        max_wait: float | None = MAX_FLOOD_WAIT,
        retry_budget: float = RETRY_BUDGET,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        session: requests.Session | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.timers = flood_timers(intervals or {})
        # the longest timer each action is under, for callers that ask "how long is the flood for a post"
        self.intervals: dict[str, float] = {}
        for actions, seconds in self.timers:
            for a in actions:
                self.intervals[a] = max(self.intervals.get(a, 0.0), seconds)
        self.retries = retries
        self.backoff = backoff
        self.timeout = timeout
        self.max_wait = None if max_wait is None else seconds_setting("max_wait", max_wait)
        self.retry_budget = seconds_setting("retry_budget", retry_budget)
        self.clock = clock
        self.sleep = sleep
        self.session = session or requests.Session()
        self.session.headers["User-Agent"] = header_value(user_agent) if user_agent else user_agent_for(bot)
        self.session.headers.update({k: header_value(v) for k, v in (extra_headers or {}).items()})
        self.last_action: dict[str, float] = {}
        # action -> the time before which the forum said it would refuse it (a flood message, a 429)
        self.not_before: dict[str, float] = {}
        self._unconfirmed: tuple[str, float | None] | None = None  # the last request's stamp, until it is judged
        self.requests_made = 0  # for the polling bench and request-count tests

    # --- URLs -----------------------------------------------------------------------------------------

    def url(self, path: str) -> str:
        return urljoin(self.base_url, path)

    # --- pacing ---------------------------------------------------------------------------------------

    def pause_needed(self, action: str) -> float:
        """Seconds until `action` is allowed: the longest of its timers, and what the forum last said."""
        now = self.clock()
        held = max(self.not_before.get(action, now), self.not_before.get(EVERY_ACTION, now))
        gaps = [min(held - now, LONGEST_HOLD)]
        for actions, seconds in self.timers:
            if action not in actions:
                continue
            lasts = [self.last_action[a] for a in actions if a in self.last_action]
            if lasts:
                # capped at one interval: a stamp "in the future" (a clock set back) must not block for good
                gaps.append(min(seconds + PACE_MARGIN, seconds + PACE_MARGIN - (now - max(lasts))))
        return max(gaps)

    def wait_turn(self, action: str) -> None:
        """Sleep until `action` may run again; FloodLimited if that is longer than max_wait."""
        gap = self.pause_needed(action)
        if gap <= 0:
            return
        if self.max_wait is not None and gap > self.max_wait + PACE_MARGIN:
            raise FloodLimited(f"next {action} allowed in {gap:.0f} s", retry_after=gap)
        # logged, so a tick's output shows every flood wait it sat out (each at most max_wait + PACE_MARGIN)
        log.info("waiting %.1f s for the forum's %s flood timer", gap, action)
        self.sleep(gap)

    def done(self, action: str) -> None:
        self._unconfirmed = (action, self.last_action.get(action))
        self.last_action[action] = self.clock()

    def refused(self, action: str, retry_after: float | None) -> None:
        """The forum refused `action` as too soon: nothing of it, nor of an action sharing its timer, before
        `retry_after` seconds (a full interval when the forum did not say)."""
        if self._unconfirmed is not None and self._unconfirmed[0] == action:
            # the request just stamped as done was the refused one: the forum's timer did not move
            previous = self._unconfirmed[1]
            if previous is None:
                self.last_action.pop(action, None)
            else:
                self.last_action[action] = previous
        self._unconfirmed = None
        wait = retry_after if retry_after is not None else self.intervals.get(action, 0.0) + PACE_MARGIN
        until = self.clock() + min(max(0.0, wait), LONGEST_HOLD)
        for a in {action}.union(*(actions for actions, _ in self.timers if action in actions)):
            self.not_before[a] = max(self.not_before.get(a, 0.0), until)

    def paced(self, action: str, send: Callable[[], T]) -> T:
        """Run `send` (one post or PM that the forum refuses whole when it floods); if the forum reports a flood
        we can wait out within max_wait, wait and run it once more. A refused action posted nothing, so running it
        again cannot double-post. A longer flood raises FloodLimited: the outbox tries again next tick."""
        for attempt in (1, 2):
            self.wait_turn(action)
            try:
                return send()
            except FloodLimited as e:
                self.refused(action, e.retry_after)
                if attempt == 2 or (e.retry_after is None and not self.intervals.get(action)):
                    raise
                log.info("%s refused as too soon; trying again in %.0f s", action, self.pause_needed(action))
        raise AssertionError("unreachable")

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
        self._unconfirmed = None
        for name, value in list(self.session.headers.items()):  # set by an adapter after construction
            if isinstance(value, str):
                self.session.headers[name] = header_value(value)
        headers = {k: header_value(v) for k, v in headers.items()} if headers else headers
        attempt = 0
        slept = 0.0

        def may_sleep(seconds: float) -> bool:
            nonlocal slept
            if slept + seconds > self.retry_budget:
                return False
            slept += seconds
            self.sleep(seconds)
            return True

        while True:
            attempt += 1
            self.requests_made += 1
            try:
                resp = self.session.request(method, url, params=params, data=data, headers=headers,
                                            timeout=self.timeout, allow_redirects=follow)
            except requests.exceptions.ConnectTimeout as exc:  # nothing reached the server
                if attempt > self.retries or not may_sleep(self._backoff(attempt)):
                    raise ForumUnavailable(f"{method} {url}: cannot connect ({exc.__class__.__name__})") from exc
                continue
            except requests.exceptions.RequestException as exc:
                if not idempotent or attempt > self.retries or not may_sleep(self._backoff(attempt)):
                    raise ForumUnavailable(f"{method} {url}: {exc.__class__.__name__}") from exc
                continue
            page = self._page(resp)
            self._check_challenge(page)
            if resp.status_code in RETRY_STATUSES:
                wait = _retry_after(resp.headers.get("Retry-After"), self.clock())
                # A 429 was refused before any work was done, so even a POST may be repeated.
                repeatable = idempotent or resp.status_code == 429
                if repeatable and attempt <= self.retries and may_sleep(wait if wait is not None
                                                                        else self._backoff(attempt)):
                    continue
                if resp.status_code == 429:
                    # remembered (and kept in the store), so no request goes out before the forum allows it
                    self.refused(action, wait if wait is not None else self._backoff(attempt))
                    if action in ("read", "login"):
                        # a page or the login refused is the client refused: no request of any kind goes out
                        # before then (a post's or PM's 429 is that action's own limit, as Discourse's are)
                        self.not_before[EVERY_ACTION] = max(self.not_before.get(EVERY_ACTION, 0.0),
                                                            self.not_before[action])
                    raise FloodLimited(f"{method} {url}: 429 Too Many Requests"
                                       + (f" (retry after {wait:.0f} s)" if wait is not None else ""),
                                       retry_after=wait)
                raise ForumUnavailable(f"{method} {url}: HTTP {resp.status_code}")
            if action != "read":
                self.done(action)
            return page

    def _backoff(self, attempt: int) -> float:
        return self.backoff * (2 ** (attempt - 1))

    @staticmethod
    def _page(resp: requests.Response) -> Page:
        content = resp.content or b""
        return Page(url=resp.url, status=resp.status_code, headers=resp.headers, content=content,
                    charset=page_charset(resp.headers.get("Content-Type"), content))

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
        """Cookies plus the time of the last post/PM and any wait the forum asked for, so a new process (a cron
        tick) keeps the pace and the session."""
        now = self.clock()
        return {**self.export_cookies(), "last_action": dict(self.last_action),
                "not_before": {k: v for k, v in self.not_before.items() if v > now}}

    def import_state(self, data: Mapping[str, Any]) -> None:
        self.import_cookies(data)
        for key, into in (("last_action", self.last_action), ("not_before", self.not_before)):
            for k, v in (data.get(key) or {}).items():
                into[k] = max(into.get(k, 0.0), float(v))

    def clear_cookies(self) -> None:
        self.session.cookies.clear()
