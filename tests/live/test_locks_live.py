"""R-13 on the real phpBB and SMF boards: the bot, an ordinary member as the boards seed it, may not lock (the probe
says so, a lock is refused); once the board's admin made it a global moderator through the control panel, the
adapter closes and opens the vote thread as a player sees it, and one `forumbot tick` at a day's deadline closes it
and the tick at the next day's start opens it (lock_threads = true). Short on purpose: no whole game, one of the
side boards (its group's last test: the bot stays a moderator there)."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

import pytest

from adapters.phpbb.forum import PhpbbForum
from adapters.smf.forum import SmfForum
from boards import Board
from livegame import PASSWORD_ENV, LiveGame
from adapters.mybb.forum import MybbForum
from adapters.punbb.forum import PunbbForum
from moderators import may_reply, promote_fluxbb, promote_mybb, promote_phpbb, promote_smf
from forumbot.cli.main import main
from forumbot.errors import FormRejected
from forumbot.probe.handshake import FAILING, VERIFIED, reply_flow

pytestmark = [pytest.mark.live, pytest.mark.group_last]

# the board's own refusal of a reply in a closed thread, as the reply flow quotes it
CLOSED_SAYS = {"phpbb": "Эта тема закрыта, вы не можете редактировать и оставлять сообщения в ней",
               "mybb": "You cannot post replies in this thread because it has been closed by a moderator",
               "smf": "This topic is locked, you are not allowed to post or modify messages",
               "fluxbb": "У вас нет прав на просмотр этой страницы"}

def roles(board: Board) -> dict[str, str]:
    return dict(zip(board.players, ("sheriff", "don", "mafia", "mafia")))


def check_adapter_locks(board: Board, adapter, promote) -> None:
    """An ordinary member may not lock and is refused; promoted by the admin, the bot closes and opens the vote
    thread, as a player sees it. The handshake's reply flow (issue 28 item 4), through the engine's preview, read
    as a player's account would be: verified while the thread is open, failing in the board's words while it is
    closed; neither preview posts anything."""
    engine, vote = board.engine, board.env["VOTE_TOPIC"]
    thread = board.topic_url(vote)
    player = board.member(board.players[0])
    as_player = type(adapter)(board.base_url, board.players[0], board.password, timezone_name="Europe/Moscow")
    posted = [p.id for p in player.posts(vote)]
    as_player.login()  # as the handshake logs in before its flows
    opened = reply_flow(as_player, thread)
    assert opened.status == VERIFIED, opened
    adapter.login()
    assert adapter.may_lock(thread) is False  # an ordinary member: no lock control on the page
    with pytest.raises(FormRejected):
        adapter.lock_thread(thread, True)
    assert may_reply(player, engine, vote)

    promote(board)
    assert adapter.may_lock(thread) is True
    adapter.lock_thread(thread, True)
    assert not may_reply(player, engine, vote), "the vote thread should be closed to the players"
    closed = reply_flow(as_player, thread)
    assert closed.status == FAILING and CLOSED_SAYS[engine] in closed.said, closed
    adapter.lock_thread(thread, True)  # already closed: nothing to do, no error
    adapter.lock_thread(thread, False)
    assert may_reply(player, engine, vote), "the vote thread should be open again"
    assert [p.id for p in player.posts(vote)] == posted  # the previews posted nothing


def check_locks(board: Board, adapter, promote, tmp_path, monkeypatch) -> None:
    engine, vote = board.engine, board.env["VOTE_TOPIC"]
    player = board.member(board.players[0])
    check_adapter_locks(board, adapter, promote)
    # one tick at Day 1's deadline closes the vote thread; the tick at Day 2's start opens it (the test's clock)
    game = LiveGame(board, tmp_path, "locks", "moscow", roles(board), {"post": 1.2, "pm": 1.2},
                    options="lock_threads = true")
    monkeypatch.setenv(PASSWORD_ENV, board.password)
    start = datetime.fromisoformat(_start_of(game))
    config = str(game.config)
    assert main(["tick", "-c", config], clock=lambda: start + timedelta(minutes=1)) == 0  # Day 1 opens
    assert may_reply(player, engine, vote)
    day_end = start + timedelta(hours=48, minutes=2)
    main(["tick", "-c", config], clock=lambda: day_end)
    assert not may_reply(player, engine, vote), "Day 1's deadline should have closed the vote thread"
    assert _lock_rows(game) == {"lock/vote/day 1": "sent"}
    main(["tick", "-c", config], clock=lambda: day_end + timedelta(hours=24, minutes=2))
    assert may_reply(player, engine, vote), "Day 2's start should have opened the vote thread"
    assert _lock_rows(game) == {"lock/vote/day 1": "sent", "unlock/vote/night 1": "sent"}


def _start_of(game: LiveGame) -> str:
    for line in game.config.read_text(encoding="utf-8").splitlines():
        if line.startswith("start = "):
            return line.split(" = ", 1)[1]
    raise AssertionError("no start in the game's table")


def _lock_rows(game: LiveGame) -> dict[str, str]:
    with sqlite3.connect(game.tmp / "forumbot.db") as db:
        return dict(db.execute("SELECT key, status FROM outbox WHERE \"where\" = 'lock'"))


def test_r13_phpbb_locks_and_unlocks_the_vote_thread(phpbb_side_board, tmp_path, monkeypatch):
    board = phpbb_side_board
    check_locks(board, PhpbbForum(board.base_url, board.bot, board.password, timezone_name="Europe/Moscow"),
                promote_phpbb, tmp_path, monkeypatch)


def test_r13_smf_locks_and_unlocks_the_vote_thread(smf_stock_board, tmp_path, monkeypatch):
    board = smf_stock_board
    check_locks(board, SmfForum(board.base_url, board.bot, board.password, timezone_name="Europe/Moscow"),
                promote_smf, tmp_path, monkeypatch)


def test_r13_mybb_locks_and_unlocks_the_vote_thread(mybb_side_board):
    board = mybb_side_board
    check_adapter_locks(board, MybbForum(board.base_url, board.bot, board.password, timezone_name="Europe/Moscow"),
                        promote_mybb)


def test_r13_fluxbb_locks_and_unlocks_the_vote_thread(fluxbb_stock_board):
    board = fluxbb_stock_board
    check_adapter_locks(board, PunbbForum(board.base_url, board.bot, board.password,
                                          timezone_name="Europe/Moscow"), promote_fluxbb)
