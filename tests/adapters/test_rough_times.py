"""C-1 (issue 7 item 7): where a forum shows a post's time only roughly, the post's stamp is the range the words
allow: `posted_at` its earliest instant, `posted_latest` its latest. MyBB prints a post of the last hour as
"1 минуту назад" (60 to 119 s ago); taking the latest bound made a vote of the deadline's last minute late."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from zoneinfo import ZoneInfo

import lxml.html
import pytest

from adapters.dates import Span, forum_date_span
from adapters.html.dom import select
from adapters.mybb.forum import MybbForum
from adapters_support import HTML, MYBB_URL, page

MSK = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 12, 2, 7, 1, 49, tzinfo=timezone.utc)  # 10:01:49 Moscow, 1 min 49 s after a 10:00 deadline


@pytest.mark.parametrize("text, earliest, latest", [
    ("1 минуту назад", NOW - timedelta(seconds=120), NOW - timedelta(seconds=60)),
    ("менее 1 минуты назад", NOW - timedelta(seconds=60), NOW),
    ("5 minutes ago", NOW - timedelta(minutes=6), NOW - timedelta(minutes=5)),
    ("2 часа назад", NOW - timedelta(hours=3), NOW - timedelta(hours=2)),
    # whole-minute absolute times: that minute's 60 seconds
    ("Сегодня, 09:59", datetime(2026, 12, 2, 6, 59, tzinfo=timezone.utc), datetime(2026, 12, 2, 6, 59, 59, tzinfo=timezone.utc)),
    ("02.12.2026, 09:59", datetime(2026, 12, 2, 6, 59, tzinfo=timezone.utc), datetime(2026, 12, 2, 6, 59, 59, tzinfo=timezone.utc)),
])
def test_C1_a_rough_forum_time_is_the_range_its_words_allow(text, earliest, latest):
    assert forum_date_span(text, MSK, NOW) == Span(earliest, latest)


def test_C1_a_minute_read_within_itself_ends_when_the_page_was_served():
    """Nothing on a page is later than the page: 10:01 read at 10:01:49 is 10:01:00-10:01:49, not -10:01:59
    (a GM's end-phase read at once must not wait for the minute's end to take effect)."""
    span = forum_date_span("Сегодня, 10:01", MSK, NOW)
    assert span == Span(datetime(2026, 12, 2, 7, 1, tzinfo=timezone.utc), NOW)


@pytest.mark.parametrize("text", ["2026-12-02T06:59:31+00:00", "02.12.2026, 09:59:31"])
def test_C1_a_time_to_the_second_is_exact(text):
    span = forum_date_span(text, MSK, NOW)
    assert span is not None and not span.rough and span.earliest == datetime(2026, 12, 2, 6, 59, 31, tzinfo=timezone.utc)


def _one_page_with(date_text: str) -> bytes:
    """MyBB's saved last page as a one-page thread, post 32 stamped as `date_text`."""
    doc = lxml.html.document_fromstring(page("mybb", "23_thread_last_page.html"))
    for el in select(doc, "div.pagination"):
        el.getparent().remove(el)
    html = lxml.html.tostring(doc, encoding="utf-8", doctype="<!DOCTYPE html>").decode()
    assert html.count("10 часов назад") == 1
    return html.replace("10 часов назад", date_text).encode()


def test_C1_issue7_item7_mybb_one_minute_ago_is_read_as_a_range_from_the_servers_clock(http, clock):
    forum = MybbForum(MYBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    http.add("GET", MYBB_URL + "showthread.php?tid=1", body=_one_page_with("1 минуту назад"), content_type=HTML,
             headers={"Date": format_datetime(NOW, usegmt=True)})
    posts, _ = forum.fetch_posts(MYBB_URL + "showthread.php?tid=1")
    post = next(p for p in posts if p.id == "32")
    deadline = datetime(2026, 12, 2, 7, 0, tzinfo=timezone.utc)
    assert post.posted_at == NOW - timedelta(seconds=120) < deadline  # the earliest bound: before the deadline
    assert post.posted_latest == NOW - timedelta(seconds=60) > deadline  # the range straddles it (C-1)
    exact = next(p for p in posts if p.id == "31")  # "Today, 02:17" with its date in a title: to the minute
    assert exact.posted_latest == exact.posted_at + timedelta(seconds=59)
