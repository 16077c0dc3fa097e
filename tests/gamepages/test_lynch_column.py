"""R-5: the day page's "to a majority" column (L-n) only where a majority is what hangs. Under plurality (the
default) the leader leaves with any lead, so "L-3" beside him would tell players he is safe (a GM's
walk-through)."""

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


@pytest.mark.parametrize("lynch,shown", [("plurality", False), ("majority", True)])
def test_R5_majority_column_only_under_majority_lynch(lynch: str, shown: bool) -> None:
    g = Game.moscow(options={"lynch": lynch})
    g.vote("day 1", "+1h", "М1", "Маф1")
    g.vote("day 1", "+2h", "М2", "Маф1")
    g.vote("day 1", "+3h", "М3", "Дон")
    files = site(GamePages("o", g.setup(), g.run("night 1", "+1h").run))
    page = files["o/day-1.html"].decode()
    assert ("До большинства" in page) is shown
    assert (">L-4<" in page) is shown  # 10 alive: 6 hang, Маф1 has 2
    day = json.loads(files["o/game.json"])["days"][0]
    assert day["lynch"] == lynch and day["majority"] == 6
