"""`forumbot probe`: log in (or not, --guest), read one thread page and the inbox, and say what the bot understood
(issue 9 item 4); --handshake hands over to forumbot.probe.handshake."""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

from forumbot.cli.common import config_from_args
from forumbot.errors import ConfigError
from forumbot.exit_codes import EXIT_CONFIG, EXIT_OK
from forumbot.forum.registry import adapter_factory, profile_for
from forumbot.texts import gm_language


def cmd_probe(args: argparse.Namespace) -> int:
    """issue 9 item 4: exit 0 when every selector the bot needs matched, 2 naming each that did not."""
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.probe.board import probe
    from forumbot.probe.report_text import to_text

    if args.handshake:
        # imported here: only --handshake loads the write path
        from forumbot.probe.handshake import cmd_handshake

        return cmd_handshake(args, config_from_args(args), _probe_target)
    adapter, forum_name, thread, zone, language = _probe_target(args)
    report = probe(adapter, thread, forum=forum_name, guest=args.guest, language=language)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1))
    else:
        print(to_text(report, zone, language))
    for problem in report.problems:
        print(f"forumbot: {problem}", file=sys.stderr)
    return EXIT_CONFIG if report.problems else EXIT_OK


def _probe_target(args: argparse.Namespace) -> tuple[object, str, str, str, str]:
    """The adapter, forum name and thread `probe` reads, the zone to show times in (the zone of the forum's
    games, when they agree) and the GMs' language (issue 28 item 4; Russian, the games' default): from the config's forum table, or (a guest with a thread URL and no config file) from
    the URL and --engine or the engine the page shows."""
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.cycle.daemon import build_adapter

    if args.guest and args.url and not Path(args.config).exists():
        return _guest_adapter(args.url, args.engine), "", args.url, "", "ru"
    config = config_from_args(args)
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
    language = gm_language([g.language for g in config.games.values() if g.forum == forum.name])
    return build_adapter(forum, os.environ), forum.name, thread, zones.pop() if len(zones) == 1 else "", language


def _guest_adapter(url: str, engine: str | None) -> object:
    # imported on first use: the registry loads adapters/detect.py when detect_engine is first named, and a
    # command loads only its own modules (the transport)
    from forumbot.forum.registry import detect_engine
    from forumbot.forum.transport import Transport

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
    profile = profile_for(engine)
    topic_path = profile.urls.get("topic", "").split("{")[0].split("?")[0] if profile is not None else ""
    cut = parts.path.find(topic_path) if topic_path else -1
    root = parts.path[:cut] if cut >= 0 else parts.path.rsplit("/", 1)[0] + "/"
    return factory(origin + (root if root.endswith("/") else root + "/"), "guest")
