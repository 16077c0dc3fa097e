"""What a tick records besides the inputs: facts about accounts with the GM PMs that name them, and after the
fold, the seats, the resolved phases (C-13), the override log (C-9) and the end of a finished game."""

from __future__ import annotations

import json
import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from forumbot.forum.adapter import ACCOUNTS, ForumAdapter, can
from forumbot.config.types import GameConfig
from forumbot.engine.results import GameRun
from forumbot.model import Input, Rejection, Replace
from forumbot.parse import NickMatcher, parse_command
from forumbot.store.models import GameRow, OutboxRow, OverrideRow, InputRow, ResolutionRow, SeatRow
from forumbot.cycle.context import Context
from forumbot.store.game import read_rows

log = logging.getLogger("forumbot.tick")  # the tick's logger, as before the split: the log lines read the same


# --- facts about accounts, recorded with the GM PM that needs them ------------------------------------------
#
# A GM `замена OLD NEW` naming an account the forum does not have would leave the seat's PMs undeliverable.
# The fold is pure, so it cannot ask the forum: the first cycle that sees such a PM asks the adapter (where it
# can tell) and records the answer with the PM (inputs.facts); the fold reads it from the Input, and every
# later fold and replay sees the same answer, whatever the forum says later.


def check_accounts(ctx: Context, adapter: ForumAdapter, game_id: int,
                    commands: list[tuple[int, Input]]) -> tuple[bool, int]:
    """Record the facts of the GM PMs not checked yet; return whether any changed what the fold will read, and
    how many rows were written (each row's version grew by one: forumbot/store/inputs.py)."""
    if not commands:
        return False, 0
    ids = [row_id for row_id, _ in commands]
    with ctx.sessions.begin() as session:
        unchecked = list(session.execute(select(InputRow.id, InputRow.text).where(
            InputRow.id.in_(ids), InputRow.facts.is_(None))))
        if not unchecked:
            return False, 0
        nicks = set(session.scalars(select(SeatRow.nick).where(SeatRow.game_id == game_id))) | set(
            session.scalars(select(SeatRow.current_nick).where(SeatRow.game_id == game_id)))
    ask = adapter.account_exists if can(adapter, ACCOUNTS) else None  # type: ignore[attr-defined]
    matcher = NickMatcher(sorted(nicks))
    facts: dict[int, dict] = {}
    for row_id, text in unchecked:
        command = parse_command(text, matcher, everyone=sorted(nicks), parse_vote=lambda words: Rejection("empty"))
        found: dict = {}
        if isinstance(command, Replace) and command.new and ask is not None:  # S-4: `замена НИК` names none
            exists = ctx.retry(adapter, lambda: ask(command.new))
            if exists is False:
                found["missing_accounts"] = [command.new]
                log.info("replacement account %r does not exist on the forum", command.new)
        facts[row_id] = found
    with ctx.sessions.begin() as session:
        for row_id, found in facts.items():
            session.get_one(InputRow, row_id).facts = json.dumps(found, ensure_ascii=False, sort_keys=True)
    return any(facts.values()), len(facts)

# --- bookkeeping after the fold -----------------------------------------------------------------------------


def sync_game(session: Session, game_id: int, game: GameConfig, result: GameRun) -> None:
    row = session.get_one(GameRow, game_id)
    if row.mode != game.mode:
        row.mode = game.mode
    seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat_no)))
    players = result.result.players
    if not seats and players:  # S-3: a sign-up closed, the game has its players now (PMs route to them)
        for i, player in enumerate(players):
            session.add(SeatRow(game_id=game_id, seat_no=i, nick=player.nick, current_nick=player.nick,
                             role=str(player.role)))
    elif len(players) == len(seats):
        for seat, player in zip(seats, players):
            if seat.current_nick != player.nick:
                seat.current_nick = player.nick  # a replacement took the seat; its role stays
            if seat.role != str(player.role):
                seat.role = str(player.role)  # e.g. the Moscow Don chosen by the mafia during Setup (M-1)


def record_resolutions(session: Session, game_id: int, result: GameRun, started: datetime) -> None:
    """C-13: the phases this tick resolved, and the interim counts and reminders it made first, with its time:
    every input read by this tick was read before (a replay gives each only those inputs). C-14: the phase resolved
    just before one that opened when the bot was back is recorded at that opening, the time the fold took (this
    tick's, or that of a tick killed after its fold, whose tip this tick started from), so every later fold and a
    replay open it there too."""
    known = set(session.scalars(select(ResolutionRow.phase).where(ResolutionRow.game_id == game_id)))
    last = result.resolved[-1] if result.resolved else None
    for label, at in result.resolved + result.computed:
        if label not in known:
            opened_late = (label, at) == last and result.phase_opens is not None and result.phase_opens > at
            session.add(ResolutionRow(game_id=game_id, phase=label,
                                   resolved_at=result.phase_opens if opened_late else started))
            known.add(label)


def log_overrides(session: Session, result: GameRun, commands: list[tuple[int, Input]], game_id: int) -> None:
    """C-9: each GM PM the fold handled, once, with the game just before and after it, read from the fold's
    result (issue 19: no fold more per command). `commands` are the GMs' PMs the tick read; one the fold handled
    that is not among them (a tick reads only the inputs after its tip) is looked up when not logged yet."""
    states = {input_id: (before, after) for input_id, before, after in result.commands}
    if not states:
        return
    logged_rows = list(session.execute(select(OverrideRow.input_id, InputRow.item_id).join(
        InputRow, InputRow.id == OverrideRow.input_id).where(OverrideRow.game_id == game_id)))
    logged = {row_id for row_id, _ in logged_rows}
    known = {command.id for _, command in commands} | {item_id for _, item_id in logged_rows}
    missing = [i for i in states if i not in known]
    if missing:
        commands = commands + _stored_pms(session, game_id, missing)
    for input_id, command in commands:
        if input_id in logged or command.id not in states:
            continue
        before, after = states[command.id]
        logged.add(input_id)
        session.add(OverrideRow(game_id=game_id, input_id=input_id, gm=command.author, at=command.at,
                             command=command.text, state_before=json.dumps(before, ensure_ascii=False),
                             state_after=json.dumps(after, ensure_ascii=False)))


def _stored_pms(session: Session, game_id: int, ids: list[str]) -> list[tuple[int, Input]]:
    """The stored PMs of the game's forum with these forum ids, as the fold read them (with their row ids)."""
    forum = session.get_one(GameRow, game_id).forum_id
    pms = InputRow.kind.in_(("pm", "conv"))  # a GM's command CC'd to others is his command all the same
    return read_rows(session, (InputRow.forum_id == forum) & pms & InputRow.item_id.in_(ids))


def close_if_drained(ctx: Context, game_id: int, now: datetime) -> bool:
    """The game marked ended once its every message is delivered; True when it was marked now."""
    with ctx.sessions.begin() as session:
        open_rows = session.scalar(select(OutboxRow.id).where(
            OutboxRow.game_id == game_id, OutboxRow.status.in_(("pending", "attempted"))).limit(1))
        if open_rows is None:
            row = session.get_one(GameRow, game_id)
            row.status, row.ended_at = "ended", now
            log.info("%s: game over, every message delivered", row.name)
            return True
    return False
