"""Issue 10 items 1 and 4 (XenForo 2): every flow over `responses`, on the saved and synthesized pages
(fixtures/xenforo/README.md) and JSON answers shaped as XF\\Mvc\\Renderer\\Json writes them. Login, reply and
conversations have no real page: they are `unverified` in the profile, and these tests pin what the adapter does
with XenForo's documented answers."""

from __future__ import annotations

import json
import logging
from urllib.parse import parse_qsl

import pytest

from adapters.xenforo.profile import XENFORO
from adapters.xenforo.forum import XenforoForum
from adapters_support import FIXTURES
from forumbot.errors import FloodLimited, FormRejected, LoginRequired

BASE = "https://xf.test/community/"

BOT = "МафБот"
TOKEN = "1796119200,abcdef0123456789"  # html[data-csrf] of the S-*.html pages
E_TOKEN = "1796119200,8861046cc640e2b46ee35d0797e7631b"  # of E-conversations-list-xf22.html
HTML = "text/html; charset=utf-8"


def serve(http, path: str, name: str, method: str = "GET") -> None:
    http.add(method, BASE + path, body=(FIXTURES / "xenforo" / name).read_bytes(), content_type=HTML)


def answer(http, path: str, body: dict, status: int = 200, **kw) -> None:
    http.add("POST", BASE + path, body=json.dumps(body, ensure_ascii=False), status=status,
             content_type="application/json; charset=utf-8", **kw)


def form(call) -> dict[str, str]:
    body = call.request.body
    return dict(parse_qsl(body.decode() if isinstance(body, bytes) else body))


def posts_to(http, path: str) -> list:
    return [c for c in http.calls if c.request.method == "POST" and c.request.url == BASE + path]


