"""MyBB flows over saved pages of a real MyBB 1.8.37 board."""

from __future__ import annotations

import json

import pytest
import requests

from adapters.mybb.forum import MybbForum
from adapters_support import HTML, MYBB_URL as U, add_page, form_body, page
from forumbot.errors import CaptchaRequired, FloodLimited, FormRejected, FormTransient, ForumUnavailable, LoginRequired

PASSWORD = "bot-password-1!"


@pytest.fixture
def forum(clock):
    return MybbForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def posts(http):
    return [form_body(c) for c in http.calls if c.request.method == "POST"]


def test_login_ok(forum, http):
    add_page(http, "GET", U + "member.php?action=login", "mybb", "01_login_page.html")
    add_page(http, "POST", U + "member.php", "mybb", "04_login_success_result.html",
             headers={"Set-Cookie": "mybbuser=2_AbCdEf; path=/; HttpOnly"})
    forum.login()
    body = posts(http)[0]
    assert body["username"] == ["gm_bot"] and body["password"] == [PASSWORD] and body["action"] == ["do_login"]
    assert body["my_post_key"] == ["6c87b377208af447f2d5dcb49533d4bd"] and body["remember"] == ["yes"]
    assert "quick_username" not in body  # the header quick-login form is not the one sent


def test_login_bad_password(forum, http):
    add_page(http, "GET", U + "member.php?action=login", "mybb", "01_login_page.html")
    add_page(http, "POST", U + "member.php", "mybb", "02_login_failed_wrong_password.html")
    with pytest.raises(LoginRequired):
        forum.login()


def test_issue28_item5_a_refused_login_says_the_error_listed_under_the_heading(forum, http):
    """MyBB's error_inline template: a heading, then the errors as a list; the saved page's heading alone said
    nothing (issue 28 item 5): the listed error comes with it, on one line."""
    add_page(http, "GET", U + "member.php?action=login", "mybb", "01_login_page.html")
    add_page(http, "POST", U + "member.php", "mybb", "02_login_failed_wrong_password.html")
    with pytest.raises(LoginRequired) as refused:
        forum.login()
    assert str(refused.value).startswith(
        "mybb: login refused: Пожалуйста, исправьте следующие ошибки, прежде чем продолжить: "
        "Вы ввели не правильную компбинацию имя/пароль.")
    assert "\n" not in str(refused.value)


def test_login_bad_post_key_is_form_rejected(forum, http):
    add_page(http, "GET", U + "member.php?action=login", "mybb", "01_login_page.html")
    add_page(http, "POST", U + "member.php", "mybb", "03_login_without_my_post_key.html")
    with pytest.raises(FormTransient, match="авторизации"):  # a stale post key: next cycle (issue 7 item 2)
        forum.login()


def test_login_captcha(forum, http):
    add_page(http, "GET", U + "member.php?action=login", "mybb", "S2_login_captcha.SYNTHETIC.html")
    with pytest.raises(CaptchaRequired):
        forum.login()


def test_reply_ok_through_the_quick_reply_form(forum, http):
    add_page(http, "GET", U + "showthread.php?tid=2&action=lastpost", "mybb", "28_thread_short.html")
    # 13 is the answer to a reply in thread 1; here it names the new post 38 of thread 2.
    result = page("mybb", "13_reply_posted_result.html").replace(b"tid=1&amp;pid=37#pid37", b"tid=2&amp;pid=38#pid38")
    http.add("POST", U + "newreply.php?tid=2&processed=1", body=result, content_type=HTML)
    pid = forum.reply("2", "Итоги дня")
    assert pid == "38" and pid.merged is False
    body = posts(http)[0]
    assert body["message"] == ["Итоги дня"] and body["my_post_key"] and body["posthash"]
    assert body["lastpid"] == ["36"] and body["method"] == ["quickreply"] and "submit" in body


def test_reply_merged_into_the_bots_previous_post(forum, http):
    add_page(http, "GET", U + "showthread.php?tid=2&action=lastpost", "mybb", "28_thread_short.html")
    add_page(http, "POST", U + "newreply.php?tid=2&processed=1", "mybb", "14_quickreply_result_merged.html")
    pid = forum.reply("2", "Quick reply #1")
    assert pid == "36" and pid.merged is True  # delivered, inside post 36


