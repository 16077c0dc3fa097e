"""More PMs between two ticks than one inbox page shows (MyBB: 20, phpBB: 25), on the real boards, through
`forumbot tick`: every one is stored exactly once, in the order sent. Before the inbox walk only page 1 was read,
and the older PMs, moved up after the next tick deleted the read ones, had ids below the cursor: 5 of 25 were
lost on MyBB ("nothing a player sent is dropped silently").

Other tests play on the same boards: only PMs carrying this test's own tag are counted. The game is in Setup for
its whole life (it starts in two hours), as in test_idle_requests.
"""

from __future__ import annotations

import sqlite3
import time
import uuid

import pytest

from boards import Board
from livegame import LiveGame
from test_idle_requests import MYBB_ROLES, roles

pytestmark = pytest.mark.live

ONE_PAGE = {"mybb": 20, "phpbb": 25}  # PMs an inbox page shows (MyBB's stock pmsperpage, phpBB topics_per_page)
EXTRA = 5
MAX_TICKS = 6


def stored_pm_texts(game: LiveGame, tag: str) -> list[str]:
    with sqlite3.connect(game.tmp / "forumbot.db") as db:
        return [t for t, in db.execute("SELECT text FROM inputs WHERE kind = 'pm' ORDER BY rowid") if tag in t]


def check_overflow(board: Board, game: LiveGame) -> None:
    game.tick()  # logs in, reads the threads and the inbox as they are
    sender = board.member(board.players[-1])
    tag = uuid.uuid4().hex[:8]
    sent = [f"ночной ход {n:02d} {tag}" for n in range(1, ONE_PAGE[board.engine] + EXTRA + 1)]
    started = time.monotonic()
    for n, text in enumerate(sent, 1):
        sender.pm(board.bot, f"переполнение {n:02d}", text)
    print(f"{board.engine}: {len(sent)} PMs sent in {time.monotonic() - started:.0f} s")
    for _ in range(MAX_TICKS):  # the first tick should read them all; later ones delete and must add nothing
        game.tick()
        if len(stored_pm_texts(game, tag)) >= len(sent):
            break
    game.tick()  # deletes the read ones: the older ones, moved up to page 1, must not come back
    game.tick()
    stored = stored_pm_texts(game, tag)
    missing = [t for t in sent if t not in stored]
    assert not missing, f"{len(missing)} of {len(sent)} PMs never stored: {missing}"
    assert stored == sent, "each PM stored exactly once, in the order sent"


def test_inbox_overflow_on_mybb(mybb_side_board, tmp_path):
    game = LiveGame(mybb_side_board, tmp_path, "overflow", "free_hunt", MYBB_ROLES, {"post": 3, "pm": 3})
    check_overflow(mybb_side_board, game)


def test_inbox_overflow_on_phpbb(phpbb_side_board, tmp_path):
    game = LiveGame(phpbb_side_board, tmp_path, "overflow", "moscow", roles(phpbb_side_board), {"post": 1.2, "pm": 1.2})
    check_overflow(phpbb_side_board, game)
