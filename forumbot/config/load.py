"""The daemon's configuration: one TOML file (forumbot.toml) read into dataclasses.

Loading never stops at the first problem: every problem found is named, with its place in the file, so a GM
fixes them all in one go. Passwords are not in the file, only the name of the environment variable that
holds each one.

Its parts: config_types (the dataclasses and allowed values), config_reader (typed access to a table),
config_forums and config_games (one table each); this module reads the file and its top-level keys.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from forumbot.config.forums import default_board_zones, parse_forum
from forumbot.config.games import parse_game
from forumbot.config.pages import parse_pages
from forumbot.config.reader import Reader
from forumbot.config.season import parse_season
from forumbot.config.types import Config, ConfigProblems
from forumbot.errors import ConfigError
from forumbot.names import name_problem
from forumbot.texts import TABLES, gm_language, in_both


def default_database_url(config_path: Path) -> str:
    return f"sqlite:///{(config_path.parent / 'forumbot.db').resolve()}"


def load_config(path: str | Path) -> Config:
    """Read and validate `path`; raise ConfigError naming every problem found."""
    path = Path(path)
    # issue 28: the file unread, its games' language is not known yet: said in Russian, the games' default, and
    # in English, each once (the reader's own words once, after both)
    try:
        raw = tomllib.loads(read_utf8(path))
    except FileNotFoundError:
        raise ConfigError(f"{path}: {in_both('config.file.missing')}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: {in_both('config.file.toml')}: {e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: {in_both('config.file.unreadable')}: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: {in_both('config.file.utf8', **bad_utf8(e))}") from None
    problems: list[str] = []
    config = _parse(path, raw, problems)
    if problems:
        raise ConfigProblems(path, problems)
    assert config is not None
    return config


def read_utf8(path: Path) -> str:
    """The file's text; UnicodeDecodeError (see describe_bad_utf8) when it is not UTF-8."""
    return path.read_bytes().decode("utf-8")


def bad_utf8(e: UnicodeDecodeError) -> dict[str, int]:
    """The first byte that is not UTF-8 and its line: the params of the text `config.file.utf8`."""
    return {"byte": e.object[e.start], "line": e.object[:e.start].count(b"\n") + 1}


def describe_bad_utf8(e: UnicodeDecodeError) -> str:
    """The first byte that is not UTF-8 and its line, in English (a transcript's language)."""
    return TABLES["en"]["config.file.utf8"].format(**bad_utf8(e))


_TOP_KEYS = {"database", "poll_seconds", "grace_seconds", "retries", "backoff_seconds", "log_level", "forums",
             "games", "pages", "season"}


def _parse(path: Path, raw: dict, problems: list[str]) -> Config | None:
    games_raw = raw.get("games")
    # issue 28 item 2: the problems in the GMs' language, read off the games' tables before they are checked
    t = TABLES[gm_language([str(g.get("language", "ru")) for g in games_raw.values() if isinstance(g, dict)]
                           if isinstance(games_raw, dict) else [])]
    top = Reader(raw, path.name, problems, t)
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
        top.problem("log_level", t["config.log_level"].format(level=log_level))
    top.unknown(_TOP_KEYS)

    forums_raw = top.get("forums", dict, {}, required=True) or {}
    games_raw = top.get("games", dict, {}, required=True) or {}
    forums = {}
    for name, table in forums_raw.items():
        if (problem := name_problem(name, t)) is not None:
            problems.append(f"forums: {problem}")  # it names a state file (.handshake-NAME.json)
        if not isinstance(table, dict):
            problems.append(f"forums.{name}: {t['config.expected_table']}")
            continue
        forums[name] = parse_forum(name, table, problems, t)
    if not forums and "forums" in raw:
        problems.append(f"forums: {t['config.no_forums']}")
    games = {}
    for name, table in games_raw.items():
        if (problem := name_problem(name, t)) is not None:
            problems.append(f"games: {problem}")  # it names the game's folder of the public pages
        if not isinstance(table, dict):
            problems.append(f"games.{name}: {t['config.expected_table']}")
            continue
        game = parse_game(name, table, forums, problems, t)
        if game is not None:
            games[name] = game
    forums = default_board_zones(forums, games, problems, t)
    pages = parse_pages(raw.get("pages"), path, problems, t)
    season = parse_season(raw.get("season"), games, problems, t)
    return Config(path=path, database_url=database, forums=forums, games=games, poll_seconds=poll,
                  grace_seconds=grace, retries=retries, backoff_seconds=float(backoff), log_level=log_level,
                  pages=pages, season=season)