def test_find_own_post_sees_a_merged_message(forum, http):
    add_page(http, "GET", U + "showthread.php?tid=2&action=lastpost", "mybb", "15_thread2_after_merge.html")
    assert forum.find_own_post("2", "Quick reply #1") == "36"


def test_reply_flood_carries_the_wait(forum, http):
    add_page(http, "GET", U + "showthread.php?tid=3&action=lastpost", "mybb", "28_thread_short.html")
    add_page(http, "POST", U + "newreply.php?tid=2&processed=1", "mybb", "52_reply_flood_error.html")
    with pytest.raises(FloodLimited) as err:
        forum.reply("3", "второй пост")
    assert err.value.retry_after == 27


def test_reply_too_short_is_form_rejected(forum, http):
    add_page(http, "GET", U + "showthread.php?tid=2&action=lastpost", "mybb", "28_thread_short.html")
    add_page(http, "POST", U + "newreply.php?tid=2&processed=1", "mybb", "45_reply_error_too_short.html")
    with pytest.raises(FormRejected, match="короткое|коротким"):
        forum.reply("2", "a")


def test_post_interval_is_60_seconds(forum, http, clock):
    add_page(http, "GET", U + "showthread.php?tid=2&action=lastpost", "mybb", "28_thread_short.html")
    add_page(http, "POST", U + "newreply.php?tid=2&processed=1", "mybb", "14_quickreply_result_merged.html")
    forum.reply("2", "one")
    forum.reply("2", "two")
    # MyBB refuses while TIME_NOW - lastpost <= postfloodsecs, in whole seconds: 61 s clear it
    assert sum(clock.sleeps) == pytest.approx(61)


# --- reading ----------------------------------------------------------------------------------------------------


def register_thread(http):
    add_page(http, "GET", U + "showthread.php?tid=1", "mybb", "20_thread_page1.html")
    for n, name in [(2, "21_thread_page2.html"), (3, "22_thread_page3.html"), (4, "23_thread_last_page.html")]:
        add_page(http, "GET", U + f"showthread.php?tid=1&page={n}", "mybb", name)


def test_fetch_posts_whole_thread_then_idle(forum, http):
    register_thread(http)
    got, cursor = forum.fetch_posts("1")
    assert len(got) == 36 and got[-1].id == "37"
    n = len(http.calls)
    again, same = forum.fetch_posts("1", cursor)
    # nothing new; the last page's posts come back as they are now, so an edit would be seen (C-11)
    assert [p.id for p in again] == [p.id for p in got[30:]]
    assert len(http.calls) == n + 1 and http.calls[-1].request.url.endswith("page=4")


def test_fetch_posts_incremental(forum, http):
    register_thread(http)
    got, cursor = forum.fetch_posts("1", json.dumps({"n": 29, "last": 29, "pp": 10}))
    assert [p.id for p in got if int(p.id) > 29][:2] == ["30", "31"] and len(http.calls) == 2


# --- PMs ----------------------------------------------------------------------------------------------------------


def register_pms(http):
    add_page(http, "GET", U + "private.php", "mybb", "42_pm_inbox_after.html")
    add_page(http, "GET", U + "private.php?action=read&pmid=1", "mybb", "31_pm_view_single.html")
    add_page(http, "GET", U + "private.php?action=read&pmid=3", "mybb", "31b_pm_view_single_masha_unread.html")
    add_page(http, "GET", U + "private.php?action=read&pmid=7", "mybb", "31_pm_view_single.html")


def test_fetch_pms_then_delete_acknowledged(forum, http, clock):
    register_pms(http)
    got, cursor = forum.fetch_pms()
    assert [p.id for p in got] == ["1", "3", "7"]
    masha = got[1]
    assert masha.author == "Маша" and masha.author_id == "6" and masha.subject == "Привет от Маши"
    assert masha.text == "Можно мне сыграть за эльфа? Спасибо!"
    add_page(http, "POST", U + "private.php", "mybb", "40_pm_delete_result.html")
    add_page(http, "GET", U + "private.php?fid=4", "mybb", "41_pm_trash.html")
    again, _ = forum.fetch_pms(cursor)
    body = posts(http)[0]
    assert again == [] and body["action"] == ["do_stuff"] and body["delete"]
    assert body["check[1]"] == ["1"] and body["check[3]"] == ["1"] and body["check[7]"] == ["1"]


