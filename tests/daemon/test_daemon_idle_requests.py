"""Requests per tick on phpBB and MyBB (issue 8): an idle tick reads the two threads and skips the inbox when their
pages' headers show no unread PM, and a PM is never missed for it.

Each tick is a new process (as under cron) over one database; HTTP is `responses` over real pages saved from live
boards (fixtures/<engine>/70-75: the header reads 0 or 1 unread; the inbox lists PM "Ход ночи" from the GM, unread).
The fold is the real one with its messages dropped, so nothing is delivered and only reading is counted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qsl, urlsplit

import pytest
import responses
from sqlalchemy import select

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from daemon_world import CAST, GM, T0, World, config_toml, default_fold
from forumbot.forum.adapter import ForumPM
from forumbot.cycle.daemon import Daemon
from forumbot.store.models import ForumRow, InputRow
from forumbot.store.records import INBOX, set_cursor, store_pms, topic_stream
from forumbot.cycle.inbox import INBOX_READ

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
HTML = "text/html; charset=UTF-8"


@dataclass(frozen=True)
class Engine:
    adapter: type
    base: str
    game: str
    vote: str
    vote_page2: str
    inbox: str
    pm: str
    pm_id: str  # the unread PM the inbox lists (72); the other one there (read) has a lower id
    login_get: str
    login_post: str
    login_page: str
    login_answer: dict
    badge_zero: bytes  # the header's count when it is 0, as the page prints it

    def is_login(self, method: str, url: str) -> bool:
        return url.startswith(self.base + self.login_post.split("?")[0]) and method == "POST"


PHPBB = Engine(PhpbbForum, "http://127.0.0.1:8081/", "viewtopic.php?t=2", "viewtopic.php?t=3",
               "viewtopic.php?t=3&start=10", "ucp.php?i=pm&folder=inbox", "ucp.php?i=pm&mode=view&f=0&p=2", "2",
               "ucp.php?mode=login", "ucp.php?mode=login", "01_login_page.html",
               {"status": 302, "headers": {"Location": "./index.php?sid=8ba2f5b7f987591cdb6405b5b360bdd6",
                                           "Set-Cookie": "phpbb3_eqsqk_u=58; Path=/; Max-Age=31536000"}},
               '<span>Личные сообщения </span><strong class="badge hidden">0</strong>'.encode())
MYBB = Engine(MybbForum, "http://127.0.0.1:8082/", "showthread.php?tid=1", "showthread.php?tid=2",
              "showthread.php?tid=2&page=2", "private.php", "private.php?action=read&pmid=3", "3",
              "member.php?action=login", "member.php", "01_login_page.html",
              {"status": 200, "headers": {"Set-Cookie": "mybbuser=2_abc; Path=/; Max-Age=31536000"},
               "file": "04_login_success_result.html"},
              b"(Unread 0, Total 0)")
ENGINES = {"phpbb": PHPBB, "mybb": MYBB}


class Board:
    """The board's pages as `responses` serves them; `pages[path]` is the saved file served for it now."""

    def __init__(self, http: responses.RequestsMock, engine: str) -> None:
        self.http, self.name, self.e = http, engine, ENGINES[engine]
        self.pages: dict[str, bytes] = {}
        self.serve(self.e.game, "70_topic_no_unread_pm.html")
        self.serve(self.e.vote, "74_topic_page1_full_no_unread_pm.html")
        self.serve(self.e.vote_page2, "75_topic_page2_no_unread_pm.html")
        self.serve(self.e.inbox, "72_pm_inbox_one_unread_one_read.html")
        self.serve(self.e.pm, "73_pm_view_unread.html")
        self.serve(self.e.login_get, self.e.login_page)
        http.add_callback("GET", re.compile(r"http://127\.0\.0\.1:\d+/.*"), self._get)
        answer = dict(self.e.login_answer)
        body = (FIXTURES / engine / answer.pop("file")).read_bytes() if "file" in answer else b""
        http.add("POST", self.e.base + self.e.login_post.split("?")[0], body=body, content_type=HTML, **answer)

    def serve(self, path: str, name: str, body: bytes | None = None) -> None:
        self.pages[_key(path)] = body if body is not None else (FIXTURES / self.name / name).read_bytes()

    def _get(self, request):  # type: ignore[no-untyped-def]
        path, query = key = _key(request.url)
        if dict(query).keys() & {"p", "pid"} and path in ("viewtopic.php", "showthread.php"):
            key = _key(self.e.vote)  # a post's link (the re-read before a deadline): the vote topic's first page
        body = self.pages.get(key)
        if body is None:
            return 404, {}, f"not served: {request.url}"
        return 200, {"Content-Type": HTML}, body

    def requests(self, since: int = 0) -> list[str]:
        return [f"{c.request.method} {c.request.url.removeprefix(self.e.base)}" for c in self.http.calls[since:]]

    def logins(self, since: int = 0) -> int:
        return sum(1 for c in self.http.calls[since:] if self.e.is_login(c.request.method, c.request.url))


