"""A `start` with seconds keeps them in every deadline (Day 1 opening at 10:00:36 ends at 10:00:36 the next day).
Decided at stop 36: a deadline is shown with its seconds where it has them (never rounded at Setup: the game's
times stay the GM's), the same in the phase posts, the GM's `статус` and the game page; a deadline on the minute
reads as before («02.12 10:00 МСК»). Russian and English."""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
import gamekit  # noqa: E402
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402
from forumbot.parse.normalize import strip_markup  # noqa: E402

SAID = {"ru": ("статус", "02.12 10:00:36 МСК", "02.12 10:00 МСК"), "en": ("status", "02.12 10:00:36 MSK", "02.12 10:00 MSK")}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_deadline_with_seconds_is_shown_with_them_in_posts_status_and_pages(language: str, monkeypatch) -> None:
    word, shown, on_the_minute = SAID[language]
    monkeypatch.setattr(gamekit, "START", gamekit.START + timedelta(seconds=36))
    g = Game.moscow(language=language)
    g.vote("day 1", "+1h", "М1", "Маф1")
    g.gm("day 1", "+2h", word)
    r = g.run("day 1", "+3h")
    opening = strip_markup(next(m.text for m in r.run.messages if m.key == "day 1/opens"))
    assert shown in opening, opening
    status = r.pms("ГМ")[-1]
    assert shown in status and on_the_minute not in status, status
    page = site(GamePages("s", g.setup(), r.run))["s/index.html"].decode()
    assert f'<time datetime="2026-12-02T10:00:36+03:00">{shown}</time>' in page
