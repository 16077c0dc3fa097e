"""The daemon's subcommands: init, check-config, db upgrade, tick, run, game list|status|start.

forumbot/cli.py registers them with `add_daemon_commands(subparsers)` and maps expected failures to one line on
stderr and an exit code: 0 ok, 2 bad configuration or setup (an outdated database schema included), 3 a forum
unreachable after retries.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

from forumbot.cli import EXIT_CONFIG, EXIT_OK, EXIT_UNREACHABLE
from forumbot.config import Config, load_config
from forumbot.errors import ConfigError

DEFAULT_CONFIG = "forumbot.toml"


def add_daemon_commands(subparsers: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-c", "--config", default=os.environ.get("FORUMBOT_CONFIG", DEFAULT_CONFIG),
                        help="configuration file (default: $FORUMBOT_CONFIG or ./forumbot.toml)")

    p = subparsers.add_parser("init", help="write a commented example forumbot.toml")
    p.add_argument("path", nargs="?", default=DEFAULT_CONFIG)
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.set_defaults(func=cmd_init)

    p = subparsers.add_parser("check-config", parents=[common], help="validate the configuration, naming each problem")
    p.add_argument("--online", action="store_true", help="also log in to each forum and open every thread")
    p.set_defaults(func=cmd_check_config)

    p = subparsers.add_parser("db", help="database maintenance")
    db = p.add_subparsers(dest="db_command", required=True)
    p = db.add_parser("upgrade", parents=[common], help="create the database or bring its schema up to date")
    p.set_defaults(func=cmd_db_upgrade)

    p = subparsers.add_parser("tick", parents=[common], help="run one poll cycle over every running game (cron)")
    p.set_defaults(func=cmd_tick)

    p = subparsers.add_parser("run", parents=[common], help="run a cycle every poll_seconds until SIGTERM/SIGINT")
    p.set_defaults(func=cmd_run)

    p = subparsers.add_parser("game", help="list, inspect and start games")
    games = p.add_subparsers(dest="game_command", required=True)
    p = games.add_parser("list", parents=[common], help="every configured or stored game and its state")
    p.set_defaults(func=cmd_game_list)
    p = games.add_parser("status", parents=[common], help="one game's state, seats and outbox")
    p.add_argument("name")
    p.set_defaults(func=cmd_game_status)
    p = games.add_parser("start", parents=[common], help="draw roles with a recorded seed and start the game")
    p.add_argument("name")
    p.set_defaults(func=cmd_game_start)


def _config(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    logging.basicConfig(level=config.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if config.log_level != "DEBUG":
        logging.getLogger("alembic").setLevel(logging.WARNING)  # it narrates every schema check
    return config


def _now() -> datetime:
    return datetime.now(timezone.utc)


# --- commands -----------------------------------------------------------------------------------------------


def cmd_init(args: argparse.Namespace) -> int:
    from forumbot.lifecycle import write_example

    path = Path(args.path)
    write_example(path, force=args.force)
    print(f"wrote {path}; edit it, then run `forumbot check-config` and `forumbot db upgrade`")
    return EXIT_OK


def cmd_check_config(args: argparse.Namespace) -> int:
    from forumbot.daemon import check_online, config_warnings
    from forumbot.lifecycle import check_setups

    config = _config(args)
    for warning in config_warnings(config):
        print(f"forumbot: warning: {warning}", file=sys.stderr)
    problems = check_setups(config)
    for problem in problems:
        print(f"forumbot: {problem}", file=sys.stderr)
    if problems:
        return EXIT_CONFIG
    if args.online:
        unreachable = check_online(config, os.environ)
        for problem in unreachable:
            print(f"forumbot: {problem}", file=sys.stderr)
        if unreachable:
            return EXIT_UNREACHABLE
    print(f"{config.path}: ok ({len(config.forums)} forum(s), {len(config.games)} game(s))")
    return EXIT_OK


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from forumbot.store import open_engine, upgrade
    from forumbot.store.schema import current_revision

    config = _config(args)
    engine = open_engine(config.database_url)
    try:
        upgrade(engine)
        print(f"database at schema version {current_revision(engine)}")
    finally:
        engine.dispose()
    return EXIT_OK


def _daemon(config: Config):
    from forumbot.daemon import Daemon

    return Daemon(config)


def cmd_tick(args: argparse.Namespace) -> int:
    from forumbot.daemon import describe, exit_code

    daemon = _daemon(_config(args))
    try:
        report = daemon.cycle()
    finally:
        daemon.close()
    code = exit_code(report)
    if code:
        print(f"forumbot: {describe(report)}", file=sys.stderr)
    return code


def cmd_run(args: argparse.Namespace) -> int:
    from forumbot.daemon import run_forever

    daemon = _daemon(_config(args))
    try:
        return run_forever(daemon)
    finally:
        daemon.close()


def _sessions(config: Config):
    from forumbot.store import open_engine, require_current, session_factory

    engine = open_engine(config.database_url)
    require_current(engine)
    return session_factory(engine)


def cmd_game_list(args: argparse.Namespace) -> int:
    from forumbot.lifecycle import list_games

    config = _config(args)
    for name, status, mode in list_games(_sessions(config), config):
        print(f"{name}\t{status}\t{mode}")
    return EXIT_OK


def cmd_game_status(args: argparse.Namespace) -> int:
    from forumbot.lifecycle import game_status

    config = _config(args)
    print(game_status(_sessions(config), config, args.name, _now()))
    return EXIT_OK


def cmd_game_start(args: argparse.Namespace) -> int:
    from forumbot.lifecycle import check_setups, start_game

    config = _config(args)
    if args.name in config.games:
        problems = [p for p in check_setups(config) if p.startswith(f"games.{args.name}:")]
        if problems:
            raise ConfigError(problems[0])
    started = start_game(_sessions(config), config, args.name, _now())
    # the seed stays secret until the game ends: printing it (or the roles) would let whoever reads this
    # terminal know every role
    print(f"{started.name}: started; commitment {started.commitment}. "
          "The next tick sends the role PMs and posts the commitment.")
    return EXIT_OK
