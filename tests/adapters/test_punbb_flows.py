"""PunBB / FluxBB flows over pages saved from a live FluxBB 1.5.11 board (fixtures/punbb/README.md); issue 9 item 3."""

from __future__ import annotations

import json

import responses
from datetime import datetime, timedelta, timezone

import pytest

from adapters.punbb.forum import PunbbForum
from adapters.punbb.profile import PUNBB
from adapters_support import HTML, add_page, form_body, page
from forumbot.errors import FloodLimited, FormRejected, LoginRequired, PageIncomplete

U = "http://127.0.0.1:8085/"
PASSWORD = "test-password-1"
# The captures were made on 2026-12-01 around 13:20 Moscow time; "Сегодня" counts from the server's Date header.
DATE = {"Date": "Tue, 01 Dec 2026 10:30:00 GMT"}
MSK = timezone(timedelta(hours=3))


@pytest.fixture
def forum(clock):
    return PunbbForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def serve(http, method, path, name, status=200, **kw):
    add_page(http, method, U + path, "punbb", name, status=status, headers={**DATE, **kw.pop("headers", {})}, **kw)


def posts(http):
    return [form_body(c) for c in http.calls if c.request.method == "POST"]


def gets(http):
    return [c.request.url for c in http.calls if c.request.method == "GET"]


# --- login ------------------------------------------------------------------------------------------------


def test_login_sends_the_form_as_served_and_takes_the_200_redirect_page(forum, http):
    serve(http, "GET", "login.php", "01_login_page.html")
    serve(http, "POST", "login.php?action=in", "03_login_success.html",
          headers={"Set-Cookie": "pun_cookie_7b2efb=3%7Cabc; path=/; HttpOnly"})
    forum.login()
    body = posts(http)[0]
    assert body["req_username"] == ["gm_bot"] and body["req_password"] == [PASSWORD]
    assert body["form_sent"] == ["1"] and body["save_pass"] == ["1"] and "login" in body
    assert body["csrf_hash"] == ["63e9384a2cecff49de14fa0d19954526a27624ab"]  # the login form's token, as served


def test_login_wrong_password_is_login_required(forum, http):
    serve(http, "GET", "login.php", "01_login_page.html")
    serve(http, "POST", "login.php?action=in", "02_login_failed.html")
    with pytest.raises(LoginRequired, match="Неверное имя"):
        forum.login()


def test_login_without_password_sends_nothing(clock, http):
    forum = PunbbForum(U, "gm_bot", None, clock=clock, sleep=clock.sleep)
    with pytest.raises(LoginRequired, match="no password"):
        forum.login()
    assert not http.calls


# --- topic pages --------------------------------------------------------------------------------------------


def test_topic_read_across_both_pages_with_russian_dates(forum, http):
    serve(http, "GET", "viewtopic.php?id=2", "10_topic_page1.html")
    serve(http, "GET", "viewtopic.php?id=2&p=2", "11_topic_page2_last.html")
    got, cursor = forum.fetch_posts("2")
    assert [p.id for p in got] == [str(i) for i in range(2, 34)]  # 32 seeded posts on 2 pages of 25
    assert json.loads(cursor) == {"n": 32, "last": 33, "pp": 25}
    first = got[0]
    assert first.author == "Ведущий" and first.author_id == "4"
    # "29.11.2026 13:45" Moscow, to the minute: the minute's span (C-1)
    assert first.posted_at == datetime(2026, 11, 29, 13, 45, tzinfo=MSK)
    assert first.posted_latest == first.posted_at + timedelta(seconds=59)
    assert gets(http) == [U + "viewtopic.php?id=2", U + "viewtopic.php?id=2&p=2"]


def test_idle_topic_costs_one_request_and_a_new_post_is_found(forum, http):
    serve(http, "GET", "viewtopic.php?id=2&p=2", "23_topic_page2_after_reply.html")
    cursor = json.dumps({"n": 32, "last": 33, "pp": 25})
    got, after = forum.fetch_posts("2", cursor)
    new = [p for p in got if int(p.id) > 33]
    assert [p.id for p in new] == ["37"] and new[0].author == "gm_bot"
    assert new[0].text == "Ночь 1 наступила. Ведущий бот пишет итоги дня. [m:capture1]"
    assert json.loads(after)["last"] == 37 and len(http.calls) == 1


