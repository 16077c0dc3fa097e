"""Issue 30 item 1 on the pages: the activity table per day (posts per player, the first and the last) and the ISO
page per player (every post of his in the game thread, linked, by phase), built only from what the forum showed
publicly: never a PM, a vote-thread post, a deleted post or one the bot had not read by the build."""

from __future__ import annotations

import re
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot.model import Input, Where  # noqa: E402
from forumbot.pages.site import GamePages  # noqa: E402

URL = "https://f.example/p/{id}"


def _story() -> Game:
    g = Game.moscow()
    g.post("day 1", "+1h", "М1", "Всем привет")
    g.post("day 1", "+3h", "М1", "Я мирный")
    g.post("day 1", "+5h", "М1", "[quote]x[/quote]")  # a quote only still is a public post, shown linked
    g.post("day 1", "+2h", "Шериф", "Привет")
    g.post("night 1", "+1h", "М1", "Ночной пост")
    g.votes("day 1", {"Шериф": "М2", "Дон": "М2", "Маф1": "М2", "Маф2": "М2", "М1": "М2", "М3": "Дон"})
    return g


def _cells(table: str) -> str:
    """The table's markup without the phone's card labels (`data-label`), which these tests do not read."""
    return re.sub(r' data-label="[^"]*"', "", table)


def _add(g: Game, where: Where, phase: str, offset: str, who: str, text: str, id: str, **kw) -> None:  # type: ignore[no-untyped-def]
    g.events.append(Input(g.at(phase, offset), where, who, text, id=id, **kw))


def test_activity_table_per_day_counts_posts_with_the_first_and_last_linked() -> None:
    g = _story()
    r = g.run("day 2", "+1h")
    files = site(GamePages("a", g.setup(), r.run, post_url=URL))
    day = files["a/day-1.html"].decode()
    table = day[day.index("Активность в игровой теме"):]
    table = _cells(table[:table.index("</table>")])
    m1 = re.search(r"<tr><th scope=\"row\"><a href=\"posts-5.html\"><bdi>М1</bdi></a></th><td>3</td>(.*?)</tr>",
                   table, re.S)
    assert m1 is not None, table
    assert 'href="https://f.example/p/t1">01.12 11:00:00 МСК' in m1.group(1)
    assert 'href="https://f.example/p/t3">01.12 15:00:00 МСК' in m1.group(1)
    assert '<bdi>М6</bdi></th><td>0</td><td>—</td><td>—</td>' in table  # alive, silent: listed with none
    assert table.count("<tr><th scope=\"row\">") == 10  # every player alive that day, the night's post not counted
    assert "<td>1</td>" in table.split("Шериф")[1][:40]


def test_iso_page_lists_every_post_of_the_player_by_phase_linked() -> None:
    g = _story()
    r = g.run("day 2", "+1h")
    files = site(GamePages("a", g.setup(), r.run, post_url=URL))
    iso = files["a/posts-5.html"].decode()
    assert "Посты игрока М1 в игровой теме" in iso and "Постов: 4" in iso
    day1, night1 = iso.index("<caption>День 1</caption>"), iso.index("<caption>Ночь 1</caption>")
    assert day1 < night1
    assert [m for m in re.findall(r'href="https://f.example/p/(t\d+)"', iso)] == ["t1", "t2", "t3", "t5"]
    assert "Всем привет" not in iso and "Ночной пост" not in iso  # linked, the text stays on the forum
    game = files["a/index.html"].decode()
    assert '<a href="posts-5.html"><bdi>М1</bdi></a>' in game and '<a href="posts-1.html"><bdi>Шериф</bdi></a>' in game
    assert "a/posts-2.html" not in files  # Дон never wrote in the game thread


def test_english_words_on_the_activity_table_and_the_iso_page() -> None:
    g = _story()
    g.language = "en"
    files = site(GamePages("a", g.setup(), g.run("day 2", "+1h").run, post_url=URL))
    assert "Activity in the game thread" in files["a/day-1.html"].decode()
    iso = files["a/posts-5.html"].decode()
    assert "М1&#39;s posts in the game thread" in iso or "М1's posts in the game thread" in iso
    assert "Posts: 4" in iso and "Posts in the game thread" in files["a/index.html"].decode()


