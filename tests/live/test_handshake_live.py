"""`forumbot probe --handshake` on the real phpBB board (issue 18 item 5): the first run logs in, reads the game
and vote threads and PMs the GM a code; the GM answers through the board's own PM form; the second run reads the
answer. Every flow verified, nothing posted in the threads. Lean: two CLI runs on the side board, no game."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.live


def run(config, env) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "forumbot", "probe", "--handshake", "--json", "-c", str(config)],
                          env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, json.loads(done.stdout or "{}")


def test_handshake_on_phpbb(phpbb_side_board, tmp_path):
    import os

    board = phpbb_side_board
    game_url, vote_url = board.topic_url(board.topic("GAME_TOPIC")), board.topic_url(board.topic("VOTE_TOPIC"))
    config = tmp_path / "forumbot.toml"
    config.write_text(f'''
[forums.main]
engine = "phpbb"
base_url = "{board.base_url}"
login = "{board.bot}"
password_env = "HANDSHAKE_PASSWORD"
timezone_name = "Europe/Moscow"
intervals = {{post = 1.2, pm = 1.2}}

[games.g]
forum = "main"
variant = "moscow"
game_thread = "{game_url}"
vote_thread = "{vote_url}"
gms = ["{board.gm}"]
start = 2026-12-01T10:00:00+03:00
players = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
''', encoding="utf-8")
    env = {**os.environ, "HANDSHAKE_PASSWORD": board.password}
    before = len(board.member(board.gm).posts_by(board.topic("GAME_TOPIC"), board.bot))
    code, first = run(config, env)
    assert code == 0, first
    assert [f["status"] for f in first["flows"]] == ["verified"] * 4 + ["unverified"]
    gm = board.member(board.gm)
    gm.wait_for_pm(board.bot, first["code"], timeout=30)
    gm.pm(board.bot, "Re: handshake", f"Код {first['code']}")
    code, second = run(config, env)
    assert code == 0, second
    assert [f["status"] for f in second["flows"]] == ["verified"] * 5, second
    assert len(gm.posts_by(board.topic("GAME_TOPIC"), board.bot)) == before  # nothing posted
