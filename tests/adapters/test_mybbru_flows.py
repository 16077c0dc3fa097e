"""mybb.ru hosted engine: the read API and every HTML flow, over the real saved pages (fixtures/mybbru/, REAL*) and
over pages in PunBB 1.2 markup where none was saved (SYNTHETIC*, RECONSTRUCTED*); issue 9 item 2."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from urllib.parse import parse_qs, parse_qsl

import pytest
import responses
from lxml import etree

from adapters.html.antibot import AntibotError, antibot_fields, js_unescape
from adapters.mybbru.forum import API_LIMIT, MybbruForum
from adapters.mybbru.profile import MYBBRU
from adapters.punbb.profile import PUNBB
from adapters_support import page
from forumbot.errors import FloodLimited, LoginRequired, PageFormatChanged

U = "https://gamestories.clanboard.ru/"  # the real pages' board: their forms post there
CP1251 = "text/html; charset=windows-1251"
UTF8 = "text/html; charset=utf-8"  # the login pages are UTF-8 copies that still declare windows-1251
DATE = {"Date": "Sun, 29 Nov 2026 09:30:00 GMT"}


@pytest.fixture
def forum(clock):
    return MybbruForum(U, "GMBot", "short-pass-16ch", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def serve(http, method, path, name, ctype=CP1251, status=200, **kw):
    """A saved page at `path`, its query matched exactly."""
    base, _, query = path.partition("?")
    kw.setdefault("match", [responses.matchers.query_param_matcher(dict(parse_qsl(query)), strict_match=True)])
    http.add(method, U + base, body=page("mybbru", name), status=status, content_type=ctype,
             headers={**DATE, **kw.pop("headers", {})}, **kw)


def cp1251_form(call) -> dict[str, list[str]]:
    body = call.request.body
    return parse_qs(body.decode("ascii") if isinstance(body, bytes) else body, encoding="cp1251",
                    keep_blank_values=True)


def posted(http):
    return [cp1251_form(c) for c in http.calls if c.request.method == "POST"]


def api_answer(http, items=None, name="s-api-post-get.SYNTHETIC.json", **params):
    body = json.dumps({"response": items}) if items is not None else page("mybbru", name)
    match = [responses.matchers.query_param_matcher(params, strict_match=False)] if params else []
    http.add("GET", U + "api.php", body=body, content_type="application/json", headers=DATE, match=match)


def tree_of(name: str) -> etree._Element:
    return etree.fromstring(page("mybbru", name).decode("cp1251").encode("utf-8"), etree.HTMLParser(encoding="utf-8"))


# --- the profile is PunBB's where the markup is the same ----------------------------------------------------


def test_mybbru_shares_punbbs_forms_urls_and_login_marks():
    """issue 9 item 2/3: one set of form and URL selectors, proven live on FluxBB, serves both engines."""
    assert MYBBRU.forms["login"] == PUNBB.forms["login"]
    for name in ("login", "topic", "topic_page", "post_page", "reply"):
        assert MYBBRU.urls[name] == PUNBB.urls[name]
    assert MYBBRU.selectors["logged_in"] == PUNBB.selectors["logged_in"] and MYBBRU.pagination == PUNBB.pagination
    assert "selectors.post" in MYBBRU.unverified and "flows.pm" in MYBBRU.unverified and not PUNBB.unverified


def test_every_unverified_name_is_a_profile_name():
    assert MYBBRU.unknown_unverified() == []


# --- login (real pages) -----------------------------------------------------------------------------------


def test_login_over_the_real_form_and_its_200_redirect_answer(forum, http):
    serve(http, "GET", "login.php", "b-login-form-ru.clanboard.REAL-TRIMMED.html", ctype=UTF8)
    serve(http, "POST", "login.php?action=in", "b-login-answer-success-ru.clanboard.REAL.html", ctype=UTF8,
          headers={"Set-Cookie": "mybb_ru=abc123; path=/"})
    forum.login()
    body = posted(http)[0]
    assert body["req_username"] == ["GMBot"] and body["req_password"] == ["short-pass-16ch"]
    assert body["form_sent"] == ["1"] and "login" in body and body["redirect_url"] == [""]


def test_login_refuses_a_password_longer_than_the_forms_16(clock, http):
    forum = MybbruForum(U, "GMBot", "x" * 17, clock=clock, sleep=clock.sleep)
    serve(http, "GET", "login.php", "b-login-form-ru.clanboard.REAL-TRIMMED.html", ctype=UTF8)
    with pytest.raises(LoginRequired, match="at most 16") as err:
        forum.login()
    assert "x" * 17 not in str(err.value)  # the password is never shown
    assert not posted(http)


# --- reply with the anti-bot step (real page) --------------------------------------------------------------


def test_antibot_reads_the_real_pages_formetc_field():
    """The last two statements of the real script are whole: their field decodes as a browser would."""
    src = page("mybbru", "c-reply-form-post.php-ru-cp1251.clanboard.REAL-TRIMMED.html").decode("cp1251")
    encoded = src.split("getElementById('formetc').innerHTML=unescape('")[1].split("'")[0]
    assert js_unescape(encoded.replace("P", "%")) == '<input type="hidden" name="4c54bb27" value="">'
    fields = antibot_fields(tree_of("c-reply-form-antibot-completed.SYNTHETIC.html"))
    assert ("4c54bb27", "6f605897") in fields


def test_antibot_follows_the_concatenation_chain_past_the_decoy():
    fields = antibot_fields(tree_of("c-reply-form-antibot-completed.SYNTHETIC.html"))
    assert fields == [("a7f3c9e1", "d41d8cd9"), ("4c54bb27", "6f605897")]


def test_antibot_follows_the_real_pages_whole_script_past_its_decoy_chain():
    """The real line whole (issue 28 item 3): 16 elements, seven pieces read into one chain, a second chain of junk
    built beside it and never written, two lookups left unused; the field is the real chain's."""
    fields = antibot_fields(tree_of("c-reply-form-antibot-whole.clanboard.REAL-TRIMMED.html"))
    assert fields == [("a2be09e1", "18a2177da88f8750a1caa29d158a00c25c7867ac"), ("4c54bb27", "6f605897")]


