"""account_exists on phpBB, MyBB, FlaskBB, FluxBB (punbb) and SMF over pages saved from real boards: a GM `замена`
by an account the forum lacks is refused on real engines too, not only on the memory forum (issue 7 item 2 follow-up,
issue 28 item 6; C-3: an account is its name case-folded). None where the board does not let the bot tell."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from adapters.flaskbb.forum import FlaskbbForum
from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters.punbb.forum import PunbbForum
from adapters.smf.forum import SmfForum
from adapters_support import MYBB_URL, PHPBB_URL, add_page
from forumbot.errors import LoginRequired
from forumbot.forum.transport import Transport

PASSWORD = "bot-password-1!"
FLASKBB_URL = "http://127.0.0.1:8083/"
PUNBB_URL = "http://127.0.0.1:8085/"


def phpbb_profile(name: str) -> str:
    return PHPBB_URL + "memberlist.php?mode=viewprofile&un=" + quote(name, safe="")


def mybb_list(name: str) -> str:
    return (MYBB_URL + "memberlist.php?username=" + quote(name, safe="")
            + "&username_match=begins&sort=username&order=ascending")


@pytest.fixture
def phpbb(clock):
    return PhpbbForum(PHPBB_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


@pytest.fixture
def mybb(clock):
    return MybbForum(MYBB_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


@pytest.fixture
def flaskbb(clock):
    transport = Transport(FLASKBB_URL, bot="forumbot", clock=clock, sleep=clock.sleep, retries=1, backoff=0.01)
    return FlaskbbForum(FLASKBB_URL, "forumbot", "forumbot-pass-123", transport=transport)


# --- phpBB: the profile by name --------------------------------------------------------------------------------


def test_phpbb_an_account_in_another_case_exists_C3_issue7_item2(phpbb, http):
    add_page(http, "GET", phpbb_profile("КОТ БАЮН"), "phpbb", "46_memberlist_viewprofile_un_upper_case.html")
    assert phpbb.account_exists("КОТ БАЮН") is True


def test_phpbb_a_coloured_name_is_read(phpbb, http):
    add_page(http, "GET", phpbb_profile("admin"), "phpbb", "48_memberlist_viewprofile_un_coloured.html")
    assert phpbb.account_exists("admin") is True


def test_phpbb_no_such_user_issue7_item2(phpbb, http):
    add_page(http, "GET", phpbb_profile("Никто"), "phpbb", "47_memberlist_viewprofile_un_no_user.html", status=404)
    assert phpbb.account_exists("Никто") is False


def test_phpbb_a_name_phpbb_folds_to_another_account_is_not_that_account_C3(phpbb, http):
    """phpBB finds a profile by its cleaned name; the profile shown is Кот Баюн's, not an account "Кот Баюн!"."""
    add_page(http, "GET", phpbb_profile("Кот Баюн!"), "phpbb", "46_memberlist_viewprofile_un_upper_case.html")
    assert phpbb.account_exists("Кот Баюн!") is False


def test_phpbb_a_guest_logs_in_then_asks(phpbb, http):
    add_page(http, "GET", phpbb_profile("Никто"), "phpbb", "01_login_page.html")
    add_page(http, "GET", phpbb_profile("Никто"), "phpbb", "47_memberlist_viewprofile_un_no_user.html", status=404)
    add_page(http, "GET", PHPBB_URL + "ucp.php?mode=login", "phpbb", "01_login_page.html")
    http.add("POST", PHPBB_URL + "ucp.php?mode=login", status=302,
             headers={"Location": "./index.php", "Set-Cookie": "phpbb3_eqsqk_u=58; path=/; HttpOnly"})
    assert phpbb.account_exists("Никто") is False
    assert [c.request.method for c in http.calls] == ["GET", "GET", "POST", "GET"]


