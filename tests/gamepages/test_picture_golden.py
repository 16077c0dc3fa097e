"""Golden vote-flow pictures for three games (issue 20 item 2): the SVG is deterministic, so any change to it
shows here as a diff. After a deliberate change: FORUMBOT_REGOLD=1 pytest tests/gamepages/test_picture_golden.py"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from pagekit import ROOT, from_transcript, site  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "runoff": ROOT / "fixtures/transcripts/moscow_town_win_runoff.json",
    "hunt": ROOT / "fixtures/transcripts/free_hunt_agitation_noshow.json",
    "real": ROOT / "fixtures/transcripts/real/mafiaratings_1437.json",
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_pictures_match_golden(name: str) -> None:
    files = site(from_transcript(GAMES[name], name))
    pictures = {Path(p).name: data for p, data in files.items() if p.endswith(".svg")}
    assert pictures, "every game here has a resolved day"
    folder = GOLDEN / name
    if os.environ.get("FORUMBOT_REGOLD"):
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.svg"):
            old.unlink()
        for file, data in pictures.items():
            (folder / file).write_bytes(data)
    assert sorted(pictures) == sorted(p.name for p in folder.glob("*.svg")), "regenerate with FORUMBOT_REGOLD=1"
    for file, data in pictures.items():
        assert data == (folder / file).read_bytes(), file
        root = ElementTree.fromstring(data)  # well-formed XML with a title (accessibility)
        assert root.find("{http://www.w3.org/2000/svg}title") is not None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_build_twice_gives_identical_bytes(name: str) -> None:
    assert site(from_transcript(GAMES[name], name)) == site(from_transcript(GAMES[name], name))


def test_file_name_carries_the_content_hash() -> None:
    import hashlib

    files = site(from_transcript(GAMES["runoff"], "runoff"))
    for path, data in files.items():
        if path.endswith(".svg"):
            assert hashlib.sha256(data).hexdigest()[:12] in path


def test_png_beside_the_svg_with_the_png_extra() -> None:
    pytest.importorskip("resvg_py")
    if not Path("/usr/share/fonts/truetype/dejavu").is_dir():
        pytest.skip("Debian's fonts-dejavu-core is not installed")
    from forumbot.pages.site import build_game

    g = from_transcript(GAMES["hunt"], "hunt")
    files = build_game(type(g)(**{**g.__dict__, "png": True}))
    pngs = {p: d for p, d in files.items() if p.endswith(".png")}
    svgs = {p for p in files if p.endswith(".svg")}
    assert {p.removesuffix(".png") for p in pngs} == {p.removesuffix(".svg") for p in svgs}
    assert all(d.startswith(b"\x89PNG\r\n\x1a\n") and len(d) > 5000 for d in pngs.values())


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_pages_are_accessible_in_both_languages(lang: str) -> None:
    """lang on every page, a caption and th scope on every table, alt on the picture, a title in the SVG; the
    words in the game's language (Russian by default, English by option)."""
    import dataclasses

    g = from_transcript(GAMES["runoff"], "runoff")
    g = dataclasses.replace(g, setup=dataclasses.replace(g.setup, language=lang))
    files = site(g)
    words = {"ru": ("Итоговый подсчёт", "Все посты по порядку"), "en": ("Final count", "Every post in order")}
    for path, data in files.items():
        if not path.endswith(".html"):
            continue
        text = data.decode()
        assert f'<html lang="{lang}">' in text, path
        assert text.count("<table>") == text.count("<caption>"), path
        assert "<th>" not in text and '<th scope="col">' in text, path
        assert "<script" not in text, path  # readable without JavaScript
    day = files["runoff/day-1.html"].decode()
    assert all(w in day for w in words[lang]) and 'alt="' in day
    svg = next(d for p, d in files.items() if p.endswith(".svg")).decode()
    assert ("как менялись голоса" if lang == "ru" else "how the votes moved") in svg.split("</title>")[0]


def test_a_runoffs_two_choices_are_told_apart_by_colour() -> None:
    """M-7's runoff has only «повесить всех» and «помиловать всех» to vote for: both were drawn in the one grey
    of every special target, so the lanes read alike, the labels cut to «пов»/«пом» at phone width (issue 28
    XenForo walk-through). Each special target gets a grey of its own."""
    import re

    files = site(from_transcript(GAMES["runoff"], "runoff"))
    fills: dict[str, set[str]] = {}
    for path, data in files.items():
        if path.endswith(".svg"):
            for target, fill in re.findall(r"→ (повесить всех|помиловать всех) ·[^<]*</title><rect[^>]*fill=\"(#\w+)\"",
                                           data.decode()):
                fills.setdefault(target, set()).add(fill)
    assert set(fills) == {"повесить всех", "помиловать всех"}, fills
    assert len(fills["повесить всех"]) == len(fills["помиловать всех"]) == 1
    assert fills["повесить всех"] != fills["помиловать всех"], fills
