"""`game list` and `game status`: every game and its state; one game's phase, seats, roles (for the GMs) and
outbox, or how it ended."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.errors import SetupError
from forumbot.games.lookup import STOPPED, configured_game, setup_of
from forumbot.localtime import local
from forumbot.model import Role
from forumbot.outbox.store import MERGED
from forumbot.games.pm_pace import pm_eta_line
from forumbot.store.models import GameRow, OutboxRow, SeatRow
from forumbot.rules import get_variant
from forumbot.engine.signup import run_signup
from forumbot.store.game import fold_game, load_game


# --- game list / status ------------------------------------------------------------------------------------


def list_games(sessions: sessionmaker[Session], config: Config) -> list[tuple[str, str, str]]:
    """(name, status, mode) for every game in the config or the database."""
    with sessions.begin() as session:
        stored = {g.name: g for g in session.scalars(select(GameRow))}
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
        game = session.scalar(select(GameRow).where(GameRow.name == name))
        if game is None:
            configured_game(config, name)
            return f"{name}: not started (start it with `forumbot game start {name}`)"
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game.id).order_by(SeatRow.seat_no)))
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
    zone = setup_of(game).schedule.timezone
    lines = [
        f"{name}: {game.status}, mode {game.mode}, started {local(game.started_at, zone)}"
        + (_closed(game, zone) if game.ended_at else ""),
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
        try:
            # an ended game is shown as it ended, not folded on past its end
            run = fold_game(sessions, config, name, game.ended_at or now)
        except SetupError as e:  # a stored setup the fold cannot run on: say so, with the rest of the status
            lines.insert(1, f"not played: {e}")
        else:
            alive = [p.nick for p in run.result.players if p.alive]
            deadline = f", until {local(run.next_deadline, zone)}" if run.next_deadline and not game.ended_at else ""
            if run.next_deadline is None and game.ended_at is None and run.phase != "ended":
                deadline = ", paused by a GM (no deadline runs until `продолжить`)"  # GameRun: None when paused
            lines.insert(1, f"phase: {run.phase}{deadline}; alive ({len(alive)}): {', '.join(alive)}")
            if run.phase.startswith("signup"):
                lines.insert(2, signup_line(sessions, config, name, now, zone))
            elif game.ended_at is not None:
                lines[2:2] = _the_end(game, run, zone)
            else:  # GMs are trusted with the roles (issue 17 item 13); the public never sees this command's output
                lines[2:2] = ["roles (for the GMs only):", *_seat_lines(run), *_don_line(game, run),
                              *_reserve_lines(run, zone)]
            for day in run.history:  # a day a majority ended early (or will, after its delay)
                if day.majority is None:
                    continue
                nick, at = day.majority
                if day.closed is not None:
                    lines.append(f"{day.label}: ended at majority, {nick}'s post at {local(at, zone)}")
                else:
                    ends = f" at {local(run.next_deadline, zone)}" if run.next_deadline else ""
                    lines.append(f"{day.label}: majority for {nick} since {local(at, zone)}; the day ends{ends}"
                                 " unless a change of vote breaks it")
            for item, phase, stamped, where in run.late:  # C-13: stored, the GMs told; the announced results stand
                lines.append(f"late: {where} {item} (stamped {local(stamped, zone)}) was read after {phase} was "
                             "resolved; it counts from when it was read")
    return "\n".join(lines)


def signup_line(sessions: sessionmaker[Session], config: Config, name: str, now: datetime, zone: str) -> str:
    """S-2: who holds a place, who is in the reserve, the close in force (`game status`, the dashboard)."""
    with sessions.begin() as session:
        setup, inputs, _ = load_game(session, config, session.scalars(select(GameRow.id).where(GameRow.name == name)).one())
    s = run_signup(setup.signup, inputs, now)  # type: ignore[arg-type]
    return (f"sign-up: {s.state}, {len(s.players)} of {setup.signup.seats} (closes "  # type: ignore[attr-defined]
            f"{local(s.closes, zone)}{', extended' if s.extended else ''}); players: {', '.join(s.players) or '-'}; "
            f"reserve: {', '.join(s.reserve) or '-'}")


def _closed(game: GameRow, zone: str) -> str:
    """When the bot closed the game: a GM's walk-through read two end times (this tick's and the game's own
    "game over at", the deciding deadline) and could not tell which was the game's end."""
    if game.status in STOPPED:
        return f", stopped {local(game.ended_at, zone)}"
    return f", closed by the tick of {local(game.ended_at, zone)} (the game's end: see result)"


def _posts(n: int) -> str:
    return f"{n} post" if n == 1 else f"{n} posts"


def _the_end(game: GameRow, run, zone: str) -> list[str]:
    """How an ended game ended: who won (or that `game stop` ended it), the seed and every seat's role."""
    result = run.result
    if game.status in STOPPED:
        how = f"stopped by `forumbot game stop` at {local(game.ended_at, zone)}, no winner"
        if game.stop_reason:
            how += f" (reason: {game.stop_reason})"
    else:
        how = f"game over at {local(result.ended_at or game.ended_at, zone)}: winner {result.winner or 'none'}"
    return [f"result: {how}; seed {game.seed}", *_seat_lines(run)]


def _seat_lines(run) -> list[str]:
    lines = []
    for p in run.result.players:
        fate = "alive" if p.alive else (f"out ({p.died.cause}, {p.died.phase})" if p.died else "out")
        lines.append(f"  {p.nick}: {p.role}, {fate}")
    return lines


def _reserve_lines(run, zone: str) -> list[str]:
    """S-4: the reserve in order and the seats offered to it now (a game without a sign-up has none)."""
    if run.reserve is None:
        return []
    return [f"reserve: {', '.join(run.reserve) or '-'}",
            *(f"offered: the seat of {nick} to {to}, until {local(until, zone)}" for nick, to, until in run.offers)]


def _don_line(game: GameRow, run) -> list[str]:
    """M-1: who the Don is, or that the mafia have not chosen him yet (a variant without one says nothing)."""
    don = [p.nick for p in run.result.players if p.role is Role.DON]
    if don:
        return [f"don: {don[0]}"]
    if Role.DON in get_variant(setup_of(game).variant).roles:
        return ["don: not chosen yet (the mafia choose him during Setup, M-1)"]
    return []
