"""Issue 7 item 6: phpBB and MyBB flows against the engines' own flood rules, over saved pages.

The fake board below applies the rule the engine's source applies (phpBB 3.3 posting.php / ucp_pm_compose.php:
one `user_lastpost_time` for posts and PMs, refused while `now - last < flood_interval`; MyBB 1.8
inc/datahandlers/post.php and pm.php: `lastpost` and `lastpm` apart, refused while `TIME_NOW - last <= secs`),
in whole seconds of the injected clock. No test sleeps for real.
"""

from __future__ import annotations

import json
import re

import pytest

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters_support import MYBB_URL, PHPBB_URL as U, HTML, add_page, page
from forumbot.errors import FloodLimited

COMPOSE = re.compile(re.escape(U + "ucp.php?i=pm&mode=compose&action=post") + ".*")


class PhpbbFloodRule:
    """phpBB's flood check for one registered user, on the fake clock."""

    def __init__(self, clock, interval: int = 15) -> None:
        self.clock, self.interval = clock, interval
        self.last = 0  # user_lastpost_time
        self.refused: list[str] = []
        self.accepted: list[tuple[str, int]] = []

    def allows(self, what: str) -> bool:
        now = int(self.clock())
        if self.last and now - self.last < self.interval:
            self.refused.append(what)
            return False
        self.last = now
        self.accepted.append((what, now))
        return True

    def reply(self, request):
        if self.allows("post"):
            return 302, {"Location": "./viewtopic.php?p=39#p39"}, b""
        return 200, {"Content-Type": HTML}, page("phpbb", "50_reply_flood_error.html")

    def compose(self, request):
        body = request.body.decode() if isinstance(request.body, bytes) else request.body
        if "add_to=" in body:  # the "add recipient" step is a refresh: no flood check, no stamp
            return 200, {"Content-Type": HTML}, page("phpbb", "36_pm_compose_after_add_recipient.html")
        if self.allows("pm"):
            return 200, {"Content-Type": HTML}, page("phpbb", "37_pm_sent_result.html")
        return 200, {"Content-Type": HTML}, page("phpbb", "51_pm_flood_error.html")


@pytest.fixture
def board(http, clock):
    rule = PhpbbFloodRule(clock)
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add_callback("POST", U + "posting.php", callback=rule.reply)
    add_page(http, "GET", U + "ucp.php?i=pm&mode=compose", "phpbb", "32_pm_compose_form.html")
    # a second PM to Маша opens the form with her id preset (issue 17 item 15): the form as phpBB shows it with
    # Маша (u=62) in its address list (33_pm_compose_to_user is the same GET for alice, u=59)
    add_page(http, "GET", U + "ucp.php?i=pm&mode=compose&u=62", "phpbb", "36_pm_compose_after_add_recipient.html")
    http.add_callback("POST", COMPOSE, callback=rule.compose)
    return rule


