"""M-2: a Moscow night post names no killer («Жертва этой ночи: Оля»), and neither does the end post, which
only lists the roles. After the end, with every role on the page, a night death still reads as the night post
said it («жертва ночи»), not as a killing whose killer the page leaves open («убийство ночью», issue 28, "still
reads wrong" after stop 35), and never names a killer no post named. Russian and English."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402
from forumbot.parse.normalize import strip_markup  # noqa: E402

WORDS = {"ru": ("Жертва этой ночи: М1.", "ночь 1, жертва ночи", "Маф1 вне игры: день 1, повешение мафия", ("мафи", "маньяк")),
         "en": ("Tonight's victim: М1.", "night 1, victim of the night", "Маф1 out: day 1, lynched mafia", ("mafia", "maniac"))}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_after_the_end_a_night_death_reads_as_its_night_post(language: str) -> None:
    posted, shown, role, killers = WORDS[language]
    g = Game.moscow(language=language)
    town = ("Шериф", "М2", "М3", "М4", "М5", "М6")
    g.votes("day 1", {who: "Маф1" for who in town})
    for mafia in ("Дон", "Маф2"):
        g.pm("night 1", "+1h", mafia, "убить М1")
    g.votes("day 2", {who: "Маф2" for who in town})
    g.votes("day 3", {who: "Дон" for who in town})  # the last of the mafia: the town wins
    pages = GamePages("e", g.setup(), g.run("night 3", "+1h").run)
    said = [strip_markup(m.text) for m in pages.run.messages if m.key == "night 1/result"]
    assert said and posted in said[0]
    assert pages.run.result.ended_at is not None
    raw = site(pages)["e/index.html"].decode()
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", raw)).split())
    assert role in page  # the roles are public ...
    (state,) = re.findall(r"<bdi>М1</bdi></th>\s*<td>([^<]*)</td>", raw)
    assert state.endswith(shown), state  # ... and the night death reads as the night post said it
    (night,) = re.findall(r"<li>(?:Ночь|Night) 1: ([^<]*)</li>", raw)
    assert html.unescape(night).startswith(f"М1 — {shown.split(', ')[1]}"), night
    assert not any(word in state + night.split("(")[0] for word in killers), (state, night)  # no killer named