def test_a_game_without_game_thread_posts_has_no_activity_table_or_iso_page() -> None:
    g = Game.moscow()
    g.votes("day 1", {"Шериф": "М2", "Дон": "М2"})
    files = site(GamePages("a", g.setup(), g.run("night 1", "+1h").run))
    assert not any("posts-" in p for p in files)
    assert "Активность в игровой теме" not in files["a/day-1.html"].decode()


def test_privacy_canary_no_pm_vote_deleted_or_unread_post_on_the_activity_pages() -> None:
    """The privacy canary on the game thread's pages: ids of a PM, a vote-thread post, a post a moderator deleted
    and one posted after the build never reach the activity table or an ISO page, nor does any post's text."""
    g = _story()
    _add(g, Where.PM, "day 1", "+1h", "М2", "КАНАРЕЙКА-ПМ", "pm-canary-1")
    _add(g, Where.VOTE, "day 1", "+2h", "М2", "М3", "vote-canary-2")
    deleted_at = g.at("day 1", "+24h")
    _add(g, Where.GAME, "day 1", "+3h", "М2", "КАНАРЕЙКА-УДАЛЁН", "deleted-canary-3", deleted_at=deleted_at)
    _add(g, Where.GAME, "day 2", "+5h", "М2", "КАНАРЕЙКА-ПОТОМ", "future-canary-4")
    r = g.run("day 2", "+1h")
    files = site(GamePages("a", g.setup(), r.run, post_url=URL))
    pages = {p: d.decode() for p, d in files.items() if "/posts-" in p}
    day = files["a/day-1.html"].decode()
    activity = _cells(day[day.index("Активность в игровой теме"):])
    assert pages  # the test could fail: ISO pages were built
    for text in [*pages.values(), activity]:
        for canary in ("canary", "КАНАРЕЙКА", "Всем привет"):
            assert canary not in text
    assert "a/posts-6.html" not in files  # М2's only game-thread posts: deleted, or not yet read
    assert re.search(r"<bdi>М2</bdi></th><td>0</td>", activity)
    # a post once seen deleted is left out of every build from then on, an earlier day's page included
    early = site(GamePages("a", g.setup(), g.run("day 1", "+10h").run, post_url=URL))
    assert "a/posts-6.html" not in early  # a post seen deleted is never shown, whenever the build
    later = g.run("day 2", "+6h")
    assert any(p.id == "future-canary-4" for p in later.run.thread_posts)
    assert "future-canary-4" in site(GamePages("a", g.setup(), later.run, post_url=URL))["a/posts-6.html"].decode()


def _minimum_story(language: str) -> Game:
    g = _story()
    g.options["post_minimum"] = 2
    g.language = language
    return g


def test_R11_with_a_post_minimum_the_table_shows_what_the_count_post_counted_beside_every_post() -> None:
    """R-11 (a GM's walk-through of issue 30): М1's quote-only post is a public post (3 in «Постов») but the
    count post says 2 for him; without a column for what the minimum counted the page read as contradicting it."""
    day = site(GamePages("a", _minimum_story("ru").setup(), _minimum_story("ru").run("day 2", "+1h").run,
                         post_url=URL))["a/day-1.html"].decode()
    table = day[day.index("Активность в игровой теме"):]
    table = _cells(table[:table.index("</table>")])
    assert '<th scope="col">Постов</th><th scope="col">В зачёт минимума (2)</th>' in table, table
    assert re.search(r"<bdi>М1</bdi></a></th><td>3</td><td>2</td>", table), table
    assert re.search(r"<bdi>Шериф</bdi></a></th><td>1</td><td>1</td>", table), table
    english = site(GamePages("a", _minimum_story("en").setup(), _minimum_story("en").run("day 2", "+1h").run,
                             post_url=URL))["a/day-1.html"].decode()
    assert '<th scope="col">Posts</th><th scope="col">Counted for the minimum (2)</th>' in english


def test_without_a_post_minimum_the_table_has_no_counted_column() -> None:
    day = site(GamePages("a", _story().setup(), _story().run("day 2", "+1h").run, post_url=URL))["a/day-1.html"]
    assert "В зачёт минимума" not in day.decode()
