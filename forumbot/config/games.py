"""A `[games.NAME]` table: its forum and threads, variant, players and GMs, options and schedule."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from forumbot.config.reader import Reader
from forumbot.config.signup import parse_signup
from forumbot.config.types import LANGUAGES, MAX_PHASE_HOURS, MODES, VARIANTS, ForumConfig, GameConfig
from forumbot.model import PlayerSpec, Role, Schedule
from forumbot.options import option_problems


_GAME_KEYS = {"forum", "variant", "mode", "language", "game_thread", "vote_thread", "players", "gms", "start",
              "timezone", "day_hours", "night_hours", "runoff_hours", "options", "shadow_to", "pm_subject",
              "vote_count_minutes", "remind_hours", "publish", "title", "signup"}
MAX_TITLE = 80  # a PM subject: boards cut or refuse longer ones


def parse_game(name: str, table: dict, forums: dict[str, ForumConfig], problems: list[str],
               t: Mapping[str, str]) -> GameConfig | None:
    r = Reader(table, f"games.{name}", problems, t)
    before = len(problems)
    forum = r.get("forum", str, "", required=True)
    if forum and forum not in forums:
        r.problem("forum", t["config.no_forum"].format(forum=forum, known=", ".join(sorted(forums)) or t["config.none"]))
    variant = r.get("variant", str, "", required=True)
    if variant and variant not in VARIANTS:
        r.problem("variant", t["config.unknown_variant"].format(variant=variant, known=", ".join(VARIANTS)))
    mode = r.get("mode", str, "live")
    if mode not in MODES:
        r.problem("mode", t["config.unknown_mode"].format(mode=mode))
    language = r.get("language", str, "ru")
    if language not in LANGUAGES:
        r.problem("language", t["config.unknown_language"].format(language=language))
    game_thread = r.get("game_thread", str, "", required=True)
    vote_thread = r.get("vote_thread", str, "", required=True)
    if game_thread and game_thread == vote_thread:
        r.problem("vote_thread", t["config.vote_thread_same"])
    has_signup = "signup" in table  # S-1: the players come from the sign-up
    players = _parse_players(r, r.get("players", list, [], required=not has_signup))
    if has_signup and players:
        r.problem("players", t["config.players_and_signup"])
    gms = r.get("gms", list, [], required=True) or []
    if "gms" in table and not gms:
        r.problem("gms", t["config.no_gms"])
    for i, gm in enumerate(gms):
        if not isinstance(gm, str) or not gm.strip():
            r.problem(f"gms[{i}]", t["config.gm_empty"].format(got=gm))
    schedule = _parse_schedule(r, has_signup)
    options = dict(r.get("options", dict, {}) or {})
    r.problems.extend(f"{r.where}.{p}" for p in option_problems(variant, options, where="options", t=t))
    # these two steer the core's announcements; they travel to it with the variant options
    for key in ("vote_count_minutes", "remind_hours"):
        if key in table:
            r.used.add(key)
            wrong = option_problems(variant, {key: table[key]}, where="", t=t)
            if wrong:
                r.problems.append(f"{r.where}{wrong[0]}")
            else:
                options[key] = table[key]
    shadow_to = r.get("shadow_to", str, "")
    pm_subject = r.get("pm_subject", str, "")
    title = " ".join(r.get("title", str, "").split())
    if "title" in table and not title:
        r.problem("title", t["config.title_empty"])
    elif len(title) > MAX_TITLE:
        r.problem("title", t["config.title_long"].format(most=MAX_TITLE, got=len(title)))
    publish = r.get("publish", bool, True)
    signup = None
    if has_signup and schedule is not None:
        r.used.add("signup")
        signup = parse_signup(table["signup"], f"{r.where}.signup", variant, options, schedule.timezone, problems, t)
        if signup is not None and signup.thread == game_thread:
            signup = replace(signup, thread="")  # S-1: the game thread itself, before the game starts
        elif signup is not None and signup.thread == vote_thread:
            problems.append(f"{r.where}.signup.thread: {t['config.signup_vote_thread']}")
            signup = None
    r.unknown(_GAME_KEYS)
    if len(problems) > before or schedule is None:
        return None
    return GameConfig(name=name, forum=forum, variant=variant, game_thread=game_thread, vote_thread=vote_thread,
                      players=players, gms=tuple(gms), schedule=schedule, mode=mode, language=language,
                      options=options, shadow_to=shadow_to, pm_subject=pm_subject, publish=publish,
                      title=title, signup=signup)


def _parse_players(r: Reader, items: list) -> tuple[PlayerSpec, ...]:
    players: list[PlayerSpec] = []
    seen: set[str] = set()
    for i, item in enumerate(items or []):
        if isinstance(item, str):
            nick, role = item, None
        elif isinstance(item, dict) and isinstance(item.get("nick"), str):
            nick, role = item["nick"], item.get("role")
            unknown = set(item) - {"nick", "role"}
            if unknown:
                r.problem(f"players[{i}]", r.t["config.player_keys"].format(keys=", ".join(sorted(unknown))))
        else:
            r.problem(f"players[{i}]", r.t["config.player_shape"])
            continue
        if not nick.strip():
            r.problem(f"players[{i}]", r.t["config.player_empty"])
            continue
        if nick.casefold() in seen:
            r.problem(f"players[{i}]", r.t["config.player_twice"].format(nick=nick))
        seen.add(nick.casefold())
        parsed_role = None
        if role is not None:
            try:
                parsed_role = Role(role)
            except ValueError:
                r.problem(f"players[{i}].role", r.t["config.unknown_role"].format(role=role, known=", ".join(x.value for x in Role)))
        players.append(PlayerSpec(nick=nick, role=parsed_role))
    return tuple(players)


def _parse_schedule(r: Reader, has_signup: bool = False) -> Schedule | None:
    start = r.get("start", (datetime, str), None, required=not has_signup)
    tz_name = r.get("timezone", str, "Europe/Moscow")
    try:
        tz = ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError):
        r.problem("timezone", r.t["config.unknown_zone"].format(zone=tz_name))
        tz = None
    if isinstance(start, str):
        try:
            start = datetime.fromisoformat(start)
        except ValueError:
            r.problem("start", r.t["config.not_a_datetime"].format(value=start))
            start = None
    if isinstance(start, datetime) and start.tzinfo is None and tz is not None:
        start = start.replace(tzinfo=tz)  # a local time is read in the game's time zone
    if isinstance(start, datetime) and not 2000 <= start.year <= 2999:
        r.problem("start", r.t["config.odd_year"].format(year=start.year))
        start = None
    lengths = {key: r.number(key, default, 0, MAX_PHASE_HOURS, low_open=True)
               for key, default in (("day_hours", 24), ("night_hours", 12), ("runoff_hours", 12))}
    if has_signup and start is None and tz is not None:
        start = datetime(2000, 1, 1, tzinfo=tz)  # S-3: none; Day 1 opens a day after the close (engine/signup.py)
    if not isinstance(start, datetime) or tz is None:
        return None
    return Schedule(start=start, day=timedelta(hours=lengths["day_hours"]),
                    night=timedelta(hours=lengths["night_hours"]), runoff=timedelta(hours=lengths["runoff_hours"]),
                    timezone=tz_name)
