"""vBulletin 3.8/4.2: the two real saved thread pages read into posts (issue 10 items 2 and 4)."""

from __future__ import annotations

from datetime import datetime, timezone
import hashlib
from pathlib import Path

import pytest

from adapters.html.extract import extract_posts
from adapters.html.hooks import Context, vb_edit_notice
from adapters.html.dom import parse, select
from adapters.vbulletin.profile import VBULLETIN
from adapters.vbulletin.forum import VbulletinForum, md5_password

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "vbulletin"
VB3 = "a-thread-vb3811-en-loggedin.animesuki.REAL.html"
VB4 = "a-thread-vb423-en-guest.militarytimes.REAL.html"
UTC = timezone.utc


def read(name: str, charset: str):
    tree = parse((FIX / name).read_bytes().decode(charset))
    ctx = Context(VBULLETIN, UTC, datetime(2019, 7, 3, tzinfo=UTC))
    return tree, extract_posts(tree, VBULLETIN, ctx, "128882")


def test_vb3811_page_ids_authors_times():
    """a-thread-vb3811-en-loggedin: 20 posts, ids from table#postID, authors from a.bigusername (C-3: the
    member id comes with the name), times from the header cell, read as a minute (C-1)."""
    _, posts = read(VB3, "iso-8859-1")
    assert len(posts) == 20
    first, last = posts[0], posts[-1]
    assert (first.id, first.author, first.author_id) == ("5768670", "Shirohige", "250472")
    assert first.posted_at == datetime(2016, 2, 1, 2, 21, tzinfo=UTC)
    assert first.posted_latest == datetime(2016, 2, 1, 2, 21, 59, tzinfo=UTC)
    assert (last.id, last.author, last.author_id) == ("5778211", "Kamieichi", "218113")
    assert [p.id for p in posts] == sorted((p.id for p in posts), key=int)
    assert {p.author for p in posts} >= {"BBOvenGuy", "karice67", "Sagitta Luminis", "Marcus H."}


def test_vb3811_edit_notices_are_edit_times():
    """The 3 "Last edited by X; 2016-02-01 at <span class=time>03:31</span>." notices (C-11)."""
    _, posts = read(VB3, "iso-8859-1")
    edited = {p.id: p.edited_at for p in posts if p.edited_at}
    assert edited == {
        "5768696": datetime(2016, 2, 1, 3, 31, tzinfo=UTC),
        "5768715": datetime(2016, 2, 1, 5, 50, tzinfo=UTC),
        "5778115": datetime(2016, 2, 13, 7, 31, tzinfo=UTC),
    }
    assert all(p.edit_count == (1 if p.edited_at else 0) for p in posts)


def test_vb3811_quotes_and_signatures_are_not_text():
    """Quotes ("Originally Posted by", and uncited ones) leave the text and mark the post as quoting (H-3);
    signatures after `__________________` never reach the text."""
    tree, posts = read(VB3, "iso-8859-1")
    by_id = {p.id: p for p in posts}
    shiro = by_id["5768670"]
    assert shiro.quoted and "Originally Posted by" not in shiro.text and "TinyRedLeaf" not in shiro.text
    assert "Sexual orientation is a broad spectrum" not in shiro.text  # an uncited quote
    assert shiro.text.startswith("Let me reword it")
    assert "Sexual orientation" in shiro.html  # the raw body keeps them
    assert not any("__________________" in p.text for p in posts)
    assert "Interview translations" in tree.xpath("string(//body)")  # karice67's signature is on the page
    assert not any("Interview translations" in p.text for p in posts)
    assert sum(p.quoted for p in posts) == sum("Quote:" in p.html for p in posts) == 12
    assert not by_id["5769034"].quoted


