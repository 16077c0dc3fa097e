"""find_own_pm on phpBB and MyBB (issue 7 item 16), over sent-PM folders saved from live boards: a PM whose send
was interrupted (SIGKILL between sending and recording) is looked for by its outbox marker among the bot's sent
PMs, so the outbox can record it as sent, or send it if it is not there, instead of leaving it "uncertain"
(an acknowledgement a player never gets is a lost move)."""

from __future__ import annotations

import pytest

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters_support import MYBB_URL, PHPBB_URL, add_page, form_body


@pytest.fixture
def phpbb(http, clock):
    add_page(http, "GET", PHPBB_URL + "ucp.php?i=pm&folder=outbox", "phpbb", "60_pm_outbox_unread_pm_with_marker.html")
    add_page(http, "GET", PHPBB_URL + "ucp.php?i=pm&folder=sentbox", "phpbb", "61_pm_sentbox_read_pm_with_marker.html")
    add_page(http, "GET", PHPBB_URL + "ucp.php?i=pm&mode=view&f=-2&p=1", "phpbb", "62_pm_view_outbox_with_marker.html")
    add_page(http, "GET", PHPBB_URL + "ucp.php?i=pm&mode=view&f=-1&p=2", "phpbb", "63_pm_view_sentbox_with_marker.html")
    return PhpbbForum(PHPBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


@pytest.fixture
def mybb(http, clock):
    add_page(http, "GET", MYBB_URL + "private.php?fid=2", "mybb", "60_pm_sent_items_with_markers.html")
    add_page(http, "GET", MYBB_URL + "private.php?action=read&pmid=5", "mybb", "61_pm_view_sent_copy_multi.html")
    add_page(http, "GET", MYBB_URL + "private.php?action=read&pmid=2", "mybb", "62_pm_view_sent_copy_single.html")
    return MybbForum(MYBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def urls(http) -> list[str]:
    return [c.request.url.removeprefix(PHPBB_URL).removeprefix(MYBB_URL) for c in http.calls]


def test_phpbb_finds_a_pm_not_read_yet_in_the_outbox(phpbb, http):
    """issue 7 item 16: phpBB keeps a sent PM in the outbox until its recipient reads it."""
    assert phpbb.find_own_pm("Маша", "#fb:3f9a0c21") == "1"
    assert urls(http) == ["ucp.php?i=pm&folder=outbox", "ucp.php?i=pm&mode=view&f=-2&p=1"]


def test_phpbb_finds_a_pm_its_recipient_read_in_the_sentbox(phpbb, http):
    """issue 7 item 16: once read, phpBB moves it to the sentbox; the row's link names that folder."""
    assert phpbb.find_own_pm("кот баюн", "#fb:7d41e5b8") == "2"
    assert urls(http) == ["ucp.php?i=pm&folder=outbox", "ucp.php?i=pm&folder=sentbox",
                          "ucp.php?i=pm&mode=view&f=-1&p=2"]


def test_phpbb_a_pm_that_was_never_sent_is_not_found(phpbb, http):
    """The PM to Маша holds another marker; nothing was sent to Шарик: both None (then the outbox sends)."""
    assert phpbb.find_own_pm("Маша", "#fb:00000000") is None
    assert phpbb.find_own_pm("Шарик", "#fb:3f9a0c21") is None
    # only PMs to the recipient are opened
    assert urls(http)[-2:] == ["ucp.php?i=pm&folder=outbox", "ucp.php?i=pm&folder=sentbox"]


def test_mybb_finds_the_copy_in_sent_items(mybb, http):
    """issue 7 item 16: MyBB's copy in Sent Items (fid 2) holds the marker."""
    assert mybb.find_own_pm("Маша", "#fb:5be07a13") == "2"
    assert urls(http) == ["private.php?fid=2", "private.php?action=read&pmid=2"]


def test_mybb_finds_a_pm_to_several_recipients(mybb, http):
    """The row says "Multiple recipients"; their names are in its popup."""
    assert mybb.find_own_pm("Кот Баюн, Дядя Фёдор", "#fb:c2d9f406") == "5"
    assert mybb.find_own_pm("Дядя Фёдор", "#fb:c2d9f406") == "5"


def test_mybb_a_pm_that_was_never_sent_is_not_found(mybb, http):
    assert mybb.find_own_pm("Маша", "#fb:c2d9f406") is None  # her PM holds the other marker
    assert mybb.find_own_pm("Ёлка", "#fb:5be07a13") is None
    assert urls(http)[-1] == "private.php?fid=2"  # no PM to Ёлка: none opened


def test_mybb_compose_asks_for_a_copy_in_sent_items(mybb, http):
    """Without the copy there would be nothing to find: the bot asks for it even where a member's settings
    untick "Save a Copy"."""
    add_page(http, "GET", MYBB_URL + "private.php?action=send", "mybb", "32_pm_compose_form.html")
    add_page(http, "POST", MYBB_URL + "private.php", "mybb", "36_pm_sent_result.html")
    mybb.send_pm("Маша", "Роль", "Ты доктор")
    body = form_body(next(c for c in http.calls if c.request.method == "POST"))
    assert body["options[savecopy]"] == ["1"] and body["options[readreceipt]"] == ["0"]


@pytest.mark.parametrize("engine", ["phpbb", "mybb"])
def test_the_outbox_can_search_sent_pms_of_both_engines(engine, request):
    """forumbot/outbox/deliver.py marks an interrupted PM "uncertain" (never sent) only for an adapter without
    find_own_pm."""
    forum = request.getfixturevalue(engine)
    assert callable(getattr(forum, "find_own_pm", None))
