"""A read that did not end where a complete page ends is an error, never part of an answer (issue 7 item 9).

Live, a topic page truncated with HTTP 200 gave the posts before the cut and the tick folded past a deadline
without the rest; a login page (200) served in place of the FlaskBB inbox read as an empty inbox. Here saved
pages of each engine are served cut short at three places (inside the posts or rows, just before the footer,
and only the closing </html> missing): each read raises PageIncomplete, which the tick treats like a dropped
connection (retried, then that game's cycle stops before the fold). The login form where a logged-in page was
expected is LoginRequired.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from responses import matchers

from adapters.flaskbb.forum import FlaskbbForum
from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters_support import HTML, MYBB_URL, PHPBB_URL, page
from forumbot.errors import ForumUnavailable, LoginRequired, PageIncomplete
from forumbot.forum.transport import Transport

FLASKBB_URL = "http://127.0.0.1:8083/"
BASE = {"phpbb": PHPBB_URL, "mybb": MYBB_URL, "flaskbb": FLASKBB_URL}
FOOTER = {"phpbb": b'<div id="page-footer"', "mybb": b'<div id="footer"', "flaskbb": b'<footer class="flaskbb-footer'}


def make(engine: str, clock, password: str | None = None):
    if engine == "flaskbb":
        transport = Transport(FLASKBB_URL, bot="forumbot", clock=clock, sleep=clock.sleep, retries=0)
        return FlaskbbForum(FLASKBB_URL, "forumbot", password, transport=transport)
    cls = PhpbbForum if engine == "phpbb" else MybbForum
    return cls(BASE[engine], "gm_bot", password, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def cut(engine: str, name: str, where: str, item: bytes) -> bytes:
    data = page(engine, name)
    if where == "inside":  # a little after the first post or row began
        return data[: data.index(item) + 400]
    if where == "before footer":
        return data[: data.index(FOOTER[engine])]
    return data[: data.rindex(b"</html>")]  # and what follows it (MyBB ends with a template comment)


CUTS = ["inside", "before footer", "closing tag"]

# engine: (thread, cursor, path read, saved page, where its first post begins); FlaskBB's is the last page of a
# three-page topic, where a poll that has seen up to post 22 starts
TOPICS = {
    "phpbb": ("viewtopic.php?t=2", None, "viewtopic.php?t=2", "26_topic_short.html", b'class="post has-profile'),
    "mybb": ("showthread.php?tid=1", None, "showthread.php?tid=1", "28_thread_short.html", b'id="post_'),
    "flaskbb": ("topic/2", '{"n": 21, "last": 22, "pp": 10}', "topic/2?page=3", "22_topic_page3_last.html",
                b'class="row post-row"'),
}
# engine: (inbox path, saved inbox, where its first row begins)
INBOXES = {
    "phpbb": ("ucp.php?i=pm&folder=inbox", "30_pm_inbox_all_unread.html", b"row-item"),
    "mybb": ("private.php", "30_pm_inbox.html", b'class="new_pm"'),
    "flaskbb": ("conversations/", "33_inbox.html", b"conversation-row"),
}
# engine: (path of the first PM the inbox lists, saved page, where its body begins)
PM_VIEWS = {
    "phpbb": ("ucp.php?i=pm&mode=view&f=0&p=1", "31_pm_view_single.html", b'class="post pm'),
    "mybb": ("private.php?action=read&pmid=1", "31_pm_view_single.html", b'class="post_body'),
    "flaskbb": ("conversations/6/view", "35_conversation_from_player.html", b"conversation-message"),
}


def serve(http, engine: str, path: str, body: bytes) -> None:
    """Serve `body` at `path`, its query matched exactly (as adapters_support.add_page does)."""
    base, _, query = (BASE[engine] + path).partition("?")
    http.add("GET", base, body=body, content_type=HTML,
             match=[matchers.query_param_matcher(dict(parse_qsl(query)), strict_match=True)])


@pytest.mark.parametrize("where", CUTS)
@pytest.mark.parametrize("engine", list(TOPICS))
def test_a_topic_page_cut_short_is_page_incomplete_not_the_posts_before_the_cut(engine, where, http, clock):
    thread, cursor, path, name, item = TOPICS[engine]
    serve(http, engine, path, cut(engine, name, where, item))
    with pytest.raises(PageIncomplete, match="incomplete"):
        make(engine, clock).fetch_posts(BASE[engine] + thread, cursor)


@pytest.mark.parametrize("engine", list(TOPICS))
def test_the_same_topic_page_whole_is_read(engine, http, clock):
    """The control: the pages the cuts come from read fine, so the error is the cut's."""
    thread, cursor, path, name, _ = TOPICS[engine]
    serve(http, engine, path, page(engine, name))
    posts, _ = make(engine, clock).fetch_posts(BASE[engine] + thread, cursor)
    assert posts and len(http.calls) == 1


