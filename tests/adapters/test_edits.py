"""C-11 on real pages: a post the bot has already read, edited since, comes back with its edit time on the next
read of its page, at no extra request (the store then keeps the first text and the first edit time).

Each engine's saved page with edit notices is served twice as a one-page thread: first as it was before the
edits (the notices taken out), then as saved.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

import lxml.html
import pytest

from adapters.flaskbb.forum import FlaskbbForum
from adapters.html.dom import select
from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters_support import HTML, MYBB_URL, PHPBB_URL, page
from forumbot.forum.transport import Transport

FLASKBB_URL = "http://127.0.0.1:8083/"


def one_page(engine: str, name: str, remove: tuple[str, ...]) -> bytes:
    """The saved page without its pagination (a one-page thread) and without what `remove` selects."""
    doc = lxml.html.document_fromstring(page(engine, name))
    for css in remove:
        for el in select(doc, css):
            el.getparent().remove(el)
    return lxml.html.tostring(doc, encoding="utf-8", doctype="<!DOCTYPE html>")


def phpbb(clock):
    return PhpbbForum(PHPBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def mybb(clock):
    return MybbForum(MYBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def flaskbb(clock):
    return FlaskbbForum(FLASKBB_URL, "forumbot", "pw",
                        transport=Transport(FLASKBB_URL, bot="forumbot", clock=clock, sleep=clock.sleep))


CASES = {
    # engine: (adapter, thread URL as configured, page URL, saved page, pagination, edit notice, edited post id,
    #          its edit time as the page shows it)
    "phpbb": (phpbb, "viewtopic.php?t=2", "phpbb", "24_topic_via_post_link_p9_edit_notice.html",
              "div.pagination", "div.notice", "9", datetime(2026, 11, 27, 2, 25, tzinfo=timezone.utc)),
    "mybb": (mybb, "showthread.php?tid=1", "mybb", "24_thread_via_pid_edit_notice.html",
             "div.pagination", "span.edited_post", "8", datetime(2026, 11, 27, 2, 25, tzinfo=timezone.utc)),
    "flaskbb": (flaskbb, "topic/2", "flaskbb", "20_topic_page1.html",
                "ul.pagination", "div.post-meta small", "3", None),
}


@pytest.mark.parametrize("engine", list(CASES))
def test_C11_an_already_seen_post_edited_since_comes_back_with_its_edit_time(engine, http, clock):
    make, path, fixtures, name, pagination, notice, edited_id, edited_at = CASES[engine]
    base = {"phpbb": PHPBB_URL, "mybb": MYBB_URL, "flaskbb": FLASKBB_URL}[engine]
    forum = make(clock)
    before = one_page(fixtures, name, (pagination, notice))
    after = one_page(fixtures, name, (pagination,))
    http.add("GET", base + path, body=before, content_type=HTML)
    first, cursor = forum.fetch_posts(base + path)
    seen = {p.id: p for p in first}
    assert seen[edited_id].edited_at is None and seen[edited_id].edit_count == 0

    http.replace("GET", base + path, body=after, content_type=HTML)
    again, cursor2 = forum.fetch_posts(base + path, cursor)
    assert len(http.calls) == 2  # one request per read, as before
    assert [p.id for p in again] == [p.id for p in first]  # nothing new; the page's posts as they are now
    post = next(p for p in again if p.id == edited_id)
    assert post.edited_at is not None and post.edit_count >= 1
    if edited_at is not None:
        assert post.edited_at == edited_at
    assert post.text == seen[edited_id].text and post.topic == base + path
    assert json.loads(cursor2)["last"] == json.loads(cursor)["last"]


def test_C11_an_edit_in_the_minute_of_its_post_is_not_earlier_than_the_post(http, clock):
    """C-11, issue 7 item 8, on a page saved from a live phpBB board: Маша's vote p17 was posted at 10:07:02 UTC
    and edited within the minute; phpBB prints the edit time to the minute (13:07 Moscow = 10:07:00 UTC), so
    the edit read as before its post and the engine dropped it. An edit is never earlier than its post: it is
    read as made at the post time, and the vote is voided like any edit before the deadline."""
    http.add("GET", PHPBB_URL + "viewtopic.php?p=17",
             body=page("phpbb", "64_topic_vote_edited_in_the_minute_it_was_posted.html"), content_type=HTML)
    posts = phpbb(clock).reread_from("2", "17")
    post = next(p for p in posts if p.id == "17")
    assert post.posted_at == datetime(2026, 12, 1, 10, 7, 2, tzinfo=timezone.utc)
    assert post.edited_at == post.posted_at and post.edit_count == 1
    assert all(p.edited_at is None for p in posts if p.id != "17")
