"""The Discourse PM list past its first page (30 conversations a page, most recently bumped first). Reading page 1
alone lost messages: when more than 30 conversations were bumped between two ticks (a night's moves and
confirmations in a big game, or a bot down for a day), those on page 2 were never read, and once the players
wrote no more there, never bumped onto page 1 again. Nothing a player sent may be dropped silently; an idle
list must still cost one request."""

from __future__ import annotations

import json

import pytest
from responses import matchers

from adapters.discourse.forum import DiscourseForum
from forumbot.errors import PageFormatChanged

U = "https://talk.test/"
LIST = U + "topics/private-messages/gm_bot.json"
PER_PAGE = 30


def listing(ids: list[int], more: str | None) -> str:
    users = [{"id": 100 + i, "username": f"p{i}"} for i in ids]
    topics = [{"id": i, "title": f"Ход {i}", "highest_post_number": 1, "allowed_user_count": 2,
               "closed": False, "archived": False, "archetype": "private_message",
               "participants": [{"user_id": 100 + i}]} for i in ids]
    body = {"users": users, "topic_list": {"per_page": PER_PAGE, "topics": topics}}
    if more:
        body["topic_list"]["more_topics_url"] = more
    return json.dumps(body)


def conversation(i: int) -> str:
    post = {"id": 1000 + i, "username": f"p{i}", "user_id": 100 + i, "post_number": 1, "post_type": 1,
            "created_at": f"2026-12-01T20:{i % 60:02d}:00.000Z", "cooked": f"<p>ход {i}</p>"}
    return json.dumps({"id": i, "title": f"Ход {i}", "highest_post_number": 1,
                       "post_stream": {"posts": [post], "stream": [1000 + i]}})


@pytest.fixture
def forum(clock):
    return DiscourseForum(U, "gm_bot", api_key="k-123", api_client_id="forumbot", clock=clock, sleep=clock.sleep)


def serve_list(http, ids, more, page: int = 0, method=None):
    """A page of the list; page 0 only for the URL without a query (responses ignores queries otherwise)."""
    match = [matchers.query_param_matcher({"page": str(page)} if page else {})]
    (method or http.add)("GET", LIST, body=listing(ids, more), content_type="application/json", match=match)


def serve_conversations(http, ids):
    for i in ids:
        http.add("GET", U + f"t/{i}.json", body=conversation(i), content_type="application/json")


def test_conversations_past_the_first_page_of_the_pm_list_are_each_read_once(forum, http):
    page1, page2 = list(range(40, 10, -1)), list(range(10, 0, -1))  # 40 conversations bumped since the last tick
    serve_list(http, page1, "/topics/private-messages/gm_bot?page=1")
    serve_list(http, page2, None, page=1)
    serve_conversations(http, page1 + page2)
    pms, cursor = forum.fetch_pms(json.dumps({"t": {}}))
    assert sorted(int(p.id) for p in pms) == [1000 + i for i in range(1, 41)], "every conversation's message once"
    assert [c.request.url for c in http.calls][:2] == [LIST, LIST + "?page=1"]

    # the next tick: page 1 shows conversations already read, so page 2 is not asked for again
    http.calls.reset()
    again, _ = forum.fetch_pms(cursor)
    assert again == [] and [c.request.url for c in http.calls] == [LIST]


def test_a_page_with_a_conversation_already_read_ends_the_walk(forum, http):
    read = json.dumps({"t": {"5": 1}})
    serve_list(http, [7, 6, 5], "/topics/private-messages/gm_bot?page=1")
    serve_conversations(http, [7, 6])
    pms, _ = forum.fetch_pms(read)
    assert [p.id for p in pms] == ["1006", "1007"]
    assert LIST + "?page=1" not in [c.request.url for c in http.calls]


def test_an_empty_next_page_ends_the_walk_and_a_page_link_going_back_is_an_error(forum, http):
    """Discourse links a next page whenever a page is full, so an empty one is the end; a link that names no
    later page would loop and is a page that no longer parses."""
    serve_list(http, [2, 1], "/topics/private-messages/gm_bot?page=1")
    serve_list(http, [], None, page=1)
    serve_conversations(http, [2, 1])
    pms, _ = forum.fetch_pms()
    assert [p.id for p in pms] == ["1001", "1002"]

    http.reset()
    serve_list(http, [4, 3], "/topics/private-messages/gm_bot?page=0")
    with pytest.raises(PageFormatChanged, match="names no later page"):
        forum.fetch_pms()
