"""Engine detection as data (issue 9 item 4): marks from ENGINES.md section 12, by page markup, source text and
cookie names; mybb.ru is told from the PunBB it descends from."""

from __future__ import annotations

from adapters.detect import ENGINE_MARKS, detect_engine, engine_scores
from adapters.html.dom import parse


def _detect(html: str, cookies=()):
    return detect_engine(parse(html), html, cookies)


def test_cookies_alone_name_the_engine():
    assert _detect("<html><body></body></html>", ["xf_session"]) == "xenforo"
    assert _detect("<html><body></body></html>", ["phpbb3_abc_sid"]) == "phpbb"
    assert _detect("<html><body></body></html>", ["SMFCookie11"]) == "smf"


def test_a_page_without_marks_is_nothing():
    assert _detect("<html><body><p>hello</p></body></html>") is None


def test_mybbru_outweighs_the_punbb_markup_it_inherits():
    page = "<html><body><div id='pun' class='punbb'><script>var BoardID = 5;</script></div></body></html>"
    scores = engine_scores(parse(page), page)
    assert scores["mybbru"] > scores.get("punbb", 0) and _detect(page) == "mybbru"
    fluxbb = "<html><body><div id='punwrap'><div id='brdfooter'>Powered by FluxBB</div></div></body></html>"
    assert _detect(fluxbb) == "punbb"


def test_every_engine_of_section_12_has_marks():
    assert {"phpbb", "mybbru", "mybb", "xenforo", "invision", "vbulletin", "smf", "discourse"} <= set(ENGINE_MARKS)


def test_vbulletin_and_invision_saved_pages_are_told():
    """issue 10: `forumbot probe` names the engine from each engine's saved thread page; the Invision excerpt
    has neither head nor footer, only its posts' IPS controllers and hovercards."""
    from adapters_support import FIXTURES

    pages = {
        "vbulletin": ("a-thread-vb3811-en-loggedin.animesuki.REAL.html", "iso-8859-1"),
        "invision": ("a-topic-onepost-ips4-en.armbian.REAL-EXCERPT.html", "utf-8"),
    }
    for engine, (name, charset) in pages.items():
        html = (FIXTURES / engine / name).read_bytes().decode(charset)
        assert _detect(html) == engine, name
    vb4 = (FIXTURES / "vbulletin" / "a-thread-vb423-en-guest.militarytimes.REAL.html").read_text("utf-8")
    assert _detect(vb4) == "vbulletin"
    post = ('<div data-controller="core.front.core.comment" data-commentid="1"><a data-ipshover href="/profile/1-a/">'
            'a</a></div>')
    assert engine_scores(parse(post), post) == {"invision": 4}
