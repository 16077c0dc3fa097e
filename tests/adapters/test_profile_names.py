"""One naming convention for the parts of a profile (`selectors.NAME`, `urls.NAME`, `forms.NAME`,
`messages.NAME`, `limits.NAME`, `strip[i]`, `flows.NAME`), and every `unverified` entry names a part that exists,
so `forumbot probe` never reports a part nobody can find (issue 9 item 4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import adapters.profiles as profiles
from adapters.profiles import FLOWS, HtmlProfile

ALL = {name: v for name, v in vars(profiles).items() if isinstance(v, HtmlProfile)}


def test_every_html_engine_has_a_profile_here():
    assert {p.engine for p in ALL.values()} >= {"phpbb", "mybb", "flaskbb", "smf", "punbb", "mybbru", "xenforo"}


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_unverified_entry_refers_to_a_part_of_its_profile(name):
    profile = ALL[name]
    assert profile.unknown_unverified() == [], name


def test_a_misnamed_entry_is_caught():
    """The old spellings ("selector post", "flow pm") and a part the profile lacks are named."""
    bad = replace(profiles.PUNBB, unverified=frozenset({"selector post", "flow pm", "selectors.nope",
                                                        "strip[9]", "flows.teleport", "selectors.post"}))
    assert bad.unknown_unverified() == ["flow pm", "flows.teleport", "selector post", "selectors.nope", "strip[9]"]


def test_part_names_follow_the_convention():
    names = profiles.PUNBB.part_names()
    assert {"selectors.post", "urls.topic", "forms.login", "messages.flood", "limits.post", "strip[0]"} <= names
    assert {f"flows.{f}" for f in FLOWS} <= names
