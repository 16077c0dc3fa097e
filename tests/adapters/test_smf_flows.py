"""SMF 2.1 flows over saved pages of a real SMF 2.1.4 board in Russian (fixtures/smf/README.md); issue 9 item 1.

The pages were captured on 1 Dec 2026 (Moscow time) as gm_bot: "Сегодня" on them is that day, so each page is
served with that Date header (the 'now' relative dates count from)."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

from urllib.parse import parse_qsl

import pytest
from lxml import etree
from responses import matchers

from adapters.dates import parse_forum_date
from adapters.html.hooks import Context, smf_edit_notice, smf_pm_date, text_date
from adapters.html.dom import parse
from adapters.smf.profile import SMF
from adapters.smf.forum import SmfForum
from adapters_support import HTML, add_page, form_body, page
from forumbot.errors import FloodLimited, ForumUnavailable, FormRejected, LoginRequired, PageIncomplete
from zoneinfo import ZoneInfo

U = "http://127.0.0.1:18120/"  # the board the pages were captured on: their form actions name it
PASSWORD = "bot-password-1!"
DATE = {"Date": "Tue, 01 Dec 2026 09:00:00 GMT"}
MSK = ZoneInfo("Europe/Moscow")
SESSION = ("b0c87d1d09a9", "9a019e5612c682a2a4298a52a7023dd8")  # the random session var of the captured session


@pytest.fixture
def forum(clock):
    return SmfForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def serve(http, method, path, name, status=200, body=None, **kw):
    kw.setdefault("headers", DATE)
    if body is None:
        add_page(http, method, U + path, "smf", name, status=status, **kw)
    else:
        base, _, query = (U + path).partition("?")
        http.add(method, base, body=body, status=status, content_type=HTML,
                 match=[matchers.query_param_matcher(dict(parse_qsl(query)), strict_match=True)], **kw)


def redirect(http, method, path, location):
    serve(http, method, path, None, status=302, body=b"", headers={"Location": location, **DATE})


def posts(http):
    return [form_body(c) for c in http.calls if c.request.method == "POST"]


def gets(http):
    return [c.request.url for c in http.calls if c.request.method == "GET"]


# --- login --------------------------------------------------------------------------------------------------


def login_ok(http):
    serve(http, "GET", "index.php?action=login", "01_login_page.html")
    redirect(http, "POST", "index.php?action=login2", U + "index.php?action=login2;sa=check;member=2")
    redirect(http, "GET", "index.php?action=login2;sa=check;member=2", U + "index.php")
    serve(http, "GET", "index.php", "04_index_logged_in.html")


def test_login_sends_the_random_session_var_and_login_token(forum, http):
    login_ok(http)
    forum.login()
    body = posts(http)[0]
    assert body["user"] == ["gm_bot"] and body["passwrd"] == [PASSWORD] and body["cookielength"] == ["3153600"]
    assert body[SESSION[0]] == [SESSION[1]]  # the session pair under this session's random name
    assert body["f5367cb5df"] == ["c6d244cde5d1c3f137887998e12e3634"]  # 2.1's login token, also random
    assert "search" not in body  # the header search form is not the one sent


def test_login_takes_the_session_var_from_the_page_script_where_the_form_lacks_it(forum, http):
    """The name is random per session: it is read from the page (smf_session_var), not assumed."""
    raw = page("smf", "01_login_page.html").replace(SESSION[0].encode(), b"q7w8e9r0t1y2")
    raw = re.sub(rb'<input type="hidden" name="q7w8e9r0t1y2"[^>]*>', b"", raw)
    assert b'name="q7w8e9r0t1y2"' not in raw and b'smf_session_var = "q7w8e9r0t1y2"' in raw
    serve(http, "GET", "index.php?action=login", None, body=raw)
    redirect(http, "POST", "index.php?action=login2", U + "index.php?action=login2;sa=check;member=2")
    redirect(http, "GET", "index.php?action=login2;sa=check;member=2", U + "index.php")
    serve(http, "GET", "index.php", "04_index_logged_in.html")
    forum.login()
    assert posts(http)[0]["q7w8e9r0t1y2"] == [SESSION[1]]


def test_login_wrong_password(forum, http):
    serve(http, "GET", "index.php?action=login", "01_login_page.html")
    serve(http, "POST", "index.php?action=login2", "02_login_failed_wrong_password.html")
    with pytest.raises(LoginRequired, match="Неверный пароль"):
        forum.login()


def test_login_too_soon_after_a_failed_one_waits_and_tries_once_more(forum, http, clock):
    """SMF answers a login within 2 s of the last one from the IP with a 403 "wait about 2 seconds"."""
    serve(http, "GET", "index.php?action=login", "01_login_page.html")
    serve(http, "POST", "index.php?action=login2", "03_login_retry_too_soon_403.html", status=403)
    redirect(http, "POST", "index.php?action=login2", U + "index.php?action=login2;sa=check;member=2")
    redirect(http, "GET", "index.php?action=login2;sa=check;member=2", U + "index.php")
    serve(http, "GET", "index.php", "04_index_logged_in.html")
    forum.login()
    assert len(posts(http)) == 2 and clock.sleeps and clock.sleeps[0] >= 2


def test_login_refused_twice_as_too_soon_is_flood_limited(forum, http):
    serve(http, "GET", "index.php?action=login", "01_login_page.html")
    serve(http, "POST", "index.php?action=login2", "03_login_retry_too_soon_403.html", status=403)
    with pytest.raises(FloodLimited) as e:
        forum.login()
    assert e.value.retry_after >= 2


# --- reading topics ---------------------------------------------------------------------------------------


def serve_topic(http):
    serve(http, "GET", "index.php?topic=2.0", "10_topic_page1.html")
    serve(http, "GET", "index.php?topic=2.15", "11_topic_page2_middle.html")
    serve(http, "GET", "index.php?topic=2.30", "12_topic_page3_last.html")


def test_fetch_posts_reads_every_page_then_only_the_last(forum, http):
    serve_topic(http)
    got, cursor = forum.fetch_posts("2")
    assert [p.id for p in got] == [str(i) for i in range(2, 34)]  # 32 posts over 3 pages of 15
    assert json.loads(cursor) == {"n": 32, "last": 33, "pp": 15}
    first = len(http.calls)
    assert first == 3
    again, cursor2 = forum.fetch_posts("2", cursor)
    assert [c.request.url for c in http.calls[first:]] == [U + "index.php?topic=2.30"]  # idle: one request
    assert {p.id for p in again} == {"32", "33"} and cursor2 == cursor


def test_topic_url_as_configured_is_kept(forum, http):
    serve_topic(http)
    got, _ = forum.fetch_posts(U + "index.php?topic=2.0")
    assert got[0].topic == U + "index.php?topic=2.0"


def test_posts_authors_dates_quotes_signatures_code(forum, http):
    serve_topic(http)
    by_id = {p.id: p for p in forum.fetch_posts("2")[0]}
    first = by_id["2"]
    assert first.author == "Ведущий" and first.author_id == "3"
    assert first.posted_at == datetime(2026, 11, 29, 8, 26, tzinfo=timezone.utc)  # "29 ноября 2026, 11:26" MSK
    quoting = by_id["7"]  # quotes bob's post 4
    assert quoting.quoted and quoting.text == "А ты сам-то кто, bob?"
    assert "Посмотрим" not in quoting.text and "Посмотрим" in quoting.html
    assert "мирный житель (наверное)" not in quoting.text  # alice's signature
    code = by_id["10"]
    assert code.text == "Вот так надо оформлять, да?"  # [code]голос: Кот Баюн[/code] is not a vote
    assert by_id["5"].text == "Маша" and not by_id["5"].quoted  # a bare-nickname vote
    assert "♥" not in by_id["20"].text  # Маша's signature


def test_edit_notices_author_and_moderator(forum, http):
    """C-11: an edit is seen by its notice: "Последнее редактирование: Сегодня в 10:06 от Ведущий"."""
    serve_topic(http)
    by_id = {p.id: p for p in forum.fetch_posts("2")[0]}
    edited = datetime(2026, 12, 1, 7, 6, tzinfo=timezone.utc)  # "Сегодня в 10:06" Moscow
    for pid in ("18", "19", "20"):  # bob with a reason, alice without, the GM on Маша's post
        assert by_id[pid].edited_at == edited and by_id[pid].edit_count == 1
    assert by_id["21"].edited_at is None and by_id["21"].edit_count == 0  # the empty span of an unedited post


def test_an_authors_edit_within_edit_wait_time_leaves_no_notice(forum, http):
    """SMF keeps no mark of an author's edit within 90 s of posting (26: gm_bot edited its fresh msg 37); an
    older post edited by its author shows one (28: msg 33)."""
    serve(http, "GET", "index.php?topic=2.0", "26_topic_after_fresh_edit.html")
    fresh = {p.id: p for p in forum.fetch_posts("2")[0]}
    assert "исправлено" in fresh["37"].text and fresh["37"].edited_at is None
    http.reset()
    serve(http, "GET", "index.php?topic=2.0", "28_topic_edit_notice_own.html")
    old = {p.id: p for p in forum.fetch_posts("2")[0]}
    assert old["33"].edited_at == datetime(2026, 12, 1, 8, 6, tzinfo=timezone.utc)


def test_reread_from_a_post_follows_the_msg_link_and_next_pages(forum, http):
    redirect(http, "GET", "index.php?msg=20", U + "index.php?topic=2.msg20#msg20")
    serve(http, "GET", "index.php?topic=2.msg20", "13_topic_via_post_link_msg.html")
    serve(http, "GET", "index.php?topic=2.30", "12_topic_page3_last.html")
    got = forum.reread_from("2", "20")
    assert [p.id for p in got] == [str(i) for i in range(17, 34)]


def test_topic_page_cut_short_is_incomplete(forum, http):
    raw = page("smf", "10_topic_page1.html")
    serve(http, "GET", "index.php?topic=2.0", None, body=raw[: raw.index(b'<div id="footer">')])
    with pytest.raises(PageIncomplete):
        forum.fetch_posts("2")


def test_page_without_its_footer_is_incomplete_even_with_closing_html(forum, http):
    raw = page("smf", "30_pm_inbox.html")
    raw = raw[: raw.index(b'<div id="footer">')] + b"</body></html>"
    serve(http, "GET", "index.php?action=pm;f=inbox;sort=date;desc", None, body=raw)
    with pytest.raises(PageIncomplete):
        forum.fetch_pms()


# --- reply ------------------------------------------------------------------------------------------------


def serve_reply(http, result_status=302):
    serve(http, "GET", "index.php?action=post;topic=2.0", "20_reply_form.html")
    redirect(http, "POST", "index.php?action=post2;start=0;board=1", U + "index.php?topic=2.new#new")
    serve(http, "GET", "index.php?topic=2.new", "21_reply_posted_result.html")


def test_reply_reads_the_new_post_id_from_the_page_it_redirects_to(forum, http):
    serve_reply(http)
    assert forum.reply("2", "Бот на связи: проверка ответа.") == "37"
    body = posts(http)[0]
    assert body["message"] == ["Бот на связи: проверка ответа."] and body["topic"] == ["2"]
    assert body[SESSION[0]] == [SESSION[1]] and body["seqnum"] == ["2495365"] and "post" in body
    assert body["last_msg"] == ["33"]
    assert gets(http)[-1].startswith(U + "index.php?topic=2.new")


LAST = "index.php?topic=2.msg2147483647"  # SMF shows the last page for a message id past the topic's last


def test_reply_id_from_the_last_page_when_the_new_page_is_an_earlier_one(forum, http):
    """topic=T.new is the bot's first unread post: when others posted since it last read, an earlier page."""
    serve(http, "GET", "index.php?action=post;topic=2.0", "20_reply_form.html")
    redirect(http, "POST", "index.php?action=post2;start=0;board=1", U + "index.php?topic=2.new#new")
    serve(http, "GET", "index.php?topic=2.new", "15_topic_new.html")  # the bot's msg 33 at most: older
    serve(http, "GET", LAST, "21_reply_posted_result.html")
    assert forum.reply("2", "текст") == "37"


