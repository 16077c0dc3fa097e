"""`forumbot probe --handshake` on the four real boards (issue 18 item 5): the first run logs in, reads the game
and vote threads and PMs the GM a code; the GM answers through the board's own PM form; the second run reads the
answer. Every flow verified, nothing posted in either thread. Lean: two CLI runs and one GM PM per board, no game.

Each plays on a board a group builds anyway (no build of its own), among an engine's groups the one with the most
time to spare in .ci/run. A handshake leaves the GM's «Код ...» PM in the bot's inbox, which a game started in the
same minute would fold as a GM command (a time shown to the minute counts from the minute's end, C-1), and its own
PM in the GM's: so each runs after its group's games (`group_last`, tests/live/conftest.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from boards import Board
from livegame import ADAPTER_ENGINE, HANG_GUARD

pytestmark = [pytest.mark.live, pytest.mark.group_last]


def run(config, env) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "forumbot", "probe", "--handshake", "--json", "-c", str(config)],
                          env=env, capture_output=True, text=True, timeout=HANG_GUARD)
    return done.returncode, json.loads(done.stdout or "{}")


def thread_posts(board: Board) -> list[list[str]]:
    reader = board.member(board.gm)
    return [[p.id for p in reader.posts(board.topic(key))] for key in ("GAME_TOPIC", "VOTE_TOPIC")]


def play_handshake(board: Board, tmp_path, intervals: str) -> None:
    """Both runs of the handshake as a GM plays it, the GM's answer between them through the board's PM form.
    `intervals`: the bot's pacing as a config's inline table ("" keeps the profile's stock limits). The reply flow
    is verified through the engine's own preview (issue 28 item 4: phpBB's posting.php, MyBB's newreply.php
    `previewpost`, SMF's post2 `preview`, FluxBB's post.php `preview`), which posts nothing: both threads are
    read back from the board at the end, post for post as before."""
    game_url, vote_url = board.topic_url(board.topic("GAME_TOPIC")), board.topic_url(board.topic("VOTE_TOPIC"))
    config = tmp_path / "forumbot.toml"
    config.write_text(f'''
[forums.main]
engine = "{ADAPTER_ENGINE.get(board.engine, board.engine)}"
base_url = "{board.base_url}"
login = "{board.bot}"
password_env = "HANDSHAKE_PASSWORD"
timezone_name = "Europe/Moscow"
intervals = {{{intervals}}}

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
    before = thread_posts(board)
    code, first = run(config, env)
    assert code == 0, first
    assert [f["name"].split(":")[0] for f in first["flows"]] == ["login", "read", "read", "reply", "pm_send",
                                                                 "pm_reply"], first
    assert [f["status"] for f in first["flows"]] == ["verified"] * 5 + ["unverified"], first
    assert first["flows"][3]["said"] == "форма ответа проверена через предпросмотр; ничего не опубликовано", first
    gm = board.member(board.gm)
    gm.wait_for_pm(board.bot, first["code"], timeout=HANG_GUARD)
    gm.pm(board.bot, "Re: handshake", f"Код {first['code']}")
    code, second = run(config, env)
    assert code == 0, second
    assert [f["status"] for f in second["flows"]] == ["verified"] * 6, second
    assert thread_posts(board) == before  # nothing posted in either thread


def test_handshake_on_phpbb(phpbb_side_board, tmp_path):
    play_handshake(phpbb_side_board, tmp_path, "post = 1.2, pm = 1.2")


def test_handshake_on_mybb(mybb_board, tmp_path):
    # the whole game's board (591 s in .ci/run, the MyBB side board 736): PM_FLOOD=2, the bot told 3 s as there
    play_handshake(mybb_board, tmp_path, "post = 3, pm = 3")


def test_handshake_on_smf(smf_stock_board, tmp_path):
    # SMF's stock limits (343 s, the shortest group): the bot's one PM more keeps the group within the 20 PMs
    # an hour SMF allows a Regular Member (the stock game sends 18, test_smf_stock_limits.py); the GM, a Global
    # Moderator, has no hourly limit
    play_handshake(smf_stock_board, tmp_path, "")


def test_handshake_on_fluxbb(fluxbb_board, tmp_path):
    # the whole game's board (522 s, the stock-limits board 557): POST_FLOOD=2 for posts and PMs, the bot told 2 s
    play_handshake(fluxbb_board, tmp_path, "post = 2, pm = 2")
