"""M-10's hang-all runoff hangs every leader at once: its result post names them in the runoff's own order
(«Игру покидают: М6 и Шериф», the leaders as the tie listed them), and the day page and the game page name them
in that order too, never in the seats' (issue 28, "still reads wrong" after stop 35). Russian and English."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402
from forumbot.parse.normalize import strip_markup  # noqa: E402

POSTED = {"ru": "Игру покидают: М6 и Шериф.", "en": "М6 and Шериф leave the game."}
PAGE = {"ru": "Исход: игру покидают М6, Шериф", "en": "Outcome: М6, Шериф leave the game"}


def _hang_all(language: str) -> GamePages:
    """Day 1 tied between Шериф (seat 1) and М6 (seat 10), the tie listing М6 first; the runoff hangs both."""
    g = Game.moscow(language=language)
    g.votes("day 1", {"М1": "М6", "М2": "М6", "М3": "М6", "М4": "Шериф", "М5": "Шериф", "М6": "Шериф"})
    runoff = g.at("night 1", "+0h")  # the runoff opens at Day 1's deadline
    for who in ("М1", "М2", "М3", "М5"):
        g.vote(runoff, "+1h", who, "повесить всех")
    return GamePages("r", g.setup(), g.run(g.at("night 1", "+13h")).run)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_hanged_leaders_read_in_the_posts_order(language: str) -> None:
    g = _hang_all(language)
    posted = " ".join(strip_markup(next(m.text for m in g.run.messages if m.key == "runoff 1/result")).split())
    assert POSTED[language] in posted
    files = site(g)
    for path in ("r/day-1.html", "r/index.html"):
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", files[path].decode())).split())
        assert PAGE[language] in text, (path, re.findall(r"(?:Исход|Outcome): [^.]*", text))
