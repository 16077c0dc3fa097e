"""Flood timers as the engines keep them, kept between processes, and waits bounded within a tick.

Issue 7 item 6 (pacing per the engine's rule, persisted) and item 22 (a 429 with a long Retry-After defers).
No real waiting: the clock only moves when the transport sleeps.
"""

from __future__ import annotations

import json

import pytest

from forumbot.errors import FloodLimited, ForumUnavailable
from forumbot.forum.transport_settings import PACE_MARGIN, RETRY_BUDGET
from forumbot.forum.transport import Transport

U = "http://forum.test/"


def transport(clock, **kw) -> Transport:
    return Transport(U, bot="gm_bot", clock=clock, sleep=clock.sleep, **kw)


@pytest.fixture
def ok(http):
    http.add("POST", U + "p", body="ok")
    return http


def test_a_shared_timer_holds_a_pm_after_a_post(clock, ok):
    """issue 7 item 6: phpBB counts posts and PMs under one flood timer ({"post+pm": 15})."""
    t = transport(clock, intervals={"post+pm": 15})
    t.post_form("p", [], action="post")
    clock.now += 4
    t.post_form("p", [], action="pm")
    assert clock.sleeps == [11 + PACE_MARGIN]
    assert t.intervals == {"post": 15, "pm": 15}


def test_separate_timers_do_not_hold_each_other(clock, ok):
    """issue 7 item 6: MyBB keeps a post flood and a PM flood apart."""
    t = transport(clock, intervals={"post": 60, "pm": 60})
    t.post_form("p", [], action="post")
    t.post_form("p", [], action="pm")
    assert clock.sleeps == []
    t.post_form("p", [], action="post")
    assert clock.sleeps == [60 + PACE_MARGIN]


def test_an_override_adds_a_timer_rather_than_hiding_the_shared_one(clock, ok):
    t = transport(clock, intervals={"post+pm": 15, "post": 30})
    t.post_form("p", [], action="pm")
    t.post_form("p", [], action="post")  # the shared timer: 15 s after the PM
    t.post_form("p", [], action="post")  # its own timer: 30 s after the post
    assert clock.sleeps == [15 + PACE_MARGIN, 30 + PACE_MARGIN]


def test_last_action_times_survive_a_restart(clock, ok):
    """issue 7 item 6: a new process (the next cron tick) honours the stored time of the last post."""
    first = transport(clock, intervals={"post+pm": 15})
    first.post_form("p", [], action="post")
    stored = json.dumps(first.export_state())
    clock.now += 5
    second = transport(clock, intervals={"post+pm": 15})
    second.import_state(json.loads(stored))
    second.post_form("p", [], action="pm")
    assert clock.sleeps == [10 + PACE_MARGIN]


def test_a_stamp_in_the_future_holds_for_one_interval_at_most(clock, ok):
    t = transport(clock, intervals={"post": 15})
    t.import_state({"last_action": {"post": clock.now + 10_000}})
    t.post_form("p", [], action="post")
    assert clock.sleeps == [15 + PACE_MARGIN]


def test_a_wait_longer_than_max_wait_defers_to_the_next_tick(clock, ok):
    t = transport(clock, intervals={"post": 120}, max_wait=60)
    t.post_form("p", [], action="post")
    with pytest.raises(FloodLimited) as err:
        t.post_form("p", [], action="post")
    assert clock.sleeps == [] and err.value.retry_after == 120 + PACE_MARGIN


def test_the_default_max_wait_covers_a_60_second_flood(clock, ok):
    """issue 7 item 6: a short flood (MyBB's stock 60 s) is waited out within the tick."""
    t = transport(clock, intervals={"pm": 60})
    t.post_form("p", [], action="pm")
    t.post_form("p", [], action="pm")
    assert clock.sleeps == [60 + PACE_MARGIN]


# --- a flood the forum itself reported ------------------------------------------------------------------------


def test_paced_waits_out_a_reported_flood_and_tries_once_more(clock):
    """issue 7 item 6: the forum refused (our record was stale, e.g. a lost process): wait, then send again."""
    t = transport(clock, intervals={"post+pm": 15})
    answers = [FloodLimited("flood", retry_after=None), "sent"]

    def send():
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert t.paced("pm", send) == "sent"
    assert clock.sleeps == [15 + PACE_MARGIN]


def test_paced_takes_the_wait_the_forum_names(clock):
    t = transport(clock, intervals={"post": 60, "pm": 60})
    calls = []

    def send():
        calls.append(clock.now)
        if len(calls) == 1:
            raise FloodLimited("wait 7 seconds", retry_after=7)
        return "ok"

    assert t.paced("post", send) == "ok" and clock.sleeps == [7]


