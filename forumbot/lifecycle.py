"""Game lifecycle: `init`, `check-config`, `game list|status|start|stop`, `outbox`, tick's summary, and the draw
commitment.

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
from forumbot.config import Config, ForumConfig, GameConfig, shared_threads
from forumbot.errors import ConfigError, FloodLimited, ForumbotError, PartlySent, SetupError
from forumbot.game import STOP_KEY
from forumbot.localtime import local
from forumbot.model import GameSetup, Role
from forumbot.options import closest
from forumbot.outbox import MERGED
from forumbot.pm_pace import pm_eta_line
from forumbot.store.models import Forum, Game, OutboxRow, Seat
from forumbot.store.records import forum_id
from forumbot.pages.publish import freeze_url
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
        running = set(session.scalars(select(Game.name).where(Game.status.in_(ACTIVE))))
        busy = thread_conflicts(config, name, running)
        if busy:
            raise ConfigError(busy[0])
        row = Game(name=name, forum_id=forum_id(session, forum.name, forum.engine), status="running",
                   mode=game.mode, seed=seed, setup_json=freeze_url(setup_to_json(setup), config, game), commitment=digest, started_at=now)
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


# a game still reading its threads (or owing its closing post)
ACTIVE = ("running", "stopping")


def thread_conflicts(config: Config, name: str, running: Collection[str]) -> list[str]:
    """Why game `name` cannot start while the games `running` run: one of its threads is also theirs. A thread
    holds one game at a time (both would count the same votes); game after game in it is a season."""
    return [f"games.{name}.{key}: also the thread of game {other!r}, which is still running; start {name} once "
            f"{other} has ended" for key, other in shared_threads(config.games, name) if other in running]


def thread_warnings(config: Config, statuses: Mapping[str, str]) -> list[str]:
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
                state = "still running" if other in statuses else "not started yet"
                warnings.append(f"games.{name}.{key}: also the thread of game {other!r} ({state}); one game runs "
                                f"in a thread at a time, so `forumbot game start {name}` waits until {other} has ended")
    return warnings


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
        merged = list(session.execute(select(OutboxRow.key, OutboxRow.where).where(
            OutboxRow.game_id == game.id, OutboxRow.status == "sent", OutboxRow.remote_id.startswith(MERGED))
            .order_by(OutboxRow.due_at, OutboxRow.id)))
        refused = list(session.execute(select(OutboxRow.key, OutboxRow.where, OutboxRow.to, OutboxRow.last_error)
                                       .where(OutboxRow.game_id == game.id, OutboxRow.status == "refused")
                                       .order_by(OutboxRow.due_at, OutboxRow.id)))
        pm_eta = pm_eta_line(session, config, game, now)
    zone = _stored_setup(game).schedule.timezone
    lines = [
        f"{name}: {game.status}, mode {game.mode}, started {local(game.started_at, zone)}"
        + (f", ended {local(game.ended_at, zone)}" if game.ended_at else ""),
        f"commitment: {game.commitment}",
        "seats: " + ", ".join(s.current_nick + (f" (for {s.nick})" if s.current_nick != s.nick else "")
                              for s in seats),
        "outbox: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "empty"),
    ]
    if pm_eta:
        lines.append(pm_eta)
    if uncertain:
        lines.append("maybe not delivered (interrupted, not re-sent): " + ", ".join(uncertain))
    if merged:  # delivered, but inside the bot's previous post: players may miss it, and it reads as one post
        lines.append(f"merged by the forum into the bot's previous post: {_posts(len(merged))} ("
                     + ", ".join(f"{key} in the {where} thread" for key, where in merged)
                     + "); turn off the board's post merging (MyBB: postmergemins = 0) so each is a post of its own")
    for key, where, to, why in refused:  # issue 7 item 2: set aside, the GMs were told
        lines.append(f"refused by the forum, not sent: {key} ({f'PM to {to}' if where == 'pm' else where + ' thread'})"
                     f": {why}")
    if now is not None and name in config.games:
        from forumbot.tick import fold_game

        try:
            # an ended game is shown as it ended, not folded on past its end
            run = fold_game(sessions, config, name, game.ended_at or now)
        except SetupError as e:  # a stored setup the fold cannot run on: say so, with the rest of the status
            lines.insert(1, f"not played: {e}")
        else:
            alive = [p.nick for p in run.result.players if p.alive]
            deadline = f", until {local(run.next_deadline, zone)}" if run.next_deadline and not game.ended_at else ""
            lines.insert(1, f"phase: {run.phase}{deadline}; alive ({len(alive)}): {', '.join(alive)}")
            if game.ended_at is not None:
                lines[2:2] = _the_end(game, run, zone)
            else:  # GMs are trusted with the roles (issue 17 item 13); the public never sees this command's output
                lines[2:2] = ["roles (for the GMs only):", *_seat_lines(run), *_don_line(game, run)]
            for item, phase, stamped, where in run.late:  # C-13: stored, the GMs told; the announced results stand
                lines.append(f"late: {where} {item} (stamped {local(stamped, zone)}) was read after {phase} was "
                             "resolved; it counts from when it was read")
    return "\n".join(lines)


def _posts(n: int) -> str:
    return f"{n} post" if n == 1 else f"{n} posts"


def _the_end(game: Game, run, zone: str) -> list[str]:  # type: ignore[no-untyped-def]
    """How an ended game ended: who won (or that `game stop` ended it), the seed and every seat's role."""
    result = run.result
    if game.status in STOPPED:
        how = f"stopped by `forumbot game stop` at {local(game.ended_at, zone)}, no winner"
        if game.stop_reason:
            how += f" (reason: {game.stop_reason})"
    else:
        how = f"game over at {local(result.ended_at or game.ended_at, zone)}: winner {result.winner or 'none'}"
    return [f"result: {how}; seed {game.seed}", *_seat_lines(run)]


