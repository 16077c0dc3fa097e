"""`game stop`: end a running game now, its closing post revealing the roles queued for the next tick."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.errors import ForumbotError, SetupError
from forumbot.game import STOP_KEY
from forumbot.games.lookup import configured_game, language_of, setup_of
from forumbot.texts import TABLES
from forumbot.model import Role
from forumbot.store.models import GameRow, SeatRow
from forumbot.engine.setup import commitment_text
from forumbot.game import as_played, drawn_string, stop_message
from forumbot.outbox.store import enqueue
from forumbot.store.game import fold_game, load_game


def stop_game(sessions: sessionmaker[Session], config: Config, name: str, now: datetime, reason: str = "") -> str:
    """End a running game now (issue 11 item 11): no winner, the roles revealed in the game thread with the seed and
    the string the commitment hashes (C-2), and the reason (issue 17 item 12).

    The post goes through the outbox like any message; the game is marked "stopping", which a tick only
    delivers for (no reading, no fold), then "stopped". PMs sent after `now` are no longer the game's."""
    with sessions.begin() as session:
        game = session.scalar(select(GameRow).where(GameRow.name == name))
        t = TABLES[language_of(config, name, game)]  # issue 28: the game's GMs read its refusals in its language
        if game is None:
            configured_game(config, name)
            raise ForumbotError(t["stop.never_started"].format(name=repr(name)))
        status = game.status
    if status != "running":
        raise ForumbotError(t["stop.not_running"].format(name=repr(name), status=t.get("gs.status." + status, status)))
    configured_game(config, name)
    try:
        roles = [(p.nick, p.role, p.alive) for p in fold_game(sessions, config, name, now).result.players]
    except SetupError:  # a stored setup the fold refuses is a reason to stop the game: reveal the seats as stored
        roles = None
    with sessions.begin() as session:
        game = session.scalars(select(GameRow).where(GameRow.name == name)).one()
        setup = setup_of(game)
        if setup.signup is not None:  # S-3: the draw is the one its sign-up's close gave, if it closed
            stored, inputs, _ = load_game(session, config, game.id)
            setup = as_played(stored, inputs, now)
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game.id).order_by(SeatRow.seat_no)))
        if roles is None:
            roles = [(s.current_nick, Role(s.role), True) for s in seats]
        try:
            drawn = drawn_string(setup)
        except SetupError:  # the seats as `game start` stored them are the draw the commitment hashed
            # (none for a sign-up stopped before its close: nothing was drawn, nothing is revealed)
            drawn = commitment_text(game.seed, {s.nick: Role(s.role) for s in seats}) if seats else ""
        enqueue(session, game.id, name, [stop_message(setup, roles, now, reason, drawn)], origin="shell")
        game.status, game.ended_at = "stopping", now
        game.stop_reason = reason.strip() or None
    return STOP_KEY
