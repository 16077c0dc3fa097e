"""phpBB flows over saved pages of a real phpBB 3.3.10 board: each ends in success or the right typed error."""

from __future__ import annotations

import json
import logging
import re

import pytest
import requests

from adapters.phpbb.forum import PhpbbForum
from adapters_support import PHPBB_URL as U, add_page, form_body
from forumbot.errors import CaptchaRequired, FloodLimited, FormRejected, FormTransient, ForumUnavailable, LoginRequired

PASSWORD = "bot-password-1!"
# The compose form posts to ./ucp.php?i=pm&mode=compose&action=post&sid=<session of the capture>.
COMPOSE = re.compile(re.escape(U + "ucp.php?i=pm&mode=compose&action=post") + ".*")


@pytest.fixture
def forum(clock):
    return PhpbbForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def posts_calls(http, method="POST"):
    return [c for c in http.calls if c.request.method == method]


# --- login ---------------------------------------------------------------------------------------------------


def test_login_ok_waits_past_the_token_second_and_sends_every_field(forum, http, clock, caplog):
    caplog.set_level(logging.DEBUG)
    add_page(http, "GET", U + "ucp.php?mode=login", "phpbb", "01_login_page.html")
    http.add("POST", U + "ucp.php?mode=login", status=302,
             headers={"Location": "./index.php?sid=8ba2f5b7f987591cdb6405b5b360bdd6",
                      "Set-Cookie": "phpbb3_eqsqk_u=58; path=/; HttpOnly"})
    forum.login()
    body = form_body(posts_calls(http)[0])
    assert body["username"] == ["gm_bot"] and body["password"] == [PASSWORD]
    assert body["form_token"] == ["991e0cc11b4760e6ac795bbff03fd398e9f2f113"] and body["creation_time"]
    assert body["autologin"] == ["on"] and "login" in body and body["sid"]
    assert sum(clock.sleeps) >= 1.1  # FORM_INVALID otherwise
    assert PASSWORD not in caplog.text and PASSWORD not in repr(forum)
    assert any(c["name"] == "phpbb3_eqsqk_u" for c in forum.transport.export_cookies()["cookies"])


def test_login_bad_password_is_login_required(forum, http):
    add_page(http, "GET", U + "ucp.php?mode=login", "phpbb", "01_login_page.html")
    add_page(http, "POST", U + "ucp.php?mode=login", "phpbb", "02_login_failed_wrong_password.html")
    with pytest.raises(LoginRequired, match="неверный пароль"):
        forum.login()


def test_login_form_invalid_retries_once_then_form_rejected(forum, http):
    add_page(http, "GET", U + "ucp.php?mode=login", "phpbb", "01_login_page.html")
    add_page(http, "POST", U + "ucp.php?mode=login", "phpbb", "03_login_form_invalid_no_delay.html")
    with pytest.raises(FormTransient, match="token"):
        forum.login()
    assert len(posts_calls(http)) == 2


def test_login_captcha(forum, http):
    add_page(http, "GET", U + "ucp.php?mode=login", "phpbb", "S2_login_captcha.SYNTHETIC.html")
    with pytest.raises(CaptchaRequired):
        forum.login()
    assert not posts_calls(http)


# --- reply -----------------------------------------------------------------------------------------------------


def test_reply_ok_returns_the_new_post_id(forum, http, clock):
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add("POST", U + "posting.php?mode=reply&t=2", status=302, headers={"Location": "./viewtopic.php?p=39#p39"})
    assert forum.reply("2", "Итоги дня") == "39"
    body = form_body(posts_calls(http)[0])
    assert body["message"] == ["Итоги дня"] and body["topic_cur_post_id"] == ["38"]
    assert body["post"] == ["Отправить"] and body["attach_sig"] == ["on"] and body["form_token"]
    assert "save" not in body and "preview" not in body  # only the one submit button "pressed"
    assert sum(clock.sleeps) >= 1.1


def test_reply_accepts_a_topic_url(forum, http):
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add("POST", U + "posting.php?mode=reply&t=2", status=302, headers={"Location": "./viewtopic.php?p=39#p39"})
    assert forum.reply(U + "viewtopic.php?f=2&t=2", "x") == "39"


def test_reply_flood(forum, http):
    add_page(http, "GET", U + "posting.php?mode=reply&t=3", "phpbb", "10_reply_form.html")
    add_page(http, "POST", U + "posting.php?mode=reply&t=2", "phpbb", "50_reply_flood_error.html")
    with pytest.raises(FloodLimited) as err:
        forum.reply("3", "второй ответ")
    assert err.value.retry_after == 15


