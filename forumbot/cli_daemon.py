"""The daemon's subcommands: init, check-config, db upgrade, tick, run, game list|status|start|stop|export,
outbox.

forumbot/cli.py registers them with `add_daemon_commands(subparsers)` and maps expected failures to one line on
stderr and an exit code: 0 ok, 2 bad configuration or setup (an outdated database schema included), 3 a forum
unreachable after retries.
"""

from __future__ import annotations

import argparse
import logging
import os
import stat
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from forumbot.exit_codes import EXIT_CONFIG, EXIT_OK, EXIT_UNREACHABLE
from forumbot.config import Config, load_config
from forumbot.errors import ConfigError

DEFAULT_CONFIG = "forumbot.toml"


def add_daemon_commands(subparsers: argparse._SubParsersAction,
                        quiet: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """Adds the daemon's commands; returns their common parent parser (-c, -v/-q) for the pages commands."""
    common = argparse.ArgumentParser(add_help=False, parents=[quiet] if quiet else [])
    common.add_argument("-c", "--config", default=os.environ.get("FORUMBOT_CONFIG", DEFAULT_CONFIG),
                        help="configuration file (default: $FORUMBOT_CONFIG or ./forumbot.toml)")

    p = subparsers.add_parser("init", parents=[quiet] if quiet else [], help="write a commented example forumbot.toml")
    p.add_argument("path", nargs="?", default=DEFAULT_CONFIG, help=f"where to write it (default: {DEFAULT_CONFIG})")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
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


def _config(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    level = getattr(args, "verbosity", None) or config.log_level  # -v/-q win over the file's log_level
    logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)  # cli.main may have configured logging before the file was read
    if level != "DEBUG":
        logging.getLogger("alembic").setLevel(logging.WARNING)  # it narrates every schema check
    return config


def _now(args: argparse.Namespace) -> datetime:
    """The command's "now": the real clock, unless `cli.main` was handed another one (tests give the CLI their
    clock, so no test depends on the day it runs)."""
    clock = getattr(args, "clock", None)
    return clock() if clock is not None else datetime.now(timezone.utc)


# --- commands -----------------------------------------------------------------------------------------------


def cmd_init(args: argparse.Namespace) -> int:
    from forumbot.lifecycle import write_example

    path = Path(args.path)
    write_example(path, force=args.force)
    print(f"wrote {path}; edit it, then run `forumbot check-config` and `forumbot db upgrade`")
    return EXIT_OK


def cmd_check_config(args: argparse.Namespace) -> int:
    from forumbot.daemon import config_warnings
    from forumbot.cast_summary import cast_summaries
    from forumbot.lifecycle import check_forums, check_setups, late_starts, thread_warnings

    config = _config(args)
    for warning in config_warnings(config):
        print(f"forumbot: warning: {warning}", file=sys.stderr)
    problems = check_setups(config) + check_forums(config, os.environ)
    for problem in problems:
        print(f"forumbot: {problem}", file=sys.stderr)
    if problems:
        return EXIT_CONFIG
    statuses = _game_statuses(config)
    for warning in late_starts(config, _now(args), set(statuses)) + thread_warnings(config, statuses):
        print(f"forumbot: warning: {warning}", file=sys.stderr)
    for line in cast_summaries(config):
        print(line)
    if args.online:
        verified: list[str] = []
        wrong, unreachable, warnings = check_online(config, os.environ, now=_now(args), verified=verified)
        for line in verified:
            print(line)
        for warning in warnings:
            print(f"forumbot: warning: {warning}", file=sys.stderr)
        for problem in wrong + unreachable:
            print(f"forumbot: {problem}", file=sys.stderr)
        if wrong:
            return EXIT_CONFIG
        if unreachable:
            return EXIT_UNREACHABLE
        from forumbot.pages.commands import probe_public_url

        problem = probe_public_url(config)
        if problem:
            print(f"forumbot: {problem}", file=sys.stderr)
            return EXIT_CONFIG
    print(f"{config.path}: ok ({len(config.forums)} forum(s), {len(config.games)} game(s))")
    return EXIT_OK


def cmd_probe(args: argparse.Namespace) -> int:
    """issue 9 item 4: exit 0 when every selector the bot needs matched, 2 naming each that did not."""
    import json

    from forumbot.probe import probe, to_text

    if args.handshake:
        from forumbot.handshake import cmd_handshake

        return cmd_handshake(args, _config(args), _probe_target)
    adapter, forum_name, thread, zone = _probe_target(args)
    report = probe(adapter, thread, forum=forum_name, guest=args.guest)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1))
    else:
        print(to_text(report, zone))
    for problem in report.problems:
        print(f"forumbot: {problem}", file=sys.stderr)
    return EXIT_CONFIG if report.problems else EXIT_OK


