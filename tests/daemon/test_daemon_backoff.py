"""A forum that answers 429 with Retry-After is busy, not down (issue 17 item 24): the tick exits 0 with a
"deferred" line, sends nothing to the forum until the back-off is over (ticks in between included, which are
other processes reading the wait from the store), and then carries on. Before, every tick for those 120 s exited 3
"forum unreachable" and cron mailed the operator.

The board is the fake vBulletin of closed_boards.py (built from its real saved pages), the adapter and the
transport the real ones as `forumbot tick` builds them; only HTTP is faked (`responses`)."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
import responses
from daemon_world import STARTED, T0
from sqlalchemy import select
from test_daemon_closed_engines import PASSWORD, BoardWorld

from forumbot.cli.main import main
from forumbot.store.models import ForumRow

RETRY_AFTER = 120


class Busy:
    """Answers the next request whose path starts with `prefix` with 429 Retry-After: 120."""

    def __init__(self, board, prefix: str) -> None:
        self.board, self.prefix, self.armed = board, prefix, False
        self.handle = board.handle
        board.handle = self

    def __call__(self, method, path, query, form, cookies):  # type: ignore[no-untyped-def]
        full = path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
        if self.armed and full.startswith(self.prefix):
            self.armed = False
            return 429, {"Retry-After": str(RETRY_AFTER), "Content-Type": "text/plain"}, "Too Many Requests"
        return self.handle(method, path, query, form, cookies)


@pytest.fixture
def world(tmp_path, monkeypatch):
    monkeypatch.setenv("FORUM_PASSWORD", PASSWORD)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        w = BoardWorld(tmp_path, engine="vbulletin")
        w.board.install(mock)
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        yield w
        w.close()


def tick(w: BoardWorld, capsys) -> tuple[int, str, str]:
    code = main(["tick", "-c", str(w.config_path)], clock=lambda: w.now)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def _back_off_passes(w: BoardWorld) -> None:
    """What two minutes do to the wait the forum asked for, kept in the store (the transport counts it on the
    real clock, the test does not wait)."""
    with w.daemon.sessions.begin() as session:
        row = session.scalar(select(ForumRow).where(ForumRow.name == "main"))
        state = json.loads(row.cookies)
        assert state["not_before"], state  # the wait is kept for the next process
        state["not_before"] = {k: v - RETRY_AFTER - 1 for k, v in state["not_before"].items()}
        row.cookies = json.dumps(state)


@pytest.mark.parametrize("busy", ["private.php", "printthread.php?t=101", "login.php?do=login"],
                         ids=["inbox", "thread", "login"])
def test_a_429_defers_the_tick_exits_0_and_is_honoured_by_the_next_ticks(world, capsys, caplog, busy):
    w = world
    if busy != "login.php?do=login":
        assert tick(w, capsys)[0] == 0  # Setup goes out
    caplog.clear()
    Busy(w.board, busy).armed = True
    w.now += timedelta(minutes=1)
    asked = len(w.board.requests)
    code, out, err = tick(w, capsys)
    assert code == 0 and err == "", err
    line = next(line for line in out.splitlines() if line.startswith("g1: "))
    # the summary in the game's language (Russian)
    assert "отложено из-за флуд-лимита" in line and f"следующая попытка через {RETRY_AFTER} с" in line and "429" in line, line
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert any("429" in r.getMessage() for r in caplog.records if r.levelno == logging.INFO)
    failed_at = len(w.board.requests)
    assert w.board.requests[failed_at - 1][1].startswith(busy)  # nothing was asked after the 429
    assert failed_at - asked <= 3

    # another tick inside the two minutes: the same, and not one request to the forum
    w.now += timedelta(minutes=1)
    code, out, err = tick(w, capsys)
    assert code == 0 and err == "" and "отложено из-за флуд-лимита" in out
    assert len(w.board.requests) == failed_at

    # the back-off is over: the tick reads again and the game goes on
    _back_off_passes(w)
    w.now = T0 + timedelta(minutes=1)
    code, out, err = tick(w, capsys)
    assert code == 0 and err == "", err
    assert "отложено из-за флуд-лимита" not in out and len(w.board.requests) > failed_at
    assert any(p.startswith(busy) for _, p in w.board.requests[failed_at:])
    assert any("День 1" in text for _, text, _ in w.bot_posts())


def test_a_forum_that_is_down_still_exits_3(world, capsys):
    """The other side of the line: a 503 that outlasts the retries is an outage, as before."""
    w = world
    assert tick(w, capsys)[0] == 0
    handle = w.board.handle
    w.board.handle = lambda *a: (503, {"Content-Type": "text/plain"}, "down")
    w.now += timedelta(minutes=1)
    # the transport's retries without their real back-off sleeps (42 s of the suite's time, waiting on nothing)
    w.config_path.write_text(w.config_path.read_text(encoding="utf-8").replace(
        "[forums.main]\n", "[forums.main]\nbackoff = 0\n"), encoding="utf-8")
    code, _, err = tick(w, capsys)
    assert code == 3 and "forum unreachable" in err and "HTTP 503" in err
    w.board.handle = handle


class _Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_a_429_on_a_page_holds_every_request_a_429_on_a_post_only_posts():
    """A page read or the login refused with 429 is the client refused (RFC 6585): no login, post or PM goes
    out before Retry-After either. A post's own 429 (Discourse's per-action limits) holds posts alone."""
    from forumbot.errors import FloodLimited
    from forumbot.forum.transport import Transport

    base = "https://busy.test/"
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        clock = _Clock()
        t = Transport(base, clock=clock, sleep=clock.sleep)
        http.add("GET", base + "page", status=429, headers={"Retry-After": "120"})
        with pytest.raises(FloodLimited):
            t.get("page")
        for action in ("login", "post", "pm"):
            with pytest.raises(FloodLimited):
                t.post_form("x", [("a", "b")], action=action)
        assert len(http.calls) == 1
        clock.now += 121
        http.add("POST", base + "x", body="ok")
        assert t.post_form("x", [("a", "b")], action="post").text == "ok"

        http.add("POST", base + "y", status=429, headers={"Retry-After": "120"})
        with pytest.raises(FloodLimited):
            t.post_form("y", [("a", "b")], action="post")
        http.add("GET", base + "fine", body="fine")
        assert t.get("fine").text == "fine"
        with pytest.raises(FloodLimited):
            t.post_form("x", [("a", "b")], action="post")