def test_deleted_pms_are_deleted_from_the_trash_too_so_the_quota_never_fills(forum, http, caplog):
    """MyBB moves deleted PMs to the trash (fid 4), where they still count against the quota; deleting them
    there deletes them for good (the saved trash page: pmForm with fromfid=4)."""
    register_pms(http)
    _, cursor = forum.fetch_pms()
    add_page(http, "POST", U + "private.php", "mybb", "40_pm_delete_result.html")
    add_page(http, "GET", U + "private.php?fid=4", "mybb", "41_pm_trash.html")
    n = len(http.calls)
    forum.fetch_pms(cursor)
    calls = [(c.request.method, c.request.url.removeprefix(U)) for c in http.calls[n:]]
    assert calls == [("GET", "private.php"), ("POST", "private.php"), ("GET", "private.php?fid=4"),
                     ("POST", "private.php")]
    trash = posts(http)[-1]
    assert trash["fromfid"] == ["4"] and trash["action"] == ["do_stuff"] and trash["delete"]
    assert trash["check[9]"] == ["1"] and trash["my_post_key"] == ["65e6f43d29fe5875a4dc1916a2b90921"]
    assert "trash" not in caplog.text


def test_an_empty_trash_costs_no_post_and_an_idle_inbox_no_trash_read(forum, http):
    import lxml.html

    register_pms(http)
    _, cursor = forum.fetch_pms()
    n = len(http.calls)
    forum.fetch_pms(json.dumps({"max": 7, "del": []}))  # nothing to delete: the inbox alone
    assert [c.request.url for c in http.calls[n:]] == [U + "private.php"]
    doc = lxml.html.document_fromstring(page("mybb", "41_pm_trash.html"))
    for a in doc.cssselect("a[href*='pmid=9']"):
        a.getparent().remove(a)
    add_page(http, "POST", U + "private.php", "mybb", "40_pm_delete_result.html")
    http.add("GET", U + "private.php?fid=4", body=lxml.html.tostring(doc), content_type=HTML)
    n = len(http.calls)
    forum.fetch_pms(cursor)
    assert [c.request.method for c in http.calls[n:]] == ["GET", "POST", "GET"]  # nothing left in the trash


def test_send_pm_ok(forum, http):
    add_page(http, "GET", U + "private.php?action=send", "mybb", "32_pm_compose_form.html")
    add_page(http, "POST", U + "private.php", "mybb", "36_pm_sent_result.html")
    assert forum.send_pm("Маша", "Роль", "Ты доктор") == ""
    body = posts(http)[0]
    assert body["to"] == ["Маша"] and body["action"] == ["do_send"] and body["options[readreceipt]"] == ["0"]


def test_send_pm_flood(forum, http):
    add_page(http, "GET", U + "private.php?action=send", "mybb", "32_pm_compose_form.html")
    add_page(http, "POST", U + "private.php", "mybb", "51_pm_flood_error.html")
    with pytest.raises(FloodLimited) as err:
        forum.send_pm("alice", "s", "pm 2 body text")
    assert err.value.retry_after == 47


def test_send_pm_quota_full(forum, http):
    add_page(http, "GET", U + "private.php?action=send", "mybb", "32_pm_compose_form.html")
    add_page(http, "POST", U + "private.php", "mybb", "S1_pm_quota_error.SYNTHETIC.html")
    with pytest.raises(FormRejected, match="квот"):
        forum.send_pm("alice", "s", "text")


def test_send_pm_to_many_goes_in_batches_of_five(forum, http, clock):
    add_page(http, "GET", U + "private.php?action=send", "mybb", "32_pm_compose_form.html")
    add_page(http, "POST", U + "private.php", "mybb", "36_pm_sent_result.html")
    forum.send_pm(", ".join(f"p{i}" for i in range(7)), "Ночь", "Город засыпает")
    sent = [b["to"][0] for b in posts(http)]
    assert sent == ["p0, p1, p2, p3, p4", "p5, p6"]
    assert sum(clock.sleeps) == pytest.approx(61)  # more than 60 s between PMs (pmfloodsecs)


def test_forum_down(forum, http):
    http.add("GET", U + "private.php", status=503)
    with pytest.raises(ForumUnavailable):
        forum.fetch_pms()
    http.add("GET", U + "showthread.php?tid=1", body=requests.exceptions.ConnectTimeout("down"))
    with pytest.raises(ForumUnavailable):
        forum.fetch_posts("1")
