"""The daemon's configuration: one TOML file (forumbot.toml) read into dataclasses.

Loading never stops at the first problem: every problem found is named, with its place in the file, so a GM
fixes them all in one go. Passwords are not in the file, only the name of the environment variable that
holds each one.
"""

from __future__ import annotations

import functools
import math
import tomllib
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from forumbot.errors import ConfigError
from forumbot.model import GameSetup, PlayerSpec, Role, Schedule
from forumbot.options import closest, flag, number, option_problems, string, whole
from forumbot.texts import TABLES

VARIANTS = ("moscow", "free_hunt")
MODES = ("live", "shadow")
LANGUAGES = ("ru", "en")
MAX_PHASE_HOURS = 24 * 365  # longer is a typo, and much longer overflows date arithmetic

# What an engine's adapter class declares, read here so that adding an engine touches only adapters/ and the
# entry-point registry: `settings` (the forum-table keys it takes besides _FORUM_KEYS, passed to it by
# daemon.build_adapter), `prints_local_times` (pages print local times without a zone: read in `timezone_name`,
# which defaults to the zone of the games on that forum, since a board set up for a Moscow game shows Moscow
# time), `markup` ("bbcode" or "markdown"). An adapter named "module:attr" may take any key.


@dataclass(frozen=True)
class EngineTraits:
    settings: frozenset[str]
    prints_local_times: bool
    markup: str


@functools.cache
def engine_traits(engine: str) -> EngineTraits | None:
    """The traits of an installed engine (entry-point group "forumbot.adapters"); None for one not installed."""
    from importlib.metadata import entry_points

    found = entry_points(group="forumbot.adapters", name=engine)
    if not found:
        return None
    cls = next(iter(found)).load()
    return EngineTraits(frozenset(getattr(cls, "settings", frozenset())), bool(getattr(cls, "prints_local_times",
                        False)), str(getattr(cls, "markup", "bbcode")))


_FORUM_KEYS = ("engine", "login", "base_url", "password_env", "markup")


@dataclass(frozen=True)
class ForumConfig:
    name: str
    engine: str  # an entry-point name of group "forumbot.adapters", or "module:attr"
    login: str  # the bot's account
    base_url: str = ""
    password_env: str = ""  # the environment variable holding the password ("" = no password)
    markup: str = "bbcode"  # how the forum renders posts: bbcode, or markdown (Discourse)
    extra: dict[str, Any] = field(default_factory=dict)  # any other keys, passed to the adapter

    def password(self, environ: dict[str, str]) -> str | None:
        return environ.get(self.password_env) if self.password_env else None

    @property
    def timezone_name(self) -> str:
        """The zone the adapter reads the board's local times in ("" where the engine's dates carry one)."""
        return str(self.extra.get("timezone_name", ""))


@dataclass(frozen=True)
class GameConfig:
    name: str
    forum: str
    variant: str
    game_thread: str
    vote_thread: str
    players: tuple[PlayerSpec, ...]
    gms: tuple[str, ...]
    schedule: Schedule
    mode: str = "live"
    language: str = "ru"
    options: dict[str, Any] = field(default_factory=dict)
    shadow_to: str = ""  # who gets the shadow-mode PMs; default: the first GM
    pm_subject: str = ""  # subject of the bot's PMs; default: the game's name
    publish: bool = True  # its public pages, where [pages] is configured (issue 20)

    @property
    def subject(self) -> str:
        """The bot's PM subject. By default the game's name in the game's language: a bare config key
        ("autumn") read to Russian players as a stray word; the name stays in it, since a player's reply keeps
        the subject and a GM addresses a game by naming it."""
        if self.pm_subject:
            return self.pm_subject
        return TABLES.get(self.language, TABLES["ru"])["pm.subject"].format(name=self.name)

    @property
    def shadow_recipient(self) -> str:
        return self.shadow_to or (self.gms[0] if self.gms else "")

    def setup(self, seed: int, bot: str, markup: str = "bbcode") -> GameSetup:
        return GameSetup(
            variant=self.variant, seed=seed, schedule=self.schedule, players=self.players, bot=bot,
            gms=self.gms, options=dict(self.options), language=self.language, markup=markup,
            game_url=self.game_thread, vote_url=self.vote_thread,
        )


@dataclass(frozen=True)
class Config:
    path: Path
    database_url: str
    forums: dict[str, ForumConfig]
    games: dict[str, GameConfig]
    poll_seconds: int = 300
    # Posts are resolved up to (cycle start - grace): a forum clock a little ahead of ours, or a post still
    # being written when the page was read, cannot slip past a deadline unseen.
    grace_seconds: int = 60
    retries: int = 3
    backoff_seconds: float = 5.0
    log_level: str = "INFO"
    pages: Any = None  # forumbot.pages.config.PagesConfig when [pages] is configured (issue 20)

    @property
    def state_dir(self) -> Path:
        """Where lock files live: beside the config."""
        return self.path.parent