def test_quotes_code_and_signatures_are_stripped(forum, http):
    serve(http, "GET", "viewtopic.php?id=2", "10_topic_page1.html")
    serve(http, "GET", "viewtopic.php?id=2&p=2", "11_topic_page2_last.html")
    by_id = {p.id: p for p in forum.fetch_posts("2")[0]}
    alice = by_id["7"]
    assert alice.text == "А ты сам-то кто, bob?" and alice.quoted  # "[quote=bob]" removed, noted (H-3)
    assert "мирный житель (наверное)" not in alice.text and "мирный житель" in page("punbb", "10_topic_page1.html").decode()
    masha = by_id["10"]
    assert masha.text == "Вот так надо оформлять, да?" and "голос" not in masha.text  # [code] removed
    assert "<div class=\"quotebox\">" in alice.html


def test_edit_notice_gives_the_edit_time_and_is_not_text(forum, http):
    """C-11: an edit is seen with its time; the notice is not part of the post's words."""
    serve(http, "GET", "viewtopic.php?id=2", "10_topic_page1.html")
    serve(http, "GET", "viewtopic.php?id=2&p=2", "11_topic_page2_last.html")
    by_id = {p.id: p for p in forum.fetch_posts("2")[0]}
    bob = by_id["18"]
    assert bob.text == "Это сообщение отредактировано автором."
    assert bob.edited_at == datetime(2026, 12, 1, 12, 25, tzinfo=MSK) and bob.edit_count == 1
    assert by_id["20"].edited_at is not None and by_id["2"].edited_at is None


def test_page_cut_short_is_incomplete_not_a_shorter_topic(forum, http):
    """issue 7 item 9 (page_end): a page without its footer is never read as the topic's end."""
    whole = page("punbb", "11_topic_page2_last.html")
    cut = whole[: whole.index(b'<div id="brdfooter"')]
    http.add("GET", U + "viewtopic.php", body=cut, content_type=HTML)
    with pytest.raises(PageIncomplete):
        forum.fetch_posts("2", json.dumps({"n": 32, "last": 33, "pp": 25}))