def _probe_target(args: argparse.Namespace) -> tuple[object, str, str, str]:
    """The adapter, forum name and thread `probe` reads, and the zone to show times in (the zone of the forum's
    games, when they agree): from the config's forum table, or (a guest with a thread URL and no config file) from
    the URL and --engine or the engine the page shows."""
    from dataclasses import replace

    from forumbot.daemon import build_adapter
    from forumbot.registry import adapter_factory

    if args.guest and args.url and not Path(args.config).exists():
        return _guest_adapter(args.url, args.engine), "", args.url, ""
    config = _config(args)
    forums = config.forums
    if args.forum is not None and args.forum not in forums:
        raise ConfigError(f"--forum: no forum named {args.forum!r} (known: {', '.join(sorted(forums))})")
    if args.forum is None and len(forums) > 1:
        raise ConfigError(f"--forum: {len(forums)} forums configured, name one ({', '.join(sorted(forums))})")
    forum = forums[args.forum] if args.forum else next(iter(forums.values()))
    thread = args.url or next((g.game_thread for g in config.games.values() if g.forum == forum.name), "")
    if not thread:
        raise ConfigError(f"forums.{forum.name}: no game on it names a thread; give one: forumbot probe URL")
    if args.engine:
        adapter_factory(args.engine)  # an unknown name is one line, here
        forum = replace(forum, engine=args.engine)
    if args.guest:
        forum = replace(forum, password_env="")
    zones = {g.schedule.timezone for g in config.games.values() if g.forum == forum.name}
    return build_adapter(forum, os.environ), forum.name, thread, zones.pop() if len(zones) == 1 else ""


def _guest_adapter(url: str, engine: str | None) -> object:
    from urllib.parse import urlsplit

    from forumbot.registry import adapter_factory, detect_engine
    from forumbot.transport import Transport

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{url!r}: not an http(s) URL of a thread")
    origin = f"{parts.scheme}://{parts.netloc}"
    if not engine:
        page = Transport(origin + "/", bot="probe").get(url)
        engine = detect_engine(page.tree(), page.content.decode(page.charset or "utf-8", "replace"))
        if engine is None:
            raise ConfigError(f"{url}: no engine recognised on the page; name it with --engine")
    factory = adapter_factory(engine)
    # the board's root is what comes before the engine's topic path ("viewtopic.php", "threads/", "topic/")
    topic_path = getattr(getattr(factory, "profile", None), "urls", {}).get("topic", "").split("{")[0].split("?")[0]
    cut = parts.path.find(topic_path) if topic_path else -1
    root = parts.path[:cut] if cut >= 0 else parts.path.rsplit("/", 1)[0] + "/"
    return factory(origin + (root if root.endswith("/") else root + "/"), "guest")


def _game_statuses(config: Config) -> dict[str, str]:
    """The games already in the database, by name, with their status; none when there is no usable database
    yet (check-config creates nothing)."""
    from sqlalchemy import select
    from sqlalchemy.exc import SQLAlchemyError

    from forumbot.store import open_engine
    from forumbot.store.models import Game

    url = config.database_url
    if url.startswith("sqlite:///") and not Path(url[len("sqlite:///"):]).exists():
        return {}
    try:
        engine = open_engine(url)
        try:
            with engine.connect() as connection:
                return dict(connection.execute(select(Game.name, Game.status)).all())
        finally:
            engine.dispose()
    except SQLAlchemyError:
        return {}


