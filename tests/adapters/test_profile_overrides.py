"""Board overrides (issue 9 item 5): `[forums.NAME.profile]` changes selectors, URL templates, message patterns
and pacing limits by name; the config checks each against the engine's profile, one line per problem; a board
with a custom style is then read by configuration alone."""

from __future__ import annotations

import pytest
import responses

from adapters.html.overrides import apply_overrides, override_problems
from adapters.phpbb.profile import PHPBB
from adapters.punbb.profile import PUNBB
from forumbot.forum.registry import profile_for
from forumbot.config.types import ConfigProblems
from forumbot.config.load import load_config
from forumbot.probe.board import probe
from probe_cases import BASE, adapter_class, serve, topic_url
from test_probe import _renamed_posts


def _write(tmp_path, profile_toml: str, engine: str = "punbb") -> str:
    path = tmp_path / "forumbot.toml"
    path.write_text(f'''
[forums.main]
engine = "{engine}"
base_url = "{BASE}"
login = "bot"
{profile_toml}

[games.g]
forum = "main"
variant = "moscow"
game_thread = "1"
vote_thread = "2"
gms = ["gm"]
start = 2026-12-01T10:00:00+03:00
players = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
''', encoding="utf-8")
    return str(path)


def _problems(tmp_path, profile_toml: str, engine: str = "punbb") -> list[str]:
    with pytest.raises(ConfigProblems) as e:
        load_config(_write(tmp_path, profile_toml, engine))
    return e.value.problems


def test_overrides_load_into_the_forum_table(tmp_path):
    config = load_config(_write(tmp_path, '''
[forums.main.profile.selectors]
post = "section.renamed-post"
[forums.main.profile.urls]
topic = "viewtopic.php?id={topic}&style=1"
[forums.main.profile.messages]
flood = "подождите"
[forums.main.profile.limits]
post = 45
'''))
    table = config.forums["main"].extra["profile"]
    assert table["selectors"] == {"post": "section.renamed-post"} and table["limits"] == {"post": 45}


@pytest.mark.parametrize("engine", ["phpbb", "mybb", "flaskbb", "smf", "punbb", "mybbru", "xenforo"])
def test_every_html_engine_takes_a_profile_table(tmp_path, engine):
    profile = profile_for(engine)
    some = next(iter(profile.selectors))
    load_config(_write(tmp_path, f'[forums.main.profile.selectors]\n{some} = "div.x"', engine))


def test_an_unknown_name_is_one_line_naming_the_closest(tmp_path):
    assert _problems(tmp_path, '[forums.main.profile.selectors]\npots = "div.x"') == [
        "forums.main.profile.selectors.pots: the punbb profile has no selector 'pots' (did you mean 'post'?)"]
    assert _problems(tmp_path, '[forums.main.profile.selector]\npost = "div.x"') == [
        "forums.main.profile.selector: unknown part (did you mean 'selectors'?) (known: selectors, urls, messages, "
        "limits)"]


def test_bad_css_a_bad_regex_a_stray_placeholder_and_a_bad_limit_are_one_line_each(tmp_path):
    problems = _problems(tmp_path, '''
[forums.main.profile.selectors]
post = "div..post"
[forums.main.profile.messages]
flood = "(unclosed"
[forums.main.profile.urls]
topic = "viewtopic.php?id={topc}"
[forums.main.profile.limits]
pm = -1
''')
    assert len(problems) == 4
    assert problems[0].startswith("forums.main.profile.selectors.post: not a CSS selector lxml can use: 'div..post'")
    assert problems[1].startswith("forums.main.profile.messages.flood: not a regular expression: '(unclosed'")
    assert problems[2] == "forums.main.profile.urls.topic: {topc} is not filled in here (this URL gets: {topic})"
    assert problems[3] == "forums.main.profile.limits.pm: expected seconds from 0 to 3600, got -1"


def test_a_profile_that_is_not_a_table_is_named(tmp_path):
    [problem] = _problems(tmp_path, 'profile = "prosilver"')
    assert problem.startswith("forums.main.profile: ожидается таблица поправок")  # the GMs' language (issue 28)


def test_an_engine_without_a_page_profile_does_not_take_one(tmp_path):
    problems = _problems(tmp_path, '[forums.main.profile.selectors]\npost = "div.x"', engine="memory")
    assert any("forums.main.profile: неизвестный параметр" in p for p in problems), problems


def test_apply_overrides_changes_only_the_named_parts():
    changed = apply_overrides(PHPBB, {"selectors": {"post": "div.mine"}, "limits": {"post+pm": 20}})
    assert changed.selectors["post"] == "div.mine" and changed.selectors["body"] == PHPBB.selectors["body"]
    assert changed.limits == {"post+pm": 20.0} and PHPBB.selectors["post"] == "div.post[id^='p']"
    with pytest.raises(ValueError, match="selectors.nope"):
        apply_overrides(PHPBB, {"selectors": {"nope": "div"}})
    assert override_problems(PUNBB, {"selectors": {"post": "div.x"}}) == []


def test_the_adapter_takes_the_forum_tables_overrides_and_paces_by_them():
    cls = adapter_class("punbb")
    adapter = cls(BASE, "bot", "pw", profile={"selectors": {"post": "section.renamed-post"}, "limits": {"post": 45}})
    assert adapter.profile.selectors["post"] == "section.renamed-post"
    assert adapter.transport.intervals["post"] == 45.0
    assert cls.profile.selectors["post"] == PUNBB.selectors["post"]  # the class's profile is untouched


def test_a_board_with_a_custom_style_is_served_by_configuration(tmp_path):
    """The renamed post container that made the probe exit 2 is read once the forum table names it."""
    from forumbot.cycle.daemon import build_adapter

    path = _write(tmp_path, '''
[forums.main.profile.selectors]
post = "section.renamed-post[id^='p']"
''', engine="punbb")
    forum = load_config(path).forums["main"]
    import forumbot.cycle.daemon as daemon

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(daemon, "adapter_factory", lambda engine: adapter_class(engine))
        adapter = build_adapter(forum, {})
    adapter.login = lambda: None
    with responses.RequestsMock() as http:
        serve(http, "punbb", topic_body=_renamed_posts("punbb"))
        report = probe(adapter, topic_url("punbb"), forum="main")
    assert report.problems == [] and len(report.posts) == 25
    with responses.RequestsMock() as http:
        serve(http, "punbb", topic_body=_renamed_posts("punbb"), inbox=False)
        http.add("GET", BASE + "viewtopic.php?id=2&p=2", body=_renamed_posts("punbb", "11_topic_page2_last.html"),
                 content_type="text/html; charset=UTF-8")
        posts, _ = adapter.fetch_posts("2")
    assert len(posts) > 25 and all(p.author for p in posts)


def test_profile_for_finds_each_engines_profile_and_none_for_others():
    assert profile_for("punbb") is PUNBB and profile_for("phpbb") is PHPBB
    assert profile_for("discourse") is None and profile_for("memory") is None
