"""Pages of a game whose players come from a sign-up (S-1..S-3): while it is open the game's page shows the list
(players in join order, the reserve, the places left, the close) in the game's language; once it closed, the
game's page as for any game, with the players its close gave; nothing private on either."""

from __future__ import annotations

import html
import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import GM, STARTED, World, config_toml  # noqa: E402

from forumbot import game  # noqa: E402
from forumbot.config.load import load_config  # noqa: E402
from forumbot.engine.signup_values import SignupSetup  # noqa: E402
from forumbot.game import for_pages  # noqa: E402
from forumbot.model import GameSetup, Input, Schedule, Where  # noqa: E402
from forumbot.pages.signup_page import build_site  # noqa: E402
from forumbot.pages.site import GamePages  # noqa: E402

T0 = datetime(2026, 12, 1, 7, tzinfo=timezone.utc)  # 10:00 МСК
NAMES = [f"Игрок{i}" for i in range(1, 13)]
CANARIES = ("КАНАРЕЙКА-ПМ", "КАНАРЕЙКА-ГМ", "КАНАРЕЙКА-БОЛТОВНЯ")


def base(language: str = "ru", **kw) -> GameSetup:
    signup = SignupSetup(variant="moscow", seats=10, opens=T0, closes=T0 + timedelta(hours=48), gms=("GM",),
                         bot="Bot", language=language, refused=("Тролль",), **kw)
    return GameSetup(variant="moscow", seed=5, schedule=Schedule(start=T0 + timedelta(days=5)), players=(),
                     bot="Bot", gms=("GM",), signup=signup, language=language)


def joins(n: int, where: Where = Where.GAME) -> list[Input]:
    return [Input(T0 + timedelta(hours=i), where, name, "+") for i, name in enumerate(NAMES[:n], 1)]


def canaries() -> list[Input]:
    return [Input(T0 + timedelta(minutes=30), Where.PM, NAMES[0], f"{CANARIES[0]} хочу играть"),
            Input(T0 + timedelta(minutes=40), Where.PM, "GM", CANARIES[1]),  # the GM's PM: answered privately
            Input(T0 + timedelta(minutes=50), Where.GAME, "Тролль", "+"),  # refused by the GM (S-1)
            Input(T0 + timedelta(minutes=55), Where.GAME, NAMES[5], f"{CANARIES[2]} всем привет")]


def pages(setup: GameSetup, inputs: list[Input], until: datetime, name: str = "nabor") -> dict[str, bytes]:
    shown, signup = for_pages(setup, inputs, until)
    run = game.run(setup, inputs, until)
    return build_site(GamePages(name, shown, run, built=until), signup)


def test_s2_while_the_sign_up_is_open_the_games_page_shows_the_list_in_russian() -> None:
    inputs = joins(12) + [Input(T0 + timedelta(hours=13), Where.GAME, "Запасной", "запас")]
    files = pages(base(), inputs, T0 + timedelta(hours=14))
    page = html.unescape(files["nabor/index.html"].decode())
    # the time as the posts write it; «через 34 ч» is the page's script's, from the reader's clock (issue 28 item 1)
    assert "Набор открыт" in page and 'Набор закрывается: <time datetime="2026-12-03T10:00:00+03:00">03.12 10:00 МСК</time>' in page
    assert '<span data-until="2026-12-03T10:00:00+03:00" data-hours="через {n} ч"' in page and "setInterval(ahead" in page
    assert "Записались: 10 из 10 · мест больше нет" in page
    rows = [line for line in page.splitlines() if line.startswith("<tr><td>")]
    assert rows == [f"<tr><td>{n}</td><th scope=\"row\"><bdi>{name}</bdi></th></tr>"
                    for n, name in enumerate(NAMES[:10], 1)]  # join order (S-2)
    assert page.index("<li><bdi>Игрок11</bdi></li>") < page.index("<li><bdi>Игрок12</bdi></li>") \
        < page.index("<li><bdi>Запасной</bdi></li>")  # the reserve in order
    doc = json.loads(files["nabor/game.json"])  # the season index lists the game by it
    assert doc["phase"] == "signup open" and doc["signup"]["players"] == NAMES[:10]


def test_s2_the_sign_up_page_in_english_with_places_left_and_an_empty_reserve() -> None:
    files = pages(base("en"), joins(3), T0 + timedelta(hours=4))
    page = html.unescape(files["nabor/index.html"].decode())
    assert "Sign-up open" in page and "The sign-up closes: " in page
    assert "Signed up: 3 of 10 · places left: 7" in page and "The reserve is empty." in page
    assert "Набор" not in page and "Игрок3" in page


def test_s1_the_sign_up_page_says_nothing_private() -> None:
    for until in (1, 3, 20):
        files = pages(base(), canaries() + joins(8), T0 + timedelta(hours=until))
        text = "\n".join(data.decode() for data in files.values())
        for marker in CANARIES:
            assert marker not in text, (until, marker)
        assert "Тролль" not in text  # an account the GM refused is not shown
        assert "Игрок1" in text