@pytest.mark.parametrize("where", CUTS)
@pytest.mark.parametrize("engine", list(INBOXES))
def test_an_inbox_cut_short_is_page_incomplete_not_a_shorter_inbox(engine, where, http, clock):
    path, name, item = INBOXES[engine]
    serve(http, engine, path, cut(engine, name, where, item))
    with pytest.raises(PageIncomplete):
        make(engine, clock).fetch_pms()


@pytest.mark.parametrize("where", CUTS)
@pytest.mark.parametrize("engine", list(PM_VIEWS))
def test_a_pm_cut_short_is_page_incomplete(engine, where, http, clock):
    inbox_path, inbox_name, _ = INBOXES[engine]
    serve(http, engine, inbox_path, page(engine, inbox_name))
    path, name, item = PM_VIEWS[engine]
    serve(http, engine, path, cut(engine, name, where, item))
    with pytest.raises(PageIncomplete):
        make(engine, clock).fetch_pms()


def test_page_incomplete_is_transient_so_the_tick_retries_then_stops_before_the_fold():
    assert issubclass(PageIncomplete, ForumUnavailable)


@pytest.mark.parametrize("engine,name", [(e, "01_login_page.html") for e in INBOXES]
                         + [("mybb", "63_pm_inbox_guest_no_permission.html")])
def test_a_login_page_served_with_200_in_place_of_the_inbox_is_login_required(engine, name, http, clock):
    """issue 7 item 9: FlaskBB's login page at /conversations/ (HTTP 200, no redirect) read as an empty inbox;
    so did MyBB's no-permission page, served to a session that has expired (saved from a live board)."""
    path, _, _ = INBOXES[engine]
    serve(http, engine, path, page(engine, name))
    with pytest.raises(LoginRequired):
        make(engine, clock).fetch_pms()


def test_flaskbb_logs_in_and_reads_the_inbox_again_after_a_login_page_in_its_place(http, clock):
    serve(http, "flaskbb", "conversations/", page("flaskbb", "01_login_page.html"))
    http.add("GET", FLASKBB_URL + "conversations/", body=page("flaskbb", "36_inbox_after_reading.html"),
             content_type=HTML)
    http.add("GET", FLASKBB_URL + "auth/login", body=page("flaskbb", "01_login_page.html"), content_type=HTML)
    http.add("POST", FLASKBB_URL + "auth/login", status=302, headers={"Location": "/"}, body=b"")
    # every conversation already read: an unchanged inbox after the login
    cursor = '{"c": {"6": ["2026-11-29T13:10:10.552344+00:00", 8], "4": ["2026-11-29T13:10:10.364339+00:00", 7],' \
             ' "1": ["2026-11-29T13:10:10.176534+00:00", 4]}}'
    pms, _ = make("flaskbb", clock, password="pw").fetch_pms(cursor)
    assert pms == []
    assert [c.request.method for c in http.calls] == ["GET", "GET", "POST", "GET"]


@pytest.mark.parametrize("engine,folder", [("phpbb", "ucp.php?i=pm&folder=outbox"), ("mybb", "private.php?fid=2")])
def test_find_own_pm_on_a_sent_folder_cut_short_is_page_incomplete_not_not_found(engine, folder, http, clock):
    """Not found would send the PM again: a duplicate. A folder cut short is an error instead (issue 7 item 16)."""
    name = "60_pm_outbox_unread_pm_with_marker.html" if engine == "phpbb" else "60_pm_sent_items_with_markers.html"
    serve(http, engine, folder, cut(engine, name, "before footer", b""))
    with pytest.raises(PageIncomplete):
        make(engine, clock).find_own_pm("Маша", "#fb:3f9a0c21")
