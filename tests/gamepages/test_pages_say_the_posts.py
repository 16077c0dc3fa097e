"""The public pages say what the bot's posts said (issue 28 item 10): a day's outcome, a night's misfire and the
reason the game ended read on the page in the result post's own words, in Russian and English."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import ROOT, from_transcript, site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402
from forumbot.parse.normalize import strip_markup  # noqa: E402

TRANSCRIPTS = ROOT / "fixtures" / "transcripts"


def _page(files: dict[str, bytes], path: str) -> str:
    """A page's text as a reader sees it: tags dropped, entities read, blanks folded."""
    text = re.sub(r"<style.*?</style>|<[^>]+>", " ", files[path].decode(), flags=re.S)
    return " ".join(html.unescape(text).split())


def _said(g: GamePages, key: str) -> str:
    return " ".join(strip_markup(next(m.text for m in g.run.messages if m.key == key)).split())


def _no_show_game(language: str) -> GamePages:
    """Free Hunt, Day 1: eleven vote for Г1, Г7 posts nothing and is autokilled at the deadline (H-5)."""
    g = Game.free_hunt(language=language)
    g.votes("day 1", {who: "Г1" for who in ("Ф1", "Ф2", "Ф3", "Док", "Ман", "Г2", "Г3", "Г4", "Г5", "Г6")})
    g.vote("day 1", "+2h", "Г1", "Г2")
    return GamePages("hunt", g.setup(), g.run("night 1", "+1h").run)


AUTOKILL_LINES = {
    "ru": ("Автокилл: {nick} покидает игру (причина — {why}).", "Из-за автокилла по итогам голосования никто не уходит.",
           "игру покидает {nick}", {"no_vote": "нет голоса", "agitation": "повторная агитация"}),
    "en": ("Autokill: {nick} leaves the game (reason: {why}).", "Because of the autokill, nobody leaves by vote.",
           "{nick} leave(s) the game", {"no_vote": "no vote", "agitation": "repeated agitation"}),
}


@pytest.mark.parametrize("case", [
    ("ru", "fixture day 1", "Иван", "no_vote"), ("ru", "fixture day 2", "Мила", "agitation"),
    ("ru", "kit", "Г7", "no_vote"), ("en", "kit", "Г7", "no_vote"),
], ids=["ru-fixture-day1-no-show", "ru-fixture-day2-agitation", "ru-kit-no-show", "en-kit-no-show"])
def test_H6_an_autokill_day_shows_no_lynch_as_the_result_post_said(case: tuple[str, str, str, str]) -> None:
    """H-6: an autokill at this vote means nobody leaves by it. The page said «Исход: игру покидает Иван» beside
    «Алиса 9»; it now says the result post's words: who was autokilled, why (H-4, H-5), and that nobody leaves."""
    language, source, nick, why = case
    if source == "kit":
        g, n = _no_show_game(language), 1
    else:
        g, n = from_transcript(TRANSCRIPTS / "free_hunt_agitation_noshow.json", "hunt"), int(source[-1])
    autokill, no_lynch, leaves, reasons = AUTOKILL_LINES[language]
    said = _said(g, f"day {n}/result")
    line = autokill.format(nick=nick, why=reasons[why])
    assert line in said and no_lynch in said  # the post, as the texts have it
    files = site(g)
    for path in (f"hunt/day-{n}.html", "hunt/index.html"):
        page = _page(files, path)
        assert f"{line} {no_lynch}" in page, path
        assert leaves.format(nick=nick) not in page, path


def _misfires_game(language: str) -> GamePages:
    """Moscow: every day all vote ннв / no lynch, the mafia never shoot: three misfires, the town wins (M-6)."""
    g = Game.moscow(language=language)
    word = "ннв" if language == "ru" else "no lynch"
    for n in (1, 2, 3):
        g.votes(f"day {n}", {who: word for who, _ in g.cast})
    return GamePages("moscow", g.setup(), g.run("night 3", "+12h").run)


MISFIRE_LINES = {
    "ru": ("Мафия не договорилась: несострел.", "Мафия три ночи подряд не стреляла.", "победил город"),
    "en": ("The mafia did not agree: misfire.", "The mafia failed to shoot three nights in a row.", "the town won"),
}


@pytest.mark.parametrize("case", [("ru", "fixture"), ("ru", "kit"), ("en", "kit")], ids=lambda c: "-".join(c))
def test_M5_M6_the_game_page_names_each_misfire_and_why_the_town_won(case: tuple[str, str]) -> None:
    """M-5: a misfire is announced; M-6: three in a row win it for the town. The game page said «никто не погиб»
    three times and «победил город» with no word of a misfire; it now says each night's «несострел» and the
    reason, as the night and end posts did."""
    language, source = case
    g = (from_transcript(TRANSCRIPTS / "moscow_three_misfires.json", "moscow") if source == "fixture"
         else _misfires_game(language))
    assert g.run.result.winner == "town"
    misfire, why, won = MISFIRE_LINES[language]
    for n in (1, 2, 3):
        assert misfire in _said(g, f"night {n}/result")
    assert why in _said(g, "ended/result")
    page = _page(site(g), "moscow/index.html")
    assert f"{won}. {why}" in page
    night = {"ru": "Ночь {n}:", "en": "Night {n}:"}[language]
    for n in (1, 2, 3):
        start = page.index(night.format(n=n))
        assert misfire in page[start:page.index(night.format(n=n + 1)) if n < 3 else None], n
