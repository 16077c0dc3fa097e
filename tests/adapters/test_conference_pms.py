"""M-15's conversation: a reply to all of the bot's PM to the mafia reaches the bot as a PM written to it and others;
the adapter marks it `shared` (stored apart, never read as a move), a PM to the bot alone not. The views are saved
from real boards by tests/live/capture_conference_pages.py."""

from __future__ import annotations

import pytest

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters_support import MYBB_URL, PHPBB_URL as U, add_page
from forumbot.forum.adapter import CONFERENCE, can


@pytest.fixture
def phpbb(clock):  # type: ignore[no-untyped-def]
    return PhpbbForum(U, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def test_m15_phpbb_a_reply_to_all_is_shared_a_pm_to_the_bot_alone_is_not(phpbb, http) -> None:  # type: ignore[no-untyped-def]
    add_page(http, "GET", U + "ucp.php?i=pm&folder=inbox", "phpbb", "30_pm_inbox_all_unread.html")
    for pid, name in [(1, "90_pm_view_reply_to_all.html"), (2, "91_pm_view_to_the_bot_alone.html"),
                      (4, "31_pm_view_single.html"), (5, "31b_pm_view_single_masha_unread.html")]:
        add_page(http, "GET", U + f"ucp.php?i=pm&mode=view&f=0&p={pid}", "phpbb", name)
    pms, _ = phpbb.fetch_pms()
    assert [(p.author, p.text, p.shared) for p in pms] == [
        ("Маша", "Маяк: ник жирным.", True),  # to gm_bot, Кот Баюн and Дядя Фёдор
        ("Маша", "подтверждаю", False),
        ("alice", "Привет, gm_bot! Когда следующий ход?", False),
        ("Маша", "Можно мне сыграть за эльфа? Спасибо!", False)]
    assert can(phpbb, CONFERENCE)


def test_m15_mybb_a_reply_to_all_is_shared_a_pm_to_the_bot_alone_is_not(clock, http) -> None:  # type: ignore[no-untyped-def]
    mybb = MybbForum(MYBB_URL, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    add_page(http, "GET", MYBB_URL + "private.php", "mybb", "42_pm_inbox_after.html")
    for pid, name in [(1, "90_pm_view_reply_to_all.html"), (3, "91_pm_view_to_the_bot_alone.html"),
                      (7, "31_pm_view_single.html")]:
        add_page(http, "GET", MYBB_URL + f"private.php?action=read&pmid={pid}", "mybb", name)
    pms, _ = mybb.fetch_pms()
    assert [(p.author, p.text, p.shared) for p in pms] == [
        ("Маша", "Маяк: ник жирным.", True),  # to gm_bot, Кот Баюн and Дядя Фёдор
        ("Маша", "подтверждаю", False),
        ("alice", "Привет, gm_bot! Когда следующий ход?", False)]
    assert can(mybb, CONFERENCE)
