"""Every time on the pages labelled with the zone the posts use (issue 28 item 13: the times are the game's zone,
«01.12 14:00 МСК», as the bot's posts write them), and a deadline still ahead said relative to when the page was
read («через 9 ч»), by the page's own script: the page's bytes stay a pure function of their inputs."""

from __future__ import annotations

import base64
import re
import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import chromium, site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402

TIME = re.compile(r"\d\d\.\d\d \d\d:\d\d(?::\d\d)?(?! (?:МСК|MSK))(?![\d:])")
ZONE = {"ru": "МСК", "en": "MSK"}


def _game(language: str) -> Game:
    g = Game.moscow(language=language)
    g.vote("day 1", "+1h", "М1", "Маф1")
    g.vote("day 1", "+2h", "М2", "Абракадабра")
    return g


def _texts(files: dict[str, bytes]) -> dict[str, str]:
    pages = {p: data.decode() for p, data in files.items() if p.endswith((".html", ".svg"))}
    for p, page in list(pages.items()):  # the open day's picture is drawn into its page
        for n, b in enumerate(re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)):
            pages[f"{p}#{n}"] = base64.b64decode(b).decode()
    return pages


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_time_on_every_page_names_its_zone(language: str) -> None:
    g = _game(language)
    for until in (g.at("day 1", "+3h"), g.at("day 2", "+1h")):
        pages = _texts(site(GamePages("t", g.setup(), g.run(until).run, vote_history="live", built=until)))
        assert any(f" {ZONE[language]}" in page for page in pages.values())
        for name, page in pages.items():
            assert not TIME.findall(page), (name, TIME.findall(page)[:3])


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_deadline_ahead_is_written_as_a_time_never_as_hours_from_the_build(language: str) -> None:
    """Issue 28 item 1 (stop 36): a page is rewritten only when the game changes, so «через 22 ч» counted from
    its build went stale. Its bytes hold the absolute time with its zone (what a page without scripts shows),
    the same whenever it was built."""
    g = _game(language)
    run = g.run(g.at("day 1", "+3h")).run
    deadline = run.next_deadline
    assert deadline is not None
    pages = [site(GamePages("t", g.setup(), run, built=deadline - ahead))["t/index.html"].decode()
             for ahead in (timedelta(hours=9, minutes=30), timedelta(minutes=25))]
    assert pages[0] == pages[1]
    shown = f'<time datetime="2026-12-02T10:00:00+03:00">02.12 10:00 {ZONE[language]}</time>'
    assert shown in pages[0]
    deadline_line = pages[0].split("<main>")[1].split("</p>")[0]
    assert not re.search(r"через \d|in \d", re.sub(r'data-\w+="[^"]*"', "", deadline_line)), deadline_line


# a page read at a given time: Date.now fixed before the page's own script runs
READ_AT = "<head><script>Date.now = () => %d;</script>"


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_deadline_ahead_is_said_relative_to_when_the_page_is_read(language: str, tmp_path: Path) -> None:
    """The page's script writes «через N ч» from the reader's clock: the same bytes read 9 h 30 min and 25 min
    before the deadline say «через 9 ч» and «через 25 мин», and nothing once it has passed."""
    g = _game(language)
    run = g.run(g.at("day 1", "+3h")).run
    deadline = run.next_deadline
    assert deadline is not None
    page = site(GamePages("t", g.setup(), run, built=g.at("day 1", "+3h")))["t/index.html"].decode()
    said = {"ru": ("через 9 ч", "через 25 мин"), "en": ("in 9 h", "in 25 min")}[language]
    for before, expected in ((timedelta(hours=9, minutes=30), f"({said[0]})"), (timedelta(minutes=25), f"({said[1]})"),
                             (-timedelta(minutes=1), "")):
        read = tmp_path / f"read-{before.total_seconds():.0f}.html"
        now = int((deadline - before).timestamp() * 1000)
        read.write_text(page.replace("<head>", READ_AT % now, 1), encoding="utf-8")
        dom = chromium([f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=1000", "--dump-dom",
                        read.as_uri()]).stdout
        found = re.search(r'<span data-until="[^"]+"[^>]*>([^<]*)</span>', dom)
        assert found, dom[-800:]
        assert found.group(1) == (f" {expected}" if expected else ""), found.group(0)
