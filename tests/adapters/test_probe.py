"""`forumbot probe` over saved pages, one case per HTML engine (issue 9 item 4): the engine detected, the posts
read field by field, every selector matched or not, the unverified parts; a renamed post container is named
and exits 2; `--json` is one valid JSON object; `--guest` reads without logging in."""

from __future__ import annotations

import json

import pytest
import responses
from lxml import etree

from adapters.html.dom import parse, select
from adapters_support import FIXTURES
from forumbot.cli.main import main
from forumbot.probe.board import NEEDED_ON_INBOX, NEEDED_ON_TOPIC, probe
from forumbot.probe.report_text import to_text
from probe_cases import (BASE, CASES, GUEST_CASES, adapter_class, guest_bytes, guest_class, guest_url, serve,
                         serve_guest, topic_bytes, topic_url)


def _adapter(engine: str):
    adapter = adapter_class(engine)(BASE, "bot", "pw", timezone_name="Europe/Moscow")
    adapter.login = lambda: None  # a session restored from the database: no login pages needed
    return adapter


def _renamed_posts(engine: str, name: str | None = None) -> bytes:
    """The topic page (or saved page `name`) with each post container's tag and class renamed, as a custom
    style would."""
    profile = adapter_class(engine).profile
    charset = "cp1251" if engine == "mybbru" else "utf-8"
    raw = (FIXTURES / engine / name).read_bytes() if name else topic_bytes(engine)
    tree = parse(raw.decode(charset))
    for el in select(tree, profile.selectors["post"]):
        el.tag = "section"
        el.set("class", "renamed-post")
        el.set("data-content", "renamed")
    return etree.tostring(tree, method="html", encoding=charset)


@pytest.mark.parametrize("engine", sorted(CASES))
def test_probe_reads_each_engine_and_every_needed_selector_matches(engine):
    with responses.RequestsMock() as http:
        serve(http, engine)
        report = probe(_adapter(engine), topic_url(engine), forum="main")
    assert report.problems == []
    assert report.detected == engine and report.engine == engine
    assert report.posts and all(p["id"].isdigit() and p["posted_at"] for p in report.posts)
    assert any(p["author"] for p in report.posts)
    for name in (*NEEDED_ON_TOPIC, *NEEDED_ON_INBOX):
        assert report.selectors[f"selectors.{name}"] is True, name
    profile = adapter_class(engine).profile
    assert set(report.selectors) == {f"selectors.{k}" for k in profile.selectors} | {
        f"strip[{i}]" for i in range(len(profile.strip))}
    assert report.unverified == sorted(profile.unverified)
    assert report.inbox is not None and report.inbox["rows"] is not None
    assert report.timezone == "Europe/Moscow"
    assert set(report.limits.values()) == set(profile.limits.values())  # "post+pm" is one timer paced for each
    assert "problems: none" in to_text(report, language="en")
    # a GM running it on a good board saw ~20 MISS lines above "problems: none": only a needed selector may say MISS
    assert not [ln for ln in to_text(report, language="en").splitlines() if ln.startswith("  MISS")]


def test_probe_reports_edit_notice_quote_and_pagination_as_read():
    """phpBB page 1 of a 3-page topic: offsets of 10, a next page; the posts' quotes are named stripped."""
    with responses.RequestsMock() as http:
        serve(http, "phpbb")
        report = probe(_adapter("phpbb"), topic_url("phpbb"))
    assert report.pagination["has_next"] is True and report.pagination["per_page"] == 10
    assert report.pagination["kind"] == "offset" and report.pagination["current"] == 0
    assert report.inbox["unread"] == 4


@pytest.mark.parametrize("engine", ["phpbb", "mybb"])
def test_probe_says_what_the_thread_pages_header_shows_of_unread_pms(engine):
    """issue 8: where the header's unread-PM count is read (phpBB, MyBB), an idle tick skips the inbox while it
    is 0; a GM on a custom style must see whether it reads, since a miss costs a request every tick."""
    with responses.RequestsMock() as http:
        serve(http, engine)
        report = probe(_adapter(engine), topic_url(engine))
    assert report.pm_header == {"engine_reads_it": True, "unread": 2}
    assert "unread PMs in the thread page's header: 2 (" in to_text(report, language="en")

    profile = adapter_class(engine).profile
    with responses.RequestsMock() as http:
        serve(http, engine, topic_body=_stripped(engine, profile.selectors["pm_header"]))
        report = probe(_adapter(engine), topic_url(engine))
    assert report.pm_header == {"engine_reads_it": True, "unread": None}
    assert "header: not readable here" in to_text(report, language="en")


def _stripped(engine: str, css: str) -> bytes:
    tree = parse(topic_bytes(engine).decode("utf-8"))
    for el in select(tree, css):
        el.getparent().remove(el)
    return etree.tostring(tree, method="html", encoding="utf-8")


