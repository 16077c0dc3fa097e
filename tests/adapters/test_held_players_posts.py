"""A player's post awaiting approval, as a bot that moderates the forum sees it, is no input (forumbot.cycle.held_posts).

Each page is a saved page of the real board (fixtures/<engine>/) with one player's post marked as the engine's
shipped templates mark a post awaiting approval for a moderator (the sources in ../shared/boards/src):
- phpBB 3.3.10: prosilver's viewtopic_body.html, S_POST_UNAPPROVED with S_CAN_APPROVE, puts a
  `form.mcp_approve` holding `p.post-notice.unapproved` (POST_UNAPPROVED_ACTION and the Approve/Disapprove
  buttons) before the post's content;
- MyBB 1.8.37: the postbit's `class="post {$unapproved_shade}"` reads `post unapproved_post` for a moderator
  (inc/functions_post.php; for the author only with `showownunapproved`);
- SMF 2.1.4: Display.php's css_class `approvebg` in place of `windowbg` for an unapproved message, to a
  moderator as to its author.
XenForo's REST API lists a moderated post to a key that may view it with `message_state` "moderated".
The player's post is read held, the others not; the shell stores the others and holds it out (C-3).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from adapters.html.extract import extract_posts
from adapters.html.hooks import Context
from adapters.mybb.profile import MYBB
from adapters.phpbb.profile import PHPBB
from adapters.smf.profile import SMF
from adapters.xenforo.api import XenforoApiForum
from adapters_support import FIXTURES
from forumbot.cycle.held_posts import split
from forumbot.forum.http_page import Page

MSK = ZoneInfo("Europe/Moscow")
SAVED_AT = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
BOT = "gm_bot"  # the bot's account on the boards the pages were saved from

PHPBB_MOD_NOTICE = (
    '<form method="post" class="mcp_approve" action="./mcp.php?i=queue&amp;p=35&amp;f=2">\n'
    '<p class="post-notice unapproved"><span><i class="icon fa-question icon-red fa-fw" aria-hidden="true"></i>'
    '</span><strong>Это сообщение ожидает одобрения.</strong>\n'
    '<input class="button2" type="submit" value="Отклонить" name="action[disapprove]" />\n'
    '<input class="button1" type="submit" value="Одобрить" name="action[approve]" />\n'
    '<input type="hidden" name="post_id_list[]" value="35" /></p>\n</form>\n')


def _phpbb(body: str) -> str:
    start = body.index('<div id="p35"')
    at = body.index('<div class="content">', start)
    return body[:at] + PHPBB_MOD_NOTICE + body[at:]


def _mybb(body: str) -> str:
    return body.replace('<div class="post " style="" id="post_34">',
                        '<div class="post unapproved_post" style="" id="post_34">')


def _smf(body: str) -> str:
    return body.replace('<div class="windowbg" id="msg32">', '<div class="approvebg" id="msg32">', 1)


CASES = {
    "phpbb": (PHPBB, "23_topic_last_page.html", _phpbb, "35"),
    "mybb": (MYBB, "23_thread_last_page.html", _mybb, "34"),
    "smf": (SMF, "12_topic_page3_last.html", _smf, "32"),
}


def _read(engine: str, marked: bool):  # type: ignore[no-untyped-def]
    profile, name, mark, _ = CASES[engine]
    body = (FIXTURES / engine / name).read_bytes().decode("utf-8")
    if marked:
        new = mark(body)
        assert new != body
        body = new
    tree = Page(url="http://127.0.0.1/", status=200, headers={}, content=body.encode("utf-8"),
                charset="utf-8").tree()
    return extract_posts(tree, profile, Context(profile, MSK, SAVED_AT), "t")


@pytest.mark.parametrize("engine", CASES)
def test_C3_a_players_post_held_for_a_moderator_is_held_out_of_the_inputs(engine):
    pid = CASES[engine][3]
    posts = _read(engine, marked=True)
    held = [p for p in posts if p.held]
    assert [p.id for p in held] == [pid] and held[0].author.casefold() != BOT
    readable, waiting = split(posts, BOT)
    assert waiting == held  # before: stored and read as a vote or a move
    assert [p.id for p in readable] == [p.id for p in posts if p.id != pid]


@pytest.mark.parametrize("engine", CASES)
def test_the_same_page_unmarked_holds_nothing_out(engine):
    posts = _read(engine, marked=False)
    assert split(posts, BOT) == (posts, [])


def test_an_own_held_post_is_left_to_the_outbox():
    """The bot's own queued post goes on to the store (the outbox finds it queued, PostQueued); only the
    players' are held out. The account is matched ignoring case only (C-3)."""
    posts = _read("mybb", marked=False)
    own = next(p for p in posts if p.author.casefold() == BOT)
    marked = [replace(p, held=True) if p is own else p for p in posts]
    assert split(marked, BOT.upper()) == (marked, [])


XF, XF_BOT = "https://xf.test/", "МафБот"


def test_C3_xenforo_api_a_players_moderated_post_is_held_out(http, clock):
    http.add("GET", XF + "api/threads/101/posts", json={"posts": [
        {"post_id": 7, "thread_id": 101, "user_id": 3, "username": "Маша", "post_date": 1795000000,
         "message": "Петя", "message_state": "visible"},
        {"post_id": 8, "thread_id": 101, "user_id": 4, "username": "Петя", "post_date": 1795000060,
         "message": "Маша", "message_state": "moderated"}],
        "pagination": {"current_page": 1, "last_page": 1}})
    forum = XenforoApiForum(XF, XF_BOT, "key", clock=clock, sleep=clock.sleep)
    posts, _ = forum.fetch_posts(XF + "threads/igra.101/")
    readable, waiting = split(posts, XF_BOT)
    assert [p.id for p in readable] == ["7"] and [p.id for p in waiting] == ["8"]
