"""Issue 10 item 1 (XenForo 2), "Done means" 1: every saved XenForo page read into posts with the right ids,
authors, times, edit flags and quote/signature stripping. Real pages first (fixtures/xenforo/README.md), then
the synthesized Russian page for what no real page shows (quotes, spoilers, edits, signatures, pageNav)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from adapters.html.extract import extract_posts, page_info
from adapters.html.hooks import Context, xf_data_time
from adapters.html.dom import parse, select
from adapters.xenforo.profile import XENFORO
from adapters_support import FIXTURES
from forumbot.forum.http_page import Page

MSK = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)


def tree(name: str):
    return Page(url="https://xf.test/community/", status=200, headers={},
                content=(FIXTURES / "xenforo" / name).read_bytes(), charset="utf-8").tree()


def read(name: str):
    return extract_posts(tree(name), XENFORO, Context(XENFORO, MSK, NOW), "101")


def utc(unix: int) -> datetime:
    return datetime.fromtimestamp(unix, timezone.utc)


def test_real_xenforo_com_guest_thread_page_a_thread_xf20_en_guest():
    """a-thread-xf20-en-guest.xenforo.com.REAL.html: 8 posts; ids from data-content/js-post, authors as
    data-author says, author ids from data-user-id, times from data-time (unix)."""
    name = "a-thread-xf20-en-guest.xenforo.com.REAL.html"
    posts = read(name)
    t = tree(name)
    expected = [(a.get("data-content").split("-")[1], a.get("data-author")) for a in select(t, "article.message--post")]
    assert [(p.id, p.author) for p in posts] == expected
    assert [p.id for p in posts] == ["114210", "114243", "114249", "114253", "115610", "1091229", "1091230", "1358710"]
    first, last = posts[0], posts[-1]
    assert (first.author, first.author_id, first.posted_at) == ("dieketzer", "496", utc(1290336718))
    assert first.posted_at == datetime(2010, 11, 21, 10, 51, 58, tzinfo=timezone.utc)  # = datetime attribute
    assert (last.author, last.author_id, last.posted_at) == ("sub_ubi", "53960", utc(1561541109))
    # 2016-08-21T07:09:15+0100 in the datetime attribute: the same instant as data-time
    assert posts[5].posted_at == datetime(2016, 8, 21, 6, 9, 15, tzinfo=timezone.utc)
    assert all(p.posted_latest is None for p in posts)  # exact: no rough span (C-1)
    assert all(p.edited_at is None and p.edit_count == 0 and not p.quoted for p in posts)
    assert first.text.startswith("it would be great if by default a dark theme shipped with xenforo.")
    assert "Reactions" not in first.text and "Well-known member" not in first.text  # only the body
    assert "https://xenforo.com/community/resources/" in posts[6].text
    info = page_info(t, XENFORO, 1)
    assert (info.pages, info.has_next) == (1, False)  # no pageNav: one page


def test_real_vipcorel_one_post_excerpt_a_thread_onepost_xf2_vi():
    (post,) = read("a-thread-onepost-xf2-vi.vipcorel.REAL-EXCERPT.html")
    assert (post.id, post.author, post.author_id) == ("16838", "vipcorel.com", "1")
    # data-time 1757735693 = 2025-09-13T10:54:53+0700
    assert post.posted_at == datetime(2025, 9, 13, 3, 54, 53, tzinfo=timezone.utc) == utc(1757735693)
    assert post.text.startswith("Market Sân khấu Đại hội") and post.edited_at is None


def test_real_simsmix_forum_list_logged_in_marks_x_forumlist_xf23_ru():
    """The Russian XF 2.3 page: no posts, but the marks the adapter reads on every page."""
    t = tree("x-forumlist-xf23-ru-loggedin.simsmix.REAL-EXCERPT.html")
    assert select(t, XENFORO.selectors["logged_in"])
    assert t.get("data-csrf") == "1787678415,(redacted)"
    assert read("x-forumlist-xf23-ru-loggedin.simsmix.REAL-EXCERPT.html") == []
    assert not select(tree("a-thread-xf20-en-guest.xenforo.com.REAL.html"), XENFORO.selectors["logged_in"])


# The Russian relative phrases the simsmix page serves (XF.phrases), as a <time> without data-time would show them.
# now is 2026-12-01 13:00 Moscow time.
@pytest.mark.parametrize("shown,earliest,latest", [
    ("Только что", timedelta(seconds=-59), timedelta(0)),  # a_moment_ago
    ("Менее минуты назад", timedelta(minutes=-1), timedelta(0)),  # in_a_minute
    ("1 минуту назад", timedelta(minutes=-2), timedelta(minutes=-1)),  # one_minute_ago
    ("5 мин. назад", timedelta(minutes=-6), timedelta(minutes=-5)),  # x_minutes_ago
    ("Сегодня в 12:07", timedelta(minutes=-53), timedelta(minutes=-52, seconds=-1)),  # today_at_x
    ("Вчера в 23:10", timedelta(hours=-13, minutes=-50), timedelta(hours=-13, minutes=-49, seconds=-1)),
])
def test_russian_relative_dates_from_the_simsmix_phrases_are_read_as_spans_C_1(shown, earliest, latest):
    el = parse(f'<html><body><time class="u-dt">{shown}</time></body></html>').find(".//time")
    span = xf_data_time(el, Context(XENFORO, MSK, NOW))
    assert span is not None and (span.earliest - NOW, span.latest - NOW) == (earliest, latest)


def test_data_time_wins_over_the_words_shown():
    el = parse('<html><body><time class="u-dt" data-time="1796119200">5 мин. назад</time></body></html>').find(".//time")
    span = xf_data_time(el, Context(XENFORO, MSK, NOW))
    assert span.earliest == span.latest == utc(1796119200)


def test_synthesized_russian_page_quotes_spoilers_code_signature_edit_S_thread_ru_loggedin_page2():
    """S-thread-ru-loggedin-page2.html (documented markup, unverified): page 2 of 3, posts 5021-5040."""
    posts = {p.id: p for p in read("S-thread-ru-loggedin-page2.html")}
    assert sorted(posts) == [str(i) for i in range(5021, 5041)]
    sheriff, don, m1, m2 = (posts[str(i)] for i in (5021, 5022, 5023, 5024))
    assert (sheriff.author, sheriff.text) == ("Шериф", "голосую Маф1")
    assert "Подпись" not in sheriff.text and "Подпись" not in sheriff.html  # the signature is outside the body
    assert don.quoted and don.text == "А я за Шериф" and "голосую Маф1" not in don.text
    assert m1.text.split() == ["голос:", "Дон", "и"]  # block and inline spoilers gone
    assert m1.edited_at == datetime(2026, 12, 1, 9, 26, tzinfo=timezone.utc) and m1.edit_count == 1
    assert m1.posted_at == datetime(2026, 12, 1, 9, 23, tzinfo=timezone.utc)
    assert m2.text == "Маф1"  # the code block is not a vote
    assert all(p.edited_at is None for k, p in posts.items() if k != "5023")
    info = page_info(tree("S-thread-ru-loggedin-page2.html"), XENFORO, 2)
    assert (info.pages, info.has_next) == (3, True)


def _all_pages():
    return [tree(p.name) for p in sorted((FIXTURES / "xenforo").glob("*.html"))]


def _named(profile):
    yield from ((f"selectors.{k}", v) for k, v in profile.selectors.items())
    yield from ((f"strip[{i}]", v) for i, v in enumerate(profile.strip))
    yield from ((f"forms.{k}", spec.selector) for k, spec in profile.forms.items())


def test_every_selector_matches_a_saved_page_and_those_only_synthesized_pages_show_are_unverified():
    real = [tree(p.name) for p in sorted((FIXTURES / "xenforo").glob("*REAL*.html"))]
    pages = _all_pages()
    # no error page or captcha was saved; reply and compose are posted as fields, their forms never looked up
    unseen = {"selectors.error", "selectors.captcha", "forms.reply", "forms.compose"}
    dead = [name for name, css in _named(XENFORO) if not any(select(t, css) for t in pages) and name not in unseen]
    assert dead == []
    only_synthesized = {name for name, css in _named(XENFORO) if not any(select(t, css) for t in real)}
    assert only_synthesized - XENFORO.unverified - {"selectors.captcha"} == set()  # no captcha is fine to miss
    assert XENFORO.unknown_unverified() == []
