"""Invision 4: the real saved excerpts read into posts from data-quotedata (issue 10 items 3 and 4)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from adapters.html.extract import extract_posts
from adapters.html.hooks import Context
from adapters.html.dom import parse
from adapters.invision.profile import INVISION

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "invision"
UTC = timezone.utc


def read(name: str, wrap: str = "{}"):
    tree = parse(wrap.format((FIX / name).read_text(encoding="utf-8")))
    return extract_posts(tree, INVISION, Context(INVISION, UTC, datetime(2024, 1, 1, tzinfo=UTC)), "34923")


def test_armbian_onepost_from_quotedata():
    """a-topic-onepost-ips4-en.armbian: id, member, member id and unix time come from the data-quotedata JSON,
    exact (C-1: no rough span); the body is the commentContent; the author pane is outside the wrapper."""
    (post,) = read("a-topic-onepost-ips4-en.armbian.REAL-EXCERPT.html")
    assert (post.id, post.author, post.author_id) == ("92583", "fabiobassa", "13603")
    assert post.posted_at == datetime.fromtimestamp(1578521393, UTC) == datetime(2020, 1, 8, 22, 9, 53, tzinfo=UTC)
    assert post.posted_latest is None
    assert post.text == "@jock\nWell, simply speachless ."
    assert post.edited_at is None and not post.quoted


def test_time_element_agrees_with_quotedata():
    """The same post's <time datetime='2020-01-08T22:09:53Z'>, read when the JSON has no timestamp."""
    src = (FIX / "a-topic-onepost-ips4-en.armbian.REAL-EXCERPT.html").read_text(encoding="utf-8")
    src = src.replace("&quot;timestamp&quot;:1578521393,", "")
    (post,) = extract_posts(parse(src), INVISION, Context(INVISION, UTC, datetime(2024, 1, 1, tzinfo=UTC)), "1")
    assert post.posted_at == datetime(2020, 1, 8, 22, 9, 53, tzinfo=UTC)


def test_psyforum_russian_quote_is_stripped():
    """a-quote-ips4-ru.psyforum: the blockquote.ipsQuote leaves the text and marks the post as quoting (H-3).
    The snippet is a body only: it is read inside a comment wrapper as the topic page has it."""
    wrap = ('<div data-commentid="5717990" data-quotedata="{{&quot;userid&quot;:7,&quot;username&quot;:'
            '&quot;Гость&quot;,&quot;timestamp&quot;:1512480000,&quot;contentcommentid&quot;:5717990}}">{}</div>')
    (post,) = read("a-quote-ips4-ru.psyforum.SNIPPET.html", wrap)
    assert post.quoted
    assert post.text == "Это в каком законе написано?)"
    assert "девственник" in post.html and "девственник" not in post.text


def test_edit_line_is_an_edit_time_and_not_text():
    """IPS prints the edit line inside the content (<span data-excludequote><strong>Изменено <time>...):
    read as the edit time (C-11) and kept out of the text. Markup from the IPS templates: unverified."""
    src = (FIX / "a-topic-onepost-ips4-en.armbian.REAL-EXCERPT.html").read_text(encoding="utf-8")
    src = src.replace("Well, simply speachless .\n</p>", "Well, simply speachless .\n</p><span class='ipsType_reset' "
                      "data-excludequote><strong>Изменено <time datetime='2020-01-08T23:00:00Z'>8 января</time> "
                      "пользователем fabiobassa</strong></span>")
    (post,) = extract_posts(parse(src), INVISION, Context(INVISION, UTC, datetime(2024, 1, 1, tzinfo=UTC)), "1")
    assert post.edited_at == datetime(2020, 1, 8, 23, 0, tzinfo=UTC) and post.edit_count == 1
    assert "Изменено" not in post.text
    assert "selectors.edit_notice" in INVISION.unverified