def test_antibot_junk_written_into_a_box_is_no_crash():
    """Junk bytes (control characters among them) written into #formkey, as the real page's decoy chain would be if
    a changed script wrote it: a browser keeps them as text, the evaluator drops them and finds no field there."""
    src = page("mybbru", "c-reply-form-antibot-whole.clanboard.REAL-TRIMMED.html").decode("cp1251")
    decoy_written = src.replace("unescape(mrZltvz.", "unescape(('P01P1F'+UdbjOnw).")
    tree = etree.fromstring(decoy_written.encode("utf-8"), etree.HTMLParser(encoding="utf-8"))
    assert antibot_fields(tree) == [("4c54bb27", "6f605897")]


def test_antibot_names_what_it_could_not_follow_on_the_shortened_real_script():
    with pytest.raises(AntibotError, match="HDcBNsqyr"):
        antibot_fields(tree_of("c-reply-form-post.php-ru-cp1251.clanboard.REAL-TRIMMED.html"))


def test_a_page_without_the_antibot_script_adds_nothing():
    assert antibot_fields(tree_of("a-viewtopic-ru-cp1251.RECONSTRUCTED.html")) == []


def test_reply_sends_the_antibot_fields_in_windows_1251(forum, http):
    serve(http, "GET", "post.php?tid=22", "c-reply-form-antibot-completed.SYNTHETIC.html")
    serve(http, "POST", "post.php?action=post&tid=22", "s-reply-result.SYNTHETIC.html")
    assert forum.reply("22", "Голосую: Дэйв 🙂") == "230"
    body = posted(http)[0]
    assert body["req_message"] == ["Голосую: Дэйв &#128578;"]  # cp1251 lacks the emoji: a character reference
    assert body["a7f3c9e1"] == ["d41d8cd9"] and body["4c54bb27"] == ["6f605897"]
    assert body["form_sent"] == ["1"] and body["form_user"] == ["tx"] and "submit" in body


def test_reply_over_a_script_it_cannot_follow_posts_nothing(forum, http):
    serve(http, "GET", "post.php?tid=22", "c-reply-form-post.php-ru-cp1251.clanboard.REAL-TRIMMED.html")
    with pytest.raises(PageFormatChanged, match="HDcBNsqyr"):
        forum.reply("22", "текст")
    assert not posted(http)


def test_reply_flood_is_flood_limited(forum, http):
    serve(http, "GET", "post.php?tid=22", "c-reply-form-antibot-completed.SYNTHETIC.html")
    serve(http, "POST", "post.php?action=post&tid=22", "s-reply-flood.SYNTHETIC.html")
    forum.transport.max_wait = 0
    with pytest.raises(FloodLimited) as err:
        forum.reply("22", "текст")
    assert err.value.retry_after == 30.0


# --- reading through api.php ---------------------------------------------------------------------------------


