"""`game start`: the draw, its commitment, and the checks before a game may start (its Day 1 still ahead, its
threads free of a running game).

The commitment lets every player check, after the game, that the roles were fixed before it began:
sha256(SEED + ":" + "nick1=role1,nick2=role2,...") over the seats in config order, with the nicknames as at the
start and the role words of forumbot.model.Role. The core posts it with the player list and reveals the seed
with the roles at the end; `game start` records it so `game status` can show it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Callable, Collection, Mapping, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot import engine
from forumbot.config.conference import conference_of
from forumbot.config.types import Config, GameConfig, shared_threads
from forumbot.errors import ConfigError, ForumbotError, SetupError
from forumbot.games.lookup import ACTIVE, configured_game
from forumbot.model import GameSetup, Role
from forumbot.pages.publish import freeze_url
from forumbot.store.models import GameRow, SeatRow
from forumbot.store.records import forum_id
from forumbot.store.setup_codec import setup_to_json

Draw = Callable[[GameSetup], dict[str, Role]]


# --- the commitment ---------------------------------------------------------------------------------------------


def commitment(seed: int, nicks: Sequence[str], roles: Mapping[str, Role | str]) -> str:
    """The engine's commitment (posted with the player list) for these seats, in seat order."""
    return engine.commitment(seed, {nick: Role(roles[nick]) for nick in nicks})


# --- the draw ------------------------------------------------------------------------------------------------------


def core_draw(setup: GameSetup) -> dict[str, Role]:
    """The roles the core deals from `setup.seed` (it raises SetupError for a setup the rules refuse)."""
    return {nick: seat.role for nick, seat in engine.draw_seats(setup).items()}


# --- game start -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Started:
    name: str
    seed: int
    commitment: str
    roles: dict[str, Role]


def start_game(sessions: sessionmaker[Session], config: Config, name: str, now: datetime,
               draw: Draw = core_draw, seed: int | None = None) -> Started:
    """Freeze the game's setup with a fresh seed and seat the players.

    The role PMs, the player list and the commitment post come out of the fold on the next tick, like every
    other message: Setup opens at `now` (the fold's Schedule.setup_opens, set from `started_at`).
    """
    game = configured_game(config, name)
    forum = config.forums[game.forum]
    seed = secrets.randbits(63) if seed is None else seed  # 63 bits: fits a signed BIGINT column
    setup = game.setup(seed, bot=forum.login, markup=forum.markup)
    conference = conference_of(config, game)
    if conference is not None and conference != setup.options.get("conference"):  # M-15: no conversation here
        setup = replace(setup, options={**setup.options, "conference": conference})
    if game.signup is not None:
        # S-1: the players come from the sign-up, which opens now unless `signup.opens` says when; the roles are
        # drawn over its final list when it closes (the commitment is posted then, in the Setup post)
        signup = game.signup.setup(game.variant, setup.options, now, game.gms, forum.login, game.schedule.start,
                                   game.language, forum.markup, game.schedule.timezone)
        setup = replace(setup, signup=signup)
        roles: dict[str, Role] = {}
    else:
        roles = draw(setup)
    too_late = past_day_one(game, now) if game.signup is None else None
    if too_late:
        raise ConfigError(too_late)
    nicks = [p.nick for p in setup.players]
    missing = [n for n in nicks if n not in roles]
    if missing:
        raise SetupError(f"the draw gave no role to {', '.join(missing)}")
    digest = commitment(seed, nicks, roles) if game.signup is None else ""
    with sessions.begin() as session:
        if session.scalar(select(GameRow.id).where(GameRow.name == name)) is not None:
            raise ForumbotError(f"game {name!r} was already started (see `forumbot game status {name}`)")
        running = set(session.scalars(select(GameRow.name).where(GameRow.status.in_(ACTIVE))))
        busy = thread_conflicts(config, name, running)
        if busy:
            raise ConfigError(busy[0])
        row = GameRow(name=name, forum_id=forum_id(session, forum.name, forum.engine), status="running",
                   mode=game.mode, seed=seed, setup_json=freeze_url(setup_to_json(setup), config, game), commitment=digest, started_at=now)
        session.add(row)
        session.flush()
        for i, nick in enumerate(nicks):
            session.add(SeatRow(game_id=row.id, seat_no=i, nick=nick, current_nick=nick, role=Role(roles[nick]).value))
    return Started(name=name, seed=seed, commitment=digest, roles=dict(roles))


def past_day_one(game: GameConfig, now: datetime) -> str | None:
    """Why the game cannot start at `now`, if its Day 1 is already over: it would be played out in one tick,
    every deadline at once, the players never having had a say (issue 7 item 14). check-config can warn
    with the same words."""
    schedule = game.schedule
    ends = schedule.start + schedule.day
    if ends > now:
        return None
    return (f"games.{game.name}.start: Day 1 would have ended at {ends.isoformat()}, before now "
            f"({now.astimezone(ends.tzinfo).isoformat(timespec='seconds')}); set `start` to a later time")


def thread_conflicts(config: Config, name: str, running: Collection[str]) -> list[str]:
    """Why game `name` cannot start while the games `running` run: one of its threads is also theirs. A thread
    holds one game at a time (both would count the same votes); game after game in it is a season."""
    return [f"games.{name}.{key}: also the thread of game {other!r}, which is still running; start {name} once "
            f"{other} has ended" for key, other in shared_threads(config.games, name) if other in running]


def thread_warnings(config: Config, statuses: Mapping[str, str], t: Mapping[str, str]) -> list[str]:
    """check-config: games not started yet that share a thread with a running game (or one listed before them
    and not started). Legal (a season planned ahead), but `game start` waits for the other to end: say so."""
    warnings = []
    order = list(config.games)
    for name in order:
        if name in statuses:
            continue
        for key, other in shared_threads(config.games, name):
            # of two games not started, the one listed later is the one that waits
            if statuses.get(other) in ACTIVE or (other not in statuses and order.index(other) < order.index(name)):
                state = t["check.shared.running" if other in statuses else "check.shared.not_started"]
                # a season's next game (S-5) is not started by the GM: the season opens it when the other ends
                seasonal = config.season is not None and config.season.next_after(other) == name
                text = t["check.shared_thread.season" if seasonal else "check.shared_thread"]
                warnings.append(text.format(game=name, key=key, other=repr(other), state=state, other_name=other))
    return warnings