def test_phpbb_profiles_hidden_from_the_logged_in_bot_cannot_tell(phpbb, http):
    add_page(http, "GET", phpbb_profile("Маша"), "phpbb", "01_login_page.html")  # even after logging in
    add_page(http, "GET", PHPBB_URL + "ucp.php?mode=login", "phpbb", "01_login_page.html")
    http.add("POST", PHPBB_URL + "ucp.php?mode=login", status=302,
             headers={"Location": "./index.php", "Set-Cookie": "phpbb3_eqsqk_u=58; path=/; HttpOnly"})
    assert phpbb.account_exists("Маша") is None


def test_phpbb_without_a_password_a_login_page_is_login_required(clock, http):
    forum = PhpbbForum(PHPBB_URL, "gm_bot", None, clock=clock, sleep=clock.sleep)
    add_page(http, "GET", phpbb_profile("Маша"), "phpbb", "01_login_page.html")
    with pytest.raises(LoginRequired):
        forum.account_exists("Маша")


# --- MyBB: the member list filtered by name ------------------------------------------------------------------


def test_mybb_an_account_exists_issue7_item2(mybb, http):
    add_page(http, "GET", mybb_list("Маша"), "mybb", "46_memberlist_begins_masha.html")
    assert mybb.account_exists("Маша") is True


def test_mybb_an_account_in_another_case_exists_C3(mybb, http):
    add_page(http, "GET", mybb_list("КОТ БАЮН"), "mybb", "48_memberlist_begins_upper_case.html")
    assert mybb.account_exists("КОТ БАЮН") is True


def test_mybb_no_member_found_issue7_item2(mybb, http):
    add_page(http, "GET", mybb_list("Никто"), "mybb", "47_memberlist_begins_no_members.html")
    assert mybb.account_exists("Никто") is False


def test_mybb_a_name_that_only_begins_an_account_is_none_of_them(mybb, http):
    add_page(http, "GET", mybb_list("Ма"), "mybb", "46_memberlist_begins_masha.html")  # Маша begins with Ма
    assert mybb.account_exists("Ма") is False


def test_mybb_a_page_that_is_not_the_member_list_cannot_tell(mybb, http):
    add_page(http, "GET", mybb_list("Маша"), "mybb", "63_pm_inbox_guest_no_permission.html")  # no permission
    assert mybb.account_exists("Маша") is None


# --- FlaskBB: the profile page -----------------------------------------------------------------------------------


def test_flaskbb_an_account_exists_issue7_item2(flaskbb, http):
    add_page(http, "GET", FLASKBB_URL + "user/alice", "flaskbb", "40_user_profile.html")
    assert flaskbb.account_exists("alice") is True


def test_flaskbb_no_account_so_spelled_issue7_item2(flaskbb, http):
    """FlaskBB's conversation form finds a recipient spelled exactly: a PM to ALICE would be refused too."""
    add_page(http, "GET", FLASKBB_URL + "user/ALICE", "flaskbb", "41_user_profile_other_case_404.html", status=404)
    assert flaskbb.account_exists("ALICE") is False


# --- FluxBB (punbb): the user list filtered by name (issue 28 item 6) --------------------------------------------


def punbb_list(name: str) -> str:
    return PUNBB_URL + "userlist.php?username=" + quote(name, safe="") + "&show_group=-1&sort_by=username&sort_dir=ASC"


@pytest.fixture
def punbb(clock):
    return PunbbForum(PUNBB_URL, "gm_bot", "test-password-1", timezone_name="Europe/Moscow", clock=clock,
                      sleep=clock.sleep)


def test_punbb_an_account_exists_issue28_item6(punbb, http):
    add_page(http, "GET", punbb_list("Маша"), "punbb", "44_userlist_masha.html")
    assert punbb.account_exists("Маша") is True


def test_punbb_no_member_found_issue28_item6(punbb, http):
    add_page(http, "GET", punbb_list("Новичок"), "punbb", "45_userlist_no_match.html")
    assert punbb.account_exists("Новичок") is False


