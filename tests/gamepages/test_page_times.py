"""Every time on the pages labelled with the zone the posts use (issue 28 item 13: the times are the game's zone,
«01.12 14:00 МСК», as the bot's posts write them), and a deadline still ahead said relative to when the page was
built («через 9 ч»), never to the wall clock: the pages stay a pure function of their inputs."""

from __future__ import annotations

import base64
import re
import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402

TIME = re.compile(r"\d\d\.\d\d \d\d:\d\d(?::\d\d)?(?! (?:МСК|MSK))(?![\d:])")
ZONE = {"ru": "МСК", "en": "MSK"}


def _game(language: str) -> Game:
    g = Game.moscow(language=language)
    g.vote("day 1", "+1h", "М1", "Маф1")
    g.vote("day 1", "+2h", "М2", "Абракадабра")
    return g


def _texts(files: dict[str, bytes]) -> dict[str, str]:
    pages = {p: data.decode() for p, data in files.items() if p.endswith((".html", ".svg"))}
    for p, page in list(pages.items()):  # the open day's picture is drawn into its page
        for n, b in enumerate(re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)):
            pages[f"{p}#{n}"] = base64.b64decode(b).decode()
    return pages


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_time_on_every_page_names_its_zone(language: str) -> None:
    g = _game(language)
    for until in (g.at("day 1", "+3h"), g.at("day 2", "+1h")):
        pages = _texts(site(GamePages("t", g.setup(), g.run(until).run, vote_history="live", built=until)))
        assert any(f" {ZONE[language]}" in page for page in pages.values())
        for name, page in pages.items():
            assert not TIME.findall(page), (name, TIME.findall(page)[:3])


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_deadline_ahead_is_said_relative_to_the_build(language: str) -> None:
    g = _game(language)
    run = g.run(g.at("day 1", "+3h")).run
    deadline = run.next_deadline
    assert deadline is not None
    said = {"ru": ("через 9 ч", "через 25 мин"), "en": ("in 9 h", "in 25 min")}[language]
    nine = site(GamePages("t", g.setup(), run, built=deadline - timedelta(hours=9, minutes=30)))["t/index.html"]
    assert f"({said[0]})" in nine.decode()
    soon = site(GamePages("t", g.setup(), run, built=deadline - timedelta(minutes=25)))["t/index.html"].decode()
    assert f"({said[1]})" in soon
    unknown = site(GamePages("t", g.setup(), run))["t/index.html"].decode()  # no build time: no relative time
    assert said[0].split()[0] + " " not in unknown.split("<main>")[1].split("</p>")[0]