def test_reply_accepted_but_not_found_is_maybe_sent_not_failed(forum, http):
    """Posted (302) but no page shows the bot's new post: ForumUnavailable, so the outbox looks for the marker
    before sending again, instead of a failure it would simply send again (a double post)."""
    serve(http, "GET", "index.php?action=post;topic=2.0", "20_reply_form.html")
    redirect(http, "POST", "index.php?action=post2;start=0;board=1", U + "index.php?topic=2.new#new")
    serve(http, "GET", "index.php?topic=2.new", "15_topic_new.html")
    serve(http, "GET", LAST, "12_topic_page3_last.html")
    with pytest.raises(ForumUnavailable, match="accepted"):
        forum.reply("2", "текст")
    assert len(posts(http)) == 1


def test_reply_accepted_then_logged_out_page_does_not_reply_again(forum, http):
    """LoginRequired after the post went out would make with_login log in and post once more."""
    serve(http, "GET", "index.php?action=post;topic=2.0", "20_reply_form.html")
    redirect(http, "POST", "index.php?action=post2;start=0;board=1", U + "index.php?topic=2.new#new")
    serve(http, "GET", "index.php?topic=2.new", "41_guest_reply_must_login.html")
    login_ok(http)
    with pytest.raises(ForumUnavailable):
        forum.reply("2", "текст")
    assert len(posts(http)) == 1


