"""S-5: the season's next sign-up opens by itself. When a game of `[season] games` has ended (played out, stopped,
or cancelled under S-3), the next one, when it takes its players from a sign-up, is started `season.gap` later:
its sign-up opens then, in the same threads, as if the GM had run `forumbot game start` at that moment."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import select

from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.errors import ForumbotError
from forumbot.games.start import start_game
from forumbot.store.models import Game

log = logging.getLogger("forumbot.season")
OVER = ("ended", "stopped")


def open_next_signups(config: Config, sessions: sessionmaker[Session], now: datetime) -> list[str]:
    """Start every season game whose turn has come (S-5); returns their names. A game that cannot start (its
    config refused) is logged and tried again on the next tick."""
    season = config.season
    if season is None:
        return []
    with sessions.begin() as session:
        rows = {g.name: (g.status, g.ended_at) for g in session.scalars(select(Game).where(Game.name.in_(season.games)))}
    opened = []
    for before, name in zip(season.games, season.games[1:]):
        status, ended_at = rows.get(before, (None, None))
        game = config.games.get(name)
        if name in rows or status not in OVER or ended_at is None or game is None or game.signup is None:
            continue
        at = ended_at + season.gap
        if at > now:
            continue
        try:
            start_game(sessions, config, name, at)
        except ForumbotError as e:
            log.error("season: the sign-up of %s could not open after %s ended: %s", name, before, e)
            continue
        log.info("season: %s ended; the sign-up of %s opens", before, name)
        opened.append(name)
    return opened
