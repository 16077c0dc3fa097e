"""The `forumbot` command. Expected failures print one line on stderr and exit non-zero, no traceback."""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import resources
from typing import Sequence

from sqlalchemy.exc import OperationalError

from forumbot.config import ConfigProblems
from forumbot.errors import ForumbotError, ForumError

# 2: a human must fix the input (config, setup, transcript, database); 3: a forum could not be reached.
EXIT_OK, EXIT_CONFIG, EXIT_UNREACHABLE = 0, 2, 3
EXIT_BROKEN_PIPE = 128 + 13  # what a shell reports for a process ended by SIGPIPE


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="forumbot", description="A game master for forum Mafia games.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="play a whole game from a transcript, offline")
    p.add_argument("transcript", help="a transcript JSON file (see DESIGN.md)")
    p.add_argument("--json", action="store_true", help="print messages, result and log as one JSON object")
    p.set_defaults(func=_replay)

    p = sub.add_parser("demo", help="replay the bundled example games and print their logs")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_demo)

    try:
        from forumbot.cli_daemon import add_daemon_commands
    except ImportError:
        pass
    else:
        add_daemon_commands(sub)

    args = parser.parse_args(argv)
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


def _print_run(path_or_text, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    from forumbot import replay

    transcript = replay.load(path_or_text)
    result, _ = replay.replay(transcript)
    if as_json:
        print(json.dumps(replay.to_json(result), ensure_ascii=False, indent=1))
    else:
        print(replay.to_text(result, transcript.setup.schedule.timezone))


def _replay(args: argparse.Namespace) -> int:
    _print_run(args.transcript, args.json)
    return EXIT_OK


def _demo(args: argparse.Namespace) -> int:
    examples = resources.files("forumbot") / "examples"
    for name in sorted(p.name for p in examples.iterdir() if p.name.endswith(".json")):
        with resources.as_file(examples / name) as path:
            print(f"=================== {name} ===================")
            _print_run(path, args.json)
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
