"""Engine detection as data (issue 9 item 4): marks from ENGINES.md section 12, by page markup, source text and
cookie names; mybb.ru is told from the PunBB it descends from."""

from __future__ import annotations

from adapters.detect import ENGINE_MARKS, detect_engine, engine_scores
from adapters.html import parse


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
