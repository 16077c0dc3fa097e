"""`init` and `check-config`'s offline checks: the example file, the setups the rules refuse, the forums `tick`
could not open, and games whose Day 1 would be over before they start."""

from __future__ import annotations

import inspect
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Callable, Collection, Mapping
from zoneinfo import ZoneInfo

from forumbot.config.types import Config, ForumConfig
from forumbot.errors import ConfigError, SetupError
from forumbot.model import GameSetup
from forumbot.options import closest
from forumbot.forum.adapter import ThreadAddressProblem
from forumbot.forum.registry import adapter_factory, constructor_from_config, engine_class
from forumbot.texts import TABLES, setup_said
from forumbot.game import run


# The example in each language, its comments in it (issue 28: a Russian GM read `init`'s file in English); the
# settings are the same, line for line (tests/test_init_example.py holds them so).
EXAMPLES = {"ru": "examples/forumbot.ru.toml", "en": "examples/forumbot.toml"}


def example_config(language: str = "ru") -> str:
    """The example forumbot.toml, commented in `language`, its game in that language."""
    text = resources.files("forumbot").joinpath(EXAMPLES.get(language, EXAMPLES["ru"])).read_text(encoding="utf-8")
    return text.replace('\nlanguage = "ru"', f'\nlanguage = "{language}"', 1)


def write_example(path: Path, force: bool = False, language: str = "ru") -> None:
    """The example, commented in `language` and its game in it (`forumbot init --lang`)."""
    if path.exists() and not force:
        raise ConfigError(TABLES[language]["init.exists"].format(path=path))
    path.write_text(example_config(language), encoding="utf-8")


def check_setups(config: Config, validate: Callable[[GameSetup], None] | None = None) -> list[str]:
    """Problems the rules see in each configured game: player count, roles, cast, each in its game's language."""
    problems = []
    for game in config.games.values():
        forum = config.forums[game.forum]
        setup = game.setup(seed=0, bot=forum.login, markup=forum.markup, planned=True)
        try:
            (validate or core_validate)(setup)
        except SetupError as e:
            problems.append(f"games.{game.name}: {setup_said(e, TABLES[game.language])}")
    return problems


def check_forums(config: Config, environ: Mapping[str, str], t: Mapping[str, str]) -> list[str]:
    """Problems `tick` would meet opening each forum: an adapter that cannot be loaded, an unset password (in the
    GMs' language `t`, issue 28 item 2)."""
    problems = []
    for forum in config.forums.values():
        try:
            factory = adapter_factory(forum.engine)
        except ConfigError as e:
            problems.append(f"forums.{forum.name}.engine: {e}")
        else:
            problems += _keys_unread(forum, factory)
        # the password and any key an adapter reads from the environment (Discourse's admin_api_key_env, ...)
        secrets = {"password_env": forum.password_env} | {
            k: v for k, v in forum.extra.items() if k.endswith("_env") and isinstance(v, str)}
        for key, variable in secrets.items():
            if variable and variable not in environ:
                problems.append(t["check.env_unset"].format(setting=f"forums.{forum.name}.{key}", variable=variable))
    for game in config.games.values():
        problems += thread_problems(config, game.name)
    return problems


def thread_problems(config: Config, game_name: str) -> list[str]:
    """A game's game_thread, vote_thread and signup.thread that name no thread on its forum's engine (a forum's or
    a post's address), as the adapter's class method `thread_problem(thread, base_url)` sees them, offline."""
    game = config.games[game_name]
    forum = config.forums[game.forum]
    try:
        cls = engine_class(forum.engine)
    except ConfigError:  # check_forums names an engine that cannot be loaded
        return []
    if cls is None:
        return []
    check = cls.thread_problem
    t = TABLES[game.language]  # issue 28 item 2: the game's GMs read it in its language
    problems = []
    for key, thread in game.keyed_threads:
        problem = check(thread, forum.base_url)
        if problem:
            said = problem.said(t) if isinstance(problem, ThreadAddressProblem) else problem
            problems.append(f"games.{game.name}.{key}: {said}")
    return problems


def _keys_unread(forum: ForumConfig, factory: Callable) -> list[str]:
    """For an adapter of one's own ("module:attr"): the forum table's keys its constructor does not take (the
    shipped engines' keys are checked by the config itself)."""
    if ":" not in forum.engine or constructor_from_config(factory) is not None:
        return []
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return []
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return []
    return [f"forums.{forum.name}.{key}: unknown setting: {forum.engine} takes none such{closest(key, parameters)}"
            for key in sorted(set(forum.extra) - set(parameters))]


def late_starts(config: Config, now: datetime, t: Mapping[str, str], started: Collection[str] = ()) -> list[str]:
    """Warnings for games not started yet whose Day 1 would be over before it began: `game start` would play
    them out in one tick (issue 7 item 14)."""
    warnings = []
    for game in config.games.values():
        schedule = game.schedule
        deadline = schedule.start + schedule.day
        if game.name not in started and deadline <= now and game.signup is None:  # a sign-up sets Day 1 (S-3)
            shown = deadline.astimezone(ZoneInfo(schedule.timezone))
            warnings.append(t["check.late_start"].format(game=game.name,
                                                         at=f"{shown:%Y-%m-%d %H:%M} {schedule.timezone}"))
    return warnings


def core_validate(setup: GameSetup) -> None:
    """Let the rules engine judge the setup: player count, cast, roles, names (it raises SetupError)."""
    run(setup, [], until=setup.schedule.start - timedelta(microseconds=1))
