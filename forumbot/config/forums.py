"""A `[forums.NAME]` table: its engine, account and address, the settings its adapter reads (each value checked),
its `profile` overrides, and the zone a board printing local times is read in."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from forumbot.config.reader import Reader
from forumbot.config.types import FORUM_KEYS, ForumConfig, GameConfig, engine_traits, known_engines
from forumbot.options import Check, closest, flag, number, string, whole
from forumbot.forum.registry import override_problems, profile_for


def parse_forum(name: str, table: dict, problems: list[str], t: Mapping[str, str]) -> ForumConfig:
    r = Reader(table, f"forums.{name}", problems, t)
    engine = r.get("engine", str, "", required=True)
    custom = ":" in engine  # "module:attr", loaded (and so checked) by `check-config`
    if custom and not all(part.strip() for part in engine.split(":", 1)):
        r.problem("engine", t["config.engine_custom"].format(engine=repr(engine)))
    elif engine and not custom and engine not in (known := known_engines()):
        r.problem("engine", t["config.engine_unknown"].format(
            engine=repr(engine), hint=closest(engine, known, t["config.did_you_mean"]), known=", ".join(known)))
    login = r.get("login", str, "", required=True)
    if "login" in table and isinstance(login, str) and not login.strip():
        r.problem("login", t["config.login_empty"])
    base_url = r.get("base_url", str, "")
    if base_url:
        _check_url(r, base_url, web=not custom)  # an adapter of one's own may read a file:// forum
    elif engine and engine != "memory":
        r.problem("base_url", t["config.missing"])
    password_env = r.get("password_env", str, "")
    traits = engine_traits(engine) if engine and not custom else None  # None: not installed (named above)
    markup = r.get("markup", str, traits.markup if traits else "bbcode")
    if markup not in ("bbcode", "markdown"):
        r.problem("markup", t["config.markup_unknown"].format(markup=repr(markup)))
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
        r.problem("base_url", r.t["config.not_a_url"].format(url=repr(url), error=e))
        return
    if web and (parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url)):
        r.problem("base_url", r.t["config.not_a_web_url"].format(url=url))


def _zone_name(value: Any, t: Mapping[str, str]) -> str | None:
    if not isinstance(value, str):
        return string(value, t)
    return None if _zone(value) is not None else t["config.unknown_zone"].format(zone=value)


def _header(value: Any, t: Mapping[str, str]) -> str | None:
    if not isinstance(value, str):
        return string(value, t)
    return None if value.isascii() and value.isprintable() else t["config.header_ascii"]


def _intervals(value: Any, t: Mapping[str, str]) -> str | None:
    if isinstance(value, dict) and all(number(0, 3600, "seconds")(v, t) is None for v in value.values()):
        return None
    return t["config.intervals"].format(got=repr(value))


def _profile_table(value: Any, t: Mapping[str, str]) -> str | None:
    if isinstance(value, dict):
        return None
    return t["config.profile_table"].format(got=repr(value))


# What the shipped adapters make of each forum-table setting they read (which engine reads which: its adapter's `settings`).
FORUM_SETTINGS: dict[str, Check] = {
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
        wrong = check(table[key], r.t) if check else None
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
                         problems: list[str], t: Mapping[str, str]) -> dict[str, ForumConfig]:
    out = {}
    for name, forum in forums.items():
        zones = sorted({g.schedule.timezone for g in games.values() if g.forum == name})
        traits = engine_traits(forum.engine) if ":" not in forum.engine else None
        if traits is not None and traits.prints_local_times and not forum.timezone_name and zones:
            if len(zones) > 1:
                problems.append(f"forums.{name}.timezone_name: " + t["config.board_zone"].format(zones=", ".join(zones)))
            else:
                forum = replace(forum, extra={**forum.extra, "timezone_name": zones[0]})
        out[name] = forum
    return out