def test_reply_flood_403_waits_the_named_seconds_and_sends_once_more(forum, http, clock):
    """A flood is a 403 error page ("... отправлено 5 секунд назад"), not a login page: FloodLimited, waited out."""
    serve(http, "GET", "index.php?action=post;topic=2.0", "20_reply_form.html")
    serve(http, "POST", "index.php?action=post2;start=0;board=1", "22_reply_flood_error.html", status=403)
    redirect(http, "POST", "index.php?action=post2;start=0;board=1", U + "index.php?topic=2.new#new")
    serve(http, "GET", "index.php?topic=2.new", "21_reply_posted_result.html")
    assert forum.reply("2", "текст") == "37"
    assert len(posts(http)) == 2 and any(s >= 5 for s in clock.sleeps)


def test_reply_flood_longer_than_max_wait_is_raised_with_the_wait(clock, http):
    forum = SmfForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                     max_wait=1.0)
    serve(http, "GET", "index.php?action=post;topic=2.0", "20_reply_form.html")
    serve(http, "POST", "index.php?action=post2;start=0;board=1", "22_reply_flood_error.html", status=403)
    with pytest.raises(FloodLimited) as e:
        forum.reply("2", "текст")
    assert 5 <= e.value.retry_after <= 7 and len(posts(http)) == 1


