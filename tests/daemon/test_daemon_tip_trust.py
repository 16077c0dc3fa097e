"""Issue 26 item 4: the stored tip is a cache, so it may make a tick faster but never change what it sends. A tick
trusted the tip row's `enqueued` flag (its due messages are in the outbox: only the others are looked up) before
knowing the tip was this game's at this fold; a tip row from 4 ticks ahead, or copied from the other game of the
same database, left messages never queued, the Day-1 result among them (C-6). Each run below is compared with
the same script run without the tampering: every post and PM the same, each once."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import STEPS, World, game_toml
from sqlalchemy import delete, select

from forumbot.engine.checkpoint import TIP, Tip, loads
from forumbot.store.models import CheckpointRow, GameRow, OutboxRow

# g2 plays 1-hour days and 2-hour nights with nobody acting: by g1's Day 1 it is days ahead of it
G2 = game_toml("g2", prefix="x").replace('timezone = "Europe/Moscow"',
                                          'timezone = "Europe/Moscow"\nday_hours = 1\nnight_hours = 2')
FIELDS = ("at", "digest", "data", "inputs_mark", "enqueued")


def _world(tmp_path, name: str) -> World:
    w = World(tmp_path / name, games=game_toml("g1") + G2)
    w.start("g1")
    w.start("g2")
    return w


def _game_id(w: World, name: str) -> int:
    with w.daemon.sessions.begin() as s:
        return s.scalar(select(GameRow.id).where(GameRow.name == name))


def _tip_row(w: World, game: str) -> dict:
    with w.daemon.sessions.begin() as s:
        row = s.scalar(select(CheckpointRow).where(CheckpointRow.game_id == _game_id(w, game), CheckpointRow.phase == TIP))
        return {f: getattr(row, f) for f in FIELDS}


def _put_tip_row(w: World, game: str, values: dict) -> None:
    with w.daemon.sessions.begin() as s:
        row = s.scalar(select(CheckpointRow).where(CheckpointRow.game_id == _game_id(w, game), CheckpointRow.phase == TIP))
        for f in FIELDS:
            setattr(row, f, values[f])


def _play(w: World, after_tick=lambda step: None) -> list[dict]:
    """STEPS (Setup, Day 1 with a lynch, Night 1, a GM status), a tick each; g1's tip row after each tick."""
    tips = []
    for step, (at, act) in enumerate(STEPS):
        w.now = at
        act(w)
        w.tick()
        tips.append(_tip_row(w, "g1"))
        after_tick(step)
    w.now = STEPS[-1][0] + timedelta(hours=1)
    w.tick()
    return tips


def _sent(w: World) -> tuple[list, list]:
    posts, pms = w.state()
    return sorted(posts, key=repr), sorted(pms, key=repr)


def _assert_same(got: tuple[list, list], expected: tuple[list, list]) -> None:
    for kind, a, b in zip(("posts", "PMs"), got, expected):
        missing = [repr(m)[:100] for m in b if m not in a]
        extra = [repr(m)[:100] for m in a if m not in b]
        assert (missing, extra) == ([], []), f"{kind} never sent: {missing}; sent instead: {extra}"
    assert got == expected  # each once


def test_issue26_item4_a_tip_row_from_4_ticks_ahead_changes_nothing_sent(tmp_path):
    reference = _world(tmp_path, "reference")
    tips = _play(reference)
    expected = _sent(reference)
    assert any("Итоговый подсчёт голосов (день 1)" in text for _, text, _ in expected[0])

    w = _world(tmp_path, "tampered")
    _play(w, lambda step: _put_tip_row(w, "g1", tips[step + 4]) if step == 1 else None)
    _assert_same(_sent(w), expected)
    reference.close()
    w.close()


def test_issue26_item4_a_tip_row_copied_from_the_other_game_changes_nothing_sent(tmp_path):
    reference = _world(tmp_path, "reference")
    _play(reference)
    expected = _sent(reference)

    w = _world(tmp_path, "tampered")
    # before g1's Day 1 resolves, its tip row becomes g2's, whose game is past its own Day 1
    _play(w, lambda step: _put_tip_row(w, "g1", {**_tip_row(w, "g2")}) if step == 2 else None)
    _assert_same(_sent(w), expected)
    reference.close()
    w.close()


def test_issue26_item4_a_tip_row_whose_outbox_rows_are_gone_queues_as_without_a_tip(tmp_path):
    """The tip holds (this game's, on these inputs), but the outbox lacks the latest of the messages its row says
    were queued (rows lost, restored from elsewhere): the tick queues what a tick without any tip row queues."""
    outboxes = []
    for keep_tip in (True, False):
        w = _world(tmp_path, f"keep{keep_tip}")
        for at, act in STEPS[:3]:
            w.now = at
            act(w)
            w.tick()
        g1 = _game_id(w, "g1")
        with w.daemon.sessions.begin() as s:
            tip = loads(s.scalar(select(CheckpointRow.data).where(CheckpointRow.game_id == g1, CheckpointRow.phase == TIP)), Tip)
            latest = max((m for m in tip.state.messages if m.at <= tip.until), key=lambda m: m.at)
            s.execute(delete(OutboxRow).where(OutboxRow.game_id == g1, OutboxRow.key == latest.key))
            if not keep_tip:
                s.execute(delete(CheckpointRow).where(CheckpointRow.game_id == g1, CheckpointRow.phase == TIP))
        w.now += timedelta(minutes=1)
        w.tick()
        with w.daemon.sessions.begin() as s:
            outboxes.append(sorted(s.scalars(select(OutboxRow.key).where(OutboxRow.game_id == g1))))
            assert latest.key in outboxes[-1]
        w.close()
    assert outboxes[0] == outboxes[1]
