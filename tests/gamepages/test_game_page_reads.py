"""The game page as players read it (issue 28 walk-through). The players' table has a Роль column only when it
holds a role: with closed roles it was a column of blanks until the end, read as something withheld by mistake;
with open roles it shows from the first death, after the end every role. The GM's acts include his undos."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import MOSCOW_CAST, Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402

ROLE_HEAD = '<th scope="col">Роль</th>'


def _page(g: Game, until: str, offset: str = "+0h") -> str:
    page = GamePages("g", g.setup(), g.run(until, offset).run, vote_history="live")
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


def test_C9_the_game_page_lists_an_undo_with_the_gms_acts() -> None:
    """issue 28 walk-through: the undone `замена` stayed listed among the GM's acts as if in force, the undo post
    that took it back missing (the list took the `gm/` posts only)."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М5 Новичок")
    g.gm("day 1", "+2h", "отмена")
    page = _page(g, "day 1", "+3h")
    replaced, undone = page.find("место игрока М5 занимает Новичок"), page.find("Отменено действие ведущего — замена")
    assert 0 < replaced < undone


def _headings(g: Game, until: str, offset: str, language: str = "ru") -> list[str]:
    import re

    page = GamePages("g", g.setup(), g.run(until, offset).run, vote_history="live")
    html = site(page)["g/day-1.html"].decode()
    return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h[12]>(.*?)</h[12]>", html)]


def test_a_day_page_names_its_day_once_and_each_part_only_with_a_runoff() -> None:
    """A day page read «День 3» as its title and again as the heading of its only part (and «День 1» over «День 1
    (день ещё идёт)» while open): seen on the issue 28 XenForo walk-through. One heading names the day; the parts
    get theirs only when there are two (the day and its runoff)."""
    assert _headings(_lynch_m1(Game.moscow()), "night 1", "+1h") == ["День 1"]
    assert _headings(_lynch_m1(Game.moscow()), "day 1", "+2h") == ["День 1 (день ещё идёт)"]
    assert _headings(_lynch_m1(Game.moscow(language="en")), "day 1", "+2h") == ["Day 1 (the day is still open)"]
    g = Game.moscow()
    g.votes("day 1", {"М1": "М2", "М2": "М1", "М3": "М1", "М4": "М2"})  # a tie: Moscow's runoff (M-7)
    assert _headings(g, "day 2", "+1h") == ["День 1", "День 1", "Перестрелка дня 1"]


def test_the_game_page_has_no_empty_days_section_in_setup() -> None:
    """In Setup the game page showed the heading «Дни» over nothing (issue 28 XenForo walk-through); it comes
    with the first day, and with a hidden history the sentence saying when it is published stays."""
    days = {"ru": "<h2>Дни</h2>", "en": "<h2>Days</h2>"}
    for language in ("ru", "en"):
        assert days[language] not in _page(Game.moscow(language=language), "setup", "-1h")  # Day 1 at START
        assert days[language] in _page(Game.moscow(language=language), "day 1", "+1h")
    hidden = GamePages("g", Game.moscow().setup(), Game.moscow().run("setup", "-1h").run, vote_history="after_end")
    page = site(hidden)["g/index.html"].decode()
    assert "<h2>Дни</h2>" in page and "История голосов будет опубликована после конца игры." in page
    assert "<ul>\n</ul>" not in page