def test_two_replies_are_paced_by_the_bot_not_by_smfs_flood_check(forum, http, clock):
    """Two posts in the same second both pass SMF's flood check on MariaDB: the bot itself keeps spamWaitTime
    (5 s) between posts, as the profile declares; PMs have their own timer (log_type 'pm')."""
    assert dict(SMF.limits) == {"post": 5.0, "pm": 5.0}
    serve_reply(http)
    forum.reply("2", "раз")
    t1 = clock.now
    forum.reply("2", "два")
    second_post = [c for c in http.calls if c.request.method == "POST"][1]
    assert second_post is not None and clock.now - t1 >= 5.0
    assert forum.transport.pause_needed("pm") <= 0  # a post does not hold a PM back


def test_reply_when_logged_out_logs_in_and_replies(forum, http):
    serve(http, "GET", "index.php?action=post;topic=2.0", "41_guest_reply_must_login.html")
    login_ok(http)
    serve_reply(http)
    assert forum.reply("2", "текст") == "37"


# --- PMs --------------------------------------------------------------------------------------------------

INBOX = "index.php?action=pm;f=inbox;sort=date;desc"


def test_fetch_pms_reads_them_off_the_inbox_page(forum, http):
    """Stock display mode shows the PMs on the folder page: one request for four PMs."""
    serve(http, "GET", INBOX, "30_pm_inbox.html")
    pms, cursor = forum.fetch_pms()
    assert [p.id for p in pms] == ["1", "2", "3", "4"] and len(http.calls) == 1
    move = pms[3]
    assert (move.author, move.author_id, move.subject, move.text) == ("Кот Баюн", "7", "Ход", "убить alice")
    assert move.sent_at == datetime(2026, 12, 1, 8, 6, tzinfo=timezone.utc)  # "Сегодня в 11:06" Moscow
    assert "♥" not in pms[0].text  # Маша's signature
    assert json.loads(cursor) == {"max": 4, "del": ["1", "2", "3", "4"]}