def _key(url: str) -> tuple[str, tuple]:
    """A page's path and query, whatever board address a saved page's own links carry."""
    parts = urlsplit(url)
    return parts.path.lstrip("/"), tuple(sorted((k, v) for k, v in parse_qsl(parts.query) if k != "sid"))


def quiet_fold(setup, inputs, until):  # type: ignore[no-untyped-def]
    """The real fold with its messages dropped: phases move as they would, nothing is delivered."""
    return replace(default_fold(setup, inputs, until), messages=())


@dataclass
class BoardWorld(World):
    make: Callable | None = None
    fold: Callable = quiet_fold

    def new_daemon(self) -> Daemon:
        daemon = Daemon(self.config, environ={}, fold=self.fold, clock=lambda: self.now, sleep=lambda s: None,
                        factory=lambda forum, env: self.make())
        self.daemons.append(daemon)
        return daemon


def games_toml(e: Engine) -> str:
    cast = ",\n    ".join(f'{{ nick = "{n}", role = "{r}" }}' for n, r in CAST)
    return f"""
[games.g1]
forum = "main"
variant = "moscow"
game_thread = "{e.base}{e.game}"
vote_thread = "{e.base}{e.vote}"
gms = ["{GM}"]
start = {T0.isoformat()}
timezone = "Europe/Moscow"
players = [
    {cast}
]
"""


@pytest.fixture(params=list(ENGINES))
def board(request):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        yield Board(http, request.param)


@pytest.fixture
def world(tmp_path, board):
    class Clock:
        now = 1795953851.0

        def __call__(self) -> float:
            return self.now

        def sleep(self, seconds: float) -> None:
            self.now += seconds

    clock = Clock()
    e = board.e

    def make():  # type: ignore[no-untyped-def]
        return e.adapter(e.base, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                         delete_read_pms=False)

    w = BoardWorld(tmp_path, games=games_toml(e), make=make)
    w.now = T0 - timedelta(hours=1)
    w.start()
    w.now = T0 + timedelta(minutes=1)  # Day 1 is open: its deadline is a day away
    with w.daemon.sessions.begin() as session:
        forum_id = session.scalar(select(ForumRow.id).where(ForumRow.name == "main"))
        # the inbox's PMs seen already, so a read of it is one request unless a test says otherwise
        set_cursor(session, forum_id, INBOX, json.dumps({"max": int(e.pm_id), "del": []}))
    w.forum_id = forum_id
    yield w
    w.close()


def tick(w: BoardWorld, board: Board, minutes: int = 1) -> list[str]:
    """One cron tick, a new process, `minutes` after the last one; the requests it sent."""
    w.now += timedelta(minutes=minutes)
    w.restart()
    before = len(board.http.calls)
    report = w.tick()
    assert not report.unreachable, report.unreachable
    return board.requests(before)


def stored_pms(w: BoardWorld) -> list[str]:
    with w.daemon.sessions.begin() as session:
        return list(session.scalars(select(InputRow.item_id).where(InputRow.kind == "pm")))


def set_inbox_cursor(w: BoardWorld, value: dict) -> None:
    with w.daemon.sessions.begin() as session:
        set_cursor(session, w.forum_id, INBOX, json.dumps(value))


def forget_pm(w: BoardWorld, board: Board) -> None:
    """The unread PM is on the board but not in the store: as after a tick killed between reading and storing it
    (the board marks a PM read when it is opened), or a person reading it logged in as the bot."""
    set_inbox_cursor(w, {"max": int(board.e.pm_id) - 1, "del": []})


def test_idle_ticks_read_the_two_threads_only_and_log_in_once(world, board):
    """issue 8: the first tick logs in and reads the inbox (nothing is known yet); then each idle tick is two
    requests, the last page of each thread, whose headers show 0 unread PMs; no login while the cookies last."""
    e = board.e
    first = tick(world, board)
    assert board.logins() == 1
    assert f"GET {e.inbox}" in first
    for _ in range(3):
        assert tick(world, board) == [f"GET {e.game}", f"GET {e.vote_page2}"]
    assert board.logins() == 1


def test_an_unread_pm_in_the_header_means_the_inbox_is_read_and_the_pm_stored(world, board):
    e = board.e
    tick(world, board)
    tick(world, board)
    forget_pm(world, board)  # the PM arrives: the store does not have it, the header counts it
    board.serve(e.game, "71_topic_one_unread_pm.html")
    requests = tick(world, board)
    # one page showing it is enough (the vote page, read after, still says 0 here)
    assert requests == [f"GET {e.game}", f"GET {e.vote_page2}", f"GET {e.inbox}", f"GET {e.pm}"]
    assert e.pm_id in stored_pms(world)
    assert board.logins() == 1


