"""Checkpoints in the store (issue 19 item 3, revision 0007_checkpoints): a stored game folded from its stored
checkpoints gives what `game.run` gives; the checkpoints a fold makes are stored once, the latest few kept, and
a quiet fold (nothing resolved since) writes none."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import STEPS, play, world  # noqa: F401  (world: fixture)
from sqlalchemy import delete, func, select

from forumbot.engine.checkpoint import TIP
from forumbot.game import run
from forumbot.store.checkpoints import fold_with_checkpoints, load_checkpoints, load_tip, save_checkpoints
from forumbot.store.models import CheckpointRow
from forumbot.store.models import GameRow
from forumbot.store.game import load_game


def _stored(w):  # type: ignore[no-untyped-def]
    with w.daemon.sessions.begin() as session:
        game_id = session.scalar(select(GameRow.id))
        setup, inputs, _ = load_game(session, w.config, game_id)
    return game_id, setup, inputs


def _rows(w, game_id):  # type: ignore[no-untyped-def]
    with w.daemon.sessions.begin() as session:
        return session.scalar(select(func.count()).select_from(CheckpointRow).where(CheckpointRow.game_id == game_id,
                                                                                    CheckpointRow.phase != TIP))


def test_issue19_a_stored_game_folds_from_its_checkpoints_as_a_whole_fold(world):  # noqa: F811
    play(world)
    game_id, setup, inputs = _stored(world)
    until = STEPS[-1][0] + timedelta(minutes=5)
    whole = run(setup, inputs, until)
    first = fold_with_checkpoints(world.daemon.sessions, game_id, setup, inputs, until)
    assert first == whole
    stored = _rows(world, game_id)
    assert stored == 3  # setup, day 1, night 1 resolved: all kept (KEEP = 3)
    again = fold_with_checkpoints(world.daemon.sessions, game_id, setup, inputs, until)
    assert again == whole and _rows(world, game_id) == stored  # a quiet fold: nothing written
    with world.daemon.sessions.begin() as session:
        labels = [cp.label for cp in load_checkpoints(session, game_id)]
    assert labels == ["setup", "day 1", "night 1"]


def test_issue19_only_the_latest_checkpoints_are_kept(world):  # noqa: F811
    play(world)
    game_id, setup, inputs = _stored(world)
    from forumbot.engine.fold import run_from

    _, made = run_from(setup, inputs, STEPS[-1][0], ())
    with world.daemon.sessions.begin() as session:  # the ticks stored theirs: start from none
        session.execute(delete(CheckpointRow).where(CheckpointRow.game_id == game_id))
    with world.daemon.sessions.begin() as session:
        assert save_checkpoints(session, game_id, made, keep=2) == 3
    with world.daemon.sessions.begin() as session:
        assert [cp.label for cp in load_checkpoints(session, game_id)] == ["day 1", "night 1"]
        assert save_checkpoints(session, game_id, made[1:], keep=2) == 0  # the same ones: nothing written


def test_issue19_the_tick_folds_from_checkpoints_and_stores_them(world):  # noqa: F811
    """The tick's own fold goes through the store's checkpoints: after a game played by ticks past Setup, Day 1
    and Night 1, their checkpoints are stored without anyone calling fold_with_checkpoints, and the game the
    ticks announced is what a whole fold gives (the outbox holds no message a whole fold would not make)."""
    play(world)
    game_id, setup, inputs = _stored(world)
    with world.daemon.sessions.begin() as session:
        labels = [cp.label for cp in load_checkpoints(session, game_id)]
    assert labels == ["setup", "day 1", "night 1"]
    with world.daemon.sessions.begin() as session:  # and the tip, where the last tick stopped (issue 19)
        tip = load_tip(session, game_id)
    assert tip is not None and tip.seen == len([i for i in inputs if i.at <= tip.until])
    from forumbot.store.models import OutboxRow

    with world.daemon.sessions.begin() as session:
        queued = {row.key for row in session.scalars(select(OutboxRow).where(OutboxRow.game_id == game_id,
                                                                            OutboxRow.origin == "core"))}
    whole = {m.key for m in run(setup, inputs, STEPS[-1][0] + timedelta(minutes=5)).messages}
    assert queued and queued <= whole


def test_issue19_a_checkpoint_that_cannot_be_written_fails_no_tick(world, monkeypatch):  # noqa: F811
    """Checkpoints and tips are a cache: when one cannot be written (a value with no plain form: in .ci/run the
    XenForo games' patched clock once made every tick fail here), the tick's fold stands and nothing is stored."""
    from forumbot.engine.plain import PlainError
    from forumbot.store import checkpoints

    def refuse(cp):  # type: ignore[no-untyped-def]
        raise PlainError("no plain form for a tests.FakeZone")

    monkeypatch.setattr(checkpoints, "dumps", refuse)
    play(world)
    game_id, setup, inputs = _stored(world)
    assert _rows(world, game_id) == 0
    until = STEPS[-1][0] + timedelta(minutes=5)
    assert fold_with_checkpoints(world.daemon.sessions, game_id, setup, inputs, until) == run(setup, inputs, until)