def test_fetch_pms_deletes_the_acknowledged_ones(forum, http):
    serve(http, "GET", INBOX, "30_pm_inbox.html")
    redirect(http, "POST", "index.php?action=pm;sa=pmactions;f=inbox;start=0", U + "index.php?action=pm")
    pms, cursor = forum.fetch_pms(json.dumps({"max": 4, "del": ["3", "4"]}))
    assert pms == [] and json.loads(cursor) == {"max": 4, "del": []}
    body = posts(http)[0]
    assert body["pms[]"] == ["3", "4"] and "del_selected" in body and body[SESSION[0]] == [SESSION[1]]


def test_fetch_pms_keeps_read_pms_when_told_to(clock, http):
    forum = SmfForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                     delete_read_pms=False)
    serve(http, "GET", INBOX, "30_pm_inbox.html")
    forum.fetch_pms(json.dumps({"max": 4, "del": ["3", "4"]}))
    assert posts(http) == []


def test_fetch_pms_opens_a_pm_the_folder_page_does_not_show(forum, http):
    """"One at a time" mode shows only the newest PM on the folder page: the others are opened (pmsg=N)."""
    raw = page("smf", "31b_pm_view_conversation.html")
    for i in (b"2", b"3"):  # rows 2 and 3 gone: this inbox holds PMs 1 and 4, only 4 shown
        raw = raw.replace(b'id="deletelisting' + i + b'" value="' + i + b'"', b'id="deletelisting' + i + b'" value="x"')
    serve(http, "GET", INBOX, None, body=raw)
    serve(http, "GET", "index.php?action=pm;f=inbox;pmsg=1", "31_pm_view_single.html")
    pms, _ = forum.fetch_pms()
    assert [(p.id, p.text) for p in pms] == [("1", "проверяю Кот Баюн"), ("4", "убить alice")]
    assert gets(http) == [U + INBOX, U + "index.php?action=pm;f=inbox;pmsg=1"]


def test_inbox_served_as_the_login_page_is_login_required_not_empty(clock, http):
    forum = SmfForum(U, "gm_bot", None, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    serve(http, "GET", INBOX, "40_guest_pm_must_login.html")
    with pytest.raises(LoginRequired):
        forum.fetch_pms()


def test_inbox_logged_out_logs_in_and_reads(forum, http):
    serve(http, "GET", INBOX, "40_guest_pm_must_login.html")
    login_ok(http)
    serve(http, "GET", INBOX, "30_pm_inbox.html")
    pms, _ = forum.fetch_pms()
    assert len(pms) == 4


def serve_compose(http):
    serve(http, "GET", "index.php?action=pm;sa=send", "33_pm_compose_form.html")


def test_send_pm(forum, http):
    serve_compose(http)
    redirect(http, "POST", "index.php?action=pm;sa=send2", U + "index.php?action=pm;f=inbox;l=-1;done=sent")
    assert forum.send_pm("Маша, Кот Баюн", "Роль", "Вы — шериф.") == ""
    body = posts(http)[0]
    assert body["to"] == ["Маша, Кот Баюн"] and body["subject"] == ["Роль"] and body["message"] == ["Вы — шериф."]
    assert body[SESSION[0]] == [SESSION[1]] and "seqnum" in body and "post" in body


def test_send_pm_in_batches_of_ten(forum, http):
    serve_compose(http)
    redirect(http, "POST", "index.php?action=pm;sa=send2", U + "index.php?action=pm;f=inbox;l=-1;done=sent")
    names = [f"игрок{i}" for i in range(12)]
    forum.send_pm(", ".join(names), "Роль", "текст")
    assert [b["to"][0].count(",") + 1 for b in posts(http)] == [10, 2]


def test_pm_flood_403_is_flood_limited_with_the_wait(clock, http):
    forum = SmfForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                     max_wait=1.0)
    serve_compose(http)
    serve(http, "POST", "index.php?action=pm;sa=send2", "36_pm_second_send_quickly.html", status=403)
    with pytest.raises(FloodLimited) as e:
        forum.send_pm("Маша", "Роль", "текст")
    assert 5 <= e.value.retry_after <= 7


