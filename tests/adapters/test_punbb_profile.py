"""PUNBB's selectors all match on pages of the live FluxBB board; MYBBRU's match on the real mybb.ru pages, except
those it lists as unverified, which match only on the pages written in PunBB markup (issue 9 items 2, 3)."""

from __future__ import annotations

import pytest

from adapters.html import hooks
from adapters.html.dom import find_form, select
from adapters.html.profile import HtmlProfile
from adapters.mybbru.profile import MYBBRU
from adapters.punbb.profile import PUNBB
from adapters_support import FIXTURES
from forumbot.forum.http_page import Page, declared_charset


def tree(path):
    content = path.read_bytes()
    charset = "utf-8" if b"REAL" in path.name.encode() and b"cp1251" not in path.name.encode() else \
        (declared_charset(None, content) or "utf-8")
    return Page(url="http://127.0.0.1/", status=200, headers={}, content=content, charset=charset).tree()


def trees(engine: str, kinds: tuple[str, ...]):
    return [tree(p) for p in sorted((FIXTURES / engine).glob("*.html")) if any(k in p.name for k in kinds)]


def selectors(profile: HtmlProfile):
    for name, css in profile.selectors.items():
        yield f"selectors.{name}", css
    for i, css in enumerate(profile.strip):
        yield f"strip[{i}]", css
    for name, spec in profile.forms.items():
        yield f"forms.{name}", spec.selector


def test_every_punbb_selector_matches_on_a_live_fluxbb_page():
    pages = [tree(p) for p in sorted((FIXTURES / "punbb").glob("*.html"))]
    dead = [name for name, css in selectors(PUNBB) if not any(select(t, css) for t in pages)
            and name != "selectors.captcha"]  # the board runs without one (PLAIN=1)
    assert dead == []
    for name, spec in PUNBB.forms.items():
        assert any(find_form(t, spec.selector, spec.needs) is not None for t in pages), name
    assert all(getattr(hooks, h.__name__) is h for h in PUNBB.hooks.values())


@pytest.mark.parametrize("name", ["selectors.logged_in", "selectors.redirect", "forms.login", "forms.reply",
                                  "selectors.antibot_script"])
def test_mybbru_selectors_shared_with_punbb_match_the_real_mybbru_pages(name):
    real = trees("mybbru", ("REAL",))
    kind, _, key = name.partition(".")
    css = MYBBRU.selectors[key] if kind == "selectors" else MYBBRU.forms[key].selector
    assert any(select(t, css) for t in real), name
    assert name not in MYBBRU.unverified


def test_mybbru_unverified_selectors_match_only_pages_in_punbb_markup():
    real = trees("mybbru", ("REAL",))
    written = trees("mybbru", ("SYNTHETIC", "RECONSTRUCTED"))
    for name, css in selectors(MYBBRU):
        if name not in MYBBRU.unverified or not name.startswith("selectors."):
            continue
        assert any(select(t, css) for t in written), f"{name} matches none of the pages written for it"
    assert all(getattr(hooks, h.__name__) is h for h in MYBBRU.hooks.values())
    assert real  # the real pages are read
