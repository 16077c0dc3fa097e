"""Whatever the bot posts shows a nickname literally: no BBCode tag, no Markdown, no magic link fires."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from adapters.discourse.forum import DiscourseForum
from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from forumbot.markup import ZWSP

NASTY = ["[url=http://x]a[/url]", "**x**", "[b]жирный[/b]", "www.evil.example", "<script>alert(1)</script>",
         "_курсив_", "[quote=\"admin\"]фейк[/quote]", "# заголовок", "1. список", "`код`", "[spoiler]x[/spoiler]",
         "http://x.test/a_b", "![img](http://x/i.png)", "Кот [Баюн]"]

# What phpBB's and MyBB's parsers key on: a tag opening, a scheme URL, a www. URL.
BBCODE_TAG = re.compile(r"\[/?[a-z*][a-z0-9*]*(?:=[^\]]*)?\]", re.IGNORECASE)
MAGIC_URL = re.compile(r"(?:\b[a-z][a-z0-9+.-]*://|\bwww\.)", re.IGNORECASE)


def visible(text: str) -> str:
    return text.replace(ZWSP, "")


@pytest.mark.parametrize("adapter", [PhpbbForum, MybbForum])
@pytest.mark.parametrize("nick", NASTY)
def test_bbcode_escape_keeps_every_character_and_fires_nothing(adapter, nick):
    out = adapter("http://f/", "bot").escape(nick)
    assert visible(out) == nick
    assert not BBCODE_TAG.search(out) and not MAGIC_URL.search(out)


@given(st.text(alphabet=st.sampled_from(list("[]=/:.wubrlqote *_`<>&#!()-абв ")), max_size=40))
def test_bbcode_escape_property(text):
    out = PhpbbForum("http://f/", "bot").escape(text)
    assert visible(out) == text and not BBCODE_TAG.search(out) and not MAGIC_URL.search(out)


@pytest.mark.parametrize("nick", NASTY + ["@admin", "http://evil.example/x", "www.evil.example"])
def test_markdown_escape_renders_literally(nick):
    import markdown_it

    # Discourse linkifies bare URLs; with linkify on, an unescaped URL would render as <a>.
    md = markdown_it.MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    out = DiscourseForum("http://f/", "bot", api_key="k").escape(nick)
    html = md.render(out)
    assert not re.search(r"<(?!/?p>)", html), html  # nothing but the paragraph: no em, strong, a, h1, code, img
    import html as htmlmod
    assert visible(htmlmod.unescape(re.sub(r"</?p>\n?", "", html))).strip() == nick.strip()
