"""The posts read off a topic page are all it shows, each once (issue 17 item 19).

Re-run on pages altered from the saved fixtures: SMF dropped a post silently once the posts stopped being direct
children of form#quickModForm; two posts with one id and different texts passed on every engine (the second
replaced the first as an edit). Now SMF finds its posts by id wherever they sit, a post that no post selector
finds but whose body is on the page makes the page PageIncomplete (nothing decided on it), and a page showing one
post id twice is PageFormatChanged. vBulletin and Invision pages come from the fake boards built to their markup
(tests/daemon/closed_boards.py)."""

from __future__ import annotations

import copy
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import responses
from lxml import etree

from adapters.html.dom import parse, select, select_one
from forumbot.errors import PageFormatChanged, PageIncomplete
from probe_cases import BASE, CASES, adapter_class, topic_bytes, topic_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from closed_boards import IpsBoard, VbBoard  # noqa: E402

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)


def _charset(engine: str) -> str:
    return "cp1251" if engine == "mybbru" else "utf-8"


def _read(engine: str, body: bytes):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None
    with responses.RequestsMock() as http:
        http.add("GET", topic_url(engine), body=body, content_type=CASES[engine][4])
        return adapter.topics.topic_page(topic_url(engine)[len(BASE):], CASES[engine][1])[2]


def _altered(engine: str, change) -> bytes:
    tree = parse(topic_bytes(engine).decode(_charset(engine)))
    change(tree, select(tree, adapter_class(engine).profile.selectors["post"]))
    return etree.tostring(tree, method="html", encoding=_charset(engine))


def test_smf_reads_a_post_that_is_no_longer_a_direct_child_of_the_quick_moderation_form():
    whole = _read("smf", topic_bytes("smf"))

    def wrap(tree, posts):
        wrapper = etree.Element("div", {"class": "theme_post_wrapper"})
        posts[1].addprevious(wrapper)
        wrapper.append(posts[1])

    posts = _read("smf", _altered("smf", wrap))
    assert [p.id for p in posts] == [p.id for p in whole]  # today: the wrapped post is missing


@pytest.mark.parametrize("engine", sorted(CASES))
def test_two_posts_with_one_id_are_refused(engine):
    def duplicate(tree, posts):
        twin = copy.deepcopy(posts[0])
        body = select_one(twin, adapter_class(engine).profile.selectors["body"])
        for child in list(body):
            body.remove(child)
        body.text = "голосую за подмену"
        posts[-1].addnext(twin)

    whole = _read(engine, topic_bytes(engine))
    with pytest.raises(PageFormatChanged, match=f"shows post {whole[0].id} twice"):
        _read(engine, _altered(engine, duplicate))  # today: read, the twin an edit of the first


@pytest.mark.parametrize("engine", sorted(CASES))
def test_a_post_the_post_selector_misses_makes_the_page_incomplete(engine):
    def disguise(tree, posts):
        posts[1].tag = "section"
        for name in ("class", "id", "data-content"):
            posts[1].attrib.pop(name, None)

    with pytest.raises(PageIncomplete, match="1 post.s. outside the posts read"):
        _read(engine, _altered(engine, disguise))  # today: that post silently missing


@pytest.mark.parametrize("cls", [VbBoard, IpsBoard])
def test_closed_engines_refuse_two_posts_with_one_id(cls):
    from adapters.invision.forum import InvisionForum
    from adapters.vbulletin.forum import VbulletinForum

    board = cls("Бот", "пароль", lambda: NOW)
    board.thread(101, "101")
    first = board.add_post("101", "Игрок0", "голосую Маф1", NOW - timedelta(minutes=9))
    board.add_post("101", "Игрок1", "голосую Маф2", NOW - timedelta(minutes=8)).id = first.id
    adapter_cls = VbulletinForum if cls is VbBoard else InvisionForum
    url = board.base + ("showthread.php?t=101" if cls is VbBoard else "topic/101-igra/")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        board.install(http)
        with pytest.raises(PageFormatChanged, match=f"post {first.id} twice"):
            adapter_cls(board.base, "Бот", "пароль", timezone_name="Europe/Moscow").fetch_posts(url)
