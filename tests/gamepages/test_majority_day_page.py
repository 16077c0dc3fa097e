"""R-12 on the day page, as a GM walking through issue 30 read it: with `majority_ends_day` the page said «Для ухода
оно [большинство] не нужно» on the very day a majority had ended early, and never said that it had."""

from __future__ import annotations

import html
import sys
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402

WORDS = {
    "ru": ("Большинство — 6 из 10: как только у одного игрока столько голосов, день заканчивается",
           "День закончился досрочно: у Маф1 большинство с 01.12 {t} МСК.", "Для ухода оно не нужно"),
    "en": ("Majority: 6 of 10: as soon as one player holds that many votes, the day ends",
           "The day ended early: Маф1 has held a majority since 01.12 {t} MSK.", "None is needed"),
}


def _pages(language: str, options: dict) -> tuple[str, str]:
    g = Game.moscow(options=options)
    g.language = language
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2", "М3"]):  # М3's vote (+1h05m) is the sixth of ten
        g.vote("day 1", f"+1h{k}m", voter, "Маф1")
    ended = g.at("day 1", "+1h5m")
    run = g.run(ended + timedelta(minutes=1)).run
    day = site(GamePages("a", g.setup(), run))["a/day-1.html"].decode()
    return day, ended.astimezone(ZoneInfo("Europe/Moscow")).strftime("%H:%M")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_R12_the_day_page_says_the_majority_ends_the_day_and_that_it_did(language):
    day, t = _pages(language, {"majority_ends_day": True})  # the sixth vote's time, in Moscow
    rule, ended, idle = WORDS[language]
    assert rule in day and idle not in day, day
    assert ended.format(t=t) in day, day


def test_R12_off_the_page_keeps_saying_a_plurality_needs_no_majority():
    day, _ = _pages("ru", {})
    assert WORDS["ru"][2] in day and "День закончился досрочно" not in day


GAME_LIST = {"ru": "День закончился досрочно: у Маф1 больше половины голосов живых игроков (сообщение от 01.12 {t} МСК).",
             "en": "The day ended early: Маф1 holds more than half of the alive players' votes (post at 01.12 {t} MSK)."}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_R12_the_game_pages_day_list_notes_the_early_end_in_the_result_posts_words(language):
    """R-12 on the game page (stop 35's walk-through): its list of days said nothing of a day a majority ended
    early; that day's line now carries the result post's own sentence, and only that day's."""
    g = Game.moscow(options={"majority_ends_day": True})
    g.language = language
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2", "М3"]):
        g.vote("day 1", f"+1h{k}m", voter, "Маф1")
    ended = g.at("day 1", "+1h5m")
    run = g.run(ended + timedelta(minutes=1)).run
    note = GAME_LIST[language].format(t=ended.astimezone(ZoneInfo("Europe/Moscow")).strftime("%H:%M"))
    result = next(m.text for m in run.messages if m.key == "day 1/result").replace("[b]", "").replace("[/b]", "")
    assert note in result
    page = site(GamePages("a", g.setup(), run))["a/index.html"].decode()
    day_line = next(line for line in page.splitlines() if 'href="day-1.html"' in line)
    assert html.unescape(day_line).count(note) == 1, day_line


def test_R12_a_majority_still_in_its_delay_is_not_on_the_game_page():
    """Public pages never show what is not announced: under `majority_delay` the day is still open, the majority
    may break, so no «закончился досрочно» is on the game page until the result post says it."""
    g = Game.moscow(options={"majority_ends_day": True, "majority_delay": 60})
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2", "М3"]):
        g.vote("day 1", f"+1h{k}m", voter, "Маф1")
    held = g.at("day 1", "+1h5m")
    pending = site(GamePages("a", g.setup(), g.run(held + timedelta(minutes=30)).run))
    assert not any("досрочно" in data.decode() for name, data in pending.items() if name.endswith(".html"))
    ended = site(GamePages("a", g.setup(), g.run(held + timedelta(minutes=61)).run))["a/index.html"].decode()
    assert "День закончился досрочно: у Маф1" in ended
