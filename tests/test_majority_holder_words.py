"""R-12 as `game status` and the dashboard name it, in both languages: the nick is the player who holds the
majority, never the author of the post that made it (a GM walking through issue 30 read «большинство у поста Кот
Баюн» and «пост игрока Кот Баюн» when Кот Баюн was the candidate and Печкин 2000 had cast the deciding vote)."""

from __future__ import annotations

import pytest

from forumbot.pages import dashboard_view
from forumbot.texts import TABLES

HOLDER, AT, DAY = "Кот Баюн", "19.01 08:00 МСК", "День 2"

CASES = [
    ("ru", TABLES["ru"]["gs.majority.ended"], "День 2: окончен досрочно — большинство у игрока Кот Баюн с 19.01 08:00 МСК"),
    ("en", TABLES["en"]["gs.majority.ended"], "День 2: ended at majority, a majority for Кот Баюн since 19.01 08:00 МСК"),
    ("ru", dashboard_view.RU["majority.pending"], "День 2: большинство у Кот Баюн с 19.01 08:00 МСК"),
    ("ru", dashboard_view.RU["majority.ended"], "День 2 закончился досрочно: большинство у Кот Баюн с 19.01 08:00 МСК"),
    ("en", dashboard_view.EN["majority.pending"], "День 2: a majority for Кот Баюн since 19.01 08:00 МСК"),
    ("en", dashboard_view.EN["majority.ended"], "День 2 ended early: a majority for Кот Баюн since 19.01 08:00 МСК"),
]


@pytest.mark.parametrize(("language", "template", "expected"), CASES, ids=[f"{c[0]}-{n}" for n, c in enumerate(CASES)])
def test_R12_the_majority_line_names_the_holder_not_a_post_author(language, template, expected):
    line = template.format(day=DAY, nick=HOLDER, at=AT)
    assert line == expected
    assert f"{HOLDER}'s post" not in line and f"пост {HOLDER}" not in line and f"пост игрока {HOLDER}" not in line
