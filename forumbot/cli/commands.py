"""The daemon's subcommands: init, check-config, db upgrade|restored, tick, run, game
list|status|start|stop|export, outbox.

forumbot/cli/main.py registers them with `add_daemon_commands(subparsers)` and maps expected failures to one line on
stderr and an exit code: 0 ok, 2 bad configuration or setup (an outdated database schema included), 3 a forum
unreachable after retries.

The commands live by what they do: cli_check (check-config), cli_probe (probe), cli_games (game ..., outbox);
what they share is in cli_common.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime
from pathlib import Path

from sqlalchemy.exc import DBAPIError

from forumbot.cli.check import cmd_check_config
from forumbot.cli.common import DEFAULT_CONFIG, config_from_args, open_store
from forumbot.cli.games import (
    cmd_game_export, cmd_game_list, cmd_game_start, cmd_game_status, cmd_game_stop, cmd_outbox,
)
from forumbot.cli.probe import cmd_probe
from forumbot.config.types import Config
from forumbot.disk import disk_problem
from forumbot.errors import ConfigError
from forumbot.exit_codes import EXIT_CONFIG, EXIT_OK
from forumbot.texts import TABLES
from forumbot.outbox.restore import note_restored
from forumbot.store import open_engine, upgrade
from forumbot.store.schema import current_revision


def add_daemon_commands(subparsers: argparse._SubParsersAction,
                        quiet: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """Adds the daemon's commands; returns their common parent parser (-c, -v/-q) for the pages commands."""
    common = argparse.ArgumentParser(add_help=False, parents=[quiet] if quiet else [])
    common.add_argument("-c", "--config", default=os.environ.get("FORUMBOT_CONFIG", DEFAULT_CONFIG),
                        help="configuration file (default: $FORUMBOT_CONFIG or ./forumbot.toml)")

    p = subparsers.add_parser("init", parents=[quiet] if quiet else [], help="write a commented example forumbot.toml")
    p.add_argument("path", nargs="?", default=DEFAULT_CONFIG, help=f"where to write it (default: {DEFAULT_CONFIG})")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.add_argument("--lang", choices=sorted(TABLES), default="ru",
                   help="the example game's language and this command's own (default: ru)")
    p.set_defaults(func=cmd_init)

    p = subparsers.add_parser("check-config", parents=[common], help="validate the configuration, naming each problem")
    p.add_argument("--online", action="store_true", help="also log in to each forum and open every thread")
    p.set_defaults(func=cmd_check_config)

    p = subparsers.add_parser("probe", parents=[common],
                              help="log in, read one thread page and the inbox, print what the bot understood")
    p.add_argument("url", nargs="?", help="a thread (default: the first game's game_thread on that forum)")
    p.add_argument("--forum", help="the forum table to use (default: the only one)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--guest", action="store_true", help="read a public thread without logging in")
    p.add_argument("--engine", help="the engine, with --guest and no forum table (default: detected)")
    p.add_argument("--handshake", action="store_true",
                   help="log in, read the game's two threads, PM the first GM a code; run again to read the reply")
    p.set_defaults(func=cmd_probe)

    p = subparsers.add_parser("db", help="database maintenance")
    db = p.add_subparsers(dest="db_command", required=True)
    p = db.add_parser("upgrade", parents=[common], help="create the database or bring its schema up to date")
    p.set_defaults(func=cmd_db_upgrade)
    p = db.add_parser("restored", parents=[common],
                      help="after putting back a copy of the database: the next tick looks on the forum for every "
                           "message before it sends it")
    p.set_defaults(func=cmd_db_restored)

    p = subparsers.add_parser("tick", parents=[common], help="run one poll cycle over every running game (cron)")
    p.set_defaults(func=cmd_tick)

    p = subparsers.add_parser("run", parents=[common], help="run a cycle every poll_seconds until SIGTERM/SIGINT")
    p.set_defaults(func=cmd_run)

    p = subparsers.add_parser("game", help="list, inspect, start, stop and export games")
    games = p.add_subparsers(dest="game_command", required=True, metavar="GAME_COMMAND")
    p = games.add_parser("list", parents=[common], help="every configured or stored game and its state")
    p.set_defaults(func=cmd_game_list)
    p = games.add_parser("status", parents=[common], help="one game's state, seats and outbox; or how it ended")
    p.add_argument("name", help="the game's name (its [games.NAME] table)")
    p.set_defaults(func=cmd_game_status)
    p = games.add_parser("start", parents=[common], help="draw roles with a recorded seed and start the game")
    p.add_argument("name", help="the game's name (its [games.NAME] table)")
    p.set_defaults(func=cmd_game_start)
    p = games.add_parser("stop", parents=[common],
                         help="end a running game now: a post says so and reveals the roles; no more ticks")
    p.add_argument("name", help="the game's name (its [games.NAME] table)")
    p.add_argument("--reason", default="", help="a line added to the closing post (e.g. why the game stopped)")
    p.set_defaults(func=cmd_game_stop)
    p = games.add_parser("export", parents=[common],
                         help="write the stored game as a transcript that `forumbot replay` plays again")
    p.add_argument("name", help="the game's name (its [games.NAME] table)")
    p.add_argument("-o", "--output", help="the file to write (default: standard output)")
    p.add_argument("--until", type=_iso_time, metavar="TIME",
                   help="for a running game: export it as a tick at this ISO 8601 time (with offset) would fold "
                        "it (default: now); an ended game always exports to its end")
    p.set_defaults(func=cmd_game_export)

    p = subparsers.add_parser("outbox", parents=[common],
                              help="list a game's stuck messages, or retry or drop one by its key")
    p.add_argument("name", help="the game's name (its [games.NAME] table)")
    p.add_argument("action", nargs="?", choices=("list", "retry", "drop"), default="list",
                   help="list (default): every message not delivered; retry KEY: send it again next tick; "
                        "drop KEY: never send it")
    p.add_argument("key", nargs="?", help="the message's key, as `forumbot outbox NAME` lists it")
    p.set_defaults(func=cmd_outbox)
    return common