def test_reply_stale_topic_resubmits_the_reviewed_form(forum, http):
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add("POST", U + "posting.php?mode=reply&t=2", body=open_fixture("S1_reply_post_review.SYNTHETIC.html"),
             content_type="text/html; charset=UTF-8")
    http.add("POST", U + "posting.php?mode=reply&t=2", status=302, headers={"Location": "./viewtopic.php?p=40#p40"})
    assert forum.reply("2", "Голоса") == "40"
    first, second = (form_body(c) for c in posts_calls(http))
    assert first["topic_cur_post_id"] == ["38"] and second["topic_cur_post_id"] == ["39"]
    assert second["message"] == ["Голоса"]


def test_reply_form_invalid_is_form_rejected_for_now_issue7_item2(forum, http):
    """A token posted too fast or expired is transient: the outbox sends the message again next cycle."""
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    add_page(http, "POST", U + "posting.php?mode=reply&t=2", "phpbb", "14_reply_form_invalid_no_delay.html")
    with pytest.raises(FormTransient):
        forum.reply("2", "too fast")


def test_reply_in_a_topic_that_keeps_moving_is_form_rejected_for_now_issue7_item2(forum, http):
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    for _ in range(4):
        http.add("POST", U + "posting.php?mode=reply&t=2", body=open_fixture("S1_reply_post_review.SYNTHETIC.html"),
                 content_type="text/html; charset=UTF-8")
    with pytest.raises(FormTransient, match="kept moving"):
        forum.reply("2", "Голоса")


def test_reply_when_logged_out_logs_in_and_retries(forum, http):
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "01_login_page.html")
    add_page(http, "GET", U + "ucp.php?mode=login", "phpbb", "01_login_page.html")
    http.add("POST", U + "ucp.php?mode=login", status=302,
             headers={"Location": "./index.php", "Set-Cookie": "phpbb3_eqsqk_u=58; path=/"})
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add("POST", U + "posting.php?mode=reply&t=2", status=302, headers={"Location": "./viewtopic.php?p=39#p39"})
    assert forum.reply("2", "x") == "39"


def test_flood_interval_paces_two_replies(forum, http, clock):
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add("POST", U + "posting.php?mode=reply&t=2", status=302, headers={"Location": "./viewtopic.php?p=39#p39"})
    forum.reply("2", "one")
    clock.sleeps.clear()
    forum.reply("2", "two")
    assert sum(clock.sleeps) >= 15 - 1.1 - 0.01  # the 15 s post interval, minus the form wait already spent


# --- reading ----------------------------------------------------------------------------------------------------


def test_issue28_item4_a_post_link_names_the_topic_the_post_is_in(forum, http):
    """phpBB's "copy link" on a post gives viewtopic.php?p=N: the topic is read once from the page it lands on
    (the saved 24_topic_via_post_link_p9: topic 2's title link) and the reply goes to that topic."""
    add_page(http, "GET", U + "viewtopic.php?p=9", "phpbb", "24_topic_via_post_link_p9_edit_notice.html")
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add("POST", U + "posting.php?mode=reply&t=2", status=302, headers={"Location": "./viewtopic.php?p=39#p39"})
    assert PhpbbForum.thread_problem(U + "viewtopic.php?p=9#p9", U) is None
    assert forum.topic_id(U + "viewtopic.php?p=9#p9") == "2"
    assert forum.reply(U + "viewtopic.php?p=9#p9", "x") == "39"
    assert [c.request.url for c in http.calls].count(U + "viewtopic.php?p=9") == 1


def register_topic(http):
    add_page(http, "GET", U + "viewtopic.php?t=2", "phpbb", "20_topic_page1.html")
    add_page(http, "GET", U + "viewtopic.php?t=2&start=10", "phpbb", "21_topic_page2.html")
    add_page(http, "GET", U + "viewtopic.php?t=2&start=20", "phpbb", "22_topic_page3.html")
    add_page(http, "GET", U + "viewtopic.php?t=2&start=30", "phpbb", "23_topic_last_page.html")


