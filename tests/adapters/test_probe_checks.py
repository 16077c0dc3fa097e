"""`forumbot probe` applies the tick's own page checks and names each one a page fails (issue 17 item 20).

It answered "all matched" on 19 pages the tick refuses or misreads: no `</html>`, mojibake, the inbox's error box,
duplicate post ids. Here the saved pages of each engine (probe_cases), altered as in the tests of those checks,
are probed: each failing check is a problem named `check <name>`, and the unaltered pages still have none."""

from __future__ import annotations

import copy

import pytest
import responses
from lxml import etree

from adapters.html.dom import parse, select
from forumbot.probe.board import probe
from probe_cases import BASE, CASES, adapter_class, serve, topic_bytes, topic_url
from test_deep_nesting import _deep_page
from test_inbox_error_box import PAGES, SAID, _error_inbox

WRONG = {"text/html; charset=UTF-8": "text/html; charset=windows-1251",
         "text/html; charset=windows-1251": "text/html; charset=UTF-8"}


def _adapter(engine: str):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None
    return adapter


def _probe(engine: str, topic: bytes | None = None, ctype: str | None = None, inbox: bytes | None = None):
    cls = adapter_class(engine)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        if ctype is None and inbox is None:
            serve(http, engine, topic_body=topic)
        else:
            http.add("GET", topic_url(engine), body=topic or topic_bytes(engine), content_type=ctype or CASES[engine][4])
            body = inbox if inbox is not None else (
                __import__("adapters_support").FIXTURES / engine / CASES[engine][3]).read_bytes()
            http.add("GET", BASE + cls.profile.urls["inbox"], body=body, content_type=CASES[engine][4])
        return probe(_adapter(engine), topic_url(engine), forum="main").problems


def _checks(problems: list[str]) -> list[str]:
    return [p for p in problems if p.startswith(("check ", "inbox: check "))]


@pytest.mark.parametrize("engine", sorted(CASES))
def test_unaltered_pages_fail_no_check(engine):
    assert _checks(_probe(engine)) == []


@pytest.mark.parametrize("engine", sorted(CASES))
def test_a_page_without_its_closing_html_tag_is_named(engine):
    data = topic_bytes(engine)
    problems = _checks(_probe(engine, data[: data.rindex(b"</html>")]))
    assert [p.partition(":")[0] for p in problems] == ["check page end"]
    assert "came back incomplete" in problems[0]


@pytest.mark.parametrize("engine", sorted(CASES))
def test_a_mislabelled_charset_is_named_unless_the_bytes_are_utf8(engine):
    problems = _checks(_probe(engine, ctype=WRONG[CASES[engine][4]]))
    if CASES[engine][4] == "text/html; charset=UTF-8":  # UTF-8 beyond doubt: read as such (issue 26 item 9b)
        assert not [p for p in problems if p.startswith("check charset")]
        return
    assert [p.partition(":")[0] for p in problems][:1] == ["check charset"]
    assert "labelled" in problems[0]


@pytest.mark.parametrize("engine", sorted(CASES))
def test_duplicate_post_ids_are_named(engine):
    charset = "cp1251" if engine == "mybbru" else "utf-8"
    tree = parse(topic_bytes(engine).decode(charset))
    posts = select(tree, adapter_class(engine).profile.selectors["post"])
    posts[-1].addnext(copy.deepcopy(posts[0]))
    problems = _checks(_probe(engine, etree.tostring(tree, method="html", encoding=charset)))
    assert [p.partition(":")[0] for p in problems] == ["check posts"] and "twice" in problems[0]


@pytest.mark.parametrize("engine", ["smf", "punbb", "mybbru", "xenforo"])
def test_a_post_nested_too_deep_is_named(engine):
    page, _ = _deep_page(engine, "b")
    problems = _checks(_probe(engine, page))
    assert [p.partition(":")[0] for p in problems] == ["check posts"]
    assert "nests too deep to read: the tick skips it and tells the GMs" in problems[0]


@pytest.mark.parametrize("engine", sorted(set(PAGES) - {"punbb"}))
def test_the_inbox_error_box_is_named(engine):
    """(punbb's probe reads the folder "Новые", not the list its error page was built from.)"""
    problems = _checks(_probe(engine, inbox=_error_inbox(engine)))
    named = [p.split(":")[1] for p in problems]
    # SMF's error page, in place of the folder, shows no form#pmFolder either: named too
    assert named[0] == " check error box" and set(named[1:]) <= {" check PM list"}
    assert SAID[engine] in problems[0]


def test_cli_probe_exits_2_naming_the_failed_check(tmp_path, monkeypatch, capsys):
    from forumbot.cli.main import main
    from test_probe import _config, _no_login

    _no_login(monkeypatch, "punbb")
    data = topic_bytes("punbb")
    with responses.RequestsMock() as http:
        serve(http, "punbb", topic_body=data[: data.rindex(b"</html>")])
        code = main(["probe", "-c", _config(tmp_path), "--forum", "main"])  # today: exit 0, "problems: none"
    captured = capsys.readouterr()
    assert code == 2
    assert "forumbot: check page end: punbb: " in captured.err and "came back incomplete" in captured.err
