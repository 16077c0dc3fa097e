"""Checkpoints in the store (issue 19 item 3): a game's fold starts at the latest stored checkpoint whose digest
still matches its inputs, and the checkpoints it makes are stored for the next tick. Only the latest few are
kept per game: a checkpoint is a cache, and an input stored late (C-13) invalidates only those after its stamp."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.engine.checkpoint import Checkpoint, dumps, loads
from forumbot.engine.fold import run_from
from forumbot.engine.results import GameRun
from forumbot.model import GameSetup, Input
from forumbot.store.models import Checkpoint as CheckpointRow

KEEP = 3  # per game: the latest few, so a post stored late into the last phase still finds an earlier one


def load_checkpoints(session: Session, game_id: int) -> list[Checkpoint]:
    rows = session.scalars(select(CheckpointRow).where(CheckpointRow.game_id == game_id)
                           .order_by(CheckpointRow.at))
    return [cp for cp in (loads(row.data) for row in rows) if cp is not None]


def save_checkpoints(session: Session, game_id: int, made: Sequence[Checkpoint], keep: int = KEEP) -> int:
    """Store the checkpoints a fold made that the store does not have (same time and digest); keep the latest
    `keep`. Returns how many were written. A quiet tick, which resolved nothing, writes nothing."""
    have = {(row.at, row.digest): row for row in
            session.scalars(select(CheckpointRow).where(CheckpointRow.game_id == game_id))}
    written = 0
    for cp in made:
        old = next((row for (at, _), row in have.items() if at == cp.at), None)
        if old is not None and old.digest == cp.digest:
            continue
        if old is not None:  # the same deadline with other inputs before it: the new one replaces it
            session.delete(old)
            session.flush()
        row = CheckpointRow(game_id=game_id, phase=cp.label, at=cp.at, digest=cp.digest, data=dumps(cp))
        session.add(row)
        have[(cp.at, cp.digest)] = row
        written += 1
    if written:
        session.flush()
        ats = sorted(session.scalars(select(CheckpointRow.at).where(CheckpointRow.game_id == game_id)))
        if len(ats) > keep:
            session.execute(delete(CheckpointRow).where(CheckpointRow.game_id == game_id,
                                                        CheckpointRow.at < ats[-keep]))
    return written


def fold_with_checkpoints(sessions: sessionmaker[Session], game_id: int, setup: GameSetup,
                          inputs: Sequence[Input], until: datetime | None) -> GameRun:
    """`game.run` for a stored game, from its latest matching checkpoint; the new checkpoints are stored. The
    GameRun is the same as `game.run`'s (tests/test_engine_checkpoints.py)."""
    with sessions.begin() as session:
        stored = load_checkpoints(session, game_id)
    result, made = run_from(setup, inputs, until, stored)
    if made:
        with sessions.begin() as session:
            save_checkpoints(session, game_id, made)
    return result
