"""The day page's "since the previous count" view (issue 20 item 3): the votes that moved between each count
the bot posted in the vote thread (C-6) and the next, a repeat being no change."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.pages.site import GamePages  # noqa: E402


def _rows(page: str) -> list[tuple[str, str]]:
    table = page.split("<caption>Что менялось от подсчёта к подсчёту</caption>", 1)[1].split("</table>", 1)[0]
    found = re.findall(r"<tr><th scope=\"row\">(.*?)</th>\s*<td>(.*?)</td></tr>", table, re.S)
    return [(re.sub(r"<[^>]+>", "", a), re.sub(r"<[^>]+>", "", b)) for a, b in found]


def test_what_changed_from_count_to_count() -> None:
    g = Game.moscow(options={"vote_count_minutes": 60})
    g.vote("day 1", "+10m", "М1", "Дон")
    g.vote("day 1", "+3h", "М1", "Маф1")  # a change after the count of 11:00
    g.vote("day 1", "+3h10m", "М2", "Маф1")
    g.vote("day 1", "+3h20m", "М2", "Маф1")  # a repeat: no change
    g.vote("day 1", "+3h30m", "М3", "Абракадабра")  # not a vote: no change
    r = g.run("day 1", "+5h")
    counts = sorted(m.at for m in r.run.messages if "/count/" in m.key)
    assert len(counts) == 2  # 11:00 and 14:00
    page = site(GamePages("c", g.setup(), r.run, post_url="https://f.example/p/{id}",
                          posts={m.key: f"9{n}" for n, m in enumerate(r.run.messages) if "/count/" in m.key}))
    page_text = page["c/day-1.html"].decode()
    assert _rows(page_text) == [("до первого подсчёта", "М1: — → Дон"),
                                ("после подсчёта 01.12 11:00 МСК", "М1: Дон → Маф1; М2: — → Маф1"),
                                ("после подсчёта 01.12 14:00 МСК", "без изменений")]
    assert page_text.count('<a href="https://f.example/p/9') == 2 * 2  # each count linked, in both tables


def test_without_a_count_post_there_is_no_such_table() -> None:
    g = Game.moscow()
    g.vote("day 1", "+10m", "М1", "Дон")
    r = g.run("day 1", "+30m")
    assert not any("/count/" in m.key for m in r.run.messages)
    page = site(GamePages("c", g.setup(), r.run))["c/day-1.html"].decode()
    assert "Что менялось" not in page


def test_a_vote_in_the_counts_own_second_falls_after_that_count() -> None:
    """The count posted at 12:00 does not hold a vote posted at 12:00 (the bot's count says so): the day page
    puts that vote after the count, in the table of every post and in what changed since."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "Маф1")
    g.vote("day 1", "+2h", "М2", "Маф1")  # 12:00, the second of the first count
    r = g.run("day 1", "+150m")
    (count,) = [m for m in r.run.messages if "/count/" in m.key]
    assert count.at == g.at("day 1", "+2h") and "М2" not in count.text.split("Без голоса")[0]
    page = site(GamePages("c", g.setup(), r.run))["c/day-1.html"].decode()
    assert _rows(page) == [("до первого подсчёта", "М1: — → Маф1"), ("после подсчёта 01.12 12:00 МСК", "М2: — → Маф1")]
