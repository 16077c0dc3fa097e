"""The day page's "to a majority" column (L-n) and the majority of the alive under every `lynch` option (R-5):
issue 30 item 5 asks for it under plurality too (it was shown only under majority before: a GM's walk-through
feared "L-3" would read as "safe"; the column says "to majority", not "to a lynch")."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402


@pytest.mark.parametrize("lynch", ["plurality", "majority"])
def test_issue30_item5_R5_majority_column_under_every_lynch(lynch: str) -> None:
    g = Game.moscow(options={"lynch": lynch})
    g.vote("day 1", "+1h", "М1", "Маф1")
    g.vote("day 1", "+2h", "М2", "Маф1")
    g.vote("day 1", "+3h", "М3", "Дон")
    files = site(GamePages("o", g.setup(), g.run("night 1", "+1h").run))
    page = files["o/day-1.html"].decode()
    assert "До большинства" in page and "Большинство — 6 из 10" in page
    assert ">L-4<" in page  # 10 alive: 6 make a majority, Маф1 has 2
    # under plurality the page says the majority is not needed (issue 28: «L-1» beside the player who left)
    assert ("Для ухода оно не нужно: уходит набравший больше всех голосов" in page) is (lynch == "plurality")
    day = json.loads(files["o/game.json"])["days"][0]
    assert day["lynch"] == lynch and day["majority"] == 6


@pytest.mark.parametrize("options, line", [
    ({}, "Ничья: М1, Маф1. Если так останется к сроку — перестрелка."),
    ({"tie": "first_reached"}, "Ничья: М1, Маф1. Если так останется к сроку — уходит Маф1: он первым набрал столько"),
    ({"lynch": "majority"}, "Ничья: М1, Маф1. Если так останется к сроку — никто не уходит: ни у кого нет большинства."),
])
def test_issue30_item5_R6_the_open_days_page_says_what_a_tie_would_do(options: dict, line: str) -> None:
    """R-6 (R-5 majority): while the day is open with its leaders tied, its page says what the tie does at the
    deadline, as the count post does; once the day is over the outcome says it instead."""
    g = Game.moscow(options=options)
    g.vote("day 1", "+1h", "Шериф", "Маф1")
    g.vote("day 1", "+1h1m", "Дон", "М1")
    g.vote("day 1", "+1h2m", "Маф2", "Маф1")
    g.vote("day 1", "+1h3m", "М2", "М1")
    page = site(GamePages("o", g.setup(), g.run("day 1", "+2h").run))["o/day-1.html"].decode()
    assert line in page
    closed = site(GamePages("o", g.setup(), g.run("night 1", "+1h").run))["o/day-1.html"].decode()
    assert "Если так останется к сроку" not in closed
