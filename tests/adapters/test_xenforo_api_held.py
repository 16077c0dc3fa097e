"""XenForo's REST API: the bot's own post found after an interrupted send, awaiting approval, is queued.

The API's Post carries `message_state` ("visible", "moderated", "deleted"; xenforo.com/docs/dev/rest-api, the
adapter reads it on a reply already, ENGINES.md §12): a post the API still lists to the bot while moderated
(the bot's own, or the bot a moderator) is not one the players can read, so find_own_post says PostQueued."""

from __future__ import annotations

import pytest

from adapters.xenforo.api import XenforoApiForum
from forumbot.errors import PostQueued

BASE, BOT = "https://xf.test/", "МафБот"


def posts(state: str) -> dict:
    return {"posts": [
        {"post_id": 7, "thread_id": 101, "user_id": 3, "username": "Маша", "post_date": 1795000000,
         "message": "голосую", "message_state": "visible"},
        {"post_id": 8, "thread_id": 101, "user_id": 2, "username": BOT, "post_date": 1795000060,
         "message": "Итоги\n\n#fb:0badf00d", "message_state": state}],
        "pagination": {"current_page": 1, "last_page": 1}}


@pytest.mark.parametrize("state,found", [("moderated", None), ("visible", "8")])
def test_find_own_post_reads_the_posts_message_state(http, clock, state, found):
    http.add("GET", BASE + "api/threads/101/posts", json=posts(state))
    forum = XenforoApiForum(BASE, BOT, "key", clock=clock, sleep=clock.sleep)
    if found is None:
        with pytest.raises(PostQueued, match="awaits a moderator's approval") as e:
            forum.find_own_post(BASE + "threads/igra.101/", "#fb:0badf00d")
        assert e.value.pending_id == "8"
    else:
        assert forum.find_own_post(BASE + "threads/igra.101/", "#fb:0badf00d") == found
