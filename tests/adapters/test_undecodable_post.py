"""One post's bytes that do not decode are that post's problem, never its page's (issue 26 item 9c).

issue 17 item 18 refused a page with any byte that does not decode in its charset, to keep a page in another
charset from being read as mojibake names. Then one damaged post (a multi-byte character cut by a column limit, a
post left unconverted when the board moved to UTF-8) refused its whole page on every HTML engine: phpbb, mybb,
flaskbb, smf, punbb, xenforo, mybbru (windows-1251: the byte 0x98 it lacks), vBulletin and Invision; every vote
on that page went unread for as long as the post stood. Now the page reads; the damaged post is skipped and named
to the GMs (forumbot.forum.unreadable, why "bytes"), as a post nested too deep is: what its bytes said is unknown, to
the players too (browsers show U+FFFD there), so it is not counted as read, nor dropped unseen. Bytes outside
every post (the board's own words) or in every post of a page are the page's charset: still refused.

Pages: the saved topic pages (probe_cases) and the fake vBulletin and Invision boards (tests/daemon/closed_boards.py),
with the bad bytes put into the second post's body here (SYNTHETIC, never saved)."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import responses
from lxml import etree

from adapters.html.dom import parse, select, select_one
from adapters.invision.forum import InvisionForum
from adapters.html.pagechecks import topic_problems
from adapters.vbulletin.forum import VbulletinForum
from forumbot.errors import PageFormatChanged
from forumbot.forum.http_page import Page
from forumbot.forum.unreadable import UnreadablePost, notices
from probe_cases import BASE, CASES, adapter_class, topic_bytes, topic_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from closed_boards import IpsBoard, VbBoard  # noqa: E402

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
SPOT = "QQBADBYTESQQ"


def _charset(engine: str) -> str:
    return "cp1251" if engine == "mybbru" else "utf-8"


def _bad(engine: str) -> bytes:
    # UTF-8: a lead byte cut from its continuation, then bytes no UTF-8 has; windows-1251: 0x98, unassigned
    return b"\x98" if engine == "mybbru" else b"\xd0\xff\xfe"


def _damaged(engine: str, where: str = "post") -> bytes:
    """The saved topic page with bad bytes in the second post's body (or in the page's title)."""
    profile = adapter_class(engine).profile
    tree = parse(topic_bytes(engine).decode(_charset(engine)))
    post = select(tree, profile.selectors["post"])[1]
    target = select_one(post, profile.selectors["body"]) if where == "post" else select_one(tree, "title")
    target.text = (target.text or "") + SPOT
    html = etree.tostring(tree, method="html", encoding=_charset(engine))
    return html.replace(SPOT.encode(), _bad(engine))


def _read(engine: str, body: bytes):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None
    with responses.RequestsMock() as http:
        http.add("GET", topic_url(engine), body=body, content_type=CASES[engine][4])
        posts = adapter.topics.topic_page(topic_url(engine)[len(BASE):], CASES[engine][1])[2]
    return posts, adapter.take_unreadable()


@pytest.mark.parametrize("engine", sorted(CASES))
def test_a_post_with_bytes_that_do_not_decode_is_skipped_and_told_its_page_read(engine):
    whole, _ = _read(engine, topic_bytes(engine))
    posts, skipped = _read(engine, _damaged(engine))  # before: PageFormatChanged "does not decode as ..."
    damaged = whole[1]
    assert posts == [p for p in whole if p.id != damaged.id]
    assert skipped == [UnreadablePost(CASES[engine][1], damaged.id, damaged.author, why="bytes")]


@pytest.mark.parametrize("engine", sorted(CASES))
def test_bytes_that_do_not_decode_outside_the_posts_still_refuse_the_page(engine):
    with pytest.raises(PageFormatChanged, match="does not decode as"):
        _read(engine, _damaged(engine, where="title"))


def test_the_probe_names_the_damaged_post_as_skipped_for_its_bytes():
    body = _damaged("phpbb")
    adapter = adapter_class("phpbb")(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    page = Page(url=topic_url("phpbb"), status=200, headers={"Content-Type": CASES["phpbb"][4]}, content=body,
                charset="utf-8")
    problems = topic_problems(adapter, page)
    assert [p.partition(":")[0] for p in problems] == ["check posts"]
    assert "bytes the page's charset cannot show" in problems[0] and "nests" not in problems[0]


def _closed_read(cls, damage: bool):
    board = cls("Бот", "пароль", lambda: NOW)
    board.thread(101, "101")
    board.add_post("101", "Игрок0", "голосую Маф1", NOW - timedelta(minutes=9))
    board.add_post("101", "Игрок1", f"голосую Маф2 {SPOT}", NOW - timedelta(minutes=8))
    board.add_post("101", "Игрок2", "голосую Маф1", NOW - timedelta(minutes=7))
    plain = board.answer
    bad = b"\x98" if cls is VbBoard else b"\xd0\xff\xfe"

    def answer(status, body, headers=None):
        code, sent, data = plain(status, body, headers)
        data = data if isinstance(data, bytes) else data.encode("utf-8")  # IpsBoard answers str (UTF-8)
        return code, sent, data.replace(SPOT.encode(), bad if damage else b"")

    board.answer = answer
    adapter_cls = VbulletinForum if cls is VbBoard else InvisionForum
    url = board.base + ("showthread.php?t=101" if cls is VbBoard else "topic/101-igra/")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        board.install(http)
        adapter = adapter_cls(board.base, "Бот", "пароль", timezone_name="Europe/Moscow")
        posts = adapter.fetch_posts(url)[0]
        return [(p.author, p.text.strip()) for p in posts], adapter.take_unreadable()


@pytest.mark.parametrize("cls", [VbBoard, IpsBoard])
def test_closed_engines_skip_and_tell_the_damaged_post_and_read_the_rest(cls):
    whole, none = _closed_read(cls, damage=False)
    assert not none and [a for a, _ in whole] == ["Игрок0", "Игрок1", "Игрок2"]
    posts, skipped = _closed_read(cls, damage=True)  # before: the page refused, none of the three read
    assert posts == [whole[0], whole[2]]
    assert [(s.author, s.why) for s in skipped] == [("Игрок1", "bytes")]


@pytest.mark.parametrize("language, words", [("ru", "байты не в кодировке форума"),
                                             ("en", "bytes not in the forum's charset")])
def test_the_gms_are_told_why_in_their_language(language, words):
    post = UnreadablePost("голосование", "17", "Игрок1", why="bytes")
    sent = notices([post], ["ГМ", "ГМ2"], language, NOW, lambda s: s)
    assert [m.to for m in sent] == ["ГМ", "ГМ2"] and all(words in m.text and "17" in m.text for m in sent)
    assert sent[0].key == "unreadable/голосование/17/ГМ"


@pytest.mark.parametrize("engine", ["smf", "punbb", "xenforo"])
def test_a_damaged_post_on_a_utf8_page_labelled_windows_1251_is_skipped_and_the_rest_read_as_utf8(engine):
    """Both at once (issue 26 item 9b and c): the bytes are UTF-8 but for one post's, the label windows-1251. Far
    more multi-byte characters decode than bytes fail, so the page is UTF-8; the damaged post is that post's
    problem. Read by the label, every Cyrillic name was mojibake (or the page refused on a byte cp1251 lacks)."""
    whole, _ = _read(engine, topic_bytes(engine))
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None
    with responses.RequestsMock() as http:
        http.add("GET", topic_url(engine), body=_damaged(engine), content_type="text/html; charset=windows-1251")
        posts = adapter.topics.topic_page(topic_url(engine)[len(BASE):], CASES[engine][1])[2]
    assert posts == [p for p in whole if p.id != whole[1].id]
    assert [(s.id, s.why) for s in adapter.take_unreadable()] == [(whole[1].id, "bytes")]
