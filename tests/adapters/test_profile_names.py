"""One naming convention for the parts of a profile (`selectors.NAME`, `urls.NAME`, `forms.NAME`,
`messages.NAME`, `limits.NAME`, `strip[i]`, `flows.NAME`), and every `unverified` entry names a part that exists,
so `forumbot probe` never reports a part nobody can find (issue 9 item 4)."""

from __future__ import annotations

from dataclasses import replace
from importlib.metadata import entry_points

import pytest

from adapters.html.profile import FLOWS, HtmlProfile
from adapters.punbb.profile import PUNBB
from forumbot.forum.registry import GROUP, profile_for

# each installed engine's profile, as its adapter class declares it (issue 27 item 2: no scan of a module's names)
ALL = {ep.name: profile_for(ep.name) for ep in entry_points(group=GROUP) if profile_for(ep.name) is not None}


def test_every_html_engine_has_a_profile_here():
    assert set(ALL) >= {"phpbb", "mybb", "flaskbb", "smf", "punbb", "mybbru", "xenforo", "vbulletin", "invision"}
    assert all(isinstance(p, HtmlProfile) and p.engine == name for name, p in ALL.items())


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_unverified_entry_refers_to_a_part_of_its_profile(name):
    profile = ALL[name]
    assert profile.unknown_unverified() == [], name


def test_a_misnamed_entry_is_caught():
    """The old spellings ("selector post", "flow pm") and a part the profile lacks are named."""
    bad = replace(PUNBB, unverified=frozenset({"selector post", "flow pm", "selectors.nope",
                                                        "strip[9]", "flows.teleport", "selectors.post"}))
    assert bad.unknown_unverified() == ["flow pm", "flows.teleport", "selector post", "selectors.nope", "strip[9]"]


def test_part_names_follow_the_convention():
    names = PUNBB.part_names()
    assert {"selectors.post", "urls.topic", "forms.login", "messages.flood", "limits.post", "strip[0]"} <= names
    assert {f"flows.{f}" for f in FLOWS} <= names
