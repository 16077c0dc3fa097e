"""The transport's settings and defaults: what a forum table may set (timeouts, retries, flood timers, the
User-Agent), the limits on waiting, and how a header value or a number of seconds is made safe."""

from __future__ import annotations

from typing import Any, Mapping
from urllib.parse import quote

from forumbot.errors import ConfigError

DEFAULT_USER_AGENT = "Mozilla/5.0 (compatible; forumbot; forum Mafia game master; account {bot})"

# Statuses after which the same request may simply be tried again.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})

# Added to every flood interval: servers count whole seconds, and MyBB refuses until *more* than its interval
# has passed (TIME_NOW - lastpost <= postfloodsecs), phpBB once it has (now - lastpost < flood_interval).
PACE_MARGIN = 1.0
# The forum-table settings a Transport takes (timeouts, retries, pacing), for every adapter built on it.
TRANSPORT_SETTINGS = frozenset({"timeout", "retries", "backoff", "max_wait", "retry_budget", "user_agent", "intervals"})
# The longest flood wait slept within a tick (MyBB's stock 60 s); a longer one defers to the next tick.
MAX_FLOOD_WAIT = 60.0
# The longest a forum's "not before" is believed (a 429 asking for a day, or a clock set back, must not stop the
# bot for good).
LONGEST_HOLD = 3600.0
# The key of `Transport.not_before` that holds every action (a 429 on a page read or the login).
EVERY_ACTION = "*"
# The most a single request sleeps in retries (back-off and Retry-After) before giving up for this tick.
RETRY_BUDGET = 30.0

# Printable ASCII kept as is in the User-Agent; '%' and the comment delimiters are percent-encoded with the rest.
_UA_SAFE = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) not in "%()\\")


def user_agent_for(bot: str) -> str:
    """The default User-Agent for the bot's account: ASCII whatever the login, and the same in every process."""
    return DEFAULT_USER_AGENT.format(bot=quote(bot, safe=_UA_SAFE))


def header_value(value: str) -> str:
    """A header value http.client can send: latin-1 text as is, anything else as its UTF-8 bytes (what a
    browser or curl puts on the wire for a non-Latin name), instead of a UnicodeEncodeError."""
    try:
        value.encode("latin-1")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8").decode("latin-1")


def flood_timers(intervals: Mapping[str, float]) -> list[tuple[frozenset[str], float]]:
    """"post+pm": 15 -> one 15 s timer shared by posts and PMs; "post": 60 -> a timer of posts alone."""
    out = []
    for key, seconds in intervals.items():
        seconds_setting(f"intervals.{key}", seconds)
        actions = frozenset(a.strip() for a in str(key).split("+") if a.strip())
        if actions and seconds > 0:
            out.append((actions, float(seconds)))
    return out


def seconds_setting(name: str, value: Any) -> float:
    """A number of seconds from the configuration (a forum table passes these through), or a ConfigError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0 \
            or value == float("inf"):
        raise ConfigError(f"{name}: expected a number of seconds, got {value!r}")
    return float(value)