def _iso_time(text: str) -> datetime:
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO 8601 time (e.g. 2026-12-01T22:00:00+03:00)")
    if at.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{text!r} has no UTC offset (e.g. +03:00)")
    return at

# --- commands -----------------------------------------------------------------------------------------------


def cmd_init(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.config.checks import write_example

    path = Path(args.path)
    t = TABLES[args.lang]
    if path.exists() and not args.force:
        raise ConfigError(t["init.exists"].format(path=path))
    write_example(path, force=True, language=args.lang)
    print(t["init.wrote"].format(path=path))
    return EXIT_OK


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    engine = open_engine(config.database_url)
    try:
        upgrade(engine)
        print(config.gm_texts["db.upgraded"].format(version=current_revision(engine)))  # issue 28
    finally:
        engine.dispose()
    return EXIT_OK


def cmd_db_restored(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    sessions = open_store(config)
    with sessions.begin() as session:
        games = note_restored(session)
    named = f" ({', '.join(games)})" if games else ""
    print(config.gm_texts["db.restored"].format(n=len(games), named=named))
    return EXIT_OK


def _daemon(config: Config, args: argparse.Namespace):
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.cycle.daemon import Daemon

    clock = getattr(args, "clock", None)  # a test's clock, handed to `cli.main`
    return Daemon(config) if clock is None else Daemon(config, clock=clock)


def cmd_tick(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.cycle.daemon import describe, exit_code

    config = config_from_args(args)
    try:
        daemon = _daemon(config, args)
        try:
            report = daemon.cycle()
            if getattr(args, "verbosity", None) != "WARNING":
                # imported here: a quiet (-q, cron) tick prints no summary and never loads it
                from forumbot.cycle.summary import tick_summary

                for line in tick_summary(daemon.sessions, report):
                    print(line)
        finally:
            daemon.close()
    except (DBAPIError, OSError) as e:
        # a disk that filled up or turned read-only outside a game's cycle (a read-only SQLite file refuses
        # even the listing: every transaction begins IMMEDIATE): one line naming it (issue 26 item 10)
        problem = disk_problem(e, config.database_url)
        if problem is None:
            raise
        print(f"forumbot: {problem}", file=sys.stderr)
        return EXIT_CONFIG
    code = exit_code(report)
    if code:
        print(f"forumbot: {describe(report)}", file=sys.stderr)
    return code


def cmd_run(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.cycle.daemon import run_forever

    config = config_from_args(args)
    daemon = _daemon(config, args)
    print(f"forumbot: running {len(config.games)} configured game(s) from {config.path}, a cycle every "
          f"{config.poll_seconds} s; stop with SIGTERM or Ctrl-C", file=sys.stderr, flush=True)
    code: int | None = None
    try:
        code = run_forever(daemon)
        return code
    finally:
        daemon.close()
        how = f"exit {code}" if code is not None else "by an error"
        print(f"forumbot: stopped ({how})", file=sys.stderr, flush=True)