def default_database_url(config_path: Path) -> str:
    return f"sqlite:///{(config_path.parent / 'forumbot.db').resolve()}"


def load_config(path: str | Path) -> Config:
    """Read and validate `path`; raise ConfigError naming every problem found."""
    path = Path(path)
    try:
        raw = tomllib.loads(read_utf8(path))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file (write an example with `forumbot init`)") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: {describe_bad_utf8(e)}") from None
    problems: list[str] = []
    config = _parse(path, raw, problems)
    if problems:
        raise ConfigProblems(path, problems)
    assert config is not None
    return config


def read_utf8(path: Path) -> str:
    """The file's text; UnicodeDecodeError (see describe_bad_utf8) when it is not UTF-8."""
    return path.read_bytes().decode("utf-8")


def describe_bad_utf8(e: UnicodeDecodeError) -> str:
    line = e.object[:e.start].count(b"\n") + 1
    return f"not UTF-8: byte 0x{e.object[e.start]:02x} on line {line} (save the file as UTF-8)"


class ConfigProblems(ConfigError):
    """A ConfigError listing several problems; str() is one line, `problems` has them one by one."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.problems = list(problems)
        head = f"{path}: {len(problems)} problem{'s' if len(problems) > 1 else ''}: "
        super().__init__(head + "; ".join(problems))


# --- parsing ---------------------------------------------------------------------------------------------


class _Reader:
    """Typed access to one TOML table, recording a problem (with the table's path) instead of raising."""

    def __init__(self, table: dict, where: str, problems: list[str]) -> None:
        self.table, self.where, self.problems = table, where, problems
        self.used: set[str] = set()

    def problem(self, key: str, what: str) -> None:
        self.problems.append(f"{self.where}.{key}: {what}" if key else f"{self.where}: {what}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None, required: bool = False) -> Any:
        self.used.add(key)
        if key not in self.table:
            if required:
                self.problem(key, "missing")
            return default
        value = self.table[key]
        # bool is an int in Python; a `true` where a number belongs is still a mistake
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
            self.problem(key, f"expected {_kind_name(kind)}, got {type(value).__name__} {value!r}")
            return default
        return value

    def number(self, key: str, default: Any, low: float, high: float, integer: bool = False,
               low_open: bool = False) -> Any:
        """A finite number within [low, high] (or (low, high]), else a problem and `default`."""
        value = self.get(key, int if integer else (int, float), None)
        if value is None:
            return default
        if not math.isfinite(value) or value < low or value > high or (low_open and value == low):
            bound = f"more than {low:g}" if low_open else f"at least {low:g}"
            self.problem(key, f"must be {bound} and at most {high:g}, got {value!r}")
            return default
        return value

    def unknown(self, known: Any) -> None:
        for key in sorted(set(self.table) - set(known)):
            self.problem(key, "unknown setting" + closest(key, known))

    def rest(self) -> dict[str, Any]:
        return {k: v for k, v in self.table.items() if k not in self.used}


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false", list: "a list",
             dict: "a table", datetime: "a date-time", date: "a date"}
    kinds = [k for k in _as_tuple(kind) if not (k is int and float in _as_tuple(kind))]  # "a number" says both
    return " or ".join(names.get(k, k.__name__) for k in kinds)


_TOP_KEYS = {"database", "poll_seconds", "grace_seconds", "retries", "backoff_seconds", "log_level", "forums",
             "games", "pages"}


def _parse(path: Path, raw: dict, problems: list[str]) -> Config | None:
    top = _Reader(raw, path.name, problems)
    database = top.get("database", str, "") or default_database_url(path)
    if database.startswith("sqlite:///") and not database.startswith("sqlite:////"):
        # a relative SQLite path is relative to the config file, not to wherever cron happens to run us
        database = f"sqlite:///{(path.parent / database[len('sqlite:///'):]).resolve()}"
    poll = top.number("poll_seconds", 300, 10, 24 * 3600, integer=True)
    grace = top.number("grace_seconds", 60, 0, 24 * 3600, integer=True)
    retries = top.number("retries", 3, 0, 100, integer=True)
    backoff = top.number("backoff_seconds", 5.0, 0, 3600)
    log_level = top.get("log_level", str, "INFO").upper()
    if log_level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        top.problem("log_level", f"unknown level {log_level!r} (DEBUG, INFO, WARNING, ERROR)")
    top.unknown(_TOP_KEYS)

    forums_raw = top.get("forums", dict, {}, required=True) or {}
    games_raw = top.get("games", dict, {}, required=True) or {}
    forums = {}
    for name, table in forums_raw.items():
        if not isinstance(table, dict):
            problems.append(f"forums.{name}: expected a table")
            continue
        forums[name] = _parse_forum(name, table, problems)
    if not forums and "forums" in raw:
        problems.append("forums: no forum configured")
    games = {}
    for name, table in games_raw.items():
        if not isinstance(table, dict):
            problems.append(f"games.{name}: expected a table")
            continue
        game = _parse_game(name, table, forums, problems)
        if game is not None:
            games[name] = game
    forums = _default_board_zones(forums, games, problems)
    from forumbot.pages.config import parse_pages

    pages = parse_pages(raw.get("pages"), path, problems)
    return Config(path=path, database_url=database, forums=forums, games=games, poll_seconds=poll,
                  grace_seconds=grace, retries=retries, backoff_seconds=float(backoff), log_level=log_level,
                  pages=pages)


def known_engines() -> list[str]:
    """The engine names installed (entry-point group "forumbot.adapters"; forumbot ships its own there)."""
    from importlib.metadata import entry_points

    return sorted({ep.name for ep in entry_points(group="forumbot.adapters")})


def _parse_forum(name: str, table: dict, problems: list[str]) -> ForumConfig:
    r = _Reader(table, f"forums.{name}", problems)
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
        r.unknown(set(_FORUM_KEYS) | traits.settings)
    return ForumConfig(name=name, engine=engine, login=login, base_url=base_url, password_env=password_env,
                       markup=markup, extra=extra)


def _check_url(r: _Reader, url: str, web: bool) -> None:
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a malformed port
    except ValueError as e:
        r.problem("base_url", f"not a URL: {url!r} ({e})")
        return
    if web and (parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url)):
        r.problem("base_url", f"not an http(s) URL: {url!r} (write e.g. https://forum.example.org/)")


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