def test_new_posts_across_a_page_boundary_cost_one_request_more(world, board):
    e = board.e
    tick(world, board)
    tick(world, board)
    with world.daemon.sessions.begin() as session:  # the last post seen ends page 1; the new one opens page 2
        set_cursor(session, world.forum_id, topic_stream(e.base + e.vote),
                   json.dumps({"n": 10, "last": _last_on_page1(board), "pp": 10}))
    assert tick(world, board) == [f"GET {e.game}", f"GET {e.vote}", f"GET {e.vote_page2}"]


def _last_on_page1(board: Board) -> int:
    from adapters.html.extract import extract_posts
    from adapters.html.hooks import Context
    from datetime import datetime, timezone
    from forumbot.forum.http_page import Page

    page = Page(url=board.e.base + board.e.vote, status=200, headers={}, charset="utf-8",
                content=board.pages[_key(board.e.vote)])
    profile = board.e.adapter.profile
    posts = extract_posts(page.tree(), profile, Context(profile, timezone.utc, datetime.now(timezone.utc)), "t")
    return max(int(p.id) for p in posts)


def test_a_page_whose_count_cannot_be_read_means_the_inbox_is_read(world, board):
    """Never skip on a page where the count cannot be read: another style, a guest's page, a language the hook
    does not know. Here the game page's header lacks the count (cut from the saved page)."""
    e = board.e
    tick(world, board)
    tick(world, board)
    plain = board.pages[_key(e.game)]
    assert plain.count(e.badge_zero) == 1
    board.serve(e.game, "", plain.replace(e.badge_zero, b"<span>PM</span>"))
    forget_pm(world, board)
    requests = tick(world, board)
    assert f"GET {e.inbox}" in requests and e.pm_id in stored_pms(world)


def test_the_inbox_is_read_at_least_every_30_minutes_so_a_pm_marked_read_is_not_lost(world, board):
    """C-9 / "nothing a player sent is dropped silently": a PM the board already shows as read (a tick killed
    between reading and storing it) leaves the header at 0; the read every 30 minutes stores it."""
    e = board.e
    tick(world, board)
    forget_pm(world, board)
    inbox_reads = []
    for _ in range(29):  # once a minute, 29 minutes after the last read: the header says 0, so no inbox
        inbox_reads.append(f"GET {e.inbox}" in tick(world, board))
    assert not any(inbox_reads) and e.pm_id not in stored_pms(world)
    assert f"GET {e.inbox}" in tick(world, board)  # 30 minutes
    assert e.pm_id in stored_pms(world)


def test_a_deadline_due_always_reads_the_inbox(world, board):
    """A deadline is never resolved on a tick that skipped the inbox: Day 1's deadline is due, the header says
    0, and the PM the store lacks is read before the day resolves."""
    e = board.e
    tick(world, board)
    tick(world, board)
    forget_pm(world, board)
    world.now += timedelta(hours=24) - timedelta(minutes=3)
    with world.daemon.sessions.begin() as session:  # read a minute ago: the 30-minute read is not due
        set_cursor(session, world.forum_id, INBOX_READ, (world.now - timedelta(minutes=1)).isoformat())
    requests = tick(world, board)  # Day 1 (24 h) ends in this tick
    assert f"GET {e.inbox}" in requests and e.pm_id in stored_pms(world)


def test_a_gm_ending_the_phase_reads_the_inbox_before_the_fold_moves_on(world, board):
    """A GM's `конец-фазы` stored by an earlier tick (its rough time only now folded) moves the phase in a tick
    whose pages show 0 unread: the fold moves the phase, so the inbox is read and the fold redone on it."""
    e = board.e
    tick(world, board)
    tick(world, board)
    forget_pm(world, board)
    with world.daemon.sessions.begin() as session:
        store_pms(session, world.forum_id, [ForumPM(id="99", author=GM, author_id=None, subject="g1",
                                                    sent_at=world.now - timedelta(seconds=30), text="конец-фазы",
                                                    html="конец-фазы")], world.now)
    requests = tick(world, board)
    assert requests[:4] == [f"GET {e.game}", f"GET {e.vote_page2}", f"GET {e.inbox}", f"GET {e.pm}"]
    assert e.pm_id in stored_pms(world)
    # then the day closed early is re-read from its first post (C-11), as after any GM end of a day
    assert all(r.startswith("GET " + e.vote.split("?")[0]) for r in requests[4:]) and requests[4:]


def test_a_concurrent_inbox_reader_is_waited_for_before_skipping(world, board):
    """Skipping still takes the inbox lock: a tick reading the inbox right now stores what it read first."""
    tick(world, board)
    tick(world, board)
    held = []
    real = world.daemon.locks.hold

    def spy(name, wait=0.0):  # type: ignore[no-untyped-def]
        held.append((name, wait))
        return real(name, wait)

    world.restart()
    world.daemon.locks.hold = spy
    world.now += timedelta(minutes=1)
    before = len(board.http.calls)
    world.tick()
    assert board.requests(before) == [f"GET {board.e.game}", f"GET {board.e.vote_page2}"]
    assert any(name == "inbox:main" and wait > 0 for name, wait in held)
