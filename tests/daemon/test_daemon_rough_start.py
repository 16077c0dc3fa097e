"""A PM the forum shows only roughly ("1 минуту назад") right after `game start` may read as earlier than the
start; it still belongs to the game, since it could have been sent after it (C-1; issue 7 items 1 and 7)."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import CAST, STARTED, T0, World


def reminded(w: World) -> set[str]:
    return {to for to, _, at in w.bot_pms() if at == w.now}


def test_a_rough_pm_straddling_game_start_is_routed_to_the_game_C1_issue7_item1(tmp_path):
    w = World(tmp_path)
    w.now = STARTED
    w.start()
    w.now = STARTED + timedelta(seconds=40)
    # "1 минуту назад" read 40 s after the start: sent 60-119 s ago, between 79 s before and 20 s before now
    w.forum.add_pm("М1", "подтверждаю", w.now - timedelta(seconds=119), latest=w.now - timedelta(seconds=20))
    # the same words, but the latest instant they allow is before the start: a PM of an earlier game
    w.forum.add_pm("М2", "подтверждаю", w.now - timedelta(seconds=119), latest=STARTED - timedelta(seconds=1))
    w.tick()
    w.now = T0 - timedelta(minutes=59)
    w.tick()
    assert reminded(w) == {n for n, _ in CAST} - {"М1"}  # М1 confirmed; М2's PM was not this game's
    w.close()


def test_a_rough_pm_straddling_game_start_leaves_setup_at_the_start_and_the_export_replays_it_C1(tmp_path):
    """Found on a live MyBB game: a confirmation read as "this minute" has an earliest instant before `game
    start`; folding it moved Setup (the role PMs, the opening post) back to that instant, so every later fold,
    and the replay of the game's export, dated those messages otherwise than the first tick had sent them."""
    import json

    from forumbot import replay
    from forumbot.games.export import export_game
    from forumbot.store.models import OutboxRow
    from forumbot.store.game import fold_game
    from sqlalchemy import select

    w = World(tmp_path)
    start = STARTED + timedelta(seconds=7, microseconds=653649)
    w.now = start
    w.start()
    w.tick()
    w.now = start + timedelta(seconds=40)
    w.forum.add_pm("М1", "подтверждаю", STARTED, latest=STARTED + timedelta(seconds=59))  # "this minute"
    w.tick()
    with w.daemon.sessions.begin() as session:
        sent = [(r.due_at, r.where, r.to, r.text) for r in session.scalars(
            select(OutboxRow).where(OutboxRow.origin == "core").order_by(OutboxRow.due_at, OutboxRow.id))]
    assert any(to == "М1" and at >= start for at, _, to, text in sent if "подтвержд" in text.lower())
    refolded = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert {m.at for m in refolded.messages if m.key.startswith("setup/")} == {start}
    transcript = json.loads(json.dumps(export_game(w.daemon.sessions, w.config, "g1", w.now)))
    result, _ = replay.replay(replay.parse_transcript(transcript))
    assert sorted((m.at, str(m.where), m.to, m.text) for m in result.messages) == sorted(sent)
    w.close()