def check_online(config: Config, environ, factory=None, now: datetime | None = None,
                 verified: list[str] | None = None) -> tuple[list[str], list[str], list[str]]:
    """`check-config --online`: log in to each forum, compare the zone its board shows the bot with the one
    its dates are read in, and read each game's threads. Returns (what the config gets wrong, what could not
    be reached, warnings), one line each naming the setting; `verified` gets one line per check that passed, so
    the GM knows what "ok" covered (issue 17 item 15)."""
    verified = [] if verified is None else verified
    from forumbot.registry import rough_times_warning
    from forumbot.daemon import build_adapter
    from forumbot.errors import ForumError

    factory = factory or build_adapter
    now = now or datetime.now(timezone.utc)
    wrong: list[str] = []
    unreachable: list[str] = []
    warnings: list[str] = []
    for forum in config.forums.values():
        try:
            adapter = factory(forum, environ)
            adapter.login()
        except ConfigError as e:
            wrong.append(str(e))
            continue
        except ForumError as e:
            unreachable.append(f"forums.{forum.name}: cannot log in: {e}")
            continue
        verified.append(f"verified: forums.{forum.name}: logged in as {forum.login}")
        try:
            mismatch, zone_seen = _zone_mismatch(forum, adapter, now)
        except ForumError as e:
            unreachable.append(f"forums.{forum.name}: cannot read the board's time zone: {e}")
        else:
            if mismatch:
                wrong.append(mismatch)
            elif zone_seen:
                verified.append(f"verified: forums.{forum.name}: the board shows the bot's times in {zone_seen}, "
                                "the zone they are read in")
            else:
                verified.append(f"not verified: forums.{forum.name}: the board's time zone (this engine does not "
                                "show the account's zone); dates are read in "
                                + (forum.timezone_name or "the zone each page gives"))
        threads: list[str] = []
        named: list[str] = []  # threads the engine can name, read or not: the probe says what it failed to find
        for game in config.games.values():
            if game.forum != forum.name:
                continue
            spans = []
            for key in ("game_thread", "vote_thread"):
                thread = getattr(game, key)
                try:
                    if hasattr(adapter, "topic_id"):
                        adapter.topic_id(thread)
                    named.append(thread)
                    posts, _ = adapter.fetch_posts(thread)
                except ValueError as e:  # not a topic this engine can name
                    wrong.append(f"games.{game.name}.{key}: {e} (give the topic's address or number)")
                except ForumError as e:
                    unreachable.append(f"games.{game.name}.{key}: cannot read {thread}: {e}")
                else:
                    spans += [(p.posted_at, getattr(p, "posted_latest", None)) for p in posts]
                    threads.append(thread)
                    verified.append(f"verified: games.{game.name}.{key}: read {thread} "
                                    f"({len(posts)} post(s) on its first page)")
            rough = rough_times_warning(forum.engine, spans)  # a warning only: the game runs either way (C-1)
            if rough:
                warnings.append(f"games.{game.name}: {rough}")
        if named and hasattr(getattr(adapter, "profile", None), "selectors"):
            # issue 9 item 4: what `forumbot probe` checks, quietly: each selector the bot needs matched
            from forumbot.probe import probe

            try:
                report = probe(adapter, named[0], forum=forum.name, login=False)
            except ForumError as e:
                unreachable.append(f"forums.{forum.name}: cannot read {named[0]} or the inbox: {e}")
            else:
                wrong.extend(p if p.startswith("forums.") else f"forums.{forum.name}: {p}" for p in report.problems)
                if not report.problems:
                    verified.append(f"verified: forums.{forum.name}: every selector the bot needs matched the "
                                    "thread page"
                                    + ("" if report.inbox is None else " and the inbox"))
        check = getattr(adapter, "check_account", None)  # optional: what the account lacks (Discourse)
        if check is not None:
            try:
                wrong.extend(f"forums.{forum.name}: {p}" for p in check(threads))
            except ForumError as e:
                unreachable.append(f"forums.{forum.name}: cannot read the account: {e}")
    return wrong, unreachable, warnings


def _zone_mismatch(forum, adapter, now: datetime) -> tuple[str | None, str | None]:
    """issue 7 item 3: a board showing the bot another zone than the adapter reads its dates in shifts every
    PM and edit by the difference."""
    from zoneinfo import ZoneInfo

    read = getattr(adapter, "board_utc_offset", None)
    # the zone the adapter really reads dates in (the HTML adapters keep it as `tz`), else the configured one
    zone = getattr(adapter, "tz", None) or (ZoneInfo(forum.timezone_name) if forum.timezone_name else None)
    if read is None or zone is None:
        return None, None
    shown = read()
    if shown is None:
        return None, None
    expected = now.astimezone(zone).utcoffset()
    if shown == expected:
        return None, f"{_utc(shown)} ({zone})"
    return (f"forums.{forum.name}.timezone_name: the board shows the bot's account times in {_utc(shown)}, but "
            f"they are read in {zone} ({_utc(expected)}): set timezone_name to the board's zone, "
            "or the account's time zone on the board to this one"), None


