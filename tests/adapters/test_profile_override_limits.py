"""`[forums.NAME.profile]` overrides that crashed or disarmed the reader are refused, warned about, or turned into
an error naming the selector (issue 17 item 21).

Each passed check-config before: `post = "html"` with `body = "*"` (TypeError out of the reader), a 5,000-
alternative selector (libxml2: "Recursion limit exceeded"), `urls.topic` with a format spec building 100 MB
URLs, `page_end = "body"` (a page cut short passes as whole: refused since issue 26 item 9)."""

from __future__ import annotations

import pytest
import responses

from adapters.html.dom import parse, select
from adapters.phpbb.profile import PHPBB
from forumbot.config.load import load_config
from forumbot.cycle.daemon import config_warnings
from forumbot.errors import ForumError, PageFormatChanged
from probe_cases import BASE, CASES, adapter_class, topic_bytes, topic_url
from test_profile_overrides import _problems, _write

MANY = ", ".join(f"div.alt{i}" for i in range(5000))


@pytest.mark.parametrize("template, shown", [
    ("viewtopic.php?id={topic:>100000000}", "{topic:>100000000}"),
    ("viewtopic.php?id={topic!r}", "{topic!r}"),
    ("viewtopic.php?id={topic.__class__}", "{topic.__class__}"),
    ("viewtopic.php?id={topic[0]}", "{topic[0]}"),
])
def test_format_specs_conversions_and_lookups_in_url_templates_are_refused(tmp_path, template, shown):
    problems = _problems(tmp_path, f'[forums.main.profile.urls]\ntopic = "{template}"\n')
    assert problems == [f"forums.main.profile.urls.topic: {shown}: a placeholder is a bare name such as {{topic}}, "
                        "without a format spec, conversion, attribute or index"]


def test_a_selector_of_5000_alternatives_is_refused_with_the_bound(tmp_path):
    problems = _problems(tmp_path, f'[forums.main.profile.selectors]\npost = "{MANY}"\n')
    assert problems == ["forums.main.profile.selectors.post: a selector of at most 1000 characters and 32 "
                        "alternatives, got 63888 characters and 5000 alternatives"]


def test_the_engines_own_selectors_are_within_the_bound(tmp_path):
    for engine in CASES:
        for name, value in adapter_class(engine).profile.selectors.items():
            assert not _problems_or_none(tmp_path, engine, name, value), (engine, name)


def _problems_or_none(tmp_path, engine, name, value):
    from adapters.html.overrides import override_problems

    return override_problems(adapter_class(engine).profile, {"selectors": {name: value}})


@pytest.mark.parametrize("value, tag", [("body", "body"), ("html", "html"), ("*", "body"), ("div, body", "body")])
def test_page_end_matching_html_or_body_is_refused_naming_what_is_allowed(tmp_path, value, tag):
    """issue 26 item 9: `page_end = "body"` passed check-config with a warning, and the forum ran with cut pages
    read as whole (issue 17 item 21); it is refused, naming what page_end may be."""
    problems = _problems(tmp_path, f'[forums.main.profile.selectors]\npage_end = "{value}"\n')
    assert problems == [
        f"forums.main.profile.selectors.page_end: {value!r} matches the page's <{tag}>, which a page cut short has "
        "too (cut pages would pass as whole); allowed: a selector of an element printed after the posts and rows, "
        "matching neither <html> nor <body>, such as the punbb profile's '#brdfooter'"]
    plain = load_config(_write(tmp_path, '[forums.main.profile.selectors]\npage_end = "div#brdfooter"\n'))
    assert config_warnings(plain) == []
    with pytest.raises(ValueError, match="page_end"):
        adapter_class("punbb")(BASE, "bot", "pw", profile={"selectors": {"page_end": value}})


@pytest.mark.parametrize("engine", sorted(CASES))
def test_post_html_with_body_star_is_an_error_naming_the_selectors_not_a_typeerror(engine):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow",
                                    profile={"selectors": {"post": "html", "body": "*"}})
    adapter.login = lambda: None
    with responses.RequestsMock() as http:
        http.add("GET", topic_url(engine), body=topic_bytes(engine), content_type=CASES[engine][4])
        # today: TypeError: Invalid input object. Now a forum error naming the selector (the tick stops this game)
        with pytest.raises(ForumError, match="'html'"):
            adapter.topics.topic_page(topic_url(engine)[len(BASE):], CASES[engine][1])


def test_an_exception_in_profile_driven_extraction_names_the_selectors(monkeypatch):
    from adapters.html import extract
    from adapters.html.hooks import Context

    def broken(*a, **k):
        raise TypeError("unsupported operand")

    monkeypatch.setattr(extract, "by_post", broken)
    with pytest.raises(PageFormatChanged, match=r"reading the posts failed \(TypeError: unsupported operand\) with "
                                                r"selectors.post = \"div.post\[id\^='p'\]\""):
        extract.extract_posts(parse("<html><body></body></html>"), PHPBB, Context(PHPBB, None, None), "1")


def test_a_selector_lxml_cannot_run_is_an_error_naming_it():
    with pytest.raises(PageFormatChanged, match=r"selector 'div.alt0, div.alt1, .*cannot be run: XPathEvalError"):
        select(parse("<html><body><div class='alt1'>x</div></body></html>"), MANY)