def test_fetch_posts_whole_topic_then_idle_costs_one_request(forum, http):
    register_topic(http)
    posts, cursor = forum.fetch_posts("2")
    assert len(posts) == 36 and [p.id for p in posts] == sorted((p.id for p in posts), key=int)
    assert json.loads(cursor) == {"n": 36, "last": int(posts[-1].id), "pp": 10}
    n = len(http.calls)
    again, cursor2 = forum.fetch_posts("2", cursor)
    # nothing new; the last page's posts come back as they are now, so an edit would be seen (C-11)
    assert [p.id for p in again] == [p.id for p in posts[30:]]
    assert cursor2 == cursor and len(http.calls) == n + 1
    assert http.calls[-1].request.url.endswith("start=30")


def test_fetch_posts_reads_only_pages_that_can_hold_new_posts(forum, http):
    register_topic(http)
    cursor = json.dumps({"n": 25, "last": 26, "pp": 10})  # the bot had seen up to post 26 (index 24)
    posts, new_cursor = forum.fetch_posts("2", cursor)
    urls = [c.request.url for c in http.calls]
    assert urls == [U + "viewtopic.php?t=2&start=20", U + "viewtopic.php?t=2&start=30"]
    new = [p for p in posts if int(p.id) > 26]
    assert new[0].id == "27" and len(new) == 11 and json.loads(new_cursor)["n"] == 36
    assert all(int(p.id) >= 22 for p in posts)  # the seen ones come from the pages read, none from earlier


def test_fetch_posts_steps_back_when_earlier_posts_were_deleted(forum, http):
    register_topic(http)
    cursor = json.dumps({"n": 31, "last": 25, "pp": 10})  # count says page 4, but post 26+ are unseen
    posts, _ = forum.fetch_posts("2", cursor)
    assert [p for p in posts if int(p.id) > 25][0].id == "26"


def test_find_own_post_searches_the_last_pages(forum, http):
    register_topic(http)
    assert forum.find_own_post("2", "Ход принят") == "38"
    assert forum.find_own_post("2", "нет такого маркера") is None


# --- PMs ----------------------------------------------------------------------------------------------------------


def register_pms(http):
    add_page(http, "GET", U + "ucp.php?i=pm&folder=inbox", "phpbb", "30_pm_inbox_all_unread.html")
    for pid, name in [(1, "31_pm_view_single.html"), (2, "31b_pm_view_single_masha_unread.html"),
                      (4, "31_pm_view_single.html"), (5, "31_pm_view_single.html")]:
        add_page(http, "GET", U + f"ucp.php?i=pm&mode=view&f=0&p={pid}", "phpbb", name)


def test_fetch_pms_reads_new_ones_and_deletes_them_once_acknowledged(forum, http):
    register_pms(http)
    pms, cursor = forum.fetch_pms()
    assert [p.id for p in pms] == ["1", "2", "4", "5"]
    masha = pms[1]
    assert masha.author == "Маша" and masha.author_id == "62" and masha.subject == "Привет от Маши"
    assert masha.text == "Можно мне сыграть за эльфа? Спасибо!"  # signature removed
    assert masha.sent_at.isoformat() == "2026-11-29T07:27:00+00:00"  # 10:27 Moscow
    assert forum.inbox_usage == (4, 50)
    assert not [c for c in http.calls if c.request.method == "POST"]

    add_page(http, "POST", U + "ucp.php?i=pm&mode=view&action=view_folder&f=0", "phpbb", "40_pm_delete_confirm.html")
    add_page(http, "POST", U + "ucp.php?action=view_folder&f=0&i=pm&mode=view&confirm_key=1UHF2H8IQO", "phpbb",
             "41_pm_delete_done.html")
    more, cursor2 = forum.fetch_pms(cursor)
    assert more == []
    mark, confirm = (form_body(c) for c in http.calls if c.request.method == "POST")
    assert mark["marked_msg_id[]"] == ["1", "2", "4", "5"] and mark["mark_option"] == ["delete_marked"]
    assert confirm["confirm"] == ["Да"] and confirm["confirm_uid"] == ["58"]
    assert json.loads(cursor2)["del"] == []


def test_full_inbox_is_reported_and_emptied(forum, http, caplog):
    add_page(http, "GET", U + "ucp.php?i=pm&folder=inbox", "phpbb", "S3_pm_inbox_full.SYNTHETIC.html")
    add_page(http, "POST", U + "ucp.php?i=pm&mode=view&action=view_folder&f=0", "phpbb", "40_pm_delete_confirm.html")
    add_page(http, "POST", U + "ucp.php?action=view_folder&f=0&i=pm&mode=view&confirm_key=1UHF2H8IQO", "phpbb",
             "41_pm_delete_done.html")
    forum.fetch_pms(json.dumps({"max": 5, "del": ["4", "5"]}))
    assert forum.inbox_usage == (50, 50) and "full" in caplog.text
    assert len([c for c in http.calls if c.request.method == "POST"]) == 2