def _utc(offset) -> str:
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


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


def _daemon(config: Config, args: argparse.Namespace):
    from forumbot.daemon import Daemon

    clock = getattr(args, "clock", None)  # a test's clock, handed to `cli.main`
    return Daemon(config) if clock is None else Daemon(config, clock=clock)


def cmd_tick(args: argparse.Namespace) -> int:
    from forumbot.daemon import describe, exit_code

    config = _config(args)
    daemon = _daemon(config, args)
    try:
        report = daemon.cycle()
        if getattr(args, "verbosity", None) != "WARNING":
            from forumbot.lifecycle import tick_summary

            for line in tick_summary(daemon.sessions, report):
                print(line)
    finally:
        daemon.close()
    code = exit_code(report)
    if code:
        print(f"forumbot: {describe(report)}", file=sys.stderr)
    return code


def cmd_run(args: argparse.Namespace) -> int:
    from forumbot.daemon import run_forever

    config = _config(args)
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
    print(game_status(_sessions(config), config, args.name, _now(args)))
    return EXIT_OK


def cmd_game_start(args: argparse.Namespace) -> int:
    from forumbot.lifecycle import check_setups, start_game
    from forumbot.localtime import local

    config = _config(args)
    if args.name in config.games:
        problems = [p for p in check_setups(config) if p.startswith(f"games.{args.name}:")]
        if problems:
            raise ConfigError(problems[0])
    now = _now(args)
    started = start_game(_sessions(config), config, args.name, now)
    # the seed stays secret until the game ends: printing it (or the roles) would let whoever reads this
    # terminal know every role
    # `tick` holds back what is younger than grace_seconds, so "the next tick" run at once would post nothing
    due = local(now + timedelta(seconds=config.grace_seconds), config.games[args.name].schedule.timezone)
    print(f"{started.name}: started; commitment {started.commitment}. "
          f"The first tick from {due} (grace_seconds = {config.grace_seconds}) sends the role PMs "
          "and posts the commitment.")
    return EXIT_OK


def cmd_game_stop(args: argparse.Namespace) -> int:
    from forumbot.lifecycle import stop_game

    config = _config(args)
    key = stop_game(_sessions(config), config, args.name, _now(args), reason=args.reason)
    print(f"{args.name}: stopped; the closing post ({key}) goes out with the next tick, which then closes the game")
    return EXIT_OK


def cmd_game_export(args: argparse.Namespace) -> int:
    import json

    from forumbot.export import export_game

    config = _config(args)
    transcript = export_game(_sessions(config), config, args.name, args.until or _now(args))
    text = json.dumps(transcript, ensure_ascii=False, indent=1) + "\n"
    if args.output:
        _write_private(Path(args.output), text)
        print(f"wrote {args.output} ({len(transcript['events'])} events); play it with `forumbot replay {args.output}`",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _write_private(path: Path, text: str) -> None:
    """`text` into `path`, readable by its owner alone (0600, whatever the umask or the mode of a file there
    before): an export of a running game holds every PM, roles included (issue 17 item 25). The mode is set
    before a byte is written."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        if stat.S_ISREG(os.fstat(fd).st_mode):  # not /dev/stdout
            os.fchmod(fd, 0o600)
        f.write(text)


def cmd_outbox(args: argparse.Namespace) -> int:
    from forumbot.lifecycle import outbox_drop, outbox_retry, stuck_messages

    if args.action == "list":
        if args.key:
            raise ConfigError(f"outbox {args.name} list takes no key (did you mean `retry {args.key}`?)")
    elif not args.key:
        raise ConfigError(f"outbox {args.name} {args.action}: give the message's key (see `forumbot outbox {args.name}`)")
    config = _config(args)
    sessions = _sessions(config)
    if args.action == "retry":
        print(outbox_retry(sessions, config, args.name, args.key))
    elif args.action == "drop":
        print(outbox_drop(sessions, config, args.name, args.key))
    else:
        rows = stuck_messages(sessions, config, args.name)
        for row in rows:
            print("\t".join(row))
        if not rows:
            print(f"{args.name}: nothing stuck in the outbox", file=sys.stderr)
    return EXIT_OK
