"""Discourse over its JSON API, with fixtures in the documented shapes."""

from __future__ import annotations

import json

import pytest

from adapters.discourse.forum import DiscourseForum
from adapters_support import FIXTURES
from forumbot.errors import FloodLimited, FormRejected, LoginRequired
from forumbot.forum.adapter import ThreadAddressProblem
from forumbot.texts import TABLES

U = "https://talk.test/"


def fx(name: str) -> str:
    return (FIXTURES / "discourse" / name).read_text(encoding="utf-8")


@pytest.fixture
def forum(clock):
    return DiscourseForum(U, "gm_bot", api_key="k-123", api_client_id="forumbot", clock=clock, sleep=clock.sleep)


def test_posts_from_topic_and_missing_ids(forum, http):
    http.add("GET", U + "t/42.json", body=fx("t_42.json"), content_type="application/json")
    http.add("GET", U + "t/42/posts.json", body=fx("t_42_posts.json"), content_type="application/json")
    posts, cursor = forum.fetch_posts("https://talk.test/t/mafia-game-1/42")
    assert [p.id for p in posts] == ["101", "102", "103", "105", "106", "107"]  # small action 104 left out
    petya = posts[2]
    assert petya.text == "Я мирный! Голос: Маша" and petya.edit_count == 1 and petya.edited_at
    assert [p.id for p in posts if p.quoted] == ["103"]  # the quote box is gone from the text, and marked
    assert posts[3].text == "Думаю."  # details and code removed
    assert "post_ids%5B%5D=106&post_ids%5B%5D=107" in http.calls[1].request.url
    assert http.calls[0].request.headers["User-Api-Key"] == "k-123"
    n = len(http.calls)
    again, _ = forum.fetch_posts("42", cursor)
    # idle: one request; nothing new, the posts that request served come back as they are now (C-11)
    assert [p.id for p in again] == ["101", "102", "103", "105"] and len(http.calls) == n + 1


def _topic(edit: dict | None = None, stream_extra: tuple[int, ...] = ()) -> str:
    data = json.loads(fx("t_42.json"))
    ps = data["post_stream"]
    ps["stream"] += list(stream_extra)
    for p in ps["posts"]:
        if edit and p["id"] == edit["id"]:
            p.update(edit)
    return json.dumps(data)


def test_C11_an_already_seen_post_edited_comes_back_with_its_edit_time(forum, http):
    http.add("GET", U + "t/42.json", body=_topic(), content_type="application/json")
    http.add("GET", U + "t/42/posts.json", body=fx("t_42_posts.json"), content_type="application/json")
    _, cursor = forum.fetch_posts("42")
    http.replace("GET", U + "t/42.json", content_type="application/json", body=_topic(
        {"id": 105, "version": 2, "updated_at": "2026-12-01T09:30:00.000Z", "cooked": "<p>Петя</p>"}))
    n = len(http.calls)
    again, _ = forum.fetch_posts("42", cursor)
    edited = next(p for p in again if p.id == "105")
    assert edited.text == "Петя" and edited.edit_count == 1 and edited.edited_at.isoformat() == "2026-12-01T09:30:00+00:00"
    assert len(http.calls) == n + 1  # no request of its own


def test_C11_new_posts_request_carries_the_latest_seen_posts_in_its_spare_room(forum, http):
    http.add("GET", U + "t/42.json", body=_topic(), content_type="application/json")
    http.add("GET", U + "t/42/posts.json", body=fx("t_42_posts.json"), content_type="application/json")
    _, cursor = forum.fetch_posts("42")
    http.replace("GET", U + "t/42.json", body=_topic(stream_extra=(108,)), content_type="application/json")
    n = len(http.calls)
    forum.fetch_posts("42", cursor)
    assert len(http.calls) == n + 2  # the topic and one posts.json, as before
    url = http.calls[-1].request.url
    assert "post_ids%5B%5D=108" in url and "post_ids%5B%5D=107" in url and "post_ids%5B%5D=106" in url


