"""`forumbot game list|status|start|stop|export` and `forumbot outbox`: the commands a GM runs on one game."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from datetime import timedelta
from pathlib import Path

from forumbot.cli.check import texts_of
from forumbot.cli.common import config_from_args, now_of, open_store
from forumbot.errors import ConfigError, ForumError
from forumbot.exit_codes import EXIT_OK
from forumbot.names import checked_name
from forumbot.texts import TABLES, get_texts


def cmd_game_list(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.games.status import list_games

    config = config_from_args(args)
    for name, status, mode in list_games(open_store(config), config):
        print(f"{name}\t{status}\t{mode}")
    return EXIT_OK


def cmd_game_status(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.games.status import game_status

    config = config_from_args(args)
    print(game_status(open_store(config), config, args.name, now_of(args)))
    return EXIT_OK


def cmd_game_start(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.config.checks import check_setups, thread_problems
    from forumbot.games.start import start_game

    checked_name(args.name, "game")
    config = config_from_args(args)
    if args.name in config.games:
        problems = [p for p in check_setups(config) if p.startswith(f"games.{args.name}:")]
        problems += thread_problems(config, args.name)
        if problems:
            raise ConfigError(problems[0])
        notes = _look_up_accounts(config, args.name)
    else:
        notes = []
    now = now_of(args)
    started = start_game(open_store(config), config, args.name, now)
    for note in notes:  # after the start's own refusals: a note does not stop it
        print(f"forumbot: {note}", file=sys.stderr)
    # the seed stays secret until the game ends: printing it (or the roles) would let whoever reads this
    # terminal know every role
    # `tick` holds back what is younger than grace_seconds, so "the next tick" run at once would post nothing
    game = config.games[args.name]
    # issue 28 item 4: the game's GMs read it in its language, the time as the bot's posts write it («30.11 10:00:00
    # МСК»), not an ISO stamp in a Russian sentence
    voice = get_texts(game.language, str, game.schedule.timezone or "UTC").v
    due = voice.time_s(now + timedelta(seconds=config.grace_seconds))
    t = TABLES[game.language]
    if game.signup is not None:  # S-1: no players yet; the draw comes at the close
        print(t["start.done_signup"].format(game=started.name, due=due, grace=config.grace_seconds))
        return EXIT_OK
    print(t["start.done"].format(game=started.name, commitment=started.commitment, due=due,
                                 grace=config.grace_seconds))
    return EXIT_OK


def _look_up_accounts(config, name: str) -> list[str]:
    """issue 28 item 4: the players' and GMs' accounts asked of the board before anything is drawn or posted; a
    typo stops the start (ConfigError naming it, in the board's own words); a board away or not telling gives the
    warnings returned."""
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.cycle.daemon import Daemon
    from forumbot.forum.retry import Retry
    from forumbot.games.accounts import before_start

    game = config.games[name]
    t = texts_of(config)
    try:
        # the daemon's forum session: the stored cookies are used, and the ones this look-up gets are kept for the
        # first tick, so starting a game costs the board no login of its own
        daemon = Daemon(config)
        # the GM's own `retries` and `backoff_seconds`, as every tick's: a board that is down keeps `game start`
        # waiting no longer than a tick would
        opened = daemon.forums.open({game.forum}, Retry(config.retries, config.backoff_seconds))[game.forum]
    except ConfigError as e:  # check-config names it; the first tick would fail on it as before
        return [t["check.warning"].format(text=t["accounts.unreachable"].format(game=name, error=e))]
    if isinstance(opened, ForumError):
        return [t["check.warning"].format(text=t["accounts.unreachable"].format(game=name, error=opened))]
    try:
        return [t["check.warning"].format(text=note) for note in before_start(game, opened, t)]
    finally:
        daemon.forums.save()


def cmd_game_stop(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.games.stop import stop_game

    config = config_from_args(args)
    key = stop_game(open_store(config), config, args.name, now_of(args), reason=args.reason)
    print(TABLES[config.games[args.name].language]["stop.done"].format(name=args.name, key=key))
    return EXIT_OK


def cmd_game_export(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.games.export import export_game

    checked_name(args.name, "game")
    config = config_from_args(args)
    transcript = export_game(open_store(config), config, args.name, args.until or now_of(args))
    text = json.dumps(transcript, ensure_ascii=False, indent=1) + "\n"
    if args.output:
        _write_private(Path(args.output), text)
        t = TABLES[config.games[args.name].language]  # issue 28 item 3: the game's GMs read it in its language
        print(t["export.wrote"].format(path=args.output, events=len(transcript["events"])), file=sys.stderr)
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
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.games.lookup import language_of
    from forumbot.games.outbox import outbox_drop, outbox_retry, stuck_messages

    config = config_from_args(args)
    t = TABLES[language_of(config, args.name, None)]  # issue 28 item 3: the game's GMs read it in its language
    if args.action == "list":
        if args.key:
            raise ConfigError(t["outbox.list_takes_no_key"].format(name=args.name, key=args.key))
    elif not args.key:
        raise ConfigError(t["outbox.give_key"].format(name=args.name, action=args.action))
    sessions = open_store(config)
    if args.action == "retry":
        print(outbox_retry(sessions, config, args.name, args.key))
    elif args.action == "drop":
        print(outbox_drop(sessions, config, args.name, args.key))
    else:
        rows = stuck_messages(sessions, config, args.name)
        for row in rows:
            print("\t".join(row))
        if not rows:
            print(t["outbox.nothing_stuck"].format(name=args.name), file=sys.stderr)
    return EXIT_OK