def _adapter_settings(r: _Reader, table: dict) -> dict[str, Any]:
    """The forum table's other keys, for the adapter; the values of those forumbot's adapters read are checked."""
    settings = {}
    for key in sorted(set(table) - set(_FORUM_KEYS)):
        check = FORUM_SETTINGS.get(key)
        wrong = check(table[key]) if check else None
        if wrong:
            r.problem(key, wrong)
        else:
            settings[key] = table[key]
    return settings


def _profile_problems(engine: str, table: dict) -> list[str]:
    """A `[forums.NAME.profile]` table checked against the names of the engine's profile."""
    from forumbot.registry import override_problems, profile_for

    profile = profile_for(engine)
    if profile is None:
        return []  # an engine without a page profile: `profile` is an unknown setting there
    return override_problems(profile, table, where="profile")


def _zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _default_board_zones(forums: dict[str, ForumConfig], games: dict[str, GameConfig],
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


_GAME_KEYS = {"forum", "variant", "mode", "language", "game_thread", "vote_thread", "players", "gms", "start",
              "timezone", "day_hours", "night_hours", "runoff_hours", "options", "shadow_to", "pm_subject",
              "vote_count_minutes", "remind_hours", "publish"}


def _parse_game(name: str, table: dict, forums: dict[str, ForumConfig], problems: list[str]) -> GameConfig | None:
    r = _Reader(table, f"games.{name}", problems)
    before = len(problems)
    forum = r.get("forum", str, "", required=True)
    if forum and forum not in forums:
        r.problem("forum", f"no forum named {forum!r} (known: {', '.join(sorted(forums)) or 'none'})")
    variant = r.get("variant", str, "", required=True)
    if variant and variant not in VARIANTS:
        r.problem("variant", f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    mode = r.get("mode", str, "live")
    if mode not in MODES:
        r.problem("mode", f"unknown mode {mode!r} (live or shadow)")
    language = r.get("language", str, "ru")
    if language not in LANGUAGES:
        r.problem("language", f"unknown language {language!r} (ru or en)")
    game_thread = r.get("game_thread", str, "", required=True)
    vote_thread = r.get("vote_thread", str, "", required=True)
    if game_thread and game_thread == vote_thread:
        r.problem("vote_thread", "must differ from game_thread (votes live in their own thread, C-3)")
    players = _parse_players(r, r.get("players", list, [], required=True))
    gms = r.get("gms", list, [], required=True) or []
    if "gms" in table and not gms:
        r.problem("gms", "name at least one GM account (GM commands and shadow mode need one)")
    for i, gm in enumerate(gms):
        if not isinstance(gm, str) or not gm.strip():
            r.problem(f"gms[{i}]", f"each GM is a non-empty nickname, got {gm!r}")
    schedule = _parse_schedule(r)
    options = dict(r.get("options", dict, {}) or {})
    r.problems.extend(f"{r.where}.{p}" for p in option_problems(variant, options, where="options"))
    # these two steer the core's announcements; they travel to it with the variant options
    for key in ("vote_count_minutes", "remind_hours"):
        if key in table:
            r.used.add(key)
            wrong = option_problems(variant, {key: table[key]}, where="")
            if wrong:
                r.problems.append(f"{r.where}{wrong[0]}")
            else:
                options[key] = table[key]
    shadow_to = r.get("shadow_to", str, "")
    pm_subject = r.get("pm_subject", str, "")
    publish = r.get("publish", bool, True)
    r.unknown(_GAME_KEYS)
    if len(problems) > before or schedule is None:
        return None
    return GameConfig(name=name, forum=forum, variant=variant, game_thread=game_thread, vote_thread=vote_thread,
                      players=players, gms=tuple(gms), schedule=schedule, mode=mode, language=language,
                      options=options, shadow_to=shadow_to, pm_subject=pm_subject, publish=publish)


def _parse_players(r: _Reader, items: list) -> tuple[PlayerSpec, ...]:
    players: list[PlayerSpec] = []
    seen: set[str] = set()
    for i, item in enumerate(items or []):
        if isinstance(item, str):
            nick, role = item, None
        elif isinstance(item, dict) and isinstance(item.get("nick"), str):
            nick, role = item["nick"], item.get("role")
            unknown = set(item) - {"nick", "role"}
            if unknown:
                r.problem(f"players[{i}]", f"unknown key(s) {', '.join(sorted(unknown))}")
        else:
            r.problem(f"players[{i}]", 'expected a nickname or {nick = "...", role = "..."}')
            continue
        if not nick.strip():
            r.problem(f"players[{i}]", "empty nickname")
            continue
        if nick.casefold() in seen:
            r.problem(f"players[{i}]", f"duplicate nickname {nick!r}")
        seen.add(nick.casefold())
        parsed_role = None
        if role is not None:
            try:
                parsed_role = Role(role)
            except ValueError:
                r.problem(f"players[{i}].role", f"unknown role {role!r} (known: {', '.join(x.value for x in Role)})")
        players.append(PlayerSpec(nick=nick, role=parsed_role))
    return tuple(players)


def _parse_schedule(r: _Reader) -> Schedule | None:
    start = r.get("start", (datetime, str), None, required=True)
    tz_name = r.get("timezone", str, "Europe/Moscow")
    try:
        tz = ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError):
        r.problem("timezone", f"unknown time zone {tz_name!r}")
        tz = None
    if isinstance(start, str):
        try:
            start = datetime.fromisoformat(start)
        except ValueError:
            r.problem("start", f"not a date-time: {start!r} (write e.g. 2026-12-01T10:00:00+03:00)")
            start = None
    if isinstance(start, datetime) and start.tzinfo is None and tz is not None:
        start = start.replace(tzinfo=tz)  # a local time is read in the game's time zone
    if isinstance(start, datetime) and not 2000 <= start.year <= 2999:
        r.problem("start", f"year {start.year}? (write e.g. 2026-12-01T10:00:00+03:00)")
        start = None
    lengths = {key: r.number(key, default, 0, MAX_PHASE_HOURS, low_open=True)
               for key, default in (("day_hours", 24), ("night_hours", 12), ("runoff_hours", 12))}
    if not isinstance(start, datetime) or tz is None:
        return None
    return Schedule(start=start, day=timedelta(hours=lengths["day_hours"]),
                    night=timedelta(hours=lengths["night_hours"]), runoff=timedelta(hours=lengths["runoff_hours"]),
                    timezone=tz_name)


def shared_threads(games: Mapping[str, GameConfig], name: str) -> list[tuple[str, str]]:
    """(key, other game) for each thread of game `name` that another configured game on its forum also names.

    Not a problem in itself: a season plays game after game in the same threads, each game reading only what
    was posted from its own `game start` on. Two games may not *run* in one thread at once; `game start`
    refuses that, since only the database knows which games are running."""
    game = games[name]
    found = []
    for key in ("game_thread", "vote_thread"):
        thread = getattr(game, key)
        found += [(key, other.name) for other in games.values() if other.name != name and other.forum == game.forum
                  and thread in (other.game_thread, other.vote_thread)]
    return found
