"""The players' table has a Роль column only when it holds a role (issue 28 walk-through): with closed roles it
was a column of blanks until the end, a column players read as something withheld from them by mistake. With
open roles it shows from the first death; after the end every role is public."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import MOSCOW_CAST, Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402

ROLE_HEAD = '<th scope="col">Роль</th>'


def _page(g: Game, until: str) -> str:
    page = GamePages("g", g.setup(), g.run(until).run, vote_history="live")
    return site(page)["g/index.html"].decode()


def _lynch_m1(g: Game) -> Game:
    g.votes("day 1", {nick: "М1" for nick, _ in MOSCOW_CAST if nick != "М1"} | {"М1": "М2"})
    return g


def test_closed_roles_have_no_role_column_while_the_game_runs() -> None:
    page = _page(_lynch_m1(Game.moscow()), "night 1")
    assert ROLE_HEAD not in page and "М1" in page


def test_open_roles_show_the_column_once_a_role_is_announced() -> None:
    g = Game.moscow(options={"roles": "open"})
    assert ROLE_HEAD not in _page(g, "day 1")
    page = _page(_lynch_m1(g), "night 1")
    assert ROLE_HEAD in page and "<td>мирный</td>" in page
