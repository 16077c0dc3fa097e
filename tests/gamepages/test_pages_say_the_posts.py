"""The public pages say what the bot's posts said (issue 28 item 10): a day's outcome, a night's misfire and the
reason the game ended read on the page in the result post's own words, in Russian and English."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import sys
from datetime import datetime
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import ROOT, from_transcript, site  # noqa: E402

from forumbot.markup import escape_bbcode  # noqa: E402
from forumbot.model import Special  # noqa: E402
from forumbot.pages.daydata import DayData, ShownTarget  # noqa: E402
from forumbot.pages.site import GamePages, public_days  # noqa: E402
from forumbot.parse.normalize import strip_markup  # noqa: E402
from forumbot.texts import get_texts  # noqa: E402

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
           "Исход: игру покидает {nick}", {"no_vote": "нет голоса", "agitation": "повторная агитация"}),
    "en": ("Autokill: {nick} leaves the game (reason: {why}).", "Because of the autokill, nobody leaves by vote.",
           "Outcome: {nick} leaves the game", {"no_vote": "no vote", "agitation": "repeated agitation"}),
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


def _idle_game(language: str) -> GamePages:
    """Free Hunt with R-11's `post_minimum = 1`, `autokill`: all but Г6 and Г7 write in the game thread on Day 1;
    Г6 votes, Г7 neither votes nor writes."""
    g = Game.free_hunt(language=language, options={"post_minimum": 1, "post_minimum_action": "autokill"})
    for k, who in enumerate(("Ф1", "Ф2", "Ф3", "Док", "Ман", "Г1", "Г2", "Г3", "Г4", "Г5")):
        g.post("day 1", f"+1h{k}m", who, f"Я {who}, ищу мафию")
    g.votes("day 1", {who: "Г1" for who in ("Ф1", "Ф2", "Ф3", "Док", "Ман", "Г2", "Г3", "Г4", "Г5", "Г6")})
    g.vote("day 1", "+2h", "Г1", "Г2")
    return GamePages("hunt", g.setup(), g.run("night 1", "+1h").run)


IDLE_WHY = {"ru": {"Г6": "мало сообщений в игровой теме", "Г7": "нет голоса и мало сообщений в игровой теме"},
            "en": {"Г6": "too few posts in the game thread", "Г7": "no vote and too few posts in the game thread"}}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_R11_an_autokill_for_too_few_posts_has_the_result_posts_reason_on_the_pages(language: str) -> None:
    """R-11 (a GM's walk-through of issue 30): the day page and the game page gave every autokill as «нет голоса» or
    «повторная агитация», so a voter who left for too few posts read as an agitator, and one short of both as a
    mere no-show; they now give the result post's reason."""
    g = _idle_game(language)
    autokill = AUTOKILL_LINES[language][0]
    said = _said(g, "day 1/result")
    files = site(g)
    for nick, why in IDLE_WHY[language].items():
        line = autokill.format(nick=nick, why=why)
        assert line in said, said  # the post, as the texts have it
        for path in ("hunt/day-1.html", "hunt/index.html"):
            assert line in _page(files, path), (path, _page(files, path)[-3000:])


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


def _rows_match_counts(g: GamePages, day: DayData, changes: list[datetime]) -> int:
    """For each count of the day with a post before it and no modkill or replacement (`changes`) between that
    post and it: the row's tally after is the count's, line by line (as tests/gamepages/test_daydata.py checks
    for the transcripts). Returns how many counts were compared."""
    texts = get_texts(g.setup.language, escape_bbcode, g.setup.schedule.timezone)
    checked = 0
    for count in (m for m in g.run.messages if m.key.startswith(f"{day.label}/count/")):
        before = [r for r in day.rows if r.at < count.at]
        if not before or any(before[-1].at < at <= count.at for at in changes):
            continue
        lines = re.findall(r"(?m)^\[b\][^\n]*?\[/b\] — \d+ ", count.text)
        assert len(lines) == len(before[-1].tally), (count.key, lines, before[-1].tally)
        for target, n in before[-1].tally:
            shown = texts.v.target(Special(target.name) if target.special else target.name, bold=True)
            assert f"{shown} — {n} " in count.text, (count.key, target, n)
        checked += 1
    return checked


def _modkill_day(language: str) -> GamePages:
    """Free Hunt, Day 1: Г1 votes Г2, Г3 votes Ф1, Г4 votes Г2; the 12:00 count shows all three; at 13:00 the GM
    modkills Г1 and Ф1 (the day goes on, H-6); Г5 votes Г2 at 14:00."""
    g = Game.free_hunt(language=language)
    g.vote("day 1", "+1h", "Г1", "Г2")
    g.vote("day 1", "+1h", "Г3", "Ф1")
    g.vote("day 1", "+1h", "Г4", "Г2")
    command = "модкилл" if language == "ru" else "modkill"
    g.gm("day 1", "+3h", f"{command} Г1")
    g.gm("day 1", "+3h", f"{command} Ф1")
    g.vote("day 1", "+4h", "Г5", "Г2")
    return GamePages("hunt", g.setup(), g.run("night 1", "+1h").run)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_C6_H6_each_row_reads_the_vote_as_the_count_of_its_moment(language: str) -> None:
    """C-6, H-6: a vote cast before its author's modkill was counted by the count posted then, and a vote for a
    player modkilled later counted for him until then. The page read every row with the players alive at the
    deadline: Г1's vote said «автор выбыл» and the tally after it left out what the linked count showed. Now the
    tally after the last post before each count is that count's tally, line by line (no modkill between them)."""
    g = _modkill_day(language)
    (day,) = [d for d in public_days(g) if d.label == "day 1"]
    out = {"Г1", "Ф1"}
    reading = {r.voter: r.reading for r in day.rows}
    assert reading["Г1"] == "counted" and reading["Г3"] == "counted"
    checked = _rows_match_counts(g, day, [m.at for m in g.run.messages if m.key.startswith("day 1/modkill/")])
    assert checked == 2  # 12:00 (Г1, Г3, Г4 before the modkills) and 15:00 (Г5 after them)
    assert dict(day.rows[2].tally) == {ShownTarget("Г2"): 2, ShownTarget("Ф1"): 1}
    assert dict(day.rows[3].tally) == {ShownTarget("Г2"): 2}  # Г4, Г5: Г1 and Ф1 are out
    assert {v for _, voters in day.final for v in voters} == {"Г4", "Г5"} and not out & set(day.lanes)
    page = _page(site(g), "hunt/day-1.html")
    out_words = {"ru": "автор выбыл", "en": "author out"}[language]
    assert out_words not in page


def _replaced_day(language: str) -> GamePages:
    """Moscow, Day 1: М1 votes Маф1 and М2 votes М1 at 11:00 (the 12:00 count names М1 both ways); at 13:00 the
    GM replaces М1 by Новичок; at 14:00 Новичок changes the seat's vote to Маф2 (the 15:00 count)."""
    g = Game.moscow(language=language)
    g.vote("day 1", "+1h", "М1", "Маф1")
    g.vote("day 1", "+1h", "М2", "М1")
    g.gm("day 1", "+3h", ("замена" if language == "ru" else "replace") + " М1 Новичок")
    g.vote("day 1", "+4h", "Новичок", "Маф2")
    return GamePages("moscow", g.setup(), g.run("day 1", "+6h").run)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_C9_a_replaced_players_post_stays_his_as_the_count_named_it(language: str) -> None:
    """C-9 (`замена`), C-6: a post written before a replacement is the former player's, and a vote for the seat
    named him, as the count posted then did. The page put М1's post under Новичок and the 12:00 tally as
    «Новичок 1». The seat's lane (picture, «По игрокам») is still one: the newcomer's, holding both."""
    g = _replaced_day(language)
    assert any(m.key.startswith("gm/") and "Новичок" in m.text for m in g.run.messages)
    (day,) = public_days(g)
    assert [(r.voter, r.target.name if r.target else None) for r in day.rows] == [
        ("М1", "Маф1"), ("М2", "М1"), ("Новичок", "Маф2")]
    assert [r.lane for r in day.rows] == ["Новичок", "М2", "Новичок"]
    assert dict(day.rows[1].tally) == {ShownTarget("Маф1"): 1, ShownTarget("М1"): 1}
    assert dict(day.rows[2].tally) == {ShownTarget("Маф2"): 1, ShownTarget("Новичок"): 1}
    replaced = [m.at for m in g.run.messages if m.key.startswith("gm/") and m.key.endswith("/post")]
    assert _rows_match_counts(g, day, replaced) == 2  # 12:00 and 15:00
    files = site(g)
    posts = json.loads(files["moscow/game.json"])["days"][0]["posts"]
    assert [(p["voter"], p["seat"]) for p in posts] == [("М1", "Новичок"), ("М2", "М2"), ("Новичок", "Новичок")]
    page = _page(files, "moscow/day-1.html")
    assert "М1 Маф1" in page  # the history row: author, post
    assert "Новичок Маф1" not in page


@pytest.mark.parametrize("language", ["ru", "en"])
def test_C2_the_draw_check_on_the_page_says_what_the_end_post_said(language: str) -> None:
    """After the end the game page shows the string whose SHA-256 the opening post gave (C-2). Its roles are
    those of the draw (a Don chosen later is written «mafia») while the page's table names him «дон», and
    `sha256sum` is not on macOS: the end post says both, so the page says it in the post's words (seen on the
    issue 28 XenForo walk-through: the page had only «Строка, хеш которой был в первом посте; проверить:»)."""
    g = Game.moscow(language=language)
    for offset, nick in (("+1h", "Дон"), ("+2h", "Маф1"), ("+3h", "Маф2")):
        g.gm("day 1", offset, f"модкилл {nick}")
    pages = GamePages("m", g.setup(), g.run("day 1", "+4h").run)
    assert pages.run.result.winner is not None
    page, post = _page(site(pages), "m/index.html"), _said(pages, "ended/result")
    notes = {"ru": ("дон, выбранный позже, записан как mafia", "в macOS вместо sha256sum — shasum -a 256"),
             "en": ("a Don chosen later is written as mafia", "on macOS use shasum -a 256 instead of sha256sum")}
    for note in notes[language]:
        assert note in post, post  # pinned: what the page must not lose
        assert note in page, page
    assert str(pages.setup.seed) in page


def test_M7_two_hanged_in_a_runoff_are_said_with_a_plural_verb() -> None:
    """«Исход: игру покидает Петя, Вася» (one verb for two players) on the runoff's picture and the game page,
    beside the post's «Игру покидают: Вася и Петя» (issue 28 XenForo walk-through), in the post's order (stop 36).
    Pinned in both languages."""
    for language, said, wrong in (("ru", "игру покидают Вася, Петя", "игру покидает Вася"),
                                  ("en", "Вася, Петя leave the game", "leave(s)")):
        g = from_transcript(TRANSCRIPTS / "moscow_town_win_runoff.json", "r")
        g = GamePages("r", dataclasses.replace(g.setup, language=language), g.run)
        files = site(g)
        for path in ("r/index.html", "r/day-1.html"):
            page = _page(files, path)
            assert said in page and wrong not in page, (path, page)