def _seat_lines(run) -> list[str]:  # type: ignore[no-untyped-def]
    lines = []
    for p in run.result.players:
        fate = "alive" if p.alive else (f"out ({p.died.cause}, {p.died.phase})" if p.died else "out")
        lines.append(f"  {p.nick}: {p.role}, {fate}")
    return lines


def _don_line(game: Game, run) -> list[str]:  # type: ignore[no-untyped-def]
    """M-1: who the Don is, or that the mafia have not chosen him yet (a variant without one says nothing)."""
    from forumbot.rules import get_variant

    don = [p.nick for p in run.result.players if p.role is Role.DON]
    if don:
        return [f"don: {don[0]}"]
    if Role.DON in get_variant(_stored_setup(game).variant).roles:
        return ["don: not chosen yet (the mafia choose him during Setup, M-1)"]
    return []


# --- game stop -----------------------------------------------------------------------------------------------

# "stopping": ended by `game stop`, its closing post still owed (a tick delivers it and nothing else);
# "stopped": that post is out
STOPPED = ("stopping", "stopped")


def stop_game(sessions: sessionmaker[Session], config: Config, name: str, now: datetime, reason: str = "") -> str:
    """End a running game now (issue 11 item 11): no winner, the roles revealed in the game thread with the seed and
    the string the commitment hashes (C-2), and the reason (issue 17 item 12).

    The post goes through the outbox like any message; the game is marked "stopping", which a tick only
    delivers for (no reading, no fold), then "stopped". PMs sent after `now` are no longer the game's."""
    from forumbot.engine.setup import commitment_text
    from forumbot.game import drawn_string, stop_message
    from forumbot.outbox import enqueue
    from forumbot.tick import fold_game

    with sessions.begin() as session:
        game = session.scalar(select(Game).where(Game.name == name))
        if game is None:
            _game_config(config, name)
            raise ForumbotError(f"game {name!r} was never started; there is nothing to stop")
        status = game.status
    if status != "running":
        raise ForumbotError(f"game {name!r} is {status}, not running; there is nothing to stop")
    _game_config(config, name)
    try:
        roles = [(p.nick, p.role, p.alive) for p in fold_game(sessions, config, name, now).result.players]
    except SetupError:  # a stored setup the fold refuses is a reason to stop the game: reveal the seats as stored
        roles = None
    with sessions.begin() as session:
        game = session.scalar(select(Game).where(Game.name == name))
        setup = _stored_setup(game)
        seats = list(session.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.seat_no)))
        if roles is None:
            roles = [(s.current_nick, Role(s.role), True) for s in seats]
        try:
            drawn = drawn_string(setup)
        except SetupError:  # the seats as `game start` stored them are the draw the commitment hashed
            drawn = commitment_text(game.seed, {s.nick: Role(s.role) for s in seats})
        enqueue(session, game.id, name, [stop_message(setup, roles, now, reason, drawn)], origin="shell")
        game.status, game.ended_at = "stopping", now
        game.stop_reason = reason.strip() or None
    return STOP_KEY


