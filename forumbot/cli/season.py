"""`forumbot season standings` (S-6): the season's table from its finished games' exports: the store's games of
`[season] games` exported as `game export` writes them, or export files given with `--exports`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sqlalchemy import select

from forumbot.cli.common import config_from_args, now_of, open_store
from forumbot.errors import ConfigError, TranscriptError
from forumbot.exit_codes import EXIT_OK
from forumbot.store.models import GameRow


def add_season_commands(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser("season", help="the season of [season] games")
    season = p.add_subparsers(dest="season_command", required=True, metavar="ACTION")
    p = season.add_parser("standings", parents=[common],
                          help="the players ranked by rating over the season's finished games (S-6)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print one JSON object")
    form.add_argument("--csv", action="store_true", help="print CSV, one row per player")
    p.add_argument("--exports", nargs="+", metavar="PATH",
                   help="rank these `game export` files (or every *.json in a folder) instead of the stored games")
    p.add_argument("--pages", metavar="DIR", help="also write the standings into the season index in DIR")
    p.set_defaults(func=cmd_season_standings)


def cmd_season_standings(args: argparse.Namespace) -> int:
    # imported on first use: a command loads only its own modules, so `forumbot --help` and replay start fast
    from forumbot.games.season import as_csv, as_json, as_text, outcome
    from forumbot.pages.output import STANDINGS, write_site
    from forumbot.replay import replay
    from forumbot.rules.standings import standings

    transcripts = _from_files(args.exports) if args.exports else _from_store(args)
    names = [name for name, _ in transcripts]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise TranscriptError(f"game {', '.join(map(repr, twice))} given twice: each game counts once")
    games = [g for name, t in transcripts
             if (g := outcome(name, t.setup, replay(t)[0], t.stopped is not None)) is not None]
    rows = standings(games)
    doc = as_json(rows, games)
    if args.pages:
        setup = transcripts[-1][1].setup if transcripts else None
        write_site(Path(args.pages).resolve(), {STANDINGS: doc.encode()}, setup.language if setup else "ru",
                   setup.schedule.timezone if setup else "Europe/Moscow")
    sys.stdout.write(doc if args.json else as_csv(rows) if args.csv else as_text(rows, games))
    return EXIT_OK


def _from_files(paths: list[str]) -> list:
    # imported on first use: a command loads only its own modules
    from forumbot.replay import load

    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        files += sorted(path.glob("*.json")) if path.is_dir() else [path]
    return [(t.game or f.stem, t) for f in files for t in [load(f)]]


def _from_store(args: argparse.Namespace) -> list:
    # imported on first use: a command loads only its own modules (these open the store)
    from forumbot.games.export import export_game
    from forumbot.replay import parse_transcript

    config = config_from_args(args)
    if config.season is None:
        raise ConfigError(f"{config.path}: no [season] table (games = [...]); or rank saved exports with --exports")
    sessions, now = open_store(config), now_of(args)
    with sessions.begin() as session:
        started = set(session.scalars(select(GameRow.name)))
    # a game never started (or cancelled at its sign-up) has nothing to count
    return [(name, parse_transcript(export_game(sessions, config, name, now)))
            for name in config.season.games if name in started]
