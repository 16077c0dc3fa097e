"""FlaskBB 3.0 (+ conversations) adapter over pages saved from a real forum (fixtures/flaskbb/README.md)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
import requests

from adapters.html.extract import extract_posts, page_info
from adapters.flaskbb.forum import FlaskbbForum
from adapters.html import hooks
from adapters.html.hooks import Context
from adapters.html.dom import find_form, select
from adapters.flaskbb.profile import FLASKBB
from adapters_support import FIXTURES, HTML, add_page, form_body, page
from forumbot.forum.adapter import ForumAdapter
from forumbot.errors import FormRejected, ForumUnavailable, LoginRequired
from forumbot.markup import escape_markdown
from forumbot.forum.http_page import Page
from forumbot.forum.transport import Transport

URL = "http://127.0.0.1:8083/"
TOPIC = URL + "topic/2-mafiia-1-igrovaia-tema"


def tree(name: str):
    return Page(url=URL, status=200, headers={}, content=page("flaskbb", name), charset="utf-8").tree()


def forum(clock, password: str | None = "forumbot-pass-123") -> FlaskbbForum:
    transport = Transport(URL, bot="forumbot", clock=clock, sleep=clock.sleep, retries=1, backoff=0.01)
    return FlaskbbForum(URL, "forumbot", password, transport=transport)


def serve(http, path: str, name: str, method: str = "GET", **kw) -> None:
    add_page(http, method, URL + path, "flaskbb", name, **kw)


def redirect(http, path: str, location: str, method: str = "POST") -> None:
    http.add(method, URL + path, status=302, headers={"Location": location}, body=b"", content_type=HTML)


# --- the profile on every saved page -----------------------------------------------------------------------


def test_every_selector_matches_on_some_saved_page():
    trees = [tree(p.name) for p in sorted((FIXTURES / "flaskbb").glob("*.html"))]
    selectors = [*FLASKBB.selectors.items(), *((f"strip[{i}]", s) for i, s in enumerate(FLASKBB.strip)),
                 *((f"forms.{n}", f.selector) for n, f in FLASKBB.forms.items())]
    dead = [name for name, css in selectors if not any(select(t, css) for t in trees)]
    assert dead == []
    for name, spec in FLASKBB.forms.items():
        assert any(find_form(t, spec.selector, spec.needs) is not None for t in trees), name
    assert all(getattr(hooks, h.__name__) is h for h in FLASKBB.hooks.values())
    assert isinstance(FlaskbbForum(URL, "forumbot"), ForumAdapter)


def posts(name: str):
    ctx = Context(FLASKBB, timezone.utc, datetime(2026, 11, 29, 14, tzinfo=timezone.utc))
    return {p.id: p for p in extract_posts(tree(name), FLASKBB, ctx, "2")}


def test_posts_with_edits_quotes_code_markdown_and_signatures():
    page1 = posts("20_topic_page1.html")
    assert list(page1) == [str(i) for i in range(2, 12)]
    first, edited, quoting, code, formatted = (page1[str(i)] for i in range(2, 7))
    assert (first.author, first.author_id) == ("gm", None)
    assert first.posted_at == datetime(2026, 11, 29, 13, 10, 3, 885099, tzinfo=timezone.utc)
    assert first.text == "День 1 начинается. Удачи!" and "<strong>" in first.html
    assert edited.edit_count == 1 and edited.edited_at == datetime(2026, 11, 29, 13, 10, 8, 21736, tzinfo=timezone.utc)
    assert edited.text == "Всем привет! Голосую позже. (исправлено)"  # alice's signature is gone
    assert "Подпись" in edited.html and "Подпись" not in edited.text
    assert quoting.text == "Цитата выше, а это мой текст."
    assert [p.id for p in page1.values() if p.quoted] == ["4"]  # the quote is gone and marked (H-3, M-7)
    assert code.text == "Код:\nКонец поста." and "kill alice" in code.html
    assert formatted.text == "bob курсив и ссылка"
    assert first.edit_count == 0 and first.edited_at is None


def test_pages_know_whether_another_follows():
    assert page_info(tree("20_topic_page1.html"), FLASKBB, 1).has_next is True
    assert page_info(tree("21_topic_page2.html"), FLASKBB, 2).has_next is True
    assert page_info(tree("22_topic_page3_last.html"), FLASKBB, 3).has_next is False
    # the page saved by the team's own recipe run reads the same way
    shared = posts("shared_flaskbb-topic.html")
    assert len(shared) == 10 and shared["3"].edit_count == 1


# --- login ---------------------------------------------------------------------------------------------------


def test_login_posts_the_form_with_its_csrf_token(http, clock):
    serve(http, "auth/login", "01_login_page.html")
    redirect(http, "auth/login", "/")
    forum(clock).login()
    body = form_body(http.calls[-1])
    assert body["login"] == ["forumbot"] and body["password"] == ["forumbot-pass-123"]
    assert body["csrf_token"][0].startswith("Ij") and body["remember_me"] == ["y"] and "submit" in body


def test_wrong_password_is_login_required(http, clock):
    serve(http, "auth/login", "01_login_page.html")
    serve(http, "auth/login", "02_login_failed.html", method="POST")
    with pytest.raises(LoginRequired, match="Wrong username or password"):
        forum(clock).login()


def test_an_expired_session_logs_in_once_and_reads_again(http, clock):
    http.add("GET", URL + "conversations/", status=302, headers={"Location": "/auth/login?next=%2Fconversations%2F"})
    serve(http, "conversations/", "36_inbox_after_reading.html")
    serve(http, "auth/login?next=/conversations/", "01_login_page.html")
    serve(http, "auth/login", "01_login_page.html")
    redirect(http, "auth/login", "/")
    cursor = json.dumps({"c": {"6": ["2026-11-29T13:10:10.552344+00:00", 8],
                               "4": ["2026-11-29T13:10:10.364339+00:00", 7],
                               "1": ["2026-11-29T13:10:10.176534+00:00", 4]}})
    assert forum(clock).fetch_pms(cursor)[0] == []
    assert [c.request.method for c in http.calls] == ["GET", "GET", "GET", "POST", "GET"]


def test_without_a_password_an_expired_session_is_login_required(http, clock):
    http.add("GET", URL + "conversations/", status=302, headers={"Location": "/auth/login?next=%2Fconversations%2F"})
    serve(http, "auth/login?next=/conversations/", "01_login_page.html")
    with pytest.raises(LoginRequired):
        forum(clock, password=None).fetch_pms()


# --- topics --------------------------------------------------------------------------------------------------


def topic_pages(http) -> None:
    serve(http, "topic/2", "20_topic_page1.html")
    serve(http, "topic/2?page=2", "21_topic_page2.html")
    serve(http, "topic/2?page=3", "22_topic_page3_last.html")


def test_incremental_reading_reads_only_pages_that_can_hold_new_posts(http, clock):
    topic_pages(http)
    f = forum(clock)
    first, cursor = f.fetch_posts(TOPIC)
    assert [p.id for p in first] == [str(i) for i in range(2, 27)] and len(http.calls) == 3
    assert {p.topic for p in first} == {TOPIC}  # filed under the thread as configured
    again, cursor2 = f.fetch_posts(TOPIC, cursor)
    # nothing new; the last page's posts come back as they are now, so an edit would be seen (C-11)
    assert [p.id for p in again] == [p.id for p in first[20:]]
    assert len(http.calls) == 4 and http.calls[-1].request.url.endswith("page=3")
    assert json.loads(cursor2)["last"] == 26


def test_reply_returns_the_new_post_id(http, clock):
    serve(http, "topic/2/post/new", "10_reply_form.html")
    redirect(http, "topic/2/post/new", "/post/27")
    assert forum(clock).reply(TOPIC, "Итоги дня 1.\n\n#fb:00000001") == "27"
    body = form_body(http.calls[-1])
    assert body["content"] == ["Итоги дня 1.\n\n#fb:00000001"] and body["csrf_token"][0]


def test_rejected_reply_is_form_rejected_with_the_reason(http, clock):
    serve(http, "topic/2/post/new", "10_reply_form.html")
    serve(http, "topic/2/post/new", "12_reply_rejected_empty.html", method="POST")
    with pytest.raises(FormRejected, match="without content"):
        forum(clock).reply(TOPIC, "")


def test_reply_without_a_session_is_login_required(http, clock):
    http.add("GET", URL + "topic/2/post/new", status=302, headers={"Location": "/auth/login?next=%2Ftopic%2F2"})
    serve(http, "auth/login?next=/topic/2", "01_login_page.html")
    with pytest.raises(LoginRequired):
        forum(clock, password=None).reply(TOPIC, "x")


def test_find_own_post_looks_at_the_last_pages(http, clock):
    topic_pages(http)
    f = forum(clock)
    assert f.find_own_post(TOPIC, "#fb:0123abcd") == "26"
    assert f.find_own_post(TOPIC, "#fb:ffffffff") is None


# --- conversations -------------------------------------------------------------------------------------------


def test_pms_are_the_other_users_messages_of_changed_conversations(http, clock):
    serve(http, "conversations/", "33_inbox.html")
    serve(http, "conversations/6/view", "35_conversation_from_player.html")
    serve(http, "conversations/1/view", "34_conversation_role_pm_answered.html")
    # conversation 4 was read by an earlier cycle (its last message time is in the cursor)
    before = json.dumps({"c": {"4": ["2026-11-29T13:10:10.364339+00:00", 7]}})
    pms, cursor = forum(clock).fetch_pms(before)
    assert [(p.id, p.author, p.text, p.subject) for p in pms] == [
        ("4", "alice", "подтверждаю", "Мафия #1"),  # an answer inside the bot's role PM; the bot's own is left out
        ("8", "carol", "принял", "Вопрос"),  # a new conversation; the quote is gone
    ]
    assert pms[0].sent_at == datetime(2026, 11, 29, 13, 10, 10, 176534, tzinfo=timezone.utc)
    assert [c.request.url for c in http.calls][-2:] == [URL + "conversations/6/view", URL + "conversations/1/view"]
    # the next cycle: nothing changed, one request; ids already taken are never handed out again
    http.replace("GET", URL + "conversations/", body=page("flaskbb", "36_inbox_after_reading.html"),
                 content_type=HTML)
    n = len(http.calls)
    again, cursor2 = forum(clock).fetch_pms(cursor)
    assert again == [] and len(http.calls) == n + 1 and json.loads(cursor2) == json.loads(cursor)


def test_a_read_conversation_with_a_new_message_is_read_again(http, clock):
    """A crash after reading (which marks the conversation read) must not lose its messages."""
    serve(http, "conversations/", "36_inbox_after_reading.html")
    serve(http, "conversations/1/view", "34_conversation_role_pm_answered.html")
    cursor = json.dumps({"c": {"6": ["2026-11-29T13:10:10.552344+00:00", 8],
                               "4": ["2026-11-29T13:10:10.364339+00:00", 7],
                               "1": ["2026-11-29T13:10:09.472358+00:00", 1]}})
    pms, _ = forum(clock).fetch_pms(cursor)
    assert [(p.id, p.author) for p in pms] == [("4", "alice")]


def test_send_pm_starts_a_conversation_and_returns_its_id(http, clock):
    serve(http, "conversations/new", "30_new_conversation_form.html")
    redirect(http, "conversations/new", "/conversations/sent")
    serve(http, "conversations/sent", "37_sent.html")
    assert forum(clock).send_pm("alice", "Мафия #1", "Ваша роль: мирный.") == "1"
    body = form_body(http.calls[1])
    assert (body["to_user"], body["subject"], body["message"]) == (["alice"], ["Мафия #1"], ["Ваша роль: мирный."])
    assert "send_message" in body and body["csrf_token"][0]


def test_pm_to_an_unknown_user_is_rejected(http, clock):
    serve(http, "conversations/new", "30_new_conversation_form.html")
    serve(http, "conversations/new", "32_new_conversation_unknown_user.html", method="POST")
    with pytest.raises(FormRejected, match="no such user"):
        forum(clock).send_pm("nobody-here", "x", "y")


def test_a_full_message_quota_is_rejected(http, clock):
    serve(http, "conversations/new", "30_new_conversation_form.html")
    redirect(http, "conversations/new", "/conversations/")
    serve(http, "conversations/", "38_new_conversation_quota_full.html")
    with pytest.raises(FormRejected, match="quota"):
        forum(clock).send_pm("alice", "x", "y")


def test_find_own_pm_opens_the_sent_conversations_to_that_player(http, clock):
    serve(http, "conversations/sent", "37_sent.html")
    serve(http, "conversations/1/view", "34_conversation_role_pm_answered.html")
    f = forum(clock)
    assert f.find_own_pm("alice", "#fb:1111aaaa") == "1"
    assert f.find_own_pm("alice", "#fb:99999999") is None
    assert f.find_own_pm("bob", "#fb:1111aaaa") is None


# --- the forum down ------------------------------------------------------------------------------------------


def test_server_errors_and_timeouts_are_forum_unavailable(http, clock):
    http.add("GET", URL + "topic/2", status=500, body=b"boom")
    with pytest.raises(ForumUnavailable, match="500"):
        forum(clock).fetch_posts(TOPIC)
    http.add("GET", URL + "conversations/", body=requests.exceptions.ReadTimeout("slow"))
    with pytest.raises(ForumUnavailable, match="ReadTimeout"):
        forum(clock).fetch_pms()
    serve(http, "topic/2/post/new", "10_reply_form.html")
    http.add("POST", URL + "topic/2/post/new", body=requests.exceptions.ReadTimeout("slow"))
    with pytest.raises(ForumUnavailable):
        forum(clock).reply(TOPIC, "x")  # not repeated: the outbox looks for the post first
    assert sum(c.request.method == "POST" for c in http.calls) == 1


def test_session_cookies_survive_a_new_process(clock):
    f = forum(clock)
    f.transport.session.cookies.set("session", "abc", domain="127.0.0.1", path="/")
    g = forum(clock)
    g.import_cookies(f.export_cookies())
    assert g.transport.session.cookies.get("session") == "abc"


def test_text_is_escaped_as_markdown():
    assert FlaskbbForum(URL, "forumbot").escape("**x** [a](http://e)") == escape_markdown("**x** [a](http://e)")


def test_a_captcha_on_the_login_form_is_captcha_required(http, clock):
    from forumbot.errors import CaptchaRequired

    serve(http, "auth/login", "S1_login_captcha.SYNTHETIC.html")
    with pytest.raises(CaptchaRequired):
        forum(clock).login()