def test_api_read_gives_exact_times_and_stripped_text(forum, http):
    api_answer(http, method="post.get", topic_id="22", sort_by="id", limit=str(API_LIMIT), skip="0")
    got, cursor = forum.fetch_posts("22")
    assert [p.id for p in got] == ["300", "301", "305", "306"]
    vote = got[2]
    assert vote.author == "Борис" and vote.author_id == "23"
    assert vote.text == "Голосую: Дэйв" and vote.quoted  # quote and spoiler removed
    assert vote.posted_at == datetime.fromtimestamp(1764407520, timezone.utc) and vote.posted_latest is None
    assert vote.edited_at == datetime.fromtimestamp(1764408001, timezone.utc)
    assert got[1].text == "Ночь 2 окончена.\nУбит(а): Кэрол." and "<strong>" in got[1].html
    assert got[3].author == "Дэйв & Ко" and got[3].edited_at is None
    assert json.loads(cursor)["n"] == 4 and json.loads(cursor)["last"] == 306
    assert len(http.calls) == 1


def test_api_pages_by_skip_until_a_short_answer(forum, http):
    def items(start, count):
        return [{"id": str(i), "username": "Борис", "user_id": "23", "message": "&lt;p&gt;текст&lt;/p&gt;",
                 "posted": str(1764400000 + i), "edited": "0"} for i in range(start, start + count)]
    api_answer(http, items(1, 100), skip="0")
    api_answer(http, items(101, 100), skip="100")
    api_answer(http, items(201, 7), skip="200")
    got, cursor = forum.fetch_posts("22")
    assert len(got) == 207 and json.loads(cursor)["n"] == 207
    skips = [parse_qs(c.request.url.split("?", 1)[1])["skip"] for c in http.calls]
    assert skips == [["0"], ["100"], ["200"]]
    # idle: one request from the last post seen
    before = len(http.calls)
    api_answer(http, items(207, 1), skip="206")
    again, _ = forum.fetch_posts("22", cursor)
    assert [p.id for p in again] == ["207"] and len(http.calls) == before + 1


def test_api_error_falls_back_to_the_html_pages(forum, http):
    api_answer(http, name="s-api-error.SYNTHETIC.json")
    serve(http, "GET", "viewtopic.php?id=22&p=2", "s-viewtopic-last-page.SYNTHETIC.html")
    got, cursor = forum.fetch_posts("22", json.dumps({"n": 16, "last": 301, "pp": 15}))
    by_id = {p.id: p for p in got}
    assert sorted(by_id) == ["301", "305", "306"]
    vote = by_id["305"]
    assert vote.author == "Борис" and vote.author_id == "23" and vote.text == "Голосую: Дэйв" and vote.quoted
    assert "Подпись" not in by_id["301"].text and "Я бот." not in by_id["301"].text
    # "Сегодня 10:12:00" Moscow on 29.11.2026, exact to the second; the edit notice "(Сегодня 10:20:01)"
    assert vote.posted_at == datetime(2026, 11, 29, 7, 12, tzinfo=timezone.utc) and vote.posted_latest is None
    assert vote.edited_at == datetime(2026, 11, 29, 7, 20, 1, tzinfo=timezone.utc)
    assert by_id["306"].author == ""  # a guest: no profile link
    assert json.loads(cursor)["last"] == 306


def test_an_empty_api_answer_for_a_topic_reads_the_pages(forum, http):
    """A hidden forum the session does not open answers nothing rather than an error (unverified)."""
    api_answer(http, items=[])
    serve(http, "GET", "viewtopic.php?id=22&p=2", "s-viewtopic-last-page.SYNTHETIC.html")
    got, _ = forum.fetch_posts("22", json.dumps({"n": 16, "last": 301, "pp": 15}))
    assert {p.id for p in got} == {"301", "305", "306"}


@pytest.mark.parametrize("nesting", ["under a key", "keyed by id"])
def test_a_nested_api_answer_is_read_the_same(forum, http, nesting):
    """post.get's posts are the array `response` (§3, every public userscript); an answer nesting them (unverified
    for post.get, tolerated: flows.api_nesting) is read the same, not taken for no posts."""
    flat = json.loads(page("mybbru", "s-api-post-get.SYNTHETIC.json"))["response"]
    nested = {"posts": flat} if nesting == "under a key" else {i["id"]: i for i in flat}
    http.add("GET", U + "api.php", body=json.dumps({"response": nested}), content_type="application/json",
             headers=DATE)
    got, _ = forum.fetch_posts("22")
    assert [p.id for p in got] == [i["id"] for i in flat] and "flows.api_nesting" in MYBBRU.unverified


