"""The header's unread-PM count on topic pages (issue 8): what lets an idle tick skip the inbox. Real saved pages:
70-75 from live boards (English MyBB, Russian phpBB), 20-28 from the Russian boards; a wrong 0 would leave a PM
unread, so anything that does not read as a count is None (the tick reads the inbox then)."""

from __future__ import annotations

import pytest

from adapters.html.dom import select
from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters.mybb.profile import MYBB
from adapters.phpbb.profile import PHPBB
from adapters.smf.profile import SMF
from adapters_support import MYBB_URL, PHPBB_URL, add_page
from forumbot.forum.http_page import Page
from adapters_support import FIXTURES


def shown(profile, engine: str, name: str) -> int | None:
    tree = Page(url="http://127.0.0.1/", status=200, headers={}, charset="utf-8",
                content=(FIXTURES / engine / name).read_bytes()).tree()
    found = select(tree, profile.selectors["pm_header"])
    return profile.hooks["pm_header"](found[0]) if len(found) == 1 else None


@pytest.mark.parametrize("profile,engine,name,count", [
    (PHPBB, "phpbb", "70_topic_no_unread_pm.html", 0),  # <strong class="badge hidden">0</strong>
    (PHPBB, "phpbb", "71_topic_one_unread_pm.html", 1),
    (PHPBB, "phpbb", "75_topic_page2_no_unread_pm.html", 0),
    (PHPBB, "phpbb", "20_topic_page1.html", 2),
    (PHPBB, "phpbb", "00_index_guest.html", None),  # a guest's page: no inbox link at all
    (MYBB, "mybb", "70_topic_no_unread_pm.html", 0),  # "(Unread 0, Total 0)"
    (MYBB, "mybb", "71_topic_one_unread_pm.html", 1),
    (MYBB, "mybb", "74_topic_page1_full_no_unread_pm.html", 0),  # "(Unread 0, Total 2)"
    (MYBB, "mybb", "20_thread_page1.html", 2),  # Russian pack: "(Непрочитано 2, Всего 6)"
    (MYBB, "mybb", "00_index_guest.html", None),
])
def test_the_header_count_as_the_page_shows_it(profile, engine, name, count):
    assert shown(profile, engine, name) == count


def test_mybb_counts_that_do_not_read_as_two_numbers_are_none():
    from lxml import etree

    link = etree.fromstring("<li><a href='private.php'>PMs</a> (Unread 1,234, Total 2,000)</li>")[0]
    assert MYBB.hooks["pm_header"](link) == 1234
    link.tail = " (Unread)"
    assert MYBB.hooks["pm_header"](link) is None


def test_engines_without_the_selector_do_not_claim_it():
    assert "pm_header" not in SMF.selectors


@pytest.mark.parametrize("engine", ["phpbb", "mybb"])
def test_unread_pms_shown_covers_the_pages_read_since_last_asked(engine, http, clock):
    if engine == "phpbb":
        forum = PhpbbForum(PHPBB_URL, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
        game, vote = PHPBB_URL + "viewtopic.php?t=2", PHPBB_URL + "viewtopic.php?t=3"
    else:
        forum = MybbForum(MYBB_URL, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
        game, vote = MYBB_URL + "showthread.php?tid=1", MYBB_URL + "showthread.php?tid=3"
    add_page(http, "GET", game, engine, "71_topic_one_unread_pm.html")
    add_page(http, "GET", vote, engine, "70_topic_no_unread_pm.html")
    assert forum.shows_unread_pms
    assert forum.unread_pms_shown() is None  # nothing read yet
    forum.fetch_posts(vote.split("=")[-1])
    assert forum.unread_pms_shown() == 0
    assert forum.unread_pms_shown() is None  # asked once, forgotten
    forum.fetch_posts(game.split("=")[-1])
    forum.fetch_posts(vote.split("=")[-1])
    assert forum.unread_pms_shown() == 1  # one page showing a PM is enough, even if a later one says 0
