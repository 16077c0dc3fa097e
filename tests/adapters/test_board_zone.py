"""issue 7 item 3: the zone a board shows the bot's account, read from saved pages, so `check-config --online`
can name a board whose clock is not the one the adapter reads its zone-less dates in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from adapters_support import MYBB_URL, PHPBB_URL, add_page, page

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum, shown_utc_offset


def test_phpbb_reads_the_offset_in_the_prosilver_footer(http, clock):
    add_page(http, "GET", PHPBB_URL + "index.php", "phpbb", "05_index_logged_in.html")  # "Часовой пояс: UTC+03:00"
    forum = PhpbbForum(PHPBB_URL, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
    assert forum.board_utc_offset() == timedelta(hours=3)


@pytest.mark.parametrize("footer, offset", [
    ('All times are <span title="UTC">UTC</span>', timedelta(0)),
    ('All times are <span title="America/New York">UTC-05:00</span>', timedelta(hours=-5)),
    ('Часовой пояс: <span title="Азия/Калькутта">UTC+05:30</span>', timedelta(hours=5, minutes=30)),
    ("no zone in this footer", None),
])
def test_phpbb_footer_variants(footer, offset):
    from lxml import html

    original = page("phpbb", "05_index_logged_in.html").decode("utf-8")
    changed = original.replace('Часовой пояс: <span title="Европа/Москва">UTC+03:00</span>', footer)
    assert changed != original
    assert shown_utc_offset(html.fromstring(changed)) == offset


def test_mybb_compares_the_footer_clock_with_the_server_date(http, clock):
    # the saved page's footer says "Текущее время: 29.11.2026, 15:07"; the server said 12:07:50 UTC
    add_page(http, "GET", MYBB_URL + "index.php", "mybb", "05_index_logged_in.html",
             headers={"Date": "Sun, 29 Nov 2026 12:07:50 GMT"})
    forum = MybbForum(MYBB_URL, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
    assert forum.board_utc_offset() == timedelta(hours=3)


def test_mybb_on_a_utc_board_and_without_a_date_header(http, clock):
    add_page(http, "GET", MYBB_URL + "index.php", "mybb", "05_index_logged_in.html",
             headers={"Date": "Sun, 29 Nov 2026 15:06:10 GMT"})
    forum = MybbForum(MYBB_URL, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
    assert forum.board_utc_offset() == timedelta(0)
    http.replace("GET", MYBB_URL + "index.php", body=page("mybb", "05_index_logged_in.html"),
                 content_type="text/html; charset=UTF-8")
    assert forum.board_utc_offset() is None  # no server clock to compare with: unknown, not UTC