def test_punbb_a_name_the_board_does_not_fold_to_an_account_is_no_account_C3(punbb, http):
    """SQLite folds no Cyrillic case: the list finds nobody, as the PM form's lookup would."""
    add_page(http, "GET", punbb_list("КОТ БАЮН"), "punbb", "46_userlist_upper_case_no_match.html")
    assert punbb.account_exists("КОТ БАЮН") is False


def test_punbb_a_group_that_may_not_search_users_cannot_tell_a_name_is_missing(punbb, http):
    """The filter is ignored and every member listed, page by page: a name listed exists; one not on this page
    may be on the next."""
    add_page(http, "GET", punbb_list("Маша"), "punbb", "47_userlist_no_search_permission.html")
    add_page(http, "GET", punbb_list("Новичок"), "punbb", "47_userlist_no_search_permission.html")
    assert punbb.account_exists("Маша") is True
    assert punbb.account_exists("Новичок") is None


def test_punbb_a_name_with_an_underscore_is_asked_with_fluxbbs_wildcard_issue28_item4(punbb, http):
    """userlist.php escapes `_` as `\\_`, which SQLite's LIKE reads as a backslash: `Lucky_Strike` was never found
    on the live FluxBB board, and `game start` refused a real player. The name is asked with `*` (FluxBB's `%`) in
    place of `_`, and the rows are compared with the name itself: a row that only matches the wildcard is not it."""
    add_page(http, "GET", punbb_list("Ма*ша"), "punbb", "44_userlist_masha.html")  # lists Маша
    assert punbb.account_exists("Ма_ша") is False


# --- SMF: the member list searched by name (issue 28 item 4) ---------------------------------------------------

SMF_URL = "http://127.0.0.1:31220/"  # the board the pages were saved from: their links name it


def smf_search(name: str) -> str:
    return SMF_URL + "index.php?action=mlist;sa=search;fields=name;search=" + quote(name, safe="")


@pytest.fixture
def smf(clock):
    return SmfForum(SMF_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def test_smf_an_account_exists_issue28_item4(smf, http):
    """`check-config --online` said «не проверено» on SMF: it had no look-up. The search's row names the account."""
    add_page(http, "GET", smf_search("Маша"), "smf/en", "50_mlist_search_masha.html")
    assert smf.account_exists("Маша") is True


def test_smf_an_account_in_another_case_exists_C3(smf, http):
    add_page(http, "GET", smf_search("КОТ БАЮН"), "smf/en", "51_mlist_search_upper_case.html")
    assert smf.account_exists("КОТ БАЮН") is True


def test_smf_no_match_is_no_account_issue28_item4(smf, http):
    add_page(http, "GET", smf_search("Никто"), "smf/en", "52_mlist_search_no_matches.html")
    assert smf.account_exists("Никто") is False


def test_smf_a_name_only_held_in_other_names_is_none_of_them(smf, http):
    """SMF lists every name holding the one asked for (LIKE %name%): Маша is listed when Ма is asked."""
    add_page(http, "GET", smf_search("Ма"), "smf/en", "50_mlist_search_masha.html")
    assert smf.account_exists("Ма") is False


def test_smf_every_page_of_the_search_is_read(smf, http):
    """The search lists members a page at a time (1 a page on this board): page 2 is read before a name is missing,
    and a name found on it exists. Page 1 lists admin, page 2 alice."""
    add_page(http, "GET", smf_search("a"), "smf/en", "53_mlist_search_a_page1.html")
    add_page(http, "GET", SMF_URL + "index.php?action=mlist;sa=search;search=a;fields=name;start=1", "smf/en",
             "54_mlist_search_a_page2.html")
    assert smf.account_exists("a") is False
    assert [c.request.url.rsplit(";", 1)[-1] for c in http.calls] == ["search=a", "start=1"]


def test_smf_a_bot_that_may_not_view_the_member_list_cannot_tell(smf, http):
    add_page(http, "GET", smf_search("Маша"), "smf/en", "55_mlist_not_allowed_403.html", status=403)
    assert smf.account_exists("Маша") is None
    assert "don't have permission" in smf.account_said()  # the board's own words, for the GM
