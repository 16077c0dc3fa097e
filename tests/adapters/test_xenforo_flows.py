"""Issue 10 items 1 and 4 (XenForo 2): every flow over `responses`, on the saved and synthesized pages
(fixtures/xenforo/README.md) and JSON answers shaped as XF\\Mvc\\Renderer\\Json writes them. Login, reply and
conversations have no real page: they are `unverified` in the profile, and these tests pin what the adapter does
with XenForo's documented answers."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from adapters.profiles import XENFORO
from adapters.xenforo import XenforoForum
from adapters_support import FIXTURES
from forumbot.errors import FloodLimited, FormRejected, LoginRequired

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from xenforo_board import BASE, Board, synthesized_pages  # noqa: E402

BOT = "МафБот"
TOKEN = "1796119200,abcdef0123456789"  # html[data-csrf] of the S-*.html pages
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
    serve(http, "login/", "S-conversations-list-ru.html")  # any logged-in page
    forum.login()
    assert posts_to(http, "login/login") == []


# --- reply ----------------------------------------------------------------------------------------------------


def test_reply_posts_bbcode_with_token_and_returns_the_post_id_from_the_redirect(http, forum):
    serve(http, "threads/101/", "S-thread-ru-loggedin-page2.html")
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


# --- reading a thread -------------------------------------------------------------------------------------------


@pytest.fixture
def board(http, clock):
    b = Board(BOT, "секрет-pw", clock)
    b.thread(101, "mafiya-igra-1", BASE + "threads/mafiya-igra-1.101/")
    b.install(http)
    return b


def test_fetch_posts_reads_every_page_then_only_the_last_page(board, forum, http, clock):
    from datetime import datetime, timezone
    url = BASE + "threads/mafiya-igra-1.101/"
    for i in range(45):
        board.add_post(url, f"Игрок{i % 5}", f"пост {i + 1}", datetime.fromtimestamp(clock() - 3600 + i, timezone.utc))
    posts, cursor = forum.fetch_posts(url)
    assert [p.text for p in posts] == [f"пост {i + 1}" for i in range(45)]
    assert {p.topic for p in posts} == {url}
    assert [path for _, path in board.requests] == ["threads/101/", "threads/101/page-2", "threads/101/page-3"]
    board.requests.clear()
    posts, cursor2 = forum.fetch_posts(url, after=cursor)
    assert board.requests == [("GET", "threads/101/page-3")]  # an idle thread costs one request
    assert [p.text for p in posts] == ["пост 41", "пост 42", "пост 43", "пост 44", "пост 45"]  # seen: for edits
    board.add_post(url, "Дон", "голос М1", datetime.fromtimestamp(clock(), timezone.utc))
    posts, _ = forum.fetch_posts(url, after=cursor2)
    assert posts[-1].text == "голос М1" and posts[-1].author == "Дон"


def test_find_own_post_finds_the_marker_on_the_last_page(board, forum, clock):
    from datetime import datetime, timezone
    url = BASE + "threads/mafiya-igra-1.101/"
    for i in range(30):
        board.add_post(url, "Игрок", f"пост {i}", datetime.fromtimestamp(clock(), timezone.utc))
    mine = board.add_post(url, BOT, "Итоги\n\n#fb:deadbeef", datetime.fromtimestamp(clock(), timezone.utc))
    assert forum.find_own_post(url, "#fb:deadbeef") == str(mine.id)
    assert forum.find_own_post(url, "#fb:00000000") is None


def test_reread_from_a_post_follows_the_redirect_to_its_page_and_the_next_links(board, forum, clock):
    from datetime import datetime, timezone
    url = BASE + "threads/mafiya-igra-1.101/"
    added = [board.add_post(url, "И", f"п{i}", datetime.fromtimestamp(clock(), timezone.utc)) for i in range(50)]
    posts = forum.reread_from(url, str(added[25].id))
    assert [p.id for p in posts] == [str(p.id) for p in added[20:]]  # page 2 (posts 21-40) and page 3


# --- conversations (PMs) ----------------------------------------------------------------------------------------


def serve_inbox(http) -> None:
    serve(http, "conversations/", "S-conversations-list-ru.html")
    serve(http, "conversations/301/", "S-conversation-view-ru.html")
    http.add("GET", BASE + "conversations/302/", body=_single_message_view(), content_type=HTML)


def _single_message_view() -> bytes:
    return synthesized_pages()["conversation-302"].encode("utf-8")


def test_fetch_pms_reads_changed_conversations_skipping_the_bots_own_messages(http, forum):
    serve_inbox(http)
    pms, cursor = forum.fetch_pms()
    assert [(p.id, p.author, p.subject, p.text) for p in pms] == [
        ("9002", "Дон", "Ваша роль", "подтверждаю"),
        ("9003", "Дон", "Ваша роль", "убить М2"),  # the quote of the bot's message is stripped
        ("9004", "Шериф", "Ход", "проверка Дон"),
    ]
    assert json.loads(cursor)["c"]["301"][1] == 9003


def cycle(forum, after):
    """What a daemon cycle asks of the adapter: the inbox, then the thread, idle: its last page only."""
    pms, cursor = forum.fetch_pms(after=after)
    forum.fetch_posts(BASE + "threads/mafiya-igra-1.101/", after=json.dumps({"n": 42, "last": 5041, "pp": 20}))
    return pms, cursor


def serve_page3(http) -> None:
    http.add("GET", BASE + "threads/101/page-3", body=synthesized_pages()["thread-page-3"].encode(), content_type=HTML)


def test_an_idle_inbox_check_costs_no_request_of_its_own(http, forum):
    """The check reads the thread page the cycle reads anyway (its conversations_unread is 0) and hands it on."""
    serve_inbox(http)
    serve_page3(http)  # conversations_unread: '0'
    _, cursor = cycle(forum, None)  # a new process: the conversation list is read
    before = len(http.calls)
    pms, again = cycle(forum, cursor)
    assert (pms, again) == ([], cursor)
    urls = [c.request.url.removeprefix(BASE) for c in http.calls[before:]]
    assert urls == ["threads/101/page-3"]  # the thread's last page, once: nothing else


def test_unread_conversations_on_the_early_page_mean_the_list_is_read(http, forum):
    serve_inbox(http)
    serve(http, "threads/101/page-2", "S-conversations-list-ru.html")  # a page showing conversations_unread: '1'
    forum.get("threads/101/page-2")
    _, cursor = forum.fetch_pms()
    forum._last_topic_page = "threads/101/page-2"
    before = len(http.calls)
    forum.fetch_pms(after=cursor)
    assert BASE + "conversations/" in [c.request.url for c in http.calls[before:]]


def test_the_unread_count_is_not_trusted_after_a_lost_answer_or_in_a_new_process(http, forum, clock):
    serve_inbox(http)
    serve_page3(http)  # conversations_unread: '0'
    _, cursor = cycle(forum, None)
    # the daemon did not store the last answer (a crash): it hands the older cursor in, though the board now
    # counts those conversations read
    before = len(http.calls)
    pms, _ = forum.fetch_pms(after=None)
    assert BASE + "conversations/" in [c.request.url for c in http.calls[before:]]
    assert [p.id for p in pms] == ["9002", "9003", "9004"]
    fresh = XenforoForum(BASE, BOT, "pw", clock=clock, sleep=clock.sleep)  # the next process
    before = len(http.calls)
    assert cycle(fresh, cursor)[0] == []
    assert BASE + "conversations/" in [c.request.url for c in http.calls[before:]]  # the list is read once


def test_send_pm_starts_a_conversation_and_returns_its_id(http, forum):
    serve(http, "conversations/add", "S-conversations-list-ru.html")
    answer(http, "conversations/add", {"status": "ok", "redirect": BASE + "conversations/vasha-rol.303/"})
    assert forum.send_pm("Дон, Маф1", "Ваша роль", "Вы мафия.\n\n#fb:0badf00d") == "303"
    sent = form(posts_to(http, "conversations/add")[0])
    assert (sent["recipients"], sent["title"], sent["_xfToken"]) == ("Дон, Маф1", "Ваша роль", TOKEN)
    assert sent["message"].endswith("#fb:0badf00d")


def test_send_pm_to_an_unknown_member_is_refused_naming_him(http, forum):
    serve(http, "conversations/add", "S-conversations-list-ru.html")
    answer(http, "conversations/add", {"status": "error", "errors": {
        "recipients": "The following recipients could not be found: Никто."}}, 400)
    with pytest.raises(FormRejected, match="no such user.*Никто"):
        forum.send_pm("Никто", "Роль", "текст")


def test_send_pm_flood_is_flood_limited(http, forum):
    serve(http, "conversations/add", "S-conversations-list-ru.html")
    flood = {"status": "error", "errors": ["You must wait at least 900 seconds before performing this action."]}
    answer(http, "conversations/add", flood, 400)
    with pytest.raises(FloodLimited):
        forum.send_pm("Дон", "Роль", "текст")


def test_find_own_pm_finds_the_marker_in_a_conversation_with_the_recipient(http, forum):
    serve_inbox(http)
    assert forum.find_own_pm("Дон", "#fb:1a2b3c4d") == "301"
    assert forum.find_own_pm("Дон", "#fb:99999999") is None
    assert forum.find_own_pm("Никто", "#fb:1a2b3c4d") is None


def test_profile_says_what_is_unverified():
    assert {"flows.login", "flows.reply", "flows.pm", "selectors.edit_notice"} <= XENFORO.unverified
    assert "selectors.post" not in XENFORO.unverified and "selectors.time" not in XENFORO.unverified


def test_pages_from_a_logged_out_session_are_login_required(http, forum):
    serve(http, "conversations/", "S-login-ru.html")
    with pytest.raises(LoginRequired):
        XenforoForum(BASE, BOT, None).fetch_pms()


def test_the_bots_own_unanswered_conversations_are_not_opened(board, forum):
    """Every PM starts a conversation: the list says which the bot started and nobody answered (0 replies),
    so reading the inbox after sending role PMs costs the list, not a page per PM."""
    forum.login()
    cids = [forum.send_pm(n, "Роль", f"роль {n}") for n in ("Дон", "Шериф", "М1")]
    board.add_pm("Дон", "подтверждаю", board.now())
    board.requests.clear()
    pms, _ = forum.fetch_pms()
    assert [(p.author, p.text) for p in pms] == [("Дон", "подтверждаю")]
    assert [p for _, p in board.requests] == ["conversations/", f"conversations/{cids[0]}/"]


def test_the_daemon_builds_it_from_a_forum_table_without_logging_the_password():
    from forumbot.config import ForumConfig
    from forumbot.daemon import adapter_factory, build_adapter
    forum = ForumConfig(name="xf", engine="adapters.xenforo:XenforoForum", login=BOT, base_url=BASE,
                        password_env="XF_PW", extra={"timezone_name": "Europe/Moscow", "max_wait": 60})
    adapter = build_adapter(forum, {"XF_PW": "секрет"})
    assert isinstance(adapter, XenforoForum) and adapter_factory("adapters.xenforo:XenforoForum") is XenforoForum
    assert (adapter.username, str(adapter.tz), adapter.transport.max_wait) == (BOT, "Europe/Moscow", 60)
    assert "секрет" not in repr(adapter)