def test_an_api_item_without_its_time_reads_the_pages_not_a_traceback(forum, http):
    api_answer(http, items=[{"id": "305", "username": "Борис", "message": "x"}])
    serve(http, "GET", "viewtopic.php?id=22&p=2", "s-viewtopic-last-page.SYNTHETIC.html")
    got, _ = forum.fetch_posts("22", json.dumps({"n": 16, "last": 301, "pp": 15}))
    assert {p.id for p in got} == {"301", "305", "306"}


def test_reread_through_the_api_from_a_post(forum, http):
    api_answer(http, skip="0")
    got = forum.reread_from("22", "301")
    assert [p.id for p in got] == ["301", "305", "306"]


# --- PMs through messages.php (PunBB 1.2 markup, unverified) -------------------------------------------------


def test_inbox_reads_each_new_message(forum, http):
    serve(http, "GET", "messages.php", "s-messages-inbox.SYNTHETIC.html")
    serve(http, "GET", "messages.php?id=409", "s-messages-view-409.SYNTHETIC.html")
    serve(http, "GET", "messages.php?id=412", "s-messages-view-412.SYNTHETIC.html")
    pms, cursor = forum.fetch_pms(None)
    assert [(p.id, p.author, p.subject) for p in pms] == [("409", "Кэрол", "Вопрос"), ("412", "Борис", "Ход ночи")]
    assert pms[1].text == "проверяю Дэйв" and pms[1].author_id == "23"  # no signature
    assert pms[0].text == "Когда конец дня?"  # the quote removed
    assert pms[1].sent_at == datetime(2026, 11, 29, 7, 12, tzinfo=timezone.utc)
    pms2, _ = forum.fetch_pms(cursor)
    assert pms2 == []


def test_inbox_served_as_the_login_form_is_login_required(clock, http):
    forum = MybbruForum(U, "GMBot", None, clock=clock, sleep=clock.sleep)
    serve(http, "GET", "messages.php", "b-login-form-ru.clanboard.REAL-TRIMMED.html", ctype=UTF8)
    with pytest.raises(LoginRequired):
        forum.fetch_pms(None)


def test_send_pm_through_messages_php(forum, http):
    serve(http, "GET", "messages.php?action=new", "s-messages-compose.SYNTHETIC.html")
    serve(http, "POST", "messages.php?action=send", "s-pm-sent-result.SYNTHETIC.html")
    assert forum.send_pm("Борис", "Роль", "Ваша роль: Мирный.") == "416"
    body = posted(http)[0]
    assert body["req_username"] == ["Борис"] and body["req_subject"] == ["Роль"]
    assert body["req_message"] == ["Ваша роль: Мирный."] and body["form_user"] == ["GMBot"]


def test_find_own_pm_in_the_sent_folder(forum, http):
    serve(http, "GET", "messages.php?box=1", "s-messages-sentbox.SYNTHETIC.html")
    serve(http, "GET", "messages.php?id=415", "s-messages-view-415.SYNTHETIC.html")
    assert forum.find_own_pm("Борис", "[m:ab12]") == "415"
    assert forum.find_own_pm("Борис", "[m:zz99]") is None
    assert all("id=414" not in c.request.url for c in http.calls)  # the PM to Кэрол is not opened


def test_find_own_post_on_the_last_page(forum, http):
    http.add("GET", U + "viewtopic.php", status=302, headers={"Location": U + "viewtopic.php?id=22&p=2"},
             match=[responses.matchers.query_param_matcher({"id": "22", "action": "last"})])
    serve(http, "GET", "viewtopic.php?id=22&p=2", "s-viewtopic-last-page.SYNTHETIC.html")
    assert forum.find_own_post("22", "Ночь 2 окончена") == "301"


def test_api_requests_carry_the_session_cookie_for_hidden_forums(forum, http):
    serve(http, "GET", "login.php", "b-login-form-ru.clanboard.REAL-TRIMMED.html", ctype=UTF8)
    serve(http, "POST", "login.php?action=in", "b-login-answer-success-ru.clanboard.REAL.html", ctype=UTF8,
          headers={"Set-Cookie": "mybb_ru=abc123; path=/"})
    api_answer(http, skip="0")
    forum.login()
    forum.fetch_posts("22")
    api_call = next(c for c in http.calls if "api.php" in c.request.url)
    assert "mybb_ru=abc123" in api_call.request.headers.get("Cookie", "")