def _zone(game: Game) -> str:
    """The game's time zone, "" (UTC) for a stored setup that cannot be read (the summary still prints)."""
    try:
        return _stored_setup(game).schedule.timezone
    except Exception:  # noqa: BLE001 (a broken stored setup is reported elsewhere; a summary line must not fail)
        return ""


def _stored_setup(game: Game) -> GameSetup:
    from forumbot.store.setup_codec import setup_from_json

    return setup_from_json(game.setup_json, game=game.name, check=False)


# --- the outbox by hand ------------------------------------------------------------------------------------

STUCK = ("pending", "attempted", "uncertain", "refused", "queued")


def stuck_messages(sessions: sessionmaker[Session], config: Config, name: str) -> list[tuple[str, ...]]:
    """(status, key, where to, first line, last error) of every message not delivered (nor dropped)."""
    with sessions.begin() as session:
        game = _stored_game(session, config, name)
        rows = list(session.scalars(select(OutboxRow).where(
            OutboxRow.game_id == game.id, OutboxRow.status.in_(STUCK)).order_by(OutboxRow.due_at, OutboxRow.id)))
        return [(r.status, r.key, _where(r), _first_line(r.text), r.last_error or "") for r in rows]


def outbox_retry(sessions: sessionmaker[Session], config: Config, name: str, key: str) -> str:
    """Send a stuck message again with the next tick. An uncertain PM or a post held for approval may then
    reach the forum twice: that is the operator's call, and the answer says so."""
    with sessions.begin() as session:
        game = _stored_game(session, config, name)
        if game.status not in ("running", "stopping"):
            raise ForumbotError(f"game {name!r} is {game.status}: no tick delivers its messages any more")
        row = _row(session, game, key)
        if row.status in ("sent", "pending"):
            raise ForumbotError(f"{name}: {key} is {row.status}; there is nothing to retry")
        was = row.status
        row.status, row.last_error, row.batch = "pending", None, None
    warning = {"uncertain": " It may already have gone out once: check the forum, or it may arrive twice.",
               "queued": " A moderator may still approve the first copy: it may appear twice.",
               "attempted": " It is sent without looking for it on the forum first."}.get(was, "")
    return f"{name}: {key} ({was}) is sent again with the next tick.{warning}"


def outbox_drop(sessions: sessionmaker[Session], config: Config, name: str, key: str) -> str:
    with sessions.begin() as session:
        game = _stored_game(session, config, name)
        row = _row(session, game, key)
        if row.status in ("sent", "dropped"):
            raise ForumbotError(f"{name}: {key} is {row.status}; there is nothing to drop")
        was, row.status = row.status, "dropped"
    return f"{name}: {key} ({was}) dropped; it will never be sent"


def _stored_game(session: Session, config: Config, name: str) -> Game:
    game = session.scalar(select(Game).where(Game.name == name))
    if game is None:
        _game_config(config, name)
        raise ForumbotError(f"game {name!r} was never started (start it with `forumbot game start {name}`)")
    return game


def _row(session: Session, game: Game, key: str) -> OutboxRow:
    row = session.scalar(select(OutboxRow).where(OutboxRow.game_id == game.id, OutboxRow.key == key))
    if row is None:
        raise ForumbotError(f"{game.name}: no message with key {key!r} in the outbox "
                            f"(see `forumbot outbox {game.name}`)")
    return row


def _where(row: OutboxRow) -> str:
    return f"PM to {row.to}" if row.where == "pm" else f"{row.where} thread"


