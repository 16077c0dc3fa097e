"""Checkpoints in the store (issue 19 item 3): a game's fold starts at the latest stored checkpoint whose digest
still matches its inputs, and the checkpoints it makes are stored for the next tick. Only the latest few are
kept per game: a checkpoint is a cache, and an input stored late (C-13) invalidates only those after its stamp.

Beside them, one row per game holds its tip (engine/tip.py, labelled TIP): the fold where the last tick stopped.
A quiet tick leaves it as it is (it writes nothing); a tick that folded something replaces it."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Sequence

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from forumbot.engine.checkpoint import TIP, Checkpoint, Tip, dumps, loads
from forumbot.engine.plain import PlainError
from forumbot.engine.fold import run_from
from forumbot.engine.tip import run_tipped
from forumbot.engine.results import GameRun
from forumbot.game import signed_up, with_signup
from forumbot.model import GameSetup, Input
from forumbot.store.models import CheckpointRow

log = logging.getLogger(__name__)
KEEP = 3  # per game: the latest few, so a post stored late into the last phase still finds an earlier one


def load_checkpoints(session: Session, game_id: int) -> list[Checkpoint]:
    rows = session.scalars(select(CheckpointRow).where(CheckpointRow.game_id == game_id,
                                                       CheckpointRow.phase != TIP).order_by(CheckpointRow.at))
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
        ats = sorted(session.scalars(select(CheckpointRow.at).where(CheckpointRow.game_id == game_id,
                                                                    CheckpointRow.phase != TIP)))
        if len(ats) > keep:
            session.execute(delete(CheckpointRow).where(CheckpointRow.game_id == game_id,
                                                        CheckpointRow.phase != TIP, CheckpointRow.at < ats[-keep]))
    return written


def load_tip(session: Session, game_id: int) -> Tip | None:
    return load_marked_tip(session, game_id)[0]


def load_marked_tip(session: Session, game_id: int) -> tuple[Tip | None, str | None, bool]:
    """The game's tip, the mark of the stored inputs it saw (forumbot/store/inputs.py; None: not known), and
    whether the tick that folded it put its due messages in the outbox (`mark_enqueued`)."""
    row = session.execute(select(CheckpointRow.data, CheckpointRow.inputs_mark, CheckpointRow.enqueued).where(
        CheckpointRow.game_id == game_id, CheckpointRow.phase == TIP).limit(1)).first()
    if row is None:
        return None, None, False
    tip = loads(row.data, Tip)
    return (tip, row.inputs_mark, bool(row.enqueued)) if tip is not None else (None, None, False)


def mark_enqueued(session: Session, game_id: int, until: datetime) -> None:
    """The tip this tick's fold made (at `until`) had its due messages put in the outbox, in this transaction: the
    next tick needs to match only the others (tick.py). An older tip row is left as it is."""
    session.execute(update(CheckpointRow).where(CheckpointRow.game_id == game_id, CheckpointRow.phase == TIP,
                                                CheckpointRow.at == until).values(enqueued=True))


def save_tip(session: Session, game_id: int, tip: Tip, mark: str | None = None) -> bool:
    """The game's tip (with the mark of the stored inputs it saw), in place of the one there was; not stored (the
    next tick folds from a checkpoint) when a checkpoint has the same time, which the table keeps unique."""
    session.execute(delete(CheckpointRow).where(CheckpointRow.game_id == game_id, CheckpointRow.phase == TIP))
    if session.scalar(select(CheckpointRow.id).where(CheckpointRow.game_id == game_id,
                                                     CheckpointRow.at == tip.until)) is not None:
        return False
    session.add(CheckpointRow(game_id=game_id, phase=TIP, at=tip.until, digest=tip.state.digest, data=dumps(tip),
                              inputs_mark=mark))
    return True


def fold_with_checkpoints(sessions: sessionmaker[Session], game_id: int, setup: GameSetup,
                          inputs: Sequence[Input], until: datetime | None, *, tip: Tip | None = None,
                          tip_loaded: bool = False, checked: bool = False, mark: str | None = None,
                          saved: list[Tip] | None = None, now: datetime | None = None) -> GameRun:
    """`game.run` for a stored game, from its tip or else its latest matching checkpoint; the new checkpoints and
    tip are stored. The GameRun is the same as `game.run`'s (tests/test_engine_checkpoints.py, test_engine_tip.py).
    `tip_loaded`: `tip` is the stored one, already read; `checked`: the caller vouches for the inputs it saw
    (engine/tip.py); `mark`: which stored rows `inputs` are, kept with the new tip; `saved`: gets the tip stored;
    `now`: the tick's time, when a phase it resolves was swallowed by an outage (C-14, engine Work.now)."""
    def stored() -> list[Checkpoint]:
        with sessions.begin() as session:
            return load_checkpoints(session, game_id)

    signup: GameRun | None = None
    if setup.signup is not None:  # S-3: the sign-up is folded whole (it is short); the game from its close on
        played, signup, rest = signed_up(setup, inputs, until)
        if played is None:
            return signup
        setup, inputs, mark, checked = played, rest, None, False

    if until is None:
        result, made = run_from(setup, inputs, until, stored())
        tip = None
    else:
        if not tip_loaded:
            with sessions.begin() as session:
                tip, checked = load_tip(session, game_id), False
        result, made, tip = run_tipped(setup, inputs, until, tip, stored, checked, now)
    if made or tip is not None:
        try:
            with sessions.begin() as session:
                save_checkpoints(session, game_id, made)
                if tip is not None and save_tip(session, game_id, tip, mark) and saved is not None:
                    saved.append(tip)
        except PlainError as e:
            # a cache: the fold's result stands; the next tick folds from an older checkpoint or from Setup (a
            # value with no plain form, as a test's patched time zone, must never fail a tick that folded fine)
            log.warning("game %s: checkpoint not stored (%s: %s)", game_id, type(e).__name__, e)
    return result if signup is None else with_signup(signup, result)
