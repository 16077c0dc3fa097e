"""Issue 17 item 23: one post of a few MB of small elements cost 3-6 s per read of its page (bench/big_post.py:
1.15 s of extraction for 5 MB here, 0.18 s now). A post body over MAX_POST_ELEMENTS elements is read as its plain
text, capped, without the per-element Python walk; every other post on the page is read as before. Counted in
elements walked, never in seconds.

The page is the real saved phpBB topic page fixtures/phpbb/20_topic_page1.html with its first post's body replaced
(as bench/big_post.py does)."""

from __future__ import annotations

import importlib
from datetime import datetime, timezone
from pathlib import Path

import pytest

from adapters.html.bounded import MAX_POST_ELEMENTS, MAX_POST_TEXT, more_elements_than
from adapters.html.extract import extract_posts
from adapters.html.hooks import Context
from adapters.html.dom import parse
from adapters.phpbb.profile import PHPBB

B = importlib.import_module("adapters.html.bounded")
PAGE = Path(__file__).resolve().parents[2] / "fixtures" / "phpbb" / "20_topic_page1.html"
FIRST = "Всем привет! Это <strong class=\"text-strong\">первый пост</strong> длинной темы для проверки бота.<br>"
CTX = Context(PHPBB, timezone.utc, datetime(2026, 1, 1, tzinfo=timezone.utc))


def read(body: str):  # type: ignore[no-untyped-def]
    page = PAGE.read_text(encoding="utf-8")
    assert FIRST in page
    return extract_posts(parse(page.replace(FIRST, body, 1)), PHPBB, CTX, "1")


@pytest.fixture
def walked(monkeypatch):
    """Elements under the bodies that clean_text and inner_html were given (each walks them all in Python)."""
    count = [0]
    for name in ("clean_text", "inner_html"):
        real = getattr(B, name)

        def counting(el, *a, _real=real, **kw):  # type: ignore[no-untyped-def]
            count[0] += sum(1 for _ in el.iter())
            return _real(el, *a, **kw)

        monkeypatch.setattr(B, name, counting)
    return count


def test_a_5_mb_post_of_small_elements_is_read_without_walking_them(walked):
    posts = read("<strong>x</strong> " * 260_000)  # 5 MB
    big, *others = posts
    assert walked[0] < 1_000  # the other nine posts' bodies only: before, over 500,000
    assert len(big.text) == MAX_POST_TEXT and set(big.text) == {"x", " "} and big.html == ""
    assert len(others) == 9 and all(p.text and p.html for p in others)
    assert [p.id for p in posts] == [p.id for p in read(FIRST)]  # the same posts, ids, authors and times
    assert [(p.author, p.posted_at) for p in posts] == [(p.author, p.posted_at) for p in read(FIRST)]


def test_a_post_within_the_bound_is_read_as_before(walked):
    # the body's own element counts too: MAX_POST_ELEMENTS - 1 elements inside it
    body = "Маша " + "<strong>x</strong>" * (MAX_POST_ELEMENTS - 1)
    (first, *_) = read(body)
    assert first.text.startswith("Маша " + "x" * (MAX_POST_ELEMENTS - 1) + "\n")
    assert first.html.startswith("Маша <strong>x</strong>")
    assert walked[0] > 2 * (MAX_POST_ELEMENTS - 1)


def test_the_count_stops_at_the_bound():
    tree = parse("<div>" + "<b>x</b>" * 50 + "</div>")
    div = tree.find(".//div")
    assert more_elements_than(div, 50) and not more_elements_than(div, 51)