def phpbb(clock) -> PhpbbForum:
    return PhpbbForum(U, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def test_phpbb_a_post_then_a_pm_in_one_tick_waits_the_shared_interval(board, clock):
    """issue 7 item 6: a post then a PM in the same tick was refused in 17 of 64 ticks (one flood timer)."""
    forum = phpbb(clock)
    assert forum.reply("2", "Итоги дня") == "39"
    assert forum.send_pm("Маша", "Проверка", "Он мирный") == "6"
    assert board.refused == [] and [w for w, _ in board.accepted] == ["post", "pm"]
    (_, posted), (_, sent) = board.accepted
    assert sent - posted >= 15


def test_phpbb_two_pms_wait_the_interval_too(board, clock):
    forum = phpbb(clock)
    forum.send_pm("Маша", "a", "1")
    forum.send_pm("Маша", "b", "2")
    assert board.refused == [] and board.accepted[1][1] - board.accepted[0][1] >= 15


def test_phpbb_after_a_restart_the_stored_last_post_time_is_honoured(board, clock):
    """issue 7 item 6: after a restart the bot broke the board's flood limit; the next process (next cron
    tick) now starts from the stored state."""
    first = phpbb(clock)
    first.reply("2", "Итоги дня")
    stored = first.export_cookies()
    clock.now += 3  # the process ends, cron starts the next tick
    second = phpbb(clock)
    second.import_cookies(stored)
    second.send_pm("Маша", "Проверка", "Он мирный")
    assert board.refused == [] and board.accepted[1][1] - board.accepted[0][1] >= 15


def test_phpbb_a_flood_the_forum_reports_is_waited_out_within_the_tick(board, clock):
    """issue 7 item 6: the state was lost (a SIGKILL before it was saved): the forum refuses; the bot waits
    the interval and sends once more instead of giving up until the next cron tick."""
    board.last = int(clock.now) - 2  # posted 2 s ago by a process that died before saving
    forum = phpbb(clock)
    assert forum.send_pm("Маша", "Проверка", "Он мирный") == "6"
    assert board.refused == ["pm"] and [w for w, _ in board.accepted] == ["pm"]
    assert sum(clock.sleeps) < 60


def test_phpbb_a_long_flood_defers_to_the_next_tick(http, clock):
    """issue 7 item 6: a board with a flood longer than a tick may wait: FloodLimited, the outbox retries."""
    rule = PhpbbFloodRule(clock, interval=300)
    rule.last = int(clock.now) - 1
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add_callback("POST", U + "posting.php", callback=rule.reply)
    forum = PhpbbForum(U, "gm_bot", "pw", clock=clock, sleep=clock.sleep, intervals={"post+pm": 300})
    with pytest.raises(FloodLimited):
        forum.reply("2", "x")
    assert sum(clock.sleeps) < 60 and rule.accepted == []


# --- MyBB: two timers -------------------------------------------------------------------------------------------


class MybbFloodRule:
    def __init__(self, clock, post: int = 60, pm: int = 60) -> None:
        self.clock, self.secs = clock, {"post": post, "pm": pm}
        self.last: dict[str, int] = {}
        self.accepted: list[tuple[str, int]] = []
        self.refused: list[str] = []

    def answer(self, what: str, ok: str, request):
        now = int(self.clock())
        if what in self.last and now - self.last[what] <= self.secs[what]:
            self.refused.append(what)
            wait = self.secs[what] - (now - self.last[what]) + 1
            # MyBB 1.8.37's own words (inc/languages/english/datahandler_post.lang.php, datahandler_pm.lang.php)
            sent = "post" if what == "post" else "send"
            body = (f'<html><body><div class="error"><ul><li>You are trying to {sent} a message too quickly after '
                    f"{sent}ing a previous message. Please wait {wait} more seconds.</li></ul></div></body></html>"
                    ).encode()
            return 200, {"Content-Type": HTML}, body
        self.last[what] = now
        self.accepted.append((what, now))
        return 200, {"Content-Type": HTML}, page("mybb", ok)


@pytest.fixture
def mybb_board(http, clock):
    rule = MybbFloodRule(clock)
    M = MYBB_URL
    add_page(http, "GET", M + "showthread.php?tid=2&action=lastpost", "mybb", "28_thread_short.html")
    http.add_callback("POST", M + "newreply.php",
                      callback=lambda r: rule.answer("post", "13_reply_posted_result.html", r))
    add_page(http, "GET", M + "private.php?action=send", "mybb", "32_pm_compose_form.html")
    http.add_callback("POST", M + "private.php", callback=lambda r: rule.answer("pm", "36_pm_sent_result.html", r))
    return rule


def mybb(clock) -> MybbForum:
    return MybbForum(MYBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def test_mybb_a_post_then_a_pm_needs_no_wait(mybb_board, clock):
    """issue 7 item 6: MyBB keeps posts and PMs under separate timers."""
    forum = mybb(clock)
    forum.reply("2", "Итоги дня")
    forum.send_pm("Маша", "Проверка", "Он мирный")
    assert mybb_board.refused == [] and clock.sleeps == []


def test_mybb_restart_honours_the_stored_pm_time(mybb_board, clock):
    first = mybb(clock)
    first.send_pm("Маша", "a", "1")
    clock.now += 10
    second = mybb(clock)
    second.import_cookies(first.export_cookies())
    second.send_pm("Маша", "b", "2")
    assert mybb_board.refused == [] and mybb_board.accepted[1][1] - mybb_board.accepted[0][1] > 60


def test_mybb_waits_the_seconds_the_forum_names(mybb_board, clock):
    mybb_board.last["pm"] = int(clock.now) - 50  # sent by a process that died before saving
    forum = mybb(clock)
    forum.send_pm("Маша", "a", "1")
    assert mybb_board.refused == ["pm"] and clock.sleeps == [11]


def test_state_is_json_with_cookies_and_flood_times(board, clock):
    forum = phpbb(clock)
    forum.reply("2", "x")
    state = json.loads(forum.export_cookies())
    assert set(state) >= {"cookies", "last_action"} and "post" in state["last_action"]
