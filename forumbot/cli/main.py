"""The `forumbot` command. Expected failures print one line on stderr and exit non-zero, no traceback."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import sys
from dataclasses import replace
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from datetime import datetime
from typing import Callable, NoReturn, Sequence

from sqlalchemy.exc import OperationalError

from forumbot import __version__
from forumbot.config.types import ConfigProblems
from forumbot.errors import ForumbotError, ForumError, UnsafeName
from forumbot.exit_codes import EXIT_BROKEN_PIPE, EXIT_CONFIG, EXIT_INTERNAL, EXIT_OK, EXIT_UNREACHABLE
from forumbot.names import name_problem

# 2: a human must fix the input (config, setup, transcript, database); 3: a forum could not be reached.

LANGUAGES = ("ru", "en")


def verbosity_options(parser: argparse.ArgumentParser, top: bool) -> None:
    """-v/-q, given before the subcommand or after it (`forumbot -v tick`, `forumbot tick -q`)."""
    default = None if top else argparse.SUPPRESS  # a subcommand's absent flag must not undo the top-level one
    group = parser.add_mutually_exclusive_group()
    group.add_argument("-v", "--verbose", dest="verbosity", action="store_const", const="DEBUG", default=default,
                       help="log everything (DEBUG), and show a traceback for an unexpected error")
    group.add_argument("-q", "--quiet", dest="verbosity", action="store_const", const="WARNING", default=default,
                       help="log only warnings and errors, and print no per-game summary")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="forumbot", description="A game master for forum Mafia games.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}",
                        help="print the version and exit")
    verbosity_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    quiet = argparse.ArgumentParser(add_help=False)
    verbosity_options(quiet, top=False)

    p = sub.add_parser("replay", parents=[quiet], help="play a whole game from a transcript, offline")
    p.add_argument("transcript", help="a transcript JSON file (see docs/transcripts.md)")
    p.add_argument("--json", action="store_true", help="print messages, result and log as one JSON object")
    p.add_argument("--lang", choices=LANGUAGES, help="the language of the bot's texts (default: the transcript's)")
    p.add_argument("--pages", metavar="DIR", help="also build the game's public pages into DIR")
    p.set_defaults(func=_replay)

    p = sub.add_parser("demo", parents=[quiet], help="replay the bundled example games and print their logs")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: each example's file name and its replay (as `replay --json`)")
    p.add_argument("--lang", choices=LANGUAGES, help="the language of the bot's texts (default: each example's)")
    p.add_argument("--pages", metavar="DIR", help="also build each example's public pages into DIR")
    p.set_defaults(func=_demo)

    try:
        # imported here: without the daemon's modules (a broken install) replay and demo still run
        from forumbot.cli.commands import add_daemon_commands
        from forumbot.cli.pages import add_pages_commands
        from forumbot.cli.season import add_season_commands
    except ImportError:
        pass
    else:
        common = add_daemon_commands(sub, quiet)
        add_pages_commands(sub, common)
        add_season_commands(sub, common)
    return parser


def _version() -> str:
    try:
        return version("forumbot")
    except PackageNotFoundError:
        return __version__


def main(argv: Sequence[str] | None = None, *, clock: Callable[[], datetime] | None = None) -> int:
    """Run one command line. `clock` is the commands' "now" (default: the real clock); a test hands its own."""
    args = build_parser().parse_args(argv)
    args.clock = clock
    logging.basicConfig(level=args.verbosity or "INFO", stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.verbosity:
        logging.getLogger().setLevel(args.verbosity)  # also when logging was configured before (an embedding)
    try:
        code = run_command(args)
        sys.stdout.flush()  # a closed pipe shows up here, while we can still handle it
    except BrokenPipeError:
        # the reader went away (`forumbot replay x.json | head`): stop quietly, as a tool killed by SIGPIPE does.
        # stdout goes to /dev/null so the interpreter's own flush at exit does not raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    return code


def command() -> NoReturn:
    """The `forumbot` process (the console script, `python -m forumbot`, `python -m forumbot.cli.main`): `main`,
    then an exit without the garbage collector's full passes. At exit the interpreter collects again and again
    while it unloads the modules, each pass over every object the imports made (SQLAlchemy's above all): a
    third of a quiet tick's CPU (0.96 s of CPU a tick, 0.68 s frozen; issue 28 item 2). Frozen, those objects
    are still freed as the modules go; only a cycle of them would stay, in a process that is ending.
    `main` itself freezes nothing: a test calls it many times in one long process."""
    code = main()
    gc.freeze()
    raise SystemExit(code)


def run_command(args: argparse.Namespace) -> int:
    """Run a subcommand; expected failures become one line on stderr each and an exit code, never a traceback."""
    try:
        return int(args.func(args))
    except ConfigProblems as e:
        for problem in e.problems:
            print(f"forumbot: {problem}", file=sys.stderr)
        return EXIT_CONFIG
    except ForumError as e:
        print(f"forumbot: forum unreachable: {e}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except ForumbotError as e:
        print(f"forumbot: {e}", file=sys.stderr)
        return EXIT_CONFIG
    except OperationalError as e:
        print(f"forumbot: cannot use the database: {e.orig}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        raise  # main() ends quietly, as a tool killed by SIGPIPE does
    except OSError as e:  # a file named on the command line that cannot be read or written
        where = f"{e.filename}: " if e.filename else ""
        print(f"forumbot: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_CONFIG
    except Exception as e:  # a bug: still one line, unless -v asks for the traceback
        if getattr(args, "verbosity", None) == "DEBUG":
            raise
        print(f"forumbot: internal error: {type(e).__name__}: {e} (run with -v for the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


def _run(path, lang: str | None):
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot import replay

    transcript = replay.load(path)
    if lang:
        transcript = replace(transcript, setup=replace(transcript.setup, language=lang))
    result, _ = replay.replay(transcript)
    return transcript, result


def _replay(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot import replay

    transcript, result = _run(args.transcript, args.lang)
    if args.pages:
        stem = Path(args.transcript).stem
        if not transcript.game and (problem := name_problem(stem)) is not None:
            raise UnsafeName(f"{args.transcript}: the transcript names no game, and its file's name is not one: "
                             f"{problem}")
        _pages(args.pages, transcript, result, stem)
    if args.json:
        print(json.dumps(replay.to_json(result), ensure_ascii=False, indent=1))
    else:
        print(replay.to_text(result, transcript.setup.schedule.timezone))
    return EXIT_OK


def _pages(folder: str, transcript, result, name: str) -> None:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.pages.commands import transcript_pages, transcript_signup, write_pages

    _, signup = transcript_signup(transcript)  # a sign-up still open: its page (S-2)
    written = write_pages(Path(folder), transcript_pages(transcript, result, name), signup)
    print(f"forumbot: pages of {transcript.game or name}: {len(written)} file(s) written in {folder}", file=sys.stderr)


def _demo(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot import replay

    examples = resources.files("forumbot") / "examples"
    runs = {}
    for name in sorted(p.name for p in examples.iterdir() if p.name.endswith(".json")):
        with resources.as_file(examples / name) as path:
            transcript, result = _run(path, args.lang)
        if args.pages:
            _pages(args.pages, transcript, result, name.removesuffix(".json"))
        if args.json:
            runs[name] = replay.to_json(result)
        else:
            print(f"=================== {name} ===================")
            print(replay.to_text(result, transcript.setup.schedule.timezone))
    if args.json:  # one document, so `forumbot demo --json | jq` works
        print(json.dumps({"games": runs}, ensure_ascii=False, indent=1))
    return EXIT_OK


if __name__ == "__main__":
    command()
