"""The open day's picture (issue 20 items 2-3 with `vote_history = "live"`): the running day drawn with its
current tally, said to be not final, inside its page (no file a post could point at, none left stale); a
resolved day keeps its file with the hash in its name."""

from __future__ import annotations

import base64
import re
import sys
from pathlib import Path
from xml.etree import ElementTree

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"


def _embedded(page: str) -> list[str]:
    return [base64.b64decode(b).decode() for b in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)]


def _words(svg: str) -> str:
    return " ".join("".join(t.itertext()) for t in ElementTree.fromstring(svg).iter(f"{NS}text"))


def _open_day() -> Game:
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "Маф1")
    g.vote("day 1", "+2h", "М2", "Маф1")
    g.vote("day 1", "+3h", "М1", "Дон")  # a change
    g.vote("day 1", "+3h", "М4", "Маф1")
    g.vote("day 1", "+4h", "М3", "Абракадабра")  # not a vote: a cross
    return g


def test_the_open_day_is_drawn_with_its_running_tally_not_final() -> None:
    g = _open_day()
    files = site(GamePages("o", g.setup(), g.run("day 1", "+5h").run))
    assert not any(p.endswith(".svg") for p in files)  # no file: nothing a post points at, nothing left stale
    page = files["o/day-1.html"].decode()
    (svg,) = _embedded(page)
    words = _words(svg)
    assert "голосование идёт, счёт на 01.12 14:00 МСК не окончательный" in words
    assert "Текущий счёт на 01.12 14:00 МСК, не окончательный:" in words and "Итог:" not in words
    assert "Маф1 — 2: М2, М4" in words and "Дон — 1: М1" in words  # the tally after the last post
    assert "<caption>Текущий подсчёт (не окончательный)</caption>" in page
    assert "голосование ещё идёт" in ElementTree.fromstring(svg).find(f"{NS}title").text  # type: ignore[union-attr]
    assert 'alt="День 1: как менялись голоса — голосование ещё идёт. Текущий счёт' in page
    # deterministic: the same posts give the same page; a new vote gives a new picture
    assert site(GamePages("o", g.setup(), g.run("day 1", "+5h").run)) == files
    g.vote("day 1", "+6h", "М5", "Дон")
    (later,) = _embedded(site(GamePages("o", g.setup(), g.run("day 1", "+7h").run))["o/day-1.html"].decode())
    assert later != svg and "Дон — 2: М1, М5" in _words(later)


def test_the_resolved_day_has_its_file_and_no_open_picture() -> None:
    g = _open_day()
    files = site(GamePages("o", g.setup(), g.run("night 1", "+1h").run))
    (name,) = [p for p in files if p.endswith(".svg")]
    page = files["o/day-1.html"].decode()
    assert not _embedded(page) and f'src="{name.split("/")[1]}"' in page
    assert "не окончательный" not in files[name].decode() and "Итог:" in _words(files[name].decode())


def test_only_live_history_shows_the_open_day_and_only_with_pictures() -> None:
    g = _open_day()
    r = g.run("day 1", "+5h").run
    assert "o/day-1.html" not in site(GamePages("o", g.setup(), r, vote_history="after_day"))
    page = site(GamePages("o", g.setup(), r, picture=False))["o/day-1.html"].decode()
    assert not _embedded(page) and "Текущий подсчёт (не окончательный)" in page


def test_an_open_runoff_is_drawn_below_its_days_picture() -> None:
    g = Game.moscow()
    g.votes("day 1", {"М1": "Маф1", "М2": "Маф1", "М3": "Маф1", "М4": "Дон", "М5": "Дон", "М6": "Дон"})
    r = g.run("day 1", "+26h").run
    assert r.phase == "runoff 1"
    files = site(GamePages("o", g.setup(), r))
    page = files["o/day-1.html"].decode()
    (svg,) = _embedded(page)
    assert "Перестрелка дня 1 — голосование идёт" in _words(svg)
    (name,) = [p for p in files if p.endswith(".svg")]  # the day's own picture, as its result post showed it
    closed = re.search(r'<img src="[^"]+" alt="([^"]*)"', page)
    assert closed and "не окончательный" not in closed.group(1) and "перестрелка: Дон, Маф1" in closed.group(1)
    assert page.index(name.split("/")[1]) < page.index("data:image/svg+xml")


def test_english_open_day() -> None:
    g = _open_day()
    g.language = "en"
    page = site(GamePages("o", g.setup(), g.run("day 1", "+5h").run))["o/day-1.html"].decode()
    (svg,) = _embedded(page)
    assert "the vote is open, the tally at 01.12 14:00 MSK is not final" in _words(svg)
    assert "Tally at 01.12 14:00 MSK, not final:" in _words(svg) and '<html lang="en">' in page


def test_the_served_page_may_show_its_drawn_picture(tmp_path: Path) -> None:
    """`forumbot serve`'s Content-Security-Policy lets the open day's data: picture show, and nothing else in."""
    from forumbot.pages.serve import app

    g = _open_day()
    for rel, data in site(GamePages("o", g.setup(), g.run("day 1", "+5h").run)).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    seen = {}
    body = b"".join(app(tmp_path, None)({"REQUEST_METHOD": "GET", "PATH_INFO": "/o/day-1.html",
                                          "REMOTE_ADDR": "127.0.0.1"}, lambda s, h: seen.update(h=dict(h))))
    assert b'src="data:image/svg+xml;base64,' in body
    csp = seen["h"]["Content-Security-Policy"]
    assert "img-src 'self' data:" in csp and "default-src 'self'" in csp and "script-src" not in csp
