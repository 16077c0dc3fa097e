"""A page in another charset than it is labelled is an error naming the charset, never mojibake names (issue 17
item 18); bytes that are UTF-8 beyond doubt are read as UTF-8 whatever the label (issue 26 item 9b).

Re-run with windows-1251 bytes labelled UTF-8 and the reverse, xenforo, vbulletin and invision read mojibake
names, and those votes were "not in this game". Here the saved pages (probe_cases) and the vBulletin and
Invision fake boards (closed_boards.py, built to their markup) are served under the wrong Content-Type: the read
raises PageFormatChanged naming the charsets, and nothing is read. Aliases of one charset (utf8 / UTF-8,
windows-1251 / cp1251, ISO-8859-1 / windows-1252) are no contradiction."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import responses

from adapters.invision.forum import InvisionForum
from adapters.vbulletin.forum import VbulletinForum
from forumbot.errors import PageFormatChanged
from probe_cases import BASE, CASES, adapter_class, topic_bytes, topic_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from closed_boards import IpsBoard, VbBoard  # noqa: E402

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
CP1251 = "text/html; charset=windows-1251"
UTF8 = "text/html; charset=UTF-8"


def _read(engine: str, content_type: str):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None
    with responses.RequestsMock() as http:
        http.add("GET", topic_url(engine), body=topic_bytes(engine), content_type=content_type)
        return adapter.topics.topic_page(topic_url(engine)[len(BASE):], CASES[engine][1])[2]


@pytest.mark.parametrize("engine", ["smf", "punbb", "xenforo"])
def test_utf8_bytes_labelled_windows_1251_read_as_utf8(engine):
    """issue 26 item 9b: bytes that are UTF-8 beyond doubt (they decode, with multi-byte sequences) are UTF-8
    whatever the header says; issue 17 item 18 refused them, and mojibake before that."""
    posts = _read(engine, CP1251)
    assert posts == _read(engine, UTF8) and any(not p.author.isascii() for p in posts)


def test_windows_1251_bytes_labelled_utf8_are_refused_naming_the_charset():
    with pytest.raises(PageFormatChanged, match="labelled utf-8 by the server but windows-1251"):
        _read("mybbru", UTF8)


def test_bytes_that_do_not_decode_are_refused_without_a_meta_to_contradict():
    body = topic_bytes("mybbru").replace(b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
                                         b"")
    adapter = adapter_class("mybbru")(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    with responses.RequestsMock() as http:
        http.add("GET", topic_url("mybbru"), body=body, content_type=UTF8)
        with pytest.raises(PageFormatChanged, match=r"does not decode as utf-8 \(byte [0-9a-f]{2} at \d+\)"):
            adapter.topics.topic_page(topic_url("mybbru")[len(BASE):], CASES["mybbru"][1])


@pytest.mark.parametrize("engine, alias", [("xenforo", "text/html; charset=utf8"),
                                           ("mybbru", "text/html; charset=cp1251")])
def test_aliases_of_one_charset_read_as_before(engine, alias):
    assert _read(engine, alias) == _read(engine, CASES[engine][4])


def _closed_board_read(cls, served: str | None = None, encoding: str | None = None, meta: str | None = None):
    """The posts the adapter reads off the fake board's thread; `served` replaces the Content-Type header,
    `encoding` the bytes' charset, `meta` the charset the vB page's own meta tag names."""
    board = cls("Бот", "пароль", lambda: NOW)
    board.thread(101, "101")
    board.add_post("101", "Игрок0", "голосую Маф1", NOW - timedelta(minutes=9))
    plain = board.answer

    def answer(status, body, headers=None):
        code, sent, data = plain(status, body, headers)
        if meta is not None:
            body = body.replace("charset=windows-1251", f"charset={meta}")
        if encoding is not None or meta is not None:
            data = body.encode(encoding or "cp1251")
        return code, {**sent, **({"Content-Type": served} if served else {})}, data

    board.answer = answer
    url = board.base + ("showthread.php?t=101" if cls is VbBoard else "topic/101-igra/")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        board.install(http)
        adapter_cls = VbulletinForum if cls is VbBoard else InvisionForum
        return adapter_cls(board.base, "Бот", "пароль", timezone_name="Europe/Moscow").fetch_posts(url)[0]


def test_closed_engines_refuse_windows_1251_bytes_labelled_utf8():
    with pytest.raises(PageFormatChanged, match="labelled"):
        _closed_board_read(VbBoard, "text/html; charset=UTF-8")


def test_invision_reads_utf8_bytes_labelled_windows_1251():
    """issue 26 item 9b: refused by issue 17 item 18's check, now read as the UTF-8 they are."""
    posts = _closed_board_read(IpsBoard, "text/html; charset=windows-1251")
    assert [(p.author, p.text) for p in posts] == [("Игрок0", "голосую Маф1")]


def test_vbulletin_reads_utf8_bytes_labelled_windows_1251_in_header_and_meta():
    """issue 26 item 9b: a vB board converted to UTF-8 that kept windows-1251 in its header and template: both
    labels agree, the bytes (real UTF-8) decoded as windows-1251 gave "РРіСЂРѕРє0" (or refused on the byte
    0x98 cp1251 lacks); read by the bytes, the names are right."""
    assert [(p.author, p.text) for p in _closed_board_read(VbBoard, encoding="utf-8")] == \
        [("Игрок0", "голосую Маф1")]


def test_vbulletin_windows_1251_bytes_labelled_windows_1251_read_as_before():
    assert [(p.author, p.text) for p in _closed_board_read(VbBoard)] == [("Игрок0", "голосую Маф1")]


def test_vbulletin_windows_1251_bytes_labelled_utf8_everywhere_are_refused_not_guessed():
    """The reverse: windows-1251 bytes never decode as UTF-8 (not valid, so the label stands); with nothing
    contradicting the label, the page is refused naming the charset, never read as guessed."""
    board_bytes = "Игрок0 голосую Маф1".encode("cp1251")
    with pytest.raises(UnicodeDecodeError):
        board_bytes.decode("utf-8")
    with pytest.raises(PageFormatChanged, match="does not decode as utf-8"):
        _closed_board_read(VbBoard, "text/html; charset=UTF-8", meta="UTF-8")