def test_pm_hourly_limit_is_flood_limited(clock, http):
    """pm_spam_settings' 20 PMs an hour (SYNTHETIC: the 403 page of 36 with pm_too_many_per_hour's Russian text)."""
    forum = SmfForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                     max_wait=1.0)
    raw = page("smf", "36_pm_second_send_quickly.html").decode()
    raw = re.sub(r"Последнее личное сообщение[^<]*", "Вы исчерпали лимит отправки личных сообщений в 20 за один час.", raw)
    serve_compose(http)
    serve(http, "POST", "index.php?action=pm;sa=send2", None, body=raw.encode(), status=403)
    with pytest.raises(FloodLimited) as e:
        forum.send_pm("Маша", "Роль", "текст")
    assert e.value.retry_after == 180.0


def test_pm_hourly_limit_on_the_compose_form_is_flood_limited_not_a_refusal(clock, http):
    """SMF checks the hourly limit when it serves the compose form: seen live (en/37, the limit set to 2), the
    GET is the 403 error page. As FormRejected the outbox would set the PM aside for good (issue 9)."""
    forum = SmfForum(EN, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                     max_wait=1.0)
    add_page(http, "GET", EN + "index.php?action=pm;sa=send", "smf/en", "37_pm_compose_hourly_limit_403.html",
             status=403, headers=DATE)
    with pytest.raises(FloodLimited) as e:
        forum.send_pm("Маша", "Роль", "текст")
    assert e.value.retry_after == 1800.0  # 3600 s over the limit of 2 the page names
    assert posts(http) == []


def test_find_own_pm_in_the_sent_folder(forum, http):
    serve(http, "GET", "index.php?action=pm;f=sent;sort=date;desc", "32_pm_sentbox.html")
    serve(http, "GET", "index.php?action=pm;f=sent;pmsg=5", "32_pm_sentbox.html")
    assert forum.find_own_pm("Маша", "мирный житель") == "5"
    assert forum.find_own_pm("Маша", "[#nope]") is None
    assert forum.find_own_pm("alice", "мирный житель") is None  # not sent to her


def test_find_own_post_on_the_last_two_pages(forum, http):
    serve(http, "GET", LAST, "12_topic_page3_last.html")
    serve(http, "GET", "index.php?topic=2.15", "11_topic_page2_middle.html")
    assert forum.find_own_post("2", "Итоги голосования") == "33"
    assert gets(http) == [U + LAST]  # found on the last page: one request
    assert forum.find_own_post("2", "[#absent]") is None
    assert gets(http)[1:] == [U + LAST, U + "index.php?topic=2.15"]  # and the one before it


# --- Russian dates (adapters/dates.py through the SMF hooks) ----------------------------------------------

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
CTX = Context(SMF, MSK, NOW)


def el(html: str) -> etree._Element:
    return parse(f"<html><body><span id='x'>{html}</span></body></html>").find(".//span[@id='x']")


@pytest.mark.parametrize("shown, expected", [
    ("<strong>Сегодня</strong> в 11:06", datetime(2026, 12, 1, 8, 6, tzinfo=timezone.utc)),
    ("<strong>Вчера</strong> в 23:59", datetime(2026, 11, 30, 20, 59, tzinfo=timezone.utc)),
    ("29 ноября 2026, 17:26", datetime(2026, 11, 29, 14, 26, tzinfo=timezone.utc)),
    ("<strong>Today</strong> at 05:26:31 PM", datetime(2026, 12, 1, 14, 26, 31, tzinfo=timezone.utc)),
    ("November 29, 2026, 05:26:31 PM", datetime(2026, 11, 29, 14, 26, 31, tzinfo=timezone.utc)),
])
def test_smf_post_dates(shown, expected):
    assert text_date(el(shown), CTX).earliest == expected  # a Span: minutes are a 60 s range (C-1)


