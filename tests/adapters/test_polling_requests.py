"""Requests per poll on real saved topic pages (issue 7 item 5): an idle poll costs one request per thread, and
new posts that open a new page cost at most one request more. A poll that bounced between the last two pages
sent 111 requests in one phpBB tick and can get the bot's account banned."""

from __future__ import annotations

import json

import pytest

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters_support import MYBB_URL, PHPBB_URL, add_page


def phpbb(http, clock):
    add_page(http, "GET", PHPBB_URL + "viewtopic.php?t=2", "phpbb", "20_topic_page1.html")
    add_page(http, "GET", PHPBB_URL + "viewtopic.php?t=2&start=10", "phpbb", "21_topic_page2.html")
    add_page(http, "GET", PHPBB_URL + "viewtopic.php?t=2&start=20", "phpbb", "22_topic_page3.html")
    add_page(http, "GET", PHPBB_URL + "viewtopic.php?t=2&start=30", "phpbb", "23_topic_last_page.html")
    forum = PhpbbForum(PHPBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    # three full pages seen (posts 2..31); the new posts 32.. start page 4
    return forum, "2", {"n": 30, "last": 31, "pp": 10}, "start=30"


def mybb(http, clock):
    add_page(http, "GET", MYBB_URL + "showthread.php?tid=1", "mybb", "20_thread_page1.html")
    for n, name in [(2, "21_thread_page2.html"), (3, "22_thread_page3.html"), (4, "23_thread_last_page.html")]:
        add_page(http, "GET", MYBB_URL + f"showthread.php?tid=1&page={n}", "mybb", name)
    forum = MybbForum(MYBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    # three full pages seen (posts 1..30); the new posts 31.. start page 4
    return forum, "1", {"n": 30, "last": 30, "pp": 10}, "page=4"


ENGINES = {"phpbb": phpbb, "mybb": mybb}


@pytest.mark.parametrize("engine", list(ENGINES))
def test_new_posts_opening_a_new_page_cost_one_extra_request(engine, http, clock):
    """issue 7 item 5: the page of the last post seen, then the new page; no bouncing between the two."""
    forum, topic, cursor, last_page = ENGINES[engine](http, clock)
    posts, new_cursor = forum.fetch_posts(topic, json.dumps(cursor))
    assert len(http.calls) == 2
    assert http.calls[-1].request.url.endswith(last_page)
    new = [p for p in posts if int(p.id) > cursor["last"]]
    assert len(new) == 6 and json.loads(new_cursor)["n"] == 36
    # and the poll after it is idle: one request, for the last page
    forum.fetch_posts(topic, new_cursor)
    assert len(http.calls) == 3 and http.calls[-1].request.url.endswith(last_page)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_step_back_after_deletions_is_taken_once_and_no_page_is_read_twice(engine, http, clock):
    """issue 7 item 5: the count says page 4 but posts after the last one seen sit on page 3 (earlier posts were
    deleted): one step back, then page 4 is not fetched again."""
    forum, topic, cursor, last_page = ENGINES[engine](http, clock)
    cursor = {**cursor, "n": 31, "last": cursor["last"] - 5}
    posts, new_cursor = forum.fetch_posts(topic, json.dumps(cursor))
    urls = [c.request.url for c in http.calls]
    assert len(urls) == 2 and len(set(urls)) == 2
    new = [p for p in posts if int(p.id) > cursor["last"]]
    assert new[0].id == str(cursor["last"] + 1) and json.loads(new_cursor)["n"] == 36