def test_vb3811_page_carries_the_quick_reply_and_token():
    tree, _ = read(VB3, "iso-8859-1")
    qr = select(tree, VBULLETIN.forms["reply"].selector)[0]
    assert qr.get("action") == "newreply.php?do=postreply&t=128882"
    token = select(tree, VBULLETIN.selectors["security_token"])[0].get("value")
    assert token == "1562130495-6c94371919301b321336ef39cd23940fa58e0cb4"
    assert select(tree, VBULLETIN.selectors["logged_in"])
    assert select(tree, VBULLETIN.selectors["next_page"])[0].get("href") == "showthread.php?t=128882&page=153"
    assert select(tree, VBULLETIN.selectors["page_end"])


def test_vb423_page_ids_authors_times_quotes_signatures():
    """a-thread-vb423-en-guest: li#post_ID, friendly member URLs (member.php/13985-Rainmaker), "06-15-2016,
    03:03 PM", bbcode_quote blocks, blockquote.signature outside the text."""
    tree, posts = read(VB4, "utf-8")
    assert [p.id for p in posts] == ["365266", "365267", "365268", "365271", "365272", "365273", "365274",
                                     "365275", "367740", "367742"]
    assert (posts[0].author, posts[0].author_id) == ("Rainmaker", "13985")
    assert (posts[1].author, posts[1].author_id) == ("Mjölnir", "15870")
    assert posts[0].posted_at == datetime(2016, 6, 15, 15, 3, tzinfo=UTC)
    assert posts[-1].posted_at == datetime(2016, 9, 19, 14, 38, tzinfo=UTC)
    assert not any(p.edited_at for p in posts)  # no edit notice on this page
    q = posts[4]
    assert q.quoted and "Originally Posted by" not in q.text and "two spaces" not in q.text
    assert q.text.startswith("and who could forget")
    assert "The most important six inches" not in posts[1].text  # Mjölnir's signature
    assert "The most important six inches" in tree.xpath("string(//body)")
    assert select(tree, VBULLETIN.selectors["page_end"]) and not select(tree, VBULLETIN.selectors["logged_in"])


def test_vb423_guest_page_has_the_md5_login_form():
    tree, _ = read(VB4, "utf-8")
    spec = VBULLETIN.forms["login"]
    form = select(tree, spec.selector)[0]
    names = {el.get("name") for el in form.xpath(".//input")}
    assert {"vb_login_username", "vb_login_password", "vb_login_md5password", "vb_login_md5password_utf",
            "securitytoken", "do"} <= names


def test_md5_password_as_vb_md5hash():
    """vb_login_md5password: md5 over str_to_ent (chars above U+00FF as entities); _utf: md5 of UTF-8."""
    ascii_md5, ascii_utf = md5_password("secret")
    assert ascii_md5 == ascii_utf == "5ebe2294ecd0e0f08eab7690d2a6ee69"
    ru, ru_utf = md5_password("пароль")
    assert ru == hashlib.md5("&#1087;&#1072;&#1088;&#1086;&#1083;&#1100;".encode()).hexdigest()
    assert ru_utf == hashlib.md5("пароль".encode("utf-8")).hexdigest() and ru != ru_utf


@pytest.mark.parametrize("notice, expected", [
    ("Last edited by Shirohige; 2016-02-01 at 03:31.", datetime(2016, 2, 1, 3, 31, tzinfo=UTC)),
    ("Последний раз редактировалось Маф1; 01.12.2026 в 10:05.", datetime(2026, 12, 1, 10, 5, tzinfo=UTC)),
    ("Последний раз редактировалось Маф1; 01.12.2026 в 10:05. Причина: опечатка",
     datetime(2026, 12, 1, 10, 5, tzinfo=UTC)),
    ("Last edited by bob; 06-15-2016 at 03:03 PM. Reason: typo", datetime(2016, 6, 15, 15, 3, tzinfo=UTC)),
])
def test_edit_notice_english_and_russian(notice, expected):
    """The Russian form is unverified (no Russian page saved): 'Последний раз редактировалось X; DATE в TIME.'"""
    el = parse(f"<html><body><em>{notice}</em></body></html>").find(".//em")
    ctx = Context(VBULLETIN, UTC, datetime(2026, 12, 2, tzinfo=UTC))
    assert vb_edit_notice(el, ctx) == (expected, 1)