@pytest.mark.parametrize("engine", sorted(CASES))
def test_a_renamed_post_container_is_named(engine):
    with responses.RequestsMock() as http:
        serve(http, engine, topic_body=_renamed_posts(engine))
        report = probe(_adapter(engine), topic_url(engine), forum="main")
    assert report.selectors["selectors.post"] is False
    assert any(p.startswith("selectors.post: ") and "[forums.main.profile.selectors]" in p for p in report.problems)
    assert report.posts == []


def _config(tmp_path, engine: str = "punbb") -> str:
    path = tmp_path / "forumbot.toml"
    path.write_text(f'''
[forums.main]
engine = "{CASES[engine][0]}"
base_url = "{BASE}"
login = "bot"
timezone_name = "Europe/Moscow"

[games.g]
forum = "main"
variant = "moscow"
game_thread = "{topic_url(engine)}"
vote_thread = "{topic_url(engine)}&x=1"
gms = ["gm"]
start = 2026-12-01T10:00:00+03:00
players = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
''', encoding="utf-8")
    return str(path)


def _no_login(monkeypatch, engine: str) -> None:
    monkeypatch.setattr(adapter_class(engine), "login", lambda self: None)


def test_cli_probe_json_is_one_valid_object_and_exits_0(tmp_path, monkeypatch, capsys):
    _no_login(monkeypatch, "punbb")
    with responses.RequestsMock() as http:
        serve(http, "punbb")
        code = main(["probe", "-c", _config(tmp_path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["engine"] == "punbb" and out["engine_detected"] == "punbb" and out["problems"] == []
    assert {"id", "author", "posted_at", "edited_at", "text"} <= set(out["posts"][0])
    assert out["selectors"]["selectors.post"] is True and isinstance(out["unverified"], list)


def test_cli_probe_exits_2_naming_the_renamed_post_container(tmp_path, monkeypatch, capsys):
    _no_login(monkeypatch, "punbb")
    with responses.RequestsMock() as http:
        serve(http, "punbb", topic_body=_renamed_posts("punbb"))
        code = main(["probe", "-c", _config(tmp_path), "--forum", "main"])
    captured = capsys.readouterr()
    assert code == 2
    assert "MISS selectors.post" in captured.out
    assert "forumbot: selectors.post: " in captured.err
    # issue 28 item 4: the game is Russian, so is what the probe says is wrong (the engine's selector stays as is)
    assert "ничего не нашёл на" in captured.err and "задайте селектор в [forums.main.profile.selectors]" in captured.err
    assert "matched nothing" not in captured.out + captured.err


def test_cli_probe_guest_reads_a_public_thread_without_config_or_login(tmp_path, monkeypatch, capsys):
    """--guest with a URL and no config file: the engine detected from the page, no inbox read, no login."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(adapter_class("punbb"), "login", lambda self: pytest.fail("a guest does not log in"))
    monkeypatch.setattr("forumbot.cli.probe.adapter_factory", lambda engine: adapter_class(engine))
    with responses.RequestsMock() as http:
        serve(http, "punbb", inbox=False)
        code = main(["probe", "--guest", "--json", topic_url("punbb")])
        assert len(http.calls) == 2  # the page once to tell the engine, once read
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["guest"] is True and out["inbox"] is None and out["engine"] == "punbb"


def test_check_online_names_the_selector_that_did_not_match(tmp_path):
    """check-config --online runs the probe's checks quietly: the renamed container is a config problem."""
    from forumbot.cli.check import check_online
    from forumbot.config.load import load_config

    config = load_config(_config(tmp_path))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        serve(http, "punbb", topic_body=_renamed_posts("punbb"))
        wrong, unreachable, _ = check_online(config, {}, factory=lambda forum, env: _adapter("punbb"))
    assert any(w.startswith("forums.main: selectors.post: ") for w in wrong), wrong
    assert not any("selectors.page_end" in w or "selectors.logged_in" in w for w in wrong)  # the inbox was read


def test_a_board_of_another_engine_is_named():
    """A forum table saying mybb for a mybb.ru board: the probe names the engine the page shows."""
    cls = adapter_class("mybb")
    adapter = cls(BASE, "bot", "pw")
    adapter.login = lambda: None
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        http.add("GET", topic_url("mybb"), body=topic_bytes("mybbru"), content_type="text/html; charset=windows-1251")
        http.add("GET", BASE + cls.profile.urls["inbox"], body=b"<html></html>", content_type="text/html")
        report = probe(adapter, topic_url("mybb"), forum="main")
    assert report.detected == "mybbru"
    assert "forums.main.engine: the board looks like mybbru, not mybb" in report.problems
    assert any(p.startswith("selectors.post: ") for p in report.problems)


def test_the_pacing_reported_is_the_one_configured():
    adapter = adapter_class("punbb")(BASE, "bot", "pw", intervals={"post": 7}, profile={"limits": {"pm": 40}})
    adapter.login = lambda: None
    with responses.RequestsMock() as http:
        serve(http, "punbb")
        report = probe(adapter, topic_url("punbb"))
    assert report.limits == {"pm": 40.0, "post": 7}
    assert "flood limits paced by: pm 40 s, post 7 s" in to_text(report, language="en")


# --- vBulletin and Invision: thread pages only were saved, so they are probed as a guest (issue 10) ----------

def _guest_probe(case: str, body: bytes | None = None):
    cls = guest_class(case)
    kwargs = {"printthread": False} if cls.engine == "vbulletin" else {}
    adapter = cls(BASE, "bot", "pw", timezone_name="Europe/Moscow", **kwargs)
    adapter.login = lambda: pytest.fail("a guest probe does not log in")
    with responses.RequestsMock() as http:
        serve_guest(http, case, body)
        return probe(adapter, guest_url(case), forum="main", guest=True)


@pytest.mark.parametrize("case", sorted(GUEST_CASES))
def test_probe_reads_vbulletin_and_invision_thread_pages_as_a_guest(case):
    """issue 10: the probe on each engine's saved page reports what matched and what is unverified."""
    profile = guest_class(case).profile
    report = _guest_probe(case)
    assert report.detected == profile.engine == report.engine
    assert report.guest is True and report.inbox is None
    assert report.posts and all(p["id"].isdigit() and p["posted_at"] and p["author"] for p in report.posts)
    for name in NEEDED_ON_TOPIC:
        matched = report.selectors[f"selectors.{name}"]
        # a needed selector may miss only where no saved page shows it, and then the profile says so
        assert matched or f"selectors.{name}" in profile.unverified, name
    assert set(report.selectors) == {f"selectors.{k}" for k in profile.selectors} | {
        f"strip[{i}]" for i in range(len(profile.strip))}
    assert report.unverified == sorted(profile.unverified)
    text_out = to_text(report, language="en")
    if case == "fluxbb-guest":  # a live board's page: every part of the profile seen; guests' `#pN` links read
        assert not report.unverified and [p["id"] for p in report.posts][:3] == ["2", "3", "4"]
    else:
        assert "unverified (written without a real page): " + ", ".join(report.unverified) in text_out
    missed = [n for n in NEEDED_ON_TOPIC if not report.selectors[f"selectors.{n}"]]
    # the tick's own check of the page's end fails with its selector (issue 17 item 20): the probe says so too
    assert [p.partition(":")[0] for p in report.problems] == (
        ["check page end"] if "page_end" in missed else []) + [f"selectors.{n}" for n in missed]


def test_vbulletin_pages_match_every_needed_selector_and_invision_misses_only_its_unverified_footer():
    assert _guest_probe("vbulletin-3.8").problems == [] and _guest_probe("vbulletin-4.2").problems == []
    assert [len(_guest_probe(c).posts) for c in ("vbulletin-3.8", "vbulletin-4.2", "invision")] == [20, 10, 1]
    invision = _guest_probe("invision")
    assert [p.partition(":")[0] for p in invision.problems] == ["check page end", "selectors.page_end"]
    assert "selectors.page_end" in invision.unverified


def _renamed_guest_posts(case: str) -> bytes:
    profile = guest_class(case).profile
    charset = GUEST_CASES[case][4].rpartition("=")[2]
    tree = parse(guest_bytes(case).decode(charset))
    for el in select(tree, profile.selectors["post"]):
        el.tag = "section"
        el.set("class", "renamed-post")
        el.set("id", "renamed")
        el.attrib.pop("data-quotedata", None)
        el.attrib.pop("data-commentid", None)
    return etree.tostring(tree, method="html", encoding=charset)


@pytest.mark.parametrize("case", sorted(GUEST_CASES))
def test_a_renamed_vbulletin_or_invision_post_container_is_named(case):
    report = _guest_probe(case, _renamed_guest_posts(case))
    assert report.selectors["selectors.post"] is False
    assert any(p.startswith("selectors.post: ") and "[forums.main.profile.selectors]" in p for p in report.problems)
    assert report.posts == []


@pytest.mark.parametrize("case", sorted(GUEST_CASES))
def test_cli_probe_guest_exits_2_naming_a_renamed_vbulletin_or_invision_container(case, tmp_path, monkeypatch,
                                                                                   capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(guest_class(case), "login", lambda self: pytest.fail("a guest does not log in"))
    monkeypatch.setattr("forumbot.cli.probe.adapter_factory", lambda engine: guest_class(case))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        body = _renamed_guest_posts(case)
        serve_guest(http, case, body)
        code = main(["probe", "--guest", guest_url(case)])
    captured = capsys.readouterr()
    assert code == 2
    assert "MISS selectors.post" in captured.out
    assert "forumbot: selectors.post: " in captured.err