@pytest.mark.parametrize("month, number", list(zip(
    ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября",
     "декабря"], range(1, 13))))
def test_russian_genitive_months(month, number):
    assert parse_forum_date(f"5 {month} 2026, 10:00", MSK, NOW).month == number


def test_smf_edit_notice_reads_the_date_not_the_editor_or_reason():
    notice = el('<span class="lastedit">Последнее редактирование</span>: <strong>Вчера</strong> в 10:06 от Печкин 2000'
                '&nbsp;<span id="reason" class="lastedit">Причина</span>: 12:30 опечатка')
    assert smf_edit_notice(notice, CTX) == (datetime(2026, 11, 30, 7, 6, tzinfo=timezone.utc), 1)
    english = el('<span class="lastedit">Last Edit</span>: November 29, 2026, 05:26:31 PM by bob')
    assert smf_edit_notice(english, CTX)[0] == datetime(2026, 11, 29, 14, 26, 31, tzinfo=timezone.utc)
    assert smf_edit_notice(el(""), CTX) == (None, 0)


def test_smf_pm_date_skips_a_name_that_looks_like_a_time():
    line = el('<strong> Получатель:</strong> <a href="?action=profile;u=9">12:30</a> <strong> :</strong> '
              '<strong>Сегодня</strong> в 11:06')
    assert smf_pm_date(line, CTX).earliest == datetime(2026, 12, 1, 8, 6, tzinfo=timezone.utc)


# --- the same flows in SMF's stock English (pages of the live board, fixtures/smf/en/) ----------------------

EN = "http://127.0.0.1:18140/"
EN_DATE = {"Date": "Tue, 01 Dec 2026 10:21:09 GMT"}


@pytest.fixture
def en_forum(clock):
    return SmfForum(EN, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                    max_wait=1.0)


def en_serve(http, method, path, name, status=200, **kw):
    add_page(http, method, EN + path, "smf/en", name, status=status, headers=EN_DATE, **kw)


def test_english_topic_pages_dates_and_edit_notices(en_forum, http):
    en_serve(http, "GET", "index.php?topic=2.0", "10_topic_page1.html")
    en_serve(http, "GET", "index.php?topic=2.15", "11_topic_page2.html")
    by_id = {p.id: p for path in ("index.php?topic=2.0", "index.php?topic=2.15")
             for p in en_forum.topics.topic_page(path, "2")[2]}
    assert by_id["2"].posted_at == datetime(2026, 11, 29, 10, 32, tzinfo=timezone.utc)  # "Nov 29, 2026, 01:32 PM"
    assert by_id["18"].edited_at == datetime(2026, 12, 1, 9, 12, tzinfo=timezone.utc)  # "Today at 12:12 PM by bob"
    assert by_id["21"].edited_at is None


def test_english_login_wait_then_wrong_password(en_forum, http, clock):
    en_serve(http, "GET", "index.php?action=login", "01_login_page.html")
    # the guest's form action carries PHPSESSID=... until a cookie comes back: any query matches here
    en_serve(http, "POST", "index.php", "03_login_retry_too_soon_403.html", status=403, match=[])
    en_serve(http, "POST", "index.php", "02_login_failed_wrong_password.html", match=[])
    with pytest.raises(LoginRequired, match="Password incorrect"):
        en_forum.login()
    assert clock.sleeps and clock.sleeps[0] >= 2


@pytest.mark.parametrize("name, action", [("22_reply_flood_error.html", "post"),
                                          ("36_pm_second_send_quickly.html", "pm")])
def test_english_flood_pages_are_flood_limited(en_forum, name, action):
    from forumbot.forum.http_page import Page
    flood = Page(url=EN + "index.php", status=403, headers=EN_DATE, content=page("smf/en", name), charset="utf-8")
    with pytest.raises(FloodLimited) as e:
        en_forum.forms.raise_for_errors(flood, flood_action=action)
    # the whole limit again from the refusal (which restarted SMF's timer), plus a second: 5 s was refused live
    assert e.value.retry_after == 6.0