@pytest.fixture
def forum(clock):
    return XenforoForum(BASE, BOT, "секрет-pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


# --- login ----------------------------------------------------------------------------------------------------


def test_login_sends_the_page_csrf_as_xftoken_and_reads_the_json_answer(http, forum, caplog):
    caplog.set_level(logging.DEBUG)
    serve(http, "login/", "S-login-ru.html")
    answer(http, "login/login", {"status": "ok", "message": "", "redirect": BASE},
           headers={"Set-Cookie": "xf_user=1%2Cabc; Path=/"})
    forum.login()
    (call,) = posts_to(http, "login/login")
    sent = form(call)
    assert sent["_xfToken"] == TOKEN and sent["_xfResponseType"] == "json"
    assert (sent["login"], sent["password"], sent["remember"]) == (BOT, "секрет-pw", "1")
    assert "секрет-pw" not in caplog.text


def test_login_refused_is_login_required_naming_the_forum_answer(http, forum):
    serve(http, "login/", "S-login-ru.html")
    answer(http, "login/login", {"status": "error", "errors": ["Неверный пароль. Пожалуйста, попробуйте ещё раз."]}, 400)
    with pytest.raises(LoginRequired, match="Неверный пароль"):
        forum.login()


def test_login_two_step_is_login_required_saying_what_to_switch_off(http, forum):
    serve(http, "login/", "S-login-ru.html")
    answer(http, "login/login", {"status": "ok", "redirect": BASE + "login/two-step?_xfRedirect=x"})
    with pytest.raises(LoginRequired, match="two-step"):
        forum.login()


def test_login_when_already_logged_in_posts_nothing(http, forum):
    serve(http, "login/", "E-conversations-list-xf22.html")  # any logged-in page
    forum.login()
    assert posts_to(http, "login/login") == []


# --- reply ----------------------------------------------------------------------------------------------------


def test_reply_posts_bbcode_with_token_and_returns_the_post_id_from_the_redirect(http, forum):
    serve(http, "threads/mafiya-igra-1.101/", "S-thread-ru-loggedin-page2.html")  # the thread's own URL: no redirect
    answer(http, "threads/101/add-reply", {"status": "ok", "message": "Ваше сообщение опубликовано.",
                                           "redirect": BASE + "posts/5099/"})
    assert forum.reply(BASE + "threads/mafiya-igra-1.101/", "[b]Итоги[/b] дня") == "5099"
    (call,) = posts_to(http, "threads/101/add-reply")
    sent = form(call)
    assert sent["message"] == "[b]Итоги[/b] дня" and sent["_xfToken"] == TOKEN and sent["_xfResponseType"] == "json"
    assert "message_html" not in sent  # an empty rich-editor field would win over `message`


def test_reply_flood_error_in_the_json_answer_is_waited_out_and_sent_once_more(http, forum, clock):
    serve(http, "threads/101/", "S-thread-ru-loggedin-page2.html")
    flood = {"status": "error", "errors": ["You must wait at least 12 seconds before performing this action."]}
    answer(http, "threads/101/add-reply", flood, 400)
    answer(http, "threads/101/add-reply", {"status": "ok", "redirect": BASE + "posts/5100/"})
    assert forum.reply("101", "голосование закрыто") == "5100"
    assert len(posts_to(http, "threads/101/add-reply")) == 2
    assert any(s >= 12 for s in clock.sleeps)  # the wait the forum named


def test_reply_russian_flood_error_beyond_the_wait_budget_is_flood_limited_with_retry_after(http, forum):
    serve(http, "threads/101/", "S-thread-ru-loggedin-page2.html")
    flood = {"status": "error", "errors": ["Вы должны подождать как минимум 600 сек. перед выполнением этого действия."]}
    answer(http, "threads/101/add-reply", flood, 400)
    with pytest.raises(FloodLimited) as e:
        forum.reply("101", "текст")
    assert e.value.retry_after == 600
    assert len(posts_to(http, "threads/101/add-reply")) == 1  # a refused post posted nothing: not resent now


def test_reply_security_error_reads_the_thread_again_and_resends_once(http, forum):
    serve(http, "threads/101/", "S-thread-ru-loggedin-page2.html")
    answer(http, "threads/101/add-reply", {"status": "error", "errors": [
        "Security error occurred. Please press back, refresh the page, and try again."]}, 400)
    answer(http, "threads/101/add-reply", {"status": "ok", "redirect": BASE + "threads/mafiya-igra-1.101/post-5101"})
    assert forum.reply("101", "текст") == "5101"
    reads = [c for c in http.calls if c.request.method == "GET"]
    assert len(reads) == 2  # the token before the first send, and a fresh one before the second


def test_reply_after_the_session_expired_logs_in_and_posts(http, forum):
    serve(http, "threads/101/", "S-thread-ru-loggedin-page2.html")
    serve(http, "login/", "S-login-ru.html")
    answer(http, "threads/101/add-reply", {"status": "error", "errors": ["You must be logged-in to do that."]}, 403)
    answer(http, "login/login", {"status": "ok", "redirect": BASE})
    answer(http, "threads/101/add-reply", {"status": "ok", "redirect": BASE + "posts/5102/"})
    assert forum.reply("101", "текст") == "5102"


def test_reply_held_for_moderation_is_refused_not_counted_as_sent(http, forum):
    serve(http, "threads/101/", "S-thread-ru-loggedin-page2.html")
    answer(http, "threads/101/add-reply", {"status": "ok", "message": "Ваше сообщение будет видно после проверки.",
                                           "redirect": BASE + "threads/mafiya-igra-1.101/"})
    with pytest.raises(FormRejected, match="после проверки"):
        forum.reply("101", "текст")


# Reading threads and conversations, the idle inbox and find_own_pm: tests/emulators/xenforo/ (the emulator),
# since issue 18 replaced the invented fake board and conversation pages these tests used.


def serve_compose(http) -> None:
    serve(http, "conversations/", "E-conversations-list-xf22.html")  # the route the board serves, read once


def test_send_pm_starts_a_conversation_and_returns_its_id(http, forum):
    serve_compose(http)
    answer(http, "conversations/add", {"status": "ok", "redirect": BASE + "conversations/vasha-rol.303/"})
    assert forum.send_pm("Дон, Маф1", "Ваша роль", "Вы мафия.\n\n#fb:0badf00d") == "303"
    sent = form(posts_to(http, "conversations/add")[0])
    assert (sent["recipients"], sent["title"], sent["_xfToken"]) == ("Дон, Маф1", "Ваша роль", E_TOKEN)
    assert sent["message"].endswith("#fb:0badf00d")


def test_send_pm_to_an_unknown_member_is_refused_naming_him(http, forum):
    serve_compose(http)
    answer(http, "conversations/add", {"status": "error", "errors": {
        "recipients": "The following recipients could not be found: Никто."}}, 400)
    with pytest.raises(FormRejected, match="no such user.*Никто"):
        forum.send_pm("Никто", "Роль", "текст")


def test_send_pm_flood_is_flood_limited(http, forum):
    serve_compose(http)
    flood = {"status": "error", "errors": ["You must wait at least 900 seconds before performing this action."]}
    answer(http, "conversations/add", flood, 400)
    with pytest.raises(FloodLimited):
        forum.send_pm("Дон", "Роль", "текст")


def test_profile_says_what_is_unverified():
    assert {"flows.login", "flows.reply", "flows.pm", "selectors.edit_notice"} <= XENFORO.unverified
    assert "selectors.post" not in XENFORO.unverified and "selectors.time" not in XENFORO.unverified


def test_pages_from_a_logged_out_session_are_login_required(http, forum):
    serve(http, "conversations/", "S-login-ru.html")
    with pytest.raises(LoginRequired):
        XenforoForum(BASE, BOT, None).fetch_pms()


def test_the_daemon_builds_it_from_a_forum_table_without_logging_the_password():
    from forumbot.config.types import ForumConfig
    from forumbot.forum.registry import adapter_factory
    from forumbot.cycle.daemon import build_adapter
    forum = ForumConfig(name="xf", engine="adapters.xenforo.forum:XenforoForum", login=BOT, base_url=BASE,
                        password_env="XF_PW", extra={"timezone_name": "Europe/Moscow", "max_wait": 60})
    adapter = build_adapter(forum, {"XF_PW": "секрет"})
    assert isinstance(adapter, XenforoForum) and adapter_factory("adapters.xenforo.forum:XenforoForum") is XenforoForum
    assert (adapter.username, str(adapter.tz), adapter.transport.max_wait) == (BOT, "Europe/Moscow", 60)
    assert "секрет" not in repr(adapter)


def test_issue28_item5_threads_without_friendly_urls_name_the_base_url_to_set():
    """ENGINES.md §12: a board without friendly URLs serves `index.php?threads/...`; with base_url lacking
    `index.php?` the login went to `login/` and said only «no html[data-csrf] on login/». check-config, game
    start and tick now name the base_url to set."""
    thread = "https://xf.example/forum/index.php?threads/mafia-day-1.5/"
    assert str(XenforoForum.thread_problem(thread, "https://xf.example/forum/")) == (
        f"{thread!r} is a thread of a board without friendly URLs: set the forum's base_url to "
        "'https://xf.example/forum/index.php?', which the bot adds every route to")
    assert XenforoForum.thread_problem(thread, "https://xf.example/forum/index.php?") is None
    assert XenforoForum.thread_problem("https://xf.example/forum/threads/mafia-day-1.5/",
                                       "https://xf.example/forum/") is None
