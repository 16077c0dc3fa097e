"""Game lifecycle: `init`, `check-config`, `game list|status|start`, and the draw commitment.

The commitment lets every player check, after the game, that the roles were fixed before it began:
sha256(SEED + ":" + "nick1=role1,nick2=role2,...") over the seats in config order, with the nicknames as at the
start and the role words of forumbot.model.Role. The core posts it with the player list and reveals the seed
with the roles at the end; `game start` records it so `game status` can show it.
"""

from __future__ import annotations

import inspect
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Callable, Collection, Mapping, Sequence
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot import engine
from forumbot.config import Config, ForumConfig, GameConfig
from forumbot.errors import ConfigError, ForumbotError, SetupError
from forumbot.model import GameSetup, Role
from forumbot.options import closest
from forumbot.store.models import Game, OutboxRow, Seat
from forumbot.store.records import forum_id
from forumbot.store.setup_codec import setup_to_json

Draw = Callable[[GameSetup], dict[str, Role]]


# --- the commitment ---------------------------------------------------------------------------------------------


def commitment(seed: int, nicks: Sequence[str], roles: dict[str, Role | str]) -> str:
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
    game = _game_config(config, name)
    forum = config.forums[game.forum]
    seed = secrets.randbits(63) if seed is None else seed  # 63 bits: fits a signed BIGINT column
    setup = game.setup(seed, bot=forum.login, markup=forum.markup)
    roles = draw(setup)
    too_late = past_day_one(game, now)
    if too_late:
        raise ConfigError(too_late)
    nicks = [p.nick for p in setup.players]
    missing = [n for n in nicks if n not in roles]
    if missing:
        raise SetupError(f"the draw gave no role to {', '.join(missing)}")
    digest = commitment(seed, nicks, roles)
    with sessions.begin() as session:
        if session.scalar(select(Game.id).where(Game.name == name)) is not None:
            raise ForumbotError(f"game {name!r} was already started (see `forumbot game status {name}`)")
        row = Game(name=name, forum_id=forum_id(session, forum.name, forum.engine), status="running",
                   mode=game.mode, seed=seed, setup_json=setup_to_json(setup), commitment=digest, started_at=now)
        session.add(row)
        session.flush()
        for i, nick in enumerate(nicks):
            session.add(Seat(game_id=row.id, seat_no=i, nick=nick, current_nick=nick, role=Role(roles[nick]).value))
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


def _game_config(config: Config, name: str) -> GameConfig:
    if name not in config.games:
        known = ", ".join(sorted(config.games)) or "none"
        raise ConfigError(f"no game named {name!r} in {config.path} (configured: {known})")
    return config.games[name]


# --- game list / status ------------------------------------------------------------------------------------


def list_games(sessions: sessionmaker[Session], config: Config) -> list[tuple[str, str, str]]:
    """(name, status, mode) for every game in the config or the database."""
    with sessions.begin() as session:
        stored = {g.name: g for g in session.scalars(select(Game))}
    rows = []
    for name in sorted(set(config.games) | set(stored)):
        game = stored.get(name)
        status = game.status if game else "not started"
        if game and name not in config.games:
            status += " (no longer in the config)"
        mode = config.games[name].mode if name in config.games else (game.mode if game else "")
        rows.append((name, status, mode))
    return rows


