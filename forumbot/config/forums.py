"""A `[forums.NAME]` table: its engine, account and address, the settings its adapter reads (each value checked),
its `profile` overrides, and the zone a board printing local times is read in."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from forumbot.config.reader import Reader
from forumbot.config.types import FORUM_KEYS, ForumConfig, GameConfig, engine_traits, known_engines
from forumbot.options import closest, flag, number, string, whole
from forumbot.forum.registry import override_problems, profile_for


def parse_forum(name: str, table: dict, problems: list[str], t: Mapping[str, str]) -> ForumConfig:
    r = Reader(table, f"forums.{name}", problems, t)
    engine = r.get("engine", str, "", required=True)
    custom = ":" in engine  # "module:attr", loaded (and so checked) by `check-config`
    if custom and not all(part.strip() for part in engine.split(":", 1)):
        r.problem("engine", f"{engine!r}: write an adapter as module:attribute")
    elif engine and not custom and engine not in (known := known_engines()):
        r.problem("engine", f"unknown forum engine {engine!r}{closest(engine, known)} (known: {', '.join(known)})")
    login = r.get("login", str, "", required=True)
    if "login" in table and isinstance(login, str) and not login.strip():
        r.problem("login", "empty (the bot's account name)")
    base_url = r.get("base_url", str, "")
    if base_url:
        _check_url(r, base_url, web=not custom)  # an adapter of one's own may read a file:// forum
    elif engine and engine != "memory":
        r.problem("base_url", "missing")
    password_env = r.get("password_env", str, "")
    traits = engine_traits(engine) if engine and not custom else None  # None: not installed (named above)
    markup = r.get("markup", str, traits.markup if traits else "bbcode")
    if markup not in ("bbcode", "markdown"):
        r.problem("markup", f"unknown markup {markup!r} (bbcode or markdown)")
    extra = _adapter_settings(r, table)
    if "profile" in table and not custom and isinstance(table["profile"], dict):
        problems.extend(f"forums.{name}.{p}" for p in _profile_problems(engine, table["profile"]))
    if traits is not None:
        r.unknown(set(FORUM_KEYS) | traits.settings)
    return ForumConfig(name=name, engine=engine, login=login, base_url=base_url, password_env=password_env,
                       markup=markup, extra=extra)


def _check_url(r: Reader, url: str, web: bool) -> None:
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a malformed port
    except ValueError as e:
        r.problem("base_url", f"not a URL: {url!r} ({e})")
        return
    if web and (parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url)):
        r.problem("base_url", r.t["config.not_a_web_url"].format(url=url))


def _zone_name(value: Any) -> str | None:
    if not isinstance(value, str):
        return string(value)
    return None if _zone(value) is not None else f"unknown time zone {value!r} (write e.g. Europe/Moscow)"


def _header(value: Any) -> str | None:
    if not isinstance(value, str):
        return string(value)
    return None if value.isascii() and value.isprintable() else "only printable ASCII can go in an HTTP header"


def _intervals(value: Any) -> str | None:
    if isinstance(value, dict) and all(number(0, 3600, "seconds")(v) is None for v in value.values()):
        return None
    return f"expected a table of seconds from 0 to 3600, e.g. {{ post = 15, pm = 15 }}, got {value!r}"


def _profile_table(value: Any) -> str | None:
    if isinstance(value, dict):
        return None
    return ("expected a table of overrides, e.g. [forums.main.profile.selectors] post = \"div.post\", "
            f"got {value!r}")


# What the shipped adapters make of each forum-table setting they read (which engine reads which: its adapter's `settings`).
FORUM_SETTINGS: dict[str, Callable[[Any], str | None]] = {
    "timeout": number(0, 600, "seconds", low_open=True),
    "backoff": number(0, 600, "seconds"),
    "max_wait": number(0, 3600, "seconds"),
    "retry_budget": number(0, 600, "seconds"),
    "retries": whole(0, 100),
    "page_size": whole(1, 1000),
    "intervals": _intervals,
    "user_agent": _header,
    "timezone_name": _zone_name,
    "delete_read_pms": flag,
    "printthread": flag,
    "api_key": string, "api_client_id": string, "admin_api_key": string,
    "admin_api_key_env": string, "user_api_key_env": string,
    "api_key_env": string, "api_user_id": whole(1, 2**31 - 1),
    "profile": _profile_table,
}


def _adapter_settings(r: Reader, table: dict) -> dict[str, Any]:
    """The forum table's other keys, for the adapter; the values of those forumbot's adapters read are checked."""
    settings = {}
    for key in sorted(set(table) - set(FORUM_KEYS)):
        check = FORUM_SETTINGS.get(key)
        wrong = check(table[key]) if check else None
        if wrong:
            r.problem(key, wrong)
        else:
            settings[key] = table[key]
    return settings


def _profile_problems(engine: str, table: dict) -> list[str]:
    """A `[forums.NAME.profile]` table checked against the names of the engine's profile."""
    profile = profile_for(engine)
    if profile is None:
        return []  # an engine without a page profile: `profile` is an unknown setting there
    return override_problems(profile, table, where="profile")


def _zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def default_board_zones(forums: dict[str, ForumConfig], games: dict[str, GameConfig],
                         problems: list[str]) -> dict[str, ForumConfig]:
    out = {}
    for name, forum in forums.items():
        zones = sorted({g.schedule.timezone for g in games.values() if g.forum == name})
        traits = engine_traits(forum.engine) if ":" not in forum.engine else None
        if traits is not None and traits.prints_local_times and not forum.timezone_name and zones:
            if len(zones) > 1:
                problems.append(f"forums.{name}.timezone_name: missing; its games use different zones "
                                f"({', '.join(zones)}): give the zone the board shows the bot's account")
            else:
                forum = replace(forum, extra={**forum.extra, "timezone_name": zones[0]})
        out[name] = forum
    return out