def test_send_pm_resolves_the_name_then_posts(forum, http, clock):
    add_page(http, "GET", U + "ucp.php?i=pm&mode=compose", "phpbb", "32_pm_compose_form.html")
    add_page(http, "POST", COMPOSE, "phpbb", "36_pm_compose_after_add_recipient.html")
    add_page(http, "POST", COMPOSE, "phpbb", "37_pm_sent_result.html")
    assert forum.send_pm("Маша", "Роль", "Ты шериф") == "6"
    add, send = (form_body(c) for c in http.calls if c.request.method == "POST")
    assert add["username_list"] == ["Маша"] and "add_to" in add
    assert send["address_list[u][62]"] == ["to"] and send["message"] == ["Ты шериф"] and "post" in send
    assert send["subject"] == ["Роль"]


def test_send_pm_flood(forum, http):
    add_page(http, "GET", U + "ucp.php?i=pm&mode=compose", "phpbb", "32_pm_compose_form.html")
    add_page(http, "POST", COMPOSE, "phpbb", "36_pm_compose_after_add_recipient.html")
    add_page(http, "POST", COMPOSE, "phpbb", "51_pm_flood_error.html")
    with pytest.raises(FloodLimited):
        forum.send_pm("Маша", "s", "t")


def test_send_pm_unknown_recipient_is_form_rejected(forum, http):
    add_page(http, "GET", U + "ucp.php?i=pm&mode=compose", "phpbb", "32_pm_compose_form.html")
    add_page(http, "POST", COMPOSE, "phpbb", "32_pm_compose_form.html")
    with pytest.raises(FormRejected, match="recipient") as err:
        forum.send_pm("Никто", "s", "t")
    assert not isinstance(err.value, FormTransient)  # for good: the outbox sets it aside (issue 7 item 2)


# --- forum down -----------------------------------------------------------------------------------------------------


def test_forum_down_500_is_unavailable_after_retries(forum, http, clock):
    http.add("GET", U + "viewtopic.php?t=2", status=500)
    with pytest.raises(ForumUnavailable):
        forum.fetch_posts("2")
    assert len(http.calls) == 4 and clock.sleeps == [2.0, 4.0, 8.0]


def test_forum_timeout_is_unavailable(forum, http):
    http.add("GET", U + "viewtopic.php?t=2", body=requests.exceptions.ReadTimeout("slow"))
    with pytest.raises(ForumUnavailable):
        forum.fetch_posts("2")


def test_reply_timeout_is_not_repeated(forum, http):
    add_page(http, "GET", U + "posting.php?mode=reply&t=2", "phpbb", "10_reply_form.html")
    http.add("POST", U + "posting.php?mode=reply&t=2", body=requests.exceptions.ReadTimeout("slow"))
    with pytest.raises(ForumUnavailable):
        forum.reply("2", "x")
    assert len(posts_calls(http)) == 1  # a second POST could double-post; the outbox uses find_own_post


def open_fixture(name: str) -> bytes:
    from adapters_support import page

    return page("phpbb", name)


def test_reread_from_lands_on_the_page_of_the_post_and_reads_on_to_the_last(forum, http):
    """C-11 before a deadline: `viewtopic.php?p=ID` serves the page that holds the post; the pages after it are
    followed by their "next" links to the end, one request each, and every post there comes back as it is now."""
    add_page(http, "GET", U + "viewtopic.php?p=13", "phpbb", "28_topic_via_post_link_p13_nested_quotes.html")
    add_page(http, "GET", U + "viewtopic.php?t=2&start=20", "phpbb", "22_topic_page3.html")
    add_page(http, "GET", U + "viewtopic.php?t=2&start=30", "phpbb", "23_topic_last_page.html")
    posts = forum.reread_from(U + "viewtopic.php?t=2", "13", ["13", "14"])
    assert [p.id for p in posts] == [str(i) for i in range(12, 37)] + ["38"]
    assert {p.topic for p in posts} == {U + "viewtopic.php?t=2"}  # filed under the thread as configured
    assert [c.request.url for c in http.calls] == [
        U + "viewtopic.php?p=13", U + "viewtopic.php?t=2&start=20", U + "viewtopic.php?t=2&start=30"]