def game_status(sessions: sessionmaker[Session], config: Config, name: str, now: datetime | None = None) -> str:
    with sessions.begin() as session:
        game = session.scalar(select(Game).where(Game.name == name))
        if game is None:
            _game_config(config, name)
            return f"{name}: not started (start it with `forumbot game start {name}`)"
        seats = list(session.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.seat_no)))
        counts = dict(session.execute(select(OutboxRow.status, func.count()).where(
            OutboxRow.game_id == game.id).group_by(OutboxRow.status)).all())
        uncertain = list(session.scalars(select(OutboxRow.key).where(
            OutboxRow.game_id == game.id, OutboxRow.status == "uncertain")))
        refused = list(session.execute(select(OutboxRow.key, OutboxRow.where, OutboxRow.to, OutboxRow.last_error)
                                       .where(OutboxRow.game_id == game.id, OutboxRow.status == "refused")
                                       .order_by(OutboxRow.due_at, OutboxRow.id)))
    lines = [
        f"{name}: {game.status}, mode {game.mode}, started {game.started_at.isoformat()}"
        + (f", ended {game.ended_at.isoformat()}" if game.ended_at else ""),
        f"commitment: {game.commitment}",
        "seats: " + ", ".join(s.current_nick + (f" (for {s.nick})" if s.current_nick != s.nick else "")
                              for s in seats),
        "outbox: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "empty"),
    ]
    if uncertain:
        lines.append("maybe not delivered (interrupted, not re-sent): " + ", ".join(uncertain))
    for key, where, to, why in refused:  # issue 7 item 2: set aside, the GMs were told
        lines.append(f"refused by the forum, not sent: {key} ({f'PM to {to}' if where == 'pm' else where + ' thread'})"
                     f": {why}")
    if now is not None and name in config.games:
        from forumbot.tick import fold_game

        try:
            run = fold_game(sessions, config, name, now)
        except SetupError as e:  # a stored setup the fold cannot run on: say so, with the rest of the status
            lines.insert(1, f"not played: {e}")
        else:
            alive = [p.nick for p in run.result.players if p.alive]
            deadline = f", until {run.next_deadline.isoformat()}" if run.next_deadline else ""
            lines.insert(1, f"phase: {run.phase}{deadline}; alive ({len(alive)}): {', '.join(alive)}")
    return "\n".join(lines)


# --- init / check-config ------------------------------------------------------------------------------------


def example_config() -> str:
    return resources.files("forumbot").joinpath("examples/forumbot.toml").read_text(encoding="utf-8")


def write_example(path: Path, force: bool = False) -> None:
    if path.exists() and not force:
        raise ConfigError(f"{path} already exists (use --force to overwrite)")
    path.write_text(example_config(), encoding="utf-8")


def check_setups(config: Config, validate: Callable[[GameSetup], None] | None = None) -> list[str]:
    """Problems the rules see in each configured game: player count, roles, cast."""
    problems = []
    for game in config.games.values():
        forum = config.forums[game.forum]
        setup = game.setup(seed=0, bot=forum.login, markup=forum.markup)
        try:
            (validate or core_validate)(setup)
        except SetupError as e:
            problems.append(f"games.{game.name}: {e}")
    return problems


def check_forums(config: Config, environ: Mapping[str, str]) -> list[str]:
    """Problems `tick` would meet opening each forum: an adapter that cannot be loaded, an unset password."""
    from forumbot.daemon import adapter_factory

    problems = []
    for forum in config.forums.values():
        try:
            factory = adapter_factory(forum.engine)
        except ConfigError as e:
            problems.append(f"forums.{forum.name}.engine: {e}")
        else:
            problems += _keys_unread(forum, factory)
        # the password and any key an adapter reads from the environment (Discourse's admin_api_key_env, ...)
        secrets = {"password_env": forum.password_env} | {
            k: v for k, v in forum.extra.items() if k.endswith("_env") and isinstance(v, str)}
        for key, variable in secrets.items():
            if variable and variable not in environ:
                problems.append(f"forums.{forum.name}.{key}: environment variable {variable} is not set "
                                "(set it where forumbot runs, e.g. in the crontab or the service file)")
    return problems


def _keys_unread(forum: ForumConfig, factory: Callable) -> list[str]:
    """For an adapter of one's own ("module:attr"): the forum table's keys its constructor does not take (the
    shipped engines' keys are checked by the config itself)."""
    if ":" not in forum.engine or hasattr(factory, "from_config"):
        return []
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return []
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return []
    return [f"forums.{forum.name}.{key}: unknown setting: {forum.engine} takes none such{closest(key, parameters)}"
            for key in sorted(set(forum.extra) - set(parameters))]


def late_starts(config: Config, now: datetime, started: Collection[str] = ()) -> list[str]:
    """Warnings for games not started yet whose Day 1 would be over before it began: `game start` would play
    them out in one tick (issue 7 item 14)."""
    warnings = []
    for game in config.games.values():
        schedule = game.schedule
        deadline = schedule.start + schedule.day
        if game.name not in started and deadline <= now:
            local = deadline.astimezone(ZoneInfo(schedule.timezone))
            warnings.append(f"games.{game.name}.start: Day 1's deadline ({local:%Y-%m-%d %H:%M} {schedule.timezone}) "
                            "has passed; move start to a time ahead before `forumbot game start`")
    return warnings


def core_validate(setup: GameSetup) -> None:
    """Let the rules engine judge the setup: player count, cast, roles, names (it raises SetupError)."""
    from forumbot.game import run

    run(setup, [], until=setup.schedule.start - timedelta(microseconds=1))

