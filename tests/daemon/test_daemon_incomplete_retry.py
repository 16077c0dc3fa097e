"""A page that stays cut short is retried once within a tick, not with the whole back-off: a cron tick stays
short, and the next cycle reads it again (issue 7 item 6 follow-up to item 9)."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import World

from forumbot.exit_codes import EXIT_UNREACHABLE
from forumbot.cycle.daemon import exit_code
from forumbot.errors import ForumUnavailable, PageIncomplete
from forumbot.forum.retry import Retry


class Adapter:
    def login(self) -> None:
        raise AssertionError("no login expected")


def failing(error: Exception, times: int):
    calls = []

    def call():
        calls.append(1)
        if len(calls) <= times:
            raise error
        return "page"

    return call, calls


def test_a_page_that_stays_incomplete_is_retried_once_then_given_up_issue7_item6():
    slept: list[float] = []
    retry = Retry(attempts=3, backoff=5.0, sleep=slept.append)
    call, calls = failing(PageIncomplete("phpbb: viewtopic.php?t=3 came back incomplete"), times=99)
    try:
        retry(Adapter(), call)
    except PageIncomplete:
        pass
    else:
        raise AssertionError("a page that stays cut must not be taken")
    assert len(calls) == 2 and slept == [5.0]


def test_an_incomplete_page_whole_on_the_retry_is_read_issue7_item6():
    slept: list[float] = []
    call, calls = failing(PageIncomplete("cut"), times=1)
    assert Retry(sleep=slept.append)(Adapter(), call) == "page"
    assert len(calls) == 2 and slept == [5.0]


def test_an_outage_keeps_the_full_back_off():
    slept: list[float] = []
    call, calls = failing(ForumUnavailable("connection reset"), times=99)
    try:
        Retry(attempts=3, backoff=5.0, sleep=slept.append)(Adapter(), call)
    except ForumUnavailable:
        pass
    assert len(calls) == 4 and slept == [5.0, 10.0, 20.0]


def test_a_tick_over_a_vote_thread_that_stays_cut_sleeps_once_issue7_item6(tmp_path):
    w = World(tmp_path)
    slept: list[float] = []
    w.daemon.sleep = slept.append
    w.start()
    w.now += timedelta(minutes=1)
    whole = w.forum.fetch_posts

    def cut_vote_thread(topic, after=None):
        if topic.endswith("/vote"):
            raise PageIncomplete("phpbb: viewtopic.php?t=3 came back incomplete (20480 bytes, no end of page)")
        return whole(topic, after)

    w.forum.fetch_posts = cut_vote_thread
    report = w.tick()
    assert exit_code(report) == EXIT_UNREACHABLE
    assert len(slept) == 1 and sum(slept) <= w.config.backoff_seconds
    w.close()
