"""Invision 4's routes with friendly URLs (rewrite) on and off (issue 28 item 3): without rewrite only index.php
exists and IPS writes every URL as `index.php?/path` (its core/modules/admin/settings/webapp.php: `baseUrl() .
(htaccess_mod_rewrite ? $path : 'index.php?/' . $path)`), the path's own query after "&"; `login/` or
`topic/N/` at the board's folder is the web server's 404. Every flow's route resolves under the base URL."""

from __future__ import annotations

import pytest

from adapters.invision.forum import InvisionForum

FOLDER = "https://forum.example/community/"
# route name and values -> the path below the folder, friendly, and without rewrite
ROUTES = [
    (("login", {}), "login/", "index.php?/login/"),
    (("topic", {"topic": "12"}), "topic/12/", "index.php?/topic/12/"),
    (("topic_page", {"topic": "12", "start": 3}), "topic/12/page/3/", "index.php?/topic/12/page/3/"),
    (("post_page", {"topic": "12", "post": "99"}), "topic/12/?do=findComment&comment=99",
     "index.php?/topic/12/&do=findComment&comment=99"),
    (("inbox", {}), "messenger/", "index.php?/messenger/"),
    (("conversation", {"pm": "7"}), "messenger/7/", "index.php?/messenger/7/"),
    (("compose", {}), "messenger/compose/", "index.php?/messenger/compose/"),
]


def resolved(base_url: str, name: str, values: dict) -> str:
    forum = InvisionForum(base_url, "GM_Bot", "x")
    return forum.transport.url(forum.url(name, **values))


@pytest.mark.parametrize("route,friendly,plain", ROUTES, ids=[r[0][0] for r in ROUTES])
def test_every_route_goes_through_index_php_without_rewrite(route, friendly, plain):
    name, values = route
    assert resolved(FOLDER, name, values) == FOLDER + friendly
    assert resolved(FOLDER + "index.php?/", name, values) == FOLDER + plain
    assert resolved(FOLDER + "index.php?", name, values) == FOLDER + plain  # the base without its slash


def test_the_topic_id_is_read_from_an_index_php_topic_url():
    forum = InvisionForum(FOLDER + "index.php?/", "GM_Bot", "x")
    assert forum.topic_id(FOLDER + "index.php?/topic/41-мафия-игра/page/2/") == "41"


def test_issue28_index_php_topics_with_a_folder_base_url_name_the_base_url_to_set():
    """check-config, game start and tick read thread_problem: a board without rewrite writes its topics
    `index.php?/topic/...`, and a base_url without `index.php?` sends the login where the web server answers 404."""
    thread = FOLDER + "index.php?/topic/41-мафия-игра/"
    assert str(InvisionForum.thread_problem(thread, FOLDER)) == (
        f"{thread!r} is a thread of a board without friendly URLs: set the forum's base_url to "
        f"'{FOLDER}index.php?/', which the bot adds every route to")
    assert InvisionForum.thread_problem(thread, FOLDER + "index.php?/") is None
    assert InvisionForum.thread_problem(thread, FOLDER + "index.php?") is None
    assert InvisionForum.thread_problem(FOLDER + "topic/41-мафия-игра/", FOLDER) is None
