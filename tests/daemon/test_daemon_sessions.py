"""Issue 7 item 6: the bot's forum session and flood times are kept in the store between cron ticks.

Every tick on phpBB and MyBB logged in again (2 of 5 requests of an idle tick, plus the 1.1 s form wait), and
after a restart the bot broke the board's flood limit. Each `Forums` below is one process; HTTP is `responses`
over saved phpBB pages, the clock is fake.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
import responses
from responses import matchers
from sqlalchemy import select

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from daemon_world import World
from forumbot.cycle.daemon import Forums
from forumbot.store.models import ForumRow
from forumbot.forum.retry import Retry
from forumbot.forum.transport_settings import PACE_MARGIN

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
U, MYBB_URL = "http://127.0.0.1:8081/", "http://127.0.0.1:8082/"
LOGIN = "ucp.php?mode=login"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1795953851.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def add_page(http, method: str, url: str, engine: str, name: str, **kw) -> None:
    base, _, query = url.partition("?")
    http.add(method, base, body=(FIXTURES / engine / name).read_bytes(), content_type="text/html; charset=UTF-8",
             match=[matchers.query_param_matcher(dict(parse_qsl(query)), strict_match=True)], **kw)


@pytest.fixture
def world(tmp_path):
    w = World(tmp_path)
    yield w
    w.close()


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def http():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        add_page(mock, "GET", U + LOGIN, "phpbb", "01_login_page.html")
        mock.add("POST", U + LOGIN, status=302,
                 headers={"Location": "./index.php?sid=8ba2f5b7f987591cdb6405b5b360bdd6",
                          "Set-Cookie": "phpbb3_eqsqk_u=58; Path=/; Max-Age=31536000"})
        yield mock


def process(world, clock, engine=PhpbbForum, url=U) -> Forums:
    """What one `forumbot tick` builds: adapters opened over the same database."""
    def factory(forum, env):
        return engine(url, "МафБот", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    return Forums(world.config, world.daemon.sessions, {}, factory)


def logins(http) -> int:
    return sum(1 for c in http.calls if c.request.method == "POST" and LOGIN in c.request.url)


def stored(world) -> dict:
    with world.daemon.sessions.begin() as session:
        return json.loads(session.scalar(select(ForumRow.cookies).where(ForumRow.name == "main")))


def test_a_second_tick_with_stored_cookies_does_not_log_in(world, clock, http):
    """issue 7 item 6: the first tick logs in and stores the session; the next one (a new process) uses it."""
    first = process(world, clock)
    adapter = first.open({"main"}, Retry(sleep=clock.sleep))["main"]
    assert logins(http) == 1
    first.save()
    assert any(c["name"] == "phpbb3_eqsqk_u" for c in stored(world)["cookies"])

    calls = len(http.calls)
    second = process(world, clock)
    again = second.open({"main"}, Retry(sleep=clock.sleep))["main"]
    assert again is not adapter and len(http.calls) == calls  # no request at all, no login
    assert again.transport.session.cookies.get("phpbb3_eqsqk_u") == "58"


def test_a_tick_killed_after_its_login_leaves_the_session_for_the_next_one(world, clock, http):
    """issue 7 item 6: the session is stored when the login succeeds, not only when the cycle ends: a tick killed
    in between (cron's timeout, a reboot) made the next one log in again."""
    first = process(world, clock)
    first.open({"main"}, Retry(sleep=clock.sleep))  # and killed here: no save()
    assert logins(http) == 1
    calls = len(http.calls)
    second = process(world, clock)
    again = second.open({"main"}, Retry(sleep=clock.sleep))["main"]
    assert len(http.calls) == calls and again.transport.session.cookies.get("phpbb3_eqsqk_u") == "58"


def test_after_a_restart_the_stored_last_post_time_is_honoured(world, clock, http):
    """issue 7 item 6: the flood timer of the last tick's post holds the next tick's PM (phpBB: one timer)."""
    first = process(world, clock)
    adapter = first.open({"main"}, Retry(sleep=clock.sleep))["main"]
    adapter.transport.done("post")  # the tick posted its result
    posted = clock.now
    first.save()

    clock.now += 4
    second = process(world, clock).open({"main"}, Retry(sleep=clock.sleep))["main"]
    assert second.transport.pause_needed("pm") == pytest.approx(15 + PACE_MARGIN - (clock.now - posted))


def test_an_overlapping_tick_does_not_erase_the_other_ones_post_time(world, clock, http):
    """Two ticks opened from the same stored state: the one that posted saves first, the idle one saves
    after it. The stored post time must survive, or the next tick floods."""
    seed = process(world, clock)
    seed.open({"main"}, Retry(sleep=clock.sleep))
    seed.save()
    a, b = process(world, clock), process(world, clock)
    poster = a.open({"main"}, Retry(sleep=clock.sleep))["main"]
    idle = b.open({"main"}, Retry(sleep=clock.sleep))["main"]
    poster.transport.done("post")
    a.save()
    idle.transport.done("read")  # changes its export, so it saves
    b.save()
    assert stored(world)["last_action"]["post"] == clock.now


def test_an_unreadable_stored_session_means_a_login_not_a_traceback(world, clock, http, caplog):
    with world.daemon.sessions.begin() as session:
        session.scalar(select(ForumRow).where(ForumRow.name == "main")).cookies = "{not json"
    caplog.set_level(logging.WARNING)
    adapter = process(world, clock).open({"main"}, Retry(sleep=clock.sleep))["main"]
    assert logins(http) == 1 and not isinstance(adapter, Exception)
    assert "unreadable" in caplog.text


def test_mybb_sessions_are_kept_too(world, clock):
    """issue 7 item 6: MyBB had no export either; its mybbuser cookie now outlives the process."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        add_page(mock, "GET", MYBB_URL + "member.php?action=login", "mybb", "01_login_page.html")
        add_page(mock, "POST", MYBB_URL + "member.php", "mybb", "04_login_success_result.html",
                 headers={"Set-Cookie": "mybbuser=2_abc; Path=/; Max-Age=31536000"})
        first = process(world, clock, MybbForum, MYBB_URL)
        first.open({"main"}, Retry(sleep=clock.sleep))
        first.save()
        calls = len(mock.calls)
        again = process(world, clock, MybbForum, MYBB_URL).open({"main"}, Retry(sleep=clock.sleep))["main"]
        assert len(mock.calls) == calls and again.transport.session.cookies.get("mybbuser") == "2_abc"