@pytest.mark.parametrize("name, content_type", [
    (VB3, "text/html"),  # the charset only in the page's meta tag (ISO-8859-1)
    (VB4, "text/html; charset=UTF-8"),
])
def test_real_pages_through_the_adapter_are_whole_and_decoded(name, content_type):
    """Served over HTTP, each real page counts as complete (its page-end element and </html>) and is decoded
    in the charset it declares, so no post is cut or garbled (issue 7 item 9)."""
    import responses

    from adapters.vbulletin.forum import VbulletinForum

    with responses.RequestsMock() as http:
        http.add("GET", "https://vb.test/showthread.php?t=128882", body=(FIX / name).read_bytes(),
                 content_type=content_type)
        a = VbulletinForum("https://vb.test/", "bot", None, printthread=False)
        page, _, posts = a.topics.topic_page("showthread.php?t=128882", "128882")
    expected = read(name, "iso-8859-1" if name == VB3 else "utf-8")[1]
    assert [(p.id, p.author, p.text) for p in posts] == [(p.id, p.author, p.text) for p in expected]
    assert any("Mjölnir" == p.author for p in posts) or name == VB3


@pytest.mark.parametrize("markup, earliest", [
    ('<span class="date">Сегодня,&nbsp;<span class="time">10:05</span></span>', datetime(2026, 12, 2, 7, 5, tzinfo=UTC)),
    ('<span class="date">Вчера,&nbsp;<span class="time">23:59</span></span>', datetime(2026, 12, 1, 20, 59, tzinfo=UTC)),
    ('<td class="thead"><a name="post1"><img alt="Старое" /></a> 01.12.2026, 10:00 </td>',
     datetime(2026, 12, 1, 7, 0, tzinfo=UTC)),
])
def test_relative_and_russian_post_dates_are_minute_spans(markup, earliest):
    """vB's "Сегодня"/"Вчера" (unverified Russian phrases) and d.m.Y dates, in the bot's zone (Moscow): a
    minute long (C-1)."""
    from zoneinfo import ZoneInfo

    from adapters.html.hooks import vb_post_date
    el = parse(f"<html><body><table><tr>{markup}</tr></table></body></html>").xpath("//span[@class='date']|//td")[0]
    ctx = Context(VBULLETIN, ZoneInfo("Europe/Moscow"), datetime(2026, 12, 2, 9, 0, tzinfo=UTC))
    span = vb_post_date(el, ctx)
    assert span.earliest == earliest and (span.latest - span.earliest).total_seconds() == 59


# vB 4's friendly URLs (includes/class_friendly_url.php): basic `showthread.php?31-slug`, advanced
# `showthread.php/31-slug` (the saved 4.2.3 page's canonical link), mod_rewrite `threads/31-slug`
FRIENDLY = {
    "https://vb.example/showthread.php?31-Mafia-day-1": "31",
    "https://vb.example/threads/31-Mafia-day-1": "31",
    "https://vb.example/forum/threads/31-Mafia-day-1/page2": "31",
    "https://vb.example/showthread.php/9687-Legendary-military-columnist-author-Bob-Dorr-dies-at-76": "9687",
    "https://vb.example/showthread.php?t=31&page=2": "31",
}


@pytest.mark.parametrize("address", FRIENDLY)
def test_issue28_item4_vb4_friendly_thread_addresses_are_threads(address):
    forum = VbulletinForum("https://vb.example/", "bot")
    assert VbulletinForum.thread_problem(address, "https://vb.example/") is None
    assert forum.topic_id(address) == FRIENDLY[address]


def test_issue28_item4_a_vb_forum_address_is_named_with_what_a_thread_looks_like():
    problem = VbulletinForum.thread_problem("https://vb.example/forumdisplay.php?f=2", "https://vb.example")
    assert str(problem) == ("'https://vb.example/forumdisplay.php?f=2' is not a vbulletin thread's address (a forum's or "
                       "a post's?); a thread's address looks like https://vb.example/showthread.php?t=123, or give "
                       "the thread's number")