def test_paced_gives_up_on_a_long_reported_flood_and_the_next_tick_knows(clock):
    """issue 7 item 6: a long flood defers; the wait the forum asked for is stored for the next process."""
    t = transport(clock, intervals={"post+pm": 15})

    def send():
        raise FloodLimited("wait", retry_after=600)

    with pytest.raises(FloodLimited):
        t.paced("post", send)
    assert clock.sleeps == []
    later = transport(clock, intervals={"post+pm": 15})
    later.import_state(json.loads(json.dumps(t.export_state())))
    # the PM shares the post's timer: it is held back as well, without a request
    with pytest.raises(FloodLimited):
        later.paced("pm", lambda: "never")


def test_paced_tries_twice_at_most(clock):
    t = transport(clock, intervals={"post": 15})
    calls = []

    def send():
        calls.append(1)
        raise FloodLimited("flood", retry_after=None)

    with pytest.raises(FloodLimited):
        t.paced("post", send)
    assert len(calls) == 2


# --- issue 7 item 22: Retry-After within a tick ----------------------------------------------------------------


def test_a_429_asking_for_two_minutes_defers_instead_of_sleeping(clock, http):
    """issue 7 item 22: a 429 with Retry-After: 120 made a cron tick sleep 120 s."""
    http.add("GET", U + "a", status=429, headers={"Retry-After": "120"})
    t = transport(clock)
    with pytest.raises(FloodLimited) as err:
        t.get("a")
    assert clock.sleeps == [] and err.value.retry_after == 120 and len(http.calls) == 1


def test_a_short_retry_after_is_still_honoured(clock, http):
    http.add("GET", U + "a", status=429, headers={"Retry-After": "5"})
    http.add("GET", U + "a", body="fine")
    assert transport(clock).get("a").text == "fine" and clock.sleeps == [5]


def test_retries_stop_at_the_budget(clock, http):
    """issue 7 item 22: several Retry-After waits that fit one by one still end at the per-request budget."""
    http.add("GET", U + "a", status=503, headers={"Retry-After": "20"})
    t = transport(clock)
    with pytest.raises(ForumUnavailable):
        t.get("a")
    assert sum(clock.sleeps) <= RETRY_BUDGET and clock.sleeps == [20]


def test_the_budget_is_configurable(clock, http):
    http.add("GET", U + "a", status=429, headers={"Retry-After": "120"})
    http.add("GET", U + "a", body="fine")
    assert transport(clock, retry_budget=300).get("a").text == "fine" and clock.sleeps == [120]


def test_after_a_long_429_no_request_goes_out_before_the_forum_allows_it(clock, http):
    """issue 7 item 22: the next tick (state from the store) does not ask again before Retry-After has passed."""
    http.add("GET", U + "a", status=429, headers={"Retry-After": "120"})
    t = transport(clock)
    with pytest.raises(FloodLimited):
        t.get("a")
    clock.now += 30
    later = transport(clock)
    later.import_state(json.loads(json.dumps(t.export_state())))
    with pytest.raises(FloodLimited) as err:
        later.get("a")
    assert len(http.calls) == 1 and err.value.retry_after == pytest.approx(90)
    clock.now += 90
    http.replace("GET", U + "a", body="fine")
    assert later.get("a").text == "fine"


@pytest.mark.parametrize("options", [{"intervals": {"post": "15"}}, {"intervals": {"post+pm": -1}},
                                     {"max_wait": "60"}, {"retry_budget": float("nan")}])
def test_a_bad_pacing_setting_is_a_config_error_naming_it(clock, options):
    from forumbot.errors import ConfigError

    with pytest.raises(ConfigError, match=next(iter(options))):
        transport(clock, **options)


def test_configured_intervals_replace_the_engines_shared_timer():
    """A board whose flood limit was lowered (the live tests' FLOOD=1) is paced by the configured intervals:
    `{post = 1.2, pm = 1.2}` used to leave phpBB's shared 15 s "post+pm" timer in force beside them."""
    from adapters.html.forum import merge_intervals

    assert merge_intervals({"post+pm": 15.0}, {"post": 1.2, "pm": 1.2}) == {"post": 1.2, "pm": 1.2}
    assert merge_intervals({"post+pm": 15.0}, {"pm": 2.0}) == {"post": 15.0, "pm": 2.0}
    assert merge_intervals({"post": 60.0, "pm": 60.0}, {"post": 3.0}) == {"pm": 60.0, "post": 3.0}
    assert merge_intervals({"post+pm": 15.0}, {}) == {"post+pm": 15.0}
