"""The pages subcommands (issue 20 item 5): `pages build`, `dashboard`, `serve`. Registered by cli_daemon."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from forumbot.cli.common import config_from_args, now_of, open_store
from forumbot.exit_codes import EXIT_CONFIG, EXIT_OK
from forumbot.errors import ConfigError
from forumbot.names import checked_name

MIN_TOKEN_LENGTH = 16  # the dashboard's only lock: short enough to guess is no lock


def add_pages_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser("pages", help="the games' public pages")
    pages = p.add_subparsers(dest="pages_command", required=True, metavar="ACTION")
    p = pages.add_parser("build", parents=[common], help="build the static site of stored games now")
    p.add_argument("names", nargs="*", metavar="NAME", help="games to build (default: every published one)")
    p.add_argument("-o", "--output", help="the folder to write (default: [pages] folder)")
    p.set_defaults(func=cmd_pages_build)

    p = subparsers.add_parser("dashboard", parents=[common],
                              help="every game's phase, deadline and outbox, with stuck messages (private)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-o", "--output", help="write it to this file (0600; never under the public folder)")
    p.set_defaults(func=cmd_dashboard)

    p = subparsers.add_parser(
        "serve", parents=[common], help="serve the pages folder read-only (the serve extra)",
        description="Serve the pages folder read-only over HTTP. The private dashboard is at /_dashboard only when "
                    "FORUMBOT_DASHBOARD_TOKEN is set in the environment (16 characters or more), and only to a "
                    "request with the header 'Authorization: Bearer TOKEN', e.g. curl -H \"Authorization: Bearer "
                    "$FORUMBOT_DASHBOARD_TOKEN\" http://127.0.0.1:8080/_dashboard; to anyone else, and without "
                    "a token to everyone, it does not exist (404). The client's address never lets anyone in.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="port (default 8080; 0 picks a free one)")
    p.add_argument("--folder", help="the folder to serve (default: [pages] folder)")
    p.set_defaults(func=cmd_serve)


def cmd_pages_build(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.pages.commands import build_stored

    for name in args.names:
        checked_name(name, "game")
    config = config_from_args(args)
    out = Path(args.output).resolve() if args.output else None
    written = build_stored(open_store(config), config, args.names, out, now_of(args))
    print(f"{len(written)} file(s) written" + (": " + ", ".join(written) if written else ""))
    return EXIT_OK


def cmd_dashboard(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.pages.dashboard import dashboard, to_text, write_private

    config = config_from_args(args)
    d = dashboard(open_store(config), now_of(args), config.pages.dashboard if config.pages else None, config)
    text = json.dumps(d, ensure_ascii=False, indent=1) + "\n" if args.json else to_text(d) + "\n"
    if args.output:
        path = Path(args.output).resolve()
        if config.pages is not None and (path == config.pages.folder or config.pages.folder in path.parents):
            raise ConfigError(f"{path} is under the public pages folder: the dashboard names roles; write it elsewhere")
        write_private(path, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.pages.dashboard import dashboard
    from forumbot.pages.serve import app

    # imported here: waitress is the optional serve extra's
    try:
        from waitress import create_server
    except ImportError:
        print("forumbot: serve needs the serve extra: pip install 'forumbot[serve]'", file=sys.stderr)
        return EXIT_CONFIG
    board = None
    if args.folder and not Path(args.config).exists():
        folder = Path(args.folder).resolve()  # the folder alone: no database, so no dashboard
    else:
        config = config_from_args(args)
        configured = Path(args.folder).resolve() if args.folder else (config.pages.folder if config.pages else None)
        if configured is None:
            raise ConfigError("serve: give --folder or configure [pages] folder")
        folder = configured
        sessions = open_store(config)
        ticks = config.pages.dashboard if config.pages else None
        board = lambda: dashboard(sessions, now_of(args), ticks, config)  # noqa: E731
    token = os.environ.get("FORUMBOT_DASHBOARD_TOKEN", "").strip()
    if token and len(token) < MIN_TOKEN_LENGTH:
        raise ConfigError(f"FORUMBOT_DASHBOARD_TOKEN is shorter than {MIN_TOKEN_LENGTH} characters; make one with "
                          "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'")
    wsgi = app(folder, board if token else None, token)
    server = create_server(wsgi, host=args.host, port=args.port, threads=2)
    print(f"serving {folder} on http://{args.host}:{server.effective_port}/", flush=True)
    if board is not None:
        print("dashboard: /_dashboard with 'Authorization: Bearer' and FORUMBOT_DASHBOARD_TOKEN" if token else
              "dashboard: off (set FORUMBOT_DASHBOARD_TOKEN to serve it at /_dashboard)", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return EXIT_OK