def test_english_pm_inbox_and_sent_items(en_forum, http):
    en_serve(http, "GET", INBOX, "30_pm_inbox.html")
    pms, _ = en_forum.fetch_pms()
    assert [p.id for p in pms] == ["1", "2", "3", "4"]
    assert pms[0].sent_at == datetime(2026, 12, 1, 10, 12, tzinfo=timezone.utc)  # "on: Today at 01:12 PM"
    en_serve(http, "GET", "index.php?action=pm;f=sent;sort=date;desc", "32_pm_sentbox.html")
    for pm in (9, 8):  # newest first; 8 is the second of two PMs sent in one second (both passed)
        en_serve(http, "GET", f"index.php?action=pm;f=sent;pmsg={pm}", "32_pm_sentbox.html")
    assert en_forum.find_own_pm("Ведущий", "capture pm 2") == "8"


def test_conversation_display_mode_is_switched_to_all_at_once(en_forum, http):
    """In conversation mode SMF lists one row per conversation (its newest PM): a player's earlier new PM in the
    same conversation would never be seen. The adapter cycles the mode once (conversation -> all at once)."""
    en_serve(http, "GET", INBOX, "30b_pm_inbox_conversation_mode.html")
    en_serve(http, "GET", "index.php?action=pm;view", "30_pm_inbox.html")
    en_serve(http, "GET", INBOX, "30_pm_inbox.html")
    pms, _ = en_forum.fetch_pms()
    assert [p.id for p in pms] == ["1", "2", "3", "4"]
    assert [c.request.url for c in http.calls] == [EN + INBOX, EN + "index.php?action=pm;view", EN + INBOX]



def test_pm_to_an_unknown_name_is_rejected_and_nothing_is_sent(forum, http):
    """SMF sends nothing when a name is unknown: the form comes back with the error (FormRejected, not retried)."""
    serve_compose(http)
    serve(http, "POST", "index.php?action=pm;sa=send2", None, body=page("smf/en", "38_pm_unknown_recipient.html"))
    with pytest.raises(FormRejected, match="could not be found"):
        forum.send_pm("Нет Такого, Ведущий", "Роль", "текст")
    assert len(posts(http)) == 1


def test_pm_sent_in_part_is_not_an_error(forum, http, caplog):
    """Sent to some, re-shown for the rest (SYNTHETIC: 38 with a pm_successfully_sent line in its send report):
    raising would make the outbox send it to everyone again."""
    line = "<span class=\"error\">PM successfully sent to 'Ведущий'.</span><br>"
    raw = page("smf/en", "38_pm_unknown_recipient.html").decode()
    raw = raw.replace("<span class=\"error\">Unable to find member", line + "<span class=\"error\">Unable to find member", 1).encode()
    assert b"successfully sent to" in raw
    serve_compose(http)
    serve(http, "POST", "index.php?action=pm;sa=send2", None, body=raw)
    assert forum.send_pm("Нет Такого, Ведущий", "Роль", "текст") == ""
    assert "sent only in part" in caplog.text and len(posts(http)) == 1



# --- escaping: SMF shows [nobbc] content literally (checked live: tags, URLs, smileys, @names, entities) ----

_BLOCK = re.compile(r"\[nobbc\](.*?)\[/nobbc\]", re.IGNORECASE | re.DOTALL)


def shown(out: str) -> str:
    """What SMF displays for text made only of [nobbc] blocks: their contents, up to the first [/nobbc] each."""
    blocks = _BLOCK.findall(out)
    assert "".join(f"[nobbc]{b}[/nobbc]" for b in blocks) == out  # nothing outside a block
    return "".join(blocks)


@pytest.mark.parametrize("text", ["[b]жирный[/b]", "[url=http://x]a[/url] www.e.x", "@alice :)", "&#91; &amp;",
                                  "a [/nobbc] [b]b[/b]", "x [/NOBBC][nobbc] y", "", "Кот [Баюн]"])
def test_escape_keeps_every_character_and_fires_nothing(forum, text):
    out = forum.escape(text)
    assert shown(out) == text and "\u200b" not in out


def test_escape_property():
    from hypothesis import given, strategies as st

    @given(st.text(alphabet=st.sampled_from(list("[]/nobcNOBC=:. @&#")), max_size=40))
    def check(text):
        out = SmfForum(U, "bot").escape(text)
        assert shown(out) == text

    check()