def test_reply_and_pm_go_through_posts_json(forum, http):
    http.add("POST", U + "posts.json", body=fx("posts_create_reply.json"), content_type="application/json")
    assert forum.reply("42", "Ночь наступила") == "108"
    assert json.loads(http.calls[-1].request.body) == {"topic_id": 42, "raw": "Ночь наступила"}
    http.add("GET", U + "topics/private-messages/gm_bot.json", body=fx("private_messages_gm_bot_empty.json"))
    http.add("POST", U + "posts.json", body=fx("posts_create_pm.json"), content_type="application/json")
    forum.send_pm("masha, petya", "Роль", "Твоя роль: шериф")  # no PM topic with both yet: a new one
    sent = json.loads(http.calls[-1].request.body)
    assert sent["archetype"] == "private_message" and sent["target_recipients"] == "masha,petya"


def test_refused_post_is_form_rejected(forum, http):
    http.add("POST", U + "posts.json", status=422, body=fx("posts_error_422.json"), content_type="application/json")
    with pytest.raises(FormRejected, match="too short"):
        forum.reply("42", "x")


def test_rate_limit_waits_retry_after_then_gives_up(forum, http, clock):
    http.add("POST", U + "posts.json", status=429, headers={"Retry-After": "12"}, body=fx("rate_limit_429.json"))
    with pytest.raises(FloodLimited) as err:
        forum.reply("42", "x" * 30)
    # the retries stop at the transport's per-request budget (30 s): the outbox tries again next tick
    assert err.value.retry_after == 12 and clock.sleeps == [12, 12]


def test_pm_inbox_reads_new_messages_once(forum, http):
    http.add("GET", U + "topics/private-messages/gm_bot.json", body=fx("private_messages_gm_bot.json"))
    http.add("GET", U + "t/77.json", body=fx("t_77.json"))
    pms, cursor = forum.fetch_pms()
    assert [(p.id, p.author, p.subject, p.text) for p in pms] == [("301", "masha", "Ночь 1: ход", "Проверяю Петю")]
    again, _ = forum.fetch_pms(cursor)
    assert again == [] and http.calls[-1].request.url.endswith("gm_bot.json")


def test_find_own_post(forum, http):
    http.add("GET", U + "t/42.json", body=fx("t_42.json"))
    http.add("GET", U + "t/42/posts.json", body=fx("t_42_posts.json"))
    assert forum.find_own_post("42", "[m:vote-1]") == "107"


def test_session_login_with_csrf(clock, http):
    forum = DiscourseForum(U, "gm_bot", "pw", clock=clock, sleep=clock.sleep)
    http.add("GET", U + "session/csrf", body=fx("session_csrf.json"))
    http.add("POST", U + "session", body=fx("session_ok.json"))
    forum.login()
    assert http.calls[-1].request.headers["X-CSRF-Token"] == "Zq3xk0example-token"
    http.add("POST", U + "session", body=fx("session_bad.json"))
    with pytest.raises(LoginRequired, match="Incorrect"):
        forum.login()


def test_reread_from_fetches_the_stored_ids_of_the_phase_through_posts_json(forum, http):
    """C-11 before a deadline: the phase's stored post ids, as they are now, CHUNK per request."""
    http.add("GET", U + "t/42/posts.json", body=fx("t_42_posts.json"), content_type="application/json")
    posts = forum.reread_from("https://talk.test/t/mafia-game-1/42", "106", ["106", "107"])
    assert [p.id for p in posts] == ["106", "107"] and len(http.calls) == 1
    assert "post_ids%5B%5D=106&post_ids%5B%5D=107" in http.calls[0].request.url


def test_issue28_item4_a_category_address_names_what_a_topic_looks_like():
    assert DiscourseForum.thread_problem("https://d.example/t/mafia/42/7", "https://d.example") is None  # a post's
    problem = DiscourseForum.thread_problem("https://d.example/c/games/5", "https://d.example/")
    assert str(problem) == (
        "'https://d.example/c/games/5' is not a Discourse topic's address (a category's?); a topic's "
        "address looks like https://d.example/t/mafia-day-1/123, or give the topic's number")
    # issue 28 item 2: check-config says it in a Russian game's language
    assert isinstance(problem, ThreadAddressProblem) and problem.said(TABLES["ru"]) == (
        "«https://d.example/c/games/5» — не адрес темы Discourse (может быть, категории?); адрес темы выглядит как "
        "https://d.example/t/mafia-day-1/123, или укажите номер темы")