def test_s3_after_the_close_the_page_is_the_games_with_the_players_it_gave_and_no_role_before_the_end() -> None:
    inputs = canaries() + joins(11)
    run = game.run(base(), inputs, T0 + timedelta(hours=50))
    assert run.phase == "setup"  # closed at `closes` with ten, Игрок11 in the reserve
    files = pages(base(), inputs, T0 + timedelta(hours=50))
    page = html.unescape(files["nabor/index.html"].decode())
    assert "Набор открыт" not in page and "Фаза: <strong>Подготовка</strong>" in page  # the game's Setup
    assert all(f"<bdi>{n}</bdi>" in page for n in NAMES[:10]) and "Игрок11" not in page
    text = "\n".join(data.decode() for data in files.values())
    assert all(marker not in text for marker in CANARIES)
    assert "<td>мафия</td>" not in text and "<td>шериф</td>" not in text and "sha256sum" not in text


def test_s1_after_the_close_the_games_page_links_the_bots_posts_in_the_sign_up_thread_by_its_name() -> None:
    setup = base(thread="https://forum.example.org/viewtopic.php?t=3")
    inputs = joins(10, Where.SIGNUP)
    until = T0 + timedelta(hours=50)
    shown, signup = for_pages(setup, inputs, until)
    run = game.run(setup, inputs, until)
    posts = {m.key: str(n) for n, m in enumerate(run.messages, 1)}  # as if every message was delivered
    files = build_site(GamePages("nabor", shown, run, post_url="https://f.example/p/{id}", posts=posts), signup)
    page = html.unescape(files["nabor/index.html"].decode())
    assert "тема набора: <a href=" in page and "игровая тема: <a href=" in page
    assert "Набор открыт" not in page


def test_s1_s3_a_sign_up_not_open_yet_or_cancelled_is_handed_to_the_pages_as_such_and_given_no_page(tmp_path) -> None:
    from types import SimpleNamespace

    from forumbot.pages.publish import in_tick

    config = SimpleNamespace(pages=SimpleNamespace(folder=tmp_path, url="https://mafia.example.org/", post_url="",
                                                   vote_history="live", picture=True, png=False))
    g = SimpleNamespace(name="nabor", title="", readable_name="nabor", game_thread="", vote_thread="",
                        signup_thread="", mode="live", publish=True)
    for until, state in ((T0 - timedelta(hours=1), "waiting"), (T0 + timedelta(days=4), "cancelled"),
                         (T0 + timedelta(hours=4), "open")):
        shown, signup = for_pages(base(), joins(3), until)
        assert signup is not None and signup.state == state
        in_tick(config, g, shown, game.run(base(), joins(3), until), lambda: '{"pages_url": "https://mafia.example.org/"}',
                False, built=until, signup=signup)
        assert (tmp_path / "nabor" / "index.html").exists() == (state == "open"), state


SIGNUP_GAME = f"""
[games.g1]
forum = "main"
variant = "moscow"
game_thread = "https://forum.example.org/viewtopic.php?t=1"
vote_thread = "https://forum.example.org/viewtopic.php?t=2"
gms = ["{GM}"]
timezone = "Europe/Moscow"
[games.g1.signup]
closes = {(STARTED + timedelta(days=3)).isoformat()}
close_when_full = true
thread = "https://forum.example.org/viewtopic.php?t=3"
"""


def test_s1_s3_the_daemon_writes_the_sign_up_page_while_it_runs_then_the_games_page(tmp_path: Path) -> None:
    w = World(tmp_path / "w")
    extra = '[pages]\nfolder = "site"\nurl = "https://mafia.example.org/site/"\n'
    w.config_path.write_text(config_toml(SIGNUP_GAME, extra=extra), encoding="utf-8")
    w.config = load_config(w.config_path)
    w.daemon.close()
    w.daemon = w.new_daemon()
    try:
        w.start()
        w.tick()
        page = w.root / "site" / "g1" / "index.html"
        for name in NAMES[:4]:
            w.now += timedelta(minutes=20)
            w.forum.add_post("https://forum.example.org/viewtopic.php?t=3", name, "+", w.now - timedelta(seconds=30))
            w.tick()
        shown = html.unescape(page.read_text(encoding="utf-8"))
        assert "Набор открыт" in shown and "Записались: 4 из 10" in shown and "Игрок4" in shown
        assert 'href="https://forum.example.org/viewtopic.php?t=3"' in shown  # the «набор» topic
        assert "Набор открыт" in (w.root / "site" / "index.html").read_text(encoding="utf-8")  # the season index
        for name in NAMES[4:10]:
            w.now += timedelta(minutes=20)
            w.forum.add_post("https://forum.example.org/viewtopic.php?t=3", name, "+", w.now - timedelta(seconds=30))
            w.tick()
        shown = html.unescape(page.read_text(encoding="utf-8"))
        assert "Набор открыт" not in shown and all(f"<bdi>{n}</bdi>" in shown for n in NAMES[:10])
        assert json.loads((w.root / "site" / "g1" / "game.json").read_text(encoding="utf-8"))["phase"] == "setup"
    finally:
        w.close()