def test_login_page_in_place_of_the_inbox_is_login_required(clock, http):
    """issue 7 item 9: the login form (HTTP 200) where the dialogue list was expected is no empty inbox."""
    forum = PunbbForum(U, "gm_bot", None, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    serve(http, "GET", "pmsnew.php?mdl=list", "01_login_page.html")
    with pytest.raises(LoginRequired):
        forum.fetch_pms(None)


def test_guest_redirect_page_in_place_of_the_inbox_logs_in_again(forum, http):
    serve(http, "GET", "pmsnew.php?mdl=list", "40_guest_pm_inbox.html")
    serve(http, "GET", "login.php", "01_login_page.html")
    serve(http, "POST", "login.php?action=in", "02_login_failed.html")
    with pytest.raises(LoginRequired, match="Неверное имя"):
        forum.fetch_pms(None)
    assert len(posts(http)) == 1


def test_reread_from_a_post_starts_at_its_page(forum, http):
    serve(http, "GET", "viewtopic.php?pid=20", "12_topic_via_post_link.html")
    serve(http, "GET", "viewtopic.php?id=2&p=2", "11_topic_page2_last.html")
    got = forum.reread_from("2", "20")
    assert got[0].id == "2" and got[-1].id == "33" and len(got) == 32


# --- reply --------------------------------------------------------------------------------------------------


def test_reply_posts_the_form_and_reads_the_new_post_id(forum, http):
    serve(http, "GET", "post.php?tid=2", "20_reply_form.html")
    serve(http, "POST", "post.php?action=post&tid=2", "21_reply_result.html")
    assert forum.reply("2", "Итоги дня: [b]никто[/b]") == "37"
    body = posts(http)[0]
    assert body["req_message"] == ["Итоги дня: [b]никто[/b]"] and body["form_sent"] == ["1"]
    assert body["csrf_hash"][0] and "submit" in body and "preview" not in body


def test_reply_flood_error_is_flood_limited_with_the_seconds_shown(forum, http):
    serve(http, "GET", "post.php?tid=2", "20_reply_form.html")
    serve(http, "POST", "post.php?action=post&tid=2", "22_reply_flood_error.html")
    forum.transport.max_wait = 0  # no waiting out: the flood is reported
    with pytest.raises(FloodLimited) as err:
        forum.reply("2", "второй")
    assert err.value.retry_after == 30.0


def test_reply_as_a_guest_logs_in_and_posts(forum, http):
    """A 403 "нет прав" reply form means the session is gone: log in once, then post."""
    http.add("GET", U + "post.php", body=page("punbb", "41_guest_reply_form.html"), status=403, content_type=HTML)
    serve(http, "GET", "login.php", "01_login_page.html")
    serve(http, "POST", "login.php?action=in", "03_login_success.html")
    serve(http, "GET", "post.php?tid=2", "20_reply_form.html")
    serve(http, "POST", "post.php?action=post&tid=2", "21_reply_result.html")
    assert forum.reply("2", "текст") == "37"


def test_find_own_post_reads_the_last_page(forum, http):
    http.add("GET", U + "viewtopic.php", status=302, headers={"Location": U + "viewtopic.php?id=2&p=2#p37"},
             match=[responses.matchers.query_param_matcher({"id": "2", "action": "last"})])
    serve(http, "GET", "viewtopic.php?id=2&p=2", "23_topic_page2_after_reply.html")
    assert forum.find_own_post("2", "[m:capture1]") == "37"


def test_find_own_post_looks_one_page_back(forum, http):
    http.add("GET", U + "viewtopic.php", status=302, headers={"Location": U + "viewtopic.php?id=2&p=2"},
             match=[responses.matchers.query_param_matcher({"id": "2", "action": "last"})])
    serve(http, "GET", "viewtopic.php?id=2&p=2", "11_topic_page2_last.html")
    serve(http, "GET", "viewtopic.php?id=2", "10_topic_page1.html")
    assert forum.find_own_post("2", "[m:nothing]") is None
    assert gets(http)[-1] == U + "viewtopic.php?id=2"


# --- PMs (New PMS dialogues) --------------------------------------------------------------------------------


def serve_dialogues(http):
    serve(http, "GET", "pmsnew.php?mdl=list", "31_pm_list.html")
    for n in range(1, 6):
        serve(http, "GET", f"pmsnew.php?mdl=topic&tid={n}", f"32_pm_dialogue_{n}.html")


def test_inbox_first_read_gives_every_message_to_the_bot(forum, http):
    serve_dialogues(http)
    pms, cursor = forum.fetch_pms(None)
    assert [(p.id, p.author, p.subject) for p in pms] == [
        ("1", "Маша", "Ночной ход"), ("2", "Ведущий", "Команда"), ("3", "alice", "Вопрос"), ("4", "Кот Баюн", "Ход")]
    assert pms[3].text == "убить alice" and pms[0].author_id == "7"
    assert "мафия" not in pms[0].text  # the signature is not the message
    assert pms[0].sent_at.tzinfo is not None and pms[0].sent_latest == pms[0].sent_at + timedelta(seconds=59)
    assert forum.inbox_usage == (5, 100)
    cur = json.loads(cursor)
    assert cur["max"] == 4 and cur["dlg"] == {"1": "0", "2": "0", "3": "0", "4": "0", "5": "0"}


def test_inbox_idle_costs_one_request(forum, http):
    serve_dialogues(http)
    cursor = json.dumps({"max": 4, "dlg": {str(n): "0" for n in range(1, 6)}})
    pms, after = forum.fetch_pms(cursor)
    assert pms == [] and len(http.calls) == 1 and json.loads(after)["max"] == 4


def test_inbox_opens_only_a_dialogue_that_changed(forum, http):
    serve_dialogues(http)
    cursor = json.dumps({"max": 2, "dlg": {"1": "0", "2": "0", "4": "0", "5": "0"}})
    pms, _ = forum.fetch_pms(cursor)
    assert [p.id for p in pms] == ["3"] and pms[0].text == "Когда конец дня?"
    assert gets(http)[1:] == [U + "pmsnew.php?mdl=topic&tid=3"]


def test_send_pm_to_a_new_name_opens_a_dialogue_and_gives_the_message_id(forum, http):
    serve(http, "GET", "pmsnew.php?mdl=list", "31_pm_list.html")
    serve(http, "GET", "pmsnew.php?mdl=post", "33_pm_compose_form.html")
    serve(http, "POST", "pmsnew.php?mdl=post", "34_pm_sent_result.html")
    assert forum.send_pm("bob", "Роли", "Ваша роль: Мирный.") == "6"
    body = posts(http)[0]
    assert body["req_addressee"] == ["bob"] and body["req_subject"] == ["Роли"]
    assert body["req_message"] == ["Ваша роль: Мирный."] and "submit" in body and "save" not in body


def test_send_pm_to_a_name_with_a_dialogue_writes_into_it(forum, http):
    """New PMS counts dialogues against the bot's quota (100): one per correspondent, not one per PM."""
    serve(http, "GET", "pmsnew.php?mdl=list", "31_pm_list.html")
    serve(http, "GET", "pmsnew.php?mdl=post&tid=5", "33b_pm_dialogue_reply_form.html")
    serve(http, "POST", "pmsnew.php?mdl=post&tid=5", "34b_pm_dialogue_reply_result.html")
    assert forum.send_pm("Маша", "Итоги ночи", "Ваша проверка: Кот Баюн — мафия.") == "7"
    body = posts(http)[0]
    assert body["req_message"] == ["[b]Итоги ночи[/b]\n\nВаша проверка: Кот Баюн — мафия."]
    assert "req_addressee" not in body and body["csrf_hash"][0]


def test_pm_flood_is_flood_limited(forum, http):
    serve(http, "GET", "pmsnew.php?mdl=list", "31_pm_list.html")
    serve(http, "GET", "pmsnew.php?mdl=post", "33_pm_compose_form.html")
    serve(http, "POST", "pmsnew.php?mdl=post", "35_pm_flood_error.html")
    forum.transport.max_wait = 0
    with pytest.raises(FloodLimited) as err:
        forum.send_pm("bob", "Ещё", "Сразу второе.")
    assert err.value.retry_after == 30.0


def test_pm_to_an_unknown_name_is_refused_naming_it(forum, http):
    serve(http, "GET", "pmsnew.php?mdl=list", "31_pm_list.html")
    serve(http, "GET", "pmsnew.php?mdl=post", "33_pm_compose_form.html")
    serve(http, "POST", "pmsnew.php?mdl=post", "36_pm_unknown_recipient.html")
    with pytest.raises(FormRejected, match="Нет получателя"):
        forum.send_pm("Никого_нет", "Ещё", "Кому?")


def test_find_own_pm_in_a_dialogue_it_wrote_into(forum, http):
    serve(http, "GET", "pmsnew.php?mdl=list", "37b_pm_list_after_reply.html")
    serve(http, "GET", "pmsnew.php?mdl=topic&tid=5", "39b_pm_dialogue_after_reply.html")
    assert forum.find_own_pm("Маша", "[m:capture3]") == "7"


def test_find_own_pm_in_the_bots_sent_dialogue(forum, http):
    """issue 7 item 16: an interrupted PM is found in the dialogue list, not sent again."""
    serve(http, "GET", "pmsnew.php?mdl=list", "37_pm_list_after_send.html")
    serve(http, "GET", "pmsnew.php?mdl=topic&tid=6", "39_pm_sent_dialogue.html")
    serve(http, "GET", "pmsnew.php?mdl=topic&tid=5", "32_pm_dialogue_5.html")
    serve(http, "GET", "pmsnew.php?mdl=topic&tid=2", "32_pm_dialogue_2.html")
    assert forum.find_own_pm("Ведущий", "[m:capture2]") == "6"
    assert forum.find_own_pm("Ведущий", "[m:other]") is None
    # both dialogues with Ведущий (the bot's and the one he opened) are looked in, no other
    assert U + "pmsnew.php?mdl=topic&tid=2" in gets(http)
    assert U + "pmsnew.php?mdl=topic&tid=5" not in gets(http)


def test_flood_limits_are_declared_as_two_timers():
    """FluxBB: posts against last_post, PMs against pmsn_last_post, both g_post_flood (30 s for Members)."""
    assert dict(PUNBB.limits) == {"post": 30.0, "pm": 30.0}
