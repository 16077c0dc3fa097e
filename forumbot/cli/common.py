"""What every daemon subcommand shares: the configuration file it reads (with logging set from it), its "now",
and the database's sessions."""

from __future__ import annotations

import argparse
import logging
import sys
from datetime import datetime, timezone

from forumbot.config.types import Config
from forumbot.config.load import load_config
from forumbot.store import open_engine, require_current, session_factory

DEFAULT_CONFIG = "forumbot.toml"


def config_from_args(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    level = getattr(args, "verbosity", None) or config.log_level  # -v/-q win over the file's log_level
    logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)  # cli.main may have configured logging before the file was read
    if level != "DEBUG":
        logging.getLogger("alembic").setLevel(logging.WARNING)  # it narrates every schema check
    return config


def now_of(args: argparse.Namespace) -> datetime:
    """The command's "now": the real clock, unless `cli.main` was handed another one (tests give the CLI their
    clock, so no test depends on the day it runs)."""
    clock = getattr(args, "clock", None)
    return clock() if clock is not None else datetime.now(timezone.utc)
def open_store(config: Config):
    engine = open_engine(config.database_url)
    require_current(engine, config.gm_texts)
    return session_factory(engine)
