"""S-5: the season's next sign-up opens by itself. When a game of `[season] games` has ended (played out, stopped,
or cancelled under S-3), the next one, when it takes its players from a sign-up, is started `season.gap` later:
its sign-up opens then, in the same threads, as if the GM had run `forumbot game start` at that moment. With
`season.notify`, the last game's players are told by PM, once, unless they ever answered `не писать`."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import select

from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.errors import ForumbotError
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.model import Message, Where
from forumbot.outbox.store import enqueue
from forumbot.parse import account_key
from forumbot.parse.signup import says_no_notice
from forumbot.store.models import GameRow, InputRow, SeatRow
from forumbot.texts import get_texts

log = logging.getLogger("forumbot.season")
OVER = ("ended", "stopped")


def open_next_signups(config: Config, sessions: sessionmaker[Session], now: datetime) -> list[str]:
    """Start every season game whose turn has come (S-5); returns their names. A game that cannot start (its
    config refused) is logged and tried again on the next tick."""
    season = config.season
    if season is None:
        return []
    with sessions.begin() as session:
        rows = {g.name: (g.status, g.ended_at) for g in session.scalars(select(GameRow).where(GameRow.name.in_(season.games)))}
    opened = []
    for before, name in zip(season.games, season.games[1:]):
        status, ended_at = rows.get(before, (None, None))
        game = config.games.get(name)
        if name in rows or status not in OVER or ended_at is None or game is None or game.signup is None:
            continue
        at = ended_at + season.gap
        if at > now:
            continue
        # imported here: a game's start (its draw, its setup's checks) loads only when a season opens a sign-up
        from forumbot.games.start import start_game

        try:
            start_game(sessions, config, name, at)
        except ForumbotError as e:
            log.error("season: the sign-up of %s could not open after %s ended: %s", name, before, e)
            continue
        log.info("season: %s ended; the sign-up of %s opens", before, name)
        if season.notify:
            notify(config, sessions, before, name, at)
        opened.append(name)
    return opened


def notify(config: Config, sessions: sessionmaker[Session], before: str, name: str, at: datetime) -> int:
    """S-5 `notify`: a PM to each player of `before` that the sign-up of `name` is open, once (the outbox key is
    per account), except to anyone who ever PMed the bot `не писать` (`stop`) on this forum, alone or with others
    in copy. Returns how many."""
    game = config.games[name]
    forum = config.forums[game.forum]
    escape = escape_markdown if forum.markup == "markdown" else escape_bbcode
    t = get_texts(game.language, escape, game.schedule.timezone, forum.markup)
    with sessions.begin() as session:
        last = session.scalar(select(GameRow).where(GameRow.name == before))
        row = session.scalar(select(GameRow).where(GameRow.name == name))
        if last is None or row is None:
            return 0
        players = list(session.scalars(select(SeatRow.current_nick).where(SeatRow.game_id == last.id)
                                       .order_by(SeatRow.seat_no)))
        # S-5: an opt-out counts however it came: to the bot alone ("pm") or to the bot and others ("conv")
        pms = session.execute(select(InputRow.author, InputRow.text).where(
            InputRow.forum_id == row.forum_id, InputRow.kind.in_(("pm", "conv"))))
        unsubscribed = {account_key(author) for author, text in pms if says_no_notice(text)}
        text = t.signup.season_notice(game.title or game.readable_name, game.signup_thread)
        notices = [Message(at=at, where=Where.PM, to=nick, text=text, key=f"season/notice/{account_key(nick)}")
                   for nick in players if account_key(nick) not in unsubscribed]
        return enqueue(session, row.id, name, notices, origin="shell")
