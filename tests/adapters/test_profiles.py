"""Profiles against saved pages: every selector matches somewhere, every hook reads what the page shows."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from adapters.html.extract import extract_posts, page_info
from adapters.html import hooks
from adapters.html.hooks import Context
from adapters.html.dom import find_form, select
from adapters.html.profile import HtmlProfile
from adapters.mybb.profile import MYBB
from adapters.phpbb.profile import PHPBB
from adapters_support import FIXTURES
from forumbot.forum.http_page import Page

MSK = ZoneInfo("Europe/Moscow")
# The boards were saved on 29 Nov 2026 around 15:05 Moscow time; relative dates count back from then.
SAVED_AT = datetime(2026, 11, 29, 12, 5, tzinfo=timezone.utc)


def tree(engine: str, name: str):
    return Page(url="http://127.0.0.1/", status=200, headers={}, content=(FIXTURES / engine / name).read_bytes(),
                charset="utf-8").tree()


def pages(engine: str):
    return [tree(engine, p.name) for p in sorted((FIXTURES / engine).glob("*.html"))
            if p.name[0].isdigit() or p.name.startswith("S")]


def all_selectors(profile: HtmlProfile):
    yield from profile.selectors.items()
    for i, css in enumerate(profile.strip):
        yield f"strip[{i}]", css
    for name, spec in profile.forms.items():
        yield f"forms.{name}", spec.selector


@pytest.mark.parametrize("profile,engine", [(PHPBB, "phpbb"), (MYBB, "mybb")], ids=["phpbb", "mybb"])
def test_every_selector_matches_on_some_saved_page(profile, engine):
    trees = pages(engine)
    # a selector no saved page can show (a post awaiting approval) is one the profile lists as unverified
    dead = [name for name, css in all_selectors(profile) if not any(select(t, css) for t in trees)
            and f"selectors.{name}" not in profile.unverified]
    assert dead == [], f"{engine} selectors matching nothing on the fixtures: {dead}"
    for name, spec in profile.forms.items():
        assert any(find_form(t, spec.selector, spec.needs) is not None for t in trees), name
    for role, function in profile.hooks.items():  # the profile names the function itself (issue 27 item 2)
        assert callable(function) and getattr(hooks, function.__name__) is function, role


def ctx(profile):
    return Context(profile, MSK, SAVED_AT)


def posts(profile, engine, name):
    return {p.id: p for p in extract_posts(tree(engine, name), profile, ctx(profile), "t")}


def test_phpbb_posts_quotes_code_spoilers_signatures_edits():
    page1 = posts(PHPBB, "phpbb", "20_topic_page1.html")
    assert len(page1) == 10
    alice, bob, carol, masha = page1["2"], page1["3"], page1["4"], page1["5"]
    assert (alice.author, alice.author_id) == ("alice", "59")
    assert alice.posted_at == datetime(2026, 11, 26, 12, 7, 9, tzinfo=timezone.utc)
    assert "Keep calm" not in alice.text and "Keep calm" in page(PHPBB, "phpbb", "20_topic_page1.html")
    assert bob.edit_count == 1 and bob.edited_at == datetime(2026, 11, 26, 14, 35, tzinfo=timezone.utc)
    assert carol.edit_count == 1
    assert masha.text == "Отвечаю на цитату: согласна, начинаем!"  # the quote of alice is gone
    assert "<blockquote" in masha.html
    spoiler = page1["7"]
    assert spoiler.text == "Спойлер и код:\nКонец поста." and "roll(2d6)" in spoiler.html
    admin_edit = page1["9"]
    assert admin_edit.edit_count == 2 and admin_edit.edited_at == datetime(2026, 11, 27, 2, 25, tzinfo=timezone.utc)
    nested = posts(PHPBB, "phpbb", "28_topic_via_post_link_p13_nested_quotes.html")["13"]
    assert nested.text == "Двойная цитата."


def page(profile, engine, name):
    return (FIXTURES / engine / name).read_text(encoding="utf-8")


def test_mybb_posts_agree_with_the_phpbb_board():
    """Both boards hold the same posts: MyBB's minute-precise local dates must give phpBB's UTC times."""
    php = sorted(posts(PHPBB, "phpbb", "20_topic_page1.html").values(), key=lambda p: int(p.id))
    my = sorted(posts(MYBB, "mybb", "20_thread_page1.html").values(), key=lambda p: int(p.id))
    for a, b in zip(php, my):
        assert a.author == b.author and a.posted_at.replace(second=0) == b.posted_at
    for a, b in zip(php[:7], my[:7]):  # the admin edit of #8 differs between the boards
        assert (a.text, a.edit_count) == (b.text, b.edit_count)
    assert my[1].edited_at == datetime(2026, 11, 26, 14, 35, tzinfo=timezone.utc)


@pytest.mark.parametrize("profile,engine,pages", [
    (PHPBB, "phpbb", {"20_topic_page1.html": ["5", "9"], "28_topic_via_post_link_p13_nested_quotes.html": ["13"],
                      "23_topic_last_page.html": []}),
    (MYBB, "mybb", {"20_thread_page1.html": ["4", "8"], "21_thread_page2.html": ["12"],
                    "23_thread_last_page.html": []}),
], ids=["phpbb", "mybb"])
def test_H3_M7_posts_whose_quotes_were_removed_are_marked_quoted(profile, engine, pages):
    """The quote leaves the text but the post says it had one: a vote post with a quote is no vote."""
    for name, quoting in pages.items():
        found = posts(profile, engine, name)
        assert sorted((p.id for p in found.values() if p.quoted), key=int) == quoting, name
        for pid in quoting:
            assert "<blockquote" in found[pid].html and "писал" not in found[pid].text


def test_mybb_relative_dates_today_and_hours_ago():
    last = posts(MYBB, "mybb", "23_thread_last_page.html")
    assert last["31"].posted_at == datetime(2026, 11, 28, 23, 17, tzinfo=timezone.utc)  # "Today, 02:17" (title)
    assert last["31"].posted_latest == datetime(2026, 11, 28, 23, 17, 59, tzinfo=timezone.utc)  # to the minute
    # C-1: "10 часов назад" is 10 to 11 hours ago; the stamp is that range, its earliest bound first
    assert last["32"].posted_at == datetime(2026, 11, 29, 1, 5, tzinfo=timezone.utc)
    assert last["32"].posted_latest == datetime(2026, 11, 29, 2, 5, tzinfo=timezone.utc)
    merged = posts(MYBB, "mybb", "15_thread2_after_merge.html")["36"]
    assert merged.edited_at == SAVED_AT and "Quick reply #1" in merged.text  # "менее 1 минуты назад"


def test_pagination_reads_offsets_and_page_numbers():
    info = page_info(tree("phpbb", "20_topic_page1.html"), PHPBB, 0)
    assert (info.per_page, info.pages, info.has_next) == (10, 4, True)
    assert page_info(tree("phpbb", "23_topic_last_page.html"), PHPBB, 30).has_next is False
    assert page_info(tree("mybb", "20_thread_page1.html"), MYBB, 1).has_next is True
    assert page_info(tree("mybb", "23_thread_last_page.html"), MYBB, 4).has_next is False


@pytest.mark.parametrize("text,expected", [
    ("26 ноя 2026, 15:07", datetime(2026, 11, 26, 12, 7, tzinfo=timezone.utc)),
    ("26.11.2026, 15:07", datetime(2026, 11, 26, 12, 7, tzinfo=timezone.utc)),
    ("Сегодня, 12:30", datetime(2026, 11, 29, 9, 30, tzinfo=timezone.utc)),
    ("Вчера в 23:59", datetime(2026, 11, 28, 20, 59, tzinfo=timezone.utc)),
    ("6 часов назад", datetime(2026, 11, 29, 6, 5, tzinfo=timezone.utc)),
    ("менее 1 минуты назад", SAVED_AT),
    ("5 minutes ago", datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)),
    ("Thu Nov 26, 2026 3:07 pm", datetime(2026, 11, 26, 12, 7, tzinfo=timezone.utc)),
    ("11-26-2026, 03:07 PM", datetime(2026, 11, 26, 12, 7, tzinfo=timezone.utc)),
    ("2026-11-26T12:07:09+00:00", datetime(2026, 11, 26, 12, 7, 9, tzinfo=timezone.utc)),
])
def test_forum_dates(text, expected):
    assert Context(MYBB, MSK, SAVED_AT).date(text) == expected


def test_windows_1251_page_is_read_by_its_declared_charset():
    raw = (FIXTURES / "mybb" / "mybbru-viewtopic.RECONSTRUCTED.html").read_bytes()
    served = Page(url="http://x/", status=200, headers={"Content-Type": "text/html; charset=windows-1251"},
                  content=raw, charset="windows-1251")
    words = " ".join(served.tree().itertext())
    assert "Отредактировано" in words or "Сообщений" in words or "Цитата" in words
    # What guessing UTF-8 would have done: no Cyrillic survives.
    wrong = Page(url="http://x/", status=200, headers={}, content=raw, charset="utf-8")
    assert "Сообщ" not in " ".join(wrong.tree().itertext())
