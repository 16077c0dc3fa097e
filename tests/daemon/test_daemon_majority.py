"""R-12 through the daemon: a Moscow game with `majority_ends_day = true` on the memory forum. The tick that reads
the sixth vote of ten for one player resolves Day 1 at that post's time (a later post is not counted), `game
status` and the dashboard say the day ended at majority, and the export replays to the bytes the daemon sent."""

from __future__ import annotations

import json
from datetime import timedelta

from daemon_world import CAST, STARTED, T0, World, game_toml
from sqlalchemy import select

from forumbot import replay
from forumbot.games.export import export_game
from forumbot.games.status import game_status
from forumbot.pages.dashboard import dashboard, to_text
from forumbot.store.models import OutboxRow

OPTIONS = "\n[games.g1.options]\nmajority_ends_day = true\n"


def test_R12_the_tick_after_the_majority_post_posts_the_result_and_the_export_replays(tmp_path):
    w = World(tmp_path, games=game_toml("g1") + OPTIONS)
    try:
        w.start()
        w.now = STARTED + timedelta(hours=2)
        for nick, _ in CAST:
            w.pm(nick, "подтверждаю")
        w.tick()
        w.now = T0
        while w.now < T0 + timedelta(hours=1, minutes=50):  # C-14: the bot reads through Day 1 up to the votes
            w.now += timedelta(minutes=20)
            w.tick()
        w.now = T0 + timedelta(hours=3)
        voters = ["Шериф", "М1", "М2", "М3", "М4", "М5"]
        for k, nick in enumerate(voters):  # 12:00 .. 12:05 MSK; the sixth makes the majority
            w.post("vote", nick, "Маф1", ago=timedelta(hours=1) - timedelta(minutes=k))
        majority_at = T0 + timedelta(hours=2, minutes=5)
        w.post("vote", "М6", "Маф2", ago=timedelta(minutes=30))  # after it: not counted
        w.tick()
        results = [text for _, text, _ in w.bot_posts("g1/game") if "Итоги дня 1" in text]
        assert len(results) == 1, w.bot_posts("g1/game")
        assert "День закончился досрочно" in results[0] and "покидает" in results[0]
        assert "[b]Маф2[/b] —" not in results[0] and "Без голоса (4)" in results[0]
        with w.daemon.sessions.begin() as session:
            due = session.scalars(select(OutboxRow.due_at).where(OutboxRow.key == "day 1/result")).one()
        assert due.astimezone(majority_at.tzinfo) == majority_at
        # C-14 x R-12: every tick is recorded; the bot read the forum every 20 minutes up to 15 minutes before the
        # majority post, so the window before that early end is no outage, and no GM hears of one
        with w.daemon.sessions.begin() as session:
            keys = list(session.scalars(select(OutboxRow.key)))
        assert not [k for k in keys if "downtime" in k], keys

        status = game_status(w.daemon.sessions, w.config, "g1", w.now)
        # Маф1 holds the majority; the post that made it is М5's: no line may read as Маф1's post
        assert "день 1: окончен досрочно — большинство у игрока Маф1 с 01.12 12:05 МСК" in status, status
        board = to_text(dashboard(w.daemon.sessions, w.now))
        assert "day 1 ended at majority: a majority for Маф1 since 2026-12-01T" in board, board
        assert "Маф1's post" not in board, board
        board = to_text(dashboard(w.daemon.sessions, w.now, None, w.config))  # in the game's words (issue 28 item 14)
        assert "День 1 закончился досрочно: большинство у Маф1 с 01.12 12:05 МСК" in board, board
        assert "пост Маф1" not in board and "пост игрока" not in status, (board, status)

        with w.daemon.sessions.begin() as session:
            rows = session.scalars(select(OutboxRow).where(OutboxRow.status == "sent", OutboxRow.origin == "core")
                                   .order_by(OutboxRow.due_at, OutboxRow.id))
            sent = [(r.due_at, r.where, r.to, r.text) for r in rows]
        transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
        result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
        assert [(m.at, str(m.where), m.to, m.text) for m in result.messages if m.at <= w.now] == sent
    finally:
        w.close()