def _first_line(text: str, width: int = 80) -> str:
    line = next((l.strip() for l in text.splitlines() if l.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"


# --- tick's summary ----------------------------------------------------------------------------------------


def deferred_by_flood(error: BaseException | None) -> bool:
    """A delivery the forum's flood limit stopped (the rest goes out next tick), not an outage."""
    cause = error.cause if isinstance(error, PartlySent) else error
    return isinstance(cause, FloodLimited)


def tick_summary(sessions: sessionmaker[Session], report) -> list[str]:  # type: ignore[no-untyped-def]
    """One line per game the tick saw (issue 11 item 9): phase, inputs stored, messages queued and sent, and
    what is stuck in its outbox now (uncertain, refused, held for approval, not deliverable)."""
    names = [o.name for o in report.games]
    with sessions.begin() as session:
        forums = dict(session.execute(select(Game.name, Forum.name).join(Forum, Forum.id == Game.forum_id)
                                      .where(Game.name.in_(names))).all())
        stuck: dict[str, dict[str, int]] = {}
        for game_name, status, count in session.execute(
                select(Game.name, OutboxRow.status, func.count()).join(OutboxRow, OutboxRow.game_id == Game.id)
                .where(Game.name.in_(names), OutboxRow.status.in_(("uncertain", "refused", "queued")))
                .group_by(Game.name, OutboxRow.status)):
            stuck.setdefault(game_name, {})[status] = count
        # times said in the game's zone (issue 17 item 13)
        zones = {g.name: _zone(g) for g in session.scalars(select(Game).where(Game.name.in_(names)))}
        waiting = dict(session.execute(
            select(Game.name, func.count()).join(OutboxRow, OutboxRow.game_id == Game.id)
            .where(Game.name.in_(names), OutboxRow.status.in_(("pending", "attempted")))
            .group_by(Game.name)).all())
    lines = []
    for o in report.games:
        d = o.delivery
        head = f"{o.name}: {o.phase or '-'}"
        if o.state == "done":
            # PMs come through the forum's one inbox, shared by its games: the count is the forum's
            pms = report.pms_stored.get(forums.get(o.name, ""), 0)
            parts = [f"{o.stored} post(s) and {pms} PM(s) stored", f"{o.queued} message(s) queued",
                     f"{d.sent if d else 0} sent"]
            if d and d.recovered:
                parts.append(f"{d.recovered} found already on the forum")
            if o.held_back and o.held_until is not None:
                # a GM who runs `tick` right after `game start` would otherwise see nothing and wonder why
                parts.append(f"{o.held_back} more due from {local(o.held_until, zones.get(o.name, ''))} "
                             f"(grace_seconds)")
        elif o.state == "error" and deferred_by_flood(o.error):
            # routine, not an outage: the forum's flood timer holds the rest until a later tick
            owed = waiting.get(o.name, 0)
            after = o.error.cause if isinstance(o.error, PartlySent) else o.error
            when = f", next try in {after.retry_after:.0f} s" if after.retry_after is not None else ""
            parts = [f"{d.sent if d else 0} sent", f"deferred: {owed} message(s) wait for the forum's flood "
                     f"limit{when} ({after})"]
        elif o.state == "error":
            parts = [f"forum error: {o.error}"]
        elif o.state == "broken":
            parts = [f"not played: {o.problem}"]
        else:
            parts = [{"locked": "skipped: another tick holds it", "ended": "skipped: ended meanwhile",
                      "unconfigured": "skipped: no longer in the config"}.get(o.state, o.state)]
        if o.pages_error:
            parts.append(f"the posts showing a picture wait: {o.pages_error}")
        held = stuck.get(o.name, {})
        if held:
            words = {"uncertain": "maybe not delivered", "refused": "refused by the forum",
                     "queued": "awaiting a moderator"}
            parts.append("stuck: " + ", ".join(f"{n} {words[k]}" for k, n in sorted(held.items()))
                         + f" (see `forumbot outbox {o.name}`)")
        lines.append(head + "; " + ", ".join(parts))
    return lines


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
    from forumbot.registry import adapter_factory

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
            shown = deadline.astimezone(ZoneInfo(schedule.timezone))
            warnings.append(f"games.{game.name}.start: Day 1's deadline ({shown:%Y-%m-%d %H:%M} {schedule.timezone}) "
                            "has passed; move start to a time ahead before `forumbot game start`")
    return warnings


def core_validate(setup: GameSetup) -> None:
    """Let the rules engine judge the setup: player count, cast, roles, names (it raises SetupError)."""
    from forumbot.game import run

    run(setup, [], until=setup.schedule.start - timedelta(microseconds=1))

