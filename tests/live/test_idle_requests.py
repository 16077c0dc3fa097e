"""Requests per `forumbot tick` on the real phpBB and MyBB boards (issue 8, "Done means"), counted in the board's
own server log: an idle tick reads the two threads' last pages and no inbox, since their headers show 0 unread
PMs; a PM in the header adds the inbox and the PM's page; new posts across a page boundary add one page; no login
while the stored cookies last.

The game tests play on the same boards (one after another, on this worker): nothing here depends on what the
threads hold or on which test ran before. The game here is in Setup for its whole life (it starts in two hours),
so the bot posts and sends only in its first tick; the PMs measured come from the admin, in no game, so they are
stored and answer nothing.
"""

from __future__ import annotations

import re
import sqlite3
import uuid

import pytest

from boards import Board
from livegame import LiveGame

pytestmark = pytest.mark.live

LOGIN = re.compile(r"^POST /(ucp\.php\?mode=login|member\.php)")
TOPIC = {"phpbb": re.compile(r"^GET /viewtopic\.php\?t=\d+(&start=\d+)?$"),
         "mybb": re.compile(r"^GET /showthread\.php\?tid=\d+(&page=\d+)?$")}
INBOX = {"phpbb": "GET /ucp.php?i=pm&folder=inbox", "mybb": "GET /private.php"}
PM_PAGE = {"phpbb": re.compile(r"^GET /ucp\.php\?i=pm&mode=view&f=0&p=\d+$"),
           "mybb": re.compile(r"^GET /private\.php\?action=read&pmid=\d+$")}
# Deleting the PMs the previous inbox read stored (never before they are stored): phpBB marks them and confirms
# (2 POSTs); MyBB moves them to the trash and empties it (POST, the trash's page, POST).
DELETION = {"phpbb": re.compile(r"^POST /ucp\.php"), "mybb": re.compile(r"^(POST /private\.php|GET /private\.php\?fid=4)$")}


def measured_tick(board: Board, game: LiveGame) -> list[str]:
    """One `forumbot tick`, nobody else on the board meanwhile; the requests it sent, as the board logged them."""
    mark = board.requests_logged()
    game.tick()
    return board.requests_served(mark)


def stored_pm_texts(game: LiveGame) -> list[str]:
    with sqlite3.connect(game.tmp / "forumbot.db") as db:
        return [text for text, in db.execute("SELECT text FROM inputs WHERE kind = 'pm'")]


def check_idle_requests(board: Board, game: LiveGame) -> None:
    engine = board.engine
    # `game start` logged in to look the players up (issue 28 item 4) and kept the session in the store: the first
    # tick reuses it (no login), reads both threads whole and the inbox, posts, sends role PMs
    first = measured_tick(board, game)
    assert not any(LOGIN.match(r) for r in first) and INBOX[engine] in first, first[:10]
    warm = measured_tick(board, game)  # its own post may have opened a page the cursor has not seen
    assert len(warm) <= 3 and not any(LOGIN.match(r) for r in warm), warm

    for _ in range(3):
        idle = measured_tick(board, game)
        assert len(idle) == 2 and all(TOPIC[engine].match(r) for r in idle), idle  # two threads, no inbox

    admin = board.member(board.admin)
    for n in (1, 2):
        text = f"просто письмо {n} {uuid.uuid4().hex[:8]}"  # unique: MyBB drops a PM identical to one sent
        admin.pm(board.bot, f"письмо {n}", text)
        got = measured_tick(board, game)
        deleting = [r for r in got if DELETION[engine].match(r)]
        reading = [r for r in got if r not in deleting]
        assert len(reading) == 4, got
        assert all(TOPIC[engine].match(r) for r in reading[:2]) and reading[2] == INBOX[engine], got
        assert PM_PAGE[engine].match(reading[3]), got
        assert len(deleting) <= 3, got
        assert text in stored_pm_texts(game), "the PM the header counted was not stored"
        after = measured_tick(board, game)  # the PM is read now: the header says 0 again
        assert len(after) == 2 and all(TOPIC[engine].match(r) for r in after), after

    # new posts that fill the last page and open the next one: one request more
    reader = board.member(board.gm)
    posts = reader.posts(game.game_topic)
    per_page = int(board.env.get("PER_PAGE", "10"))
    new = per_page - len(posts) % per_page + 1 if len(posts) % per_page else 1
    writers = [board.member(name) for name in board.players[:3] if name != posts[-1].author][:2]
    for i in range(new):  # two writers in turn: MyBB merges a member's post into his own post just before
        writers[i % 2].reply(game.game_topic, f"болтовня {i} {uuid.uuid4().hex[:6]}")
    crossing = measured_tick(board, game)
    assert len(crossing) == 3 and all(TOPIC[engine].match(r) for r in crossing), crossing


def roles(board: Board) -> dict[str, str]:
    return dict(zip(board.players, ("sheriff", "don", "mafia", "mafia")))


# MyBB's board seats 12 players, more than a Moscow game: a Free Hunt there, cast as the MyBB game casts it
MYBB_ROLES = {"Lucky_Strike": "mafia", "Kolya_95": "mafia", "Мурзик": "mafia", "Наташа": "doctor",
              "Старый Мельник": "maniac"}


def test_idle_requests_on_phpbb(phpbb_side_board, tmp_path):
    game = LiveGame(phpbb_side_board, tmp_path, "idle", "moscow", roles(phpbb_side_board), {"post": 1.2, "pm": 1.2})
    check_idle_requests(phpbb_side_board, game)


def test_idle_requests_on_mybb(mybb_side_board, tmp_path):
    game = LiveGame(mybb_side_board, tmp_path, "idle", "free_hunt", MYBB_ROLES, {"post": 3, "pm": 3})
    check_idle_requests(mybb_side_board, game)
