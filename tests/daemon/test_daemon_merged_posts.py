"""issue 11 item 6: a board that merges the bot's consecutive posts (MyBB's post merging) delivers them inside the
bot's previous post; the daemon records it and `forumbot game status` says so in words, naming the posts."""

from __future__ import annotations

import json

from daemon_world import World, play, world  # noqa: F401 (a fixture)

from forumbot import replay
from forumbot.cli.main import main
from forumbot.games.export import export_game
from forumbot.games.status import game_status
from forumbot.store.models import OutboxRow
from sqlalchemy import select


def _merging_world(tmp_path) -> World:
    w = World(tmp_path)
    w.forum.merge_replies = True
    return w


def test_game_status_names_the_posts_the_forum_merged(tmp_path, capsys):
    w = _merging_world(tmp_path)
    try:
        play(w, upto=3)  # the setup post, then Day 1's opening right after it: merged; then the day's result
        with w.daemon.sessions.begin() as session:
            rows = list(session.scalars(select(OutboxRow).where(OutboxRow.where != "pm").order_by(OutboxRow.id)))
        merged = [r.key for r in rows if r.remote_id.startswith("merged:")]
        assert merged and all(r.status == "sent" for r in rows)
        assert len(merged) < len(rows)  # a post after a player's post is a post of its own
        for thread in ("game", "vote"):  # what the forum shows: fewer, longer posts
            mine = [r for r in rows if r.where == thread]
            assert len(w.forum.posts_by("Бот", f"g1/{thread}")) == len(mine) - sum(r.key in merged for r in mine)

        status = game_status(w.daemon.sessions, w.config, "g1", now=w.now)
        line = next(ln for ln in status.splitlines() if ln.startswith("форум склеил"))
        assert f"{len(merged)} сообщени" in line and all(key in line for key in merged), status
        assert "склейку постов" in line  # what to do about it

        assert main(["game", "status", "g1", "-c", str(w.config_path)]) == 0
        assert "форум склеил с предыдущим постом бота" in capsys.readouterr().out
    finally:
        w.close()


def test_no_merge_no_word_of_it(world):
    play(world, upto=3)
    assert "склеил" not in game_status(world.daemon.sessions, world.config, "g1", now=world.now)


def test_a_game_with_merged_posts_still_replays_into_what_was_sent(tmp_path):
    """The bot's posts a merge made longer are not inputs: export and replay give the messages the daemon sent."""
    w = _merging_world(tmp_path)
    try:
        play(w)
        transcript = json.loads(json.dumps(export_game(w.daemon.sessions, w.config, "g1", w.now)))
        result, _ = replay.replay(replay.parse_transcript(transcript))
        with w.daemon.sessions.begin() as session:
            sent = [(r.due_at, r.where, r.to, r.text) for r in session.scalars(
                select(OutboxRow).where(OutboxRow.origin == "core").order_by(OutboxRow.due_at, OutboxRow.id))]
        assert [(m.at, str(m.where), m.to, m.text) for m in result.messages] == sent
    finally:
        w.close()
