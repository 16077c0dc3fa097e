"""The public pages in a live game on a real phpBB 3.3.10 board (issue 20, "Done means"): phpBB's image size
limits are set, so it fetches the day's picture, served by `forumbot serve` on 127.0.0.1, before it accepts
the result post; `game export` then `replay --pages` gives the folder the ticks wrote, byte for byte;
screenshots of the thread, the game page and a day page at desktop and phone widths are left beside the log.

Lean on purpose, each on a board of its own (phpbb_pages_board, mybb_pages_board: on the side boards these were
the suite's longest groups): Setup, one day, one night, the end by the GM's modkills."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from livegame import CHROMIUM, HANG_GUARD, ROOT, LiveGame

pytestmark = pytest.mark.live

ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia", "Шарик": "mafia"}
WIDTHS = {"desktop": "1280,2400", "phone": "412,2400"}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _serve(folder: Path, log: Path) -> tuple[subprocess.Popen, str]:
    """`forumbot serve` on 127.0.0.1, a free port of its own choosing; returns it and its URL."""
    proc = subprocess.Popen([sys.executable, "-m", "forumbot.cli.main", "serve", "--folder", str(folder), "--port", "0",
                             "-c", str(folder / "no-config.toml")], stdout=subprocess.PIPE,
                            stderr=open(log, "w"), text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    line = proc.stdout.readline()  # type: ignore[union-attr]
    found = re.search(r"on (http://127\.0\.0\.1:\d+/)", line)
    assert found, f"serve did not start: {line!r}; see {log}"
    return proc, found.group(1)


def _screenshot(url: str, shot: Path, size: str, profile: Path) -> None:
    chromium = shutil.which(CHROMIUM)
    if chromium is None:
        print(f"\nno screenshot of {url}: {CHROMIUM} is not installed")
        return
    done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--user-data-dir={profile}", f"--window-size={size}", "--lang=ru",
                           f"--screenshot={shot}", url], capture_output=True, text=True, timeout=HANG_GUARD)
    print(f"\nscreenshot of {url}: {shot if shot.exists() else 'failed: ' + done.stderr[-300:]}")


def test_pages_on_phpbb_with_image_size_limits(phpbb_pages_board, tmp_path):
    t0 = time.monotonic()
    board = phpbb_pages_board
    _image_limits(board, "2000")  # phpBB now reads each [img] to check its size before it accepts the post
    site = tmp_path / "site"
    site.mkdir()
    server, url = _serve(site, tmp_path / "serve.log")
    try:
        gm = board.member(board.gm)
        p = {name: board.member(name) for name in board.players}
        post_url = f"{board.base_url.rstrip('/')}/viewtopic.php?p={{id}}#p{{id}}"
        pages = (f'\n[pages]\nfolder = "site"\nurl = "{url}"\nvote_history = "after_day"\npng = true\n'
                 f'post_url = "{post_url}"\n')
        game = LiveGame(board, tmp_path, "g1", "moscow", ROLES, {"post": 1.2, "pm": 1.2}, forum_settings=pages)
        game.play_setup(gm, p, ROLES, "Незнайка", "конец-фазы")
        assert f"{url}g1/" in game.game_text(gm), "the opening post does not link the game page"

        vote = game.vote_topic
        for name in ("Маша", "Дядя Фёдор", "ёжик", "Печкин 2000", "Незнайка", "Kapitan Vrungel"):
            p[name].reply(vote, "Шарик")
        p["Шарик"].reply(vote, "Маша")
        p["Алёна_77"].reply(vote, "<script>alert(1)</script>")  # no vote; the pages keep it text
        game.tick()
        game.end_phase(gm)
        game.tick()
        # this game's start at its opening post, the one linking this test's own site (a board's threads may hold
        # the bot's posts of the tests before this one)
        posts = gm.posts_by(game.game_topic, board.bot)
        posts = posts[next(n for n, post in enumerate(posts) if f"{url}g1/" in post.text):]
        result = next(post for post in posts if "Итоги дня 1." in post.text)
        picture = re.search(re.escape(url) + r"g1/(day-1-[0-9a-f]{12})\.png", result.html)
        assert picture, f"no picture in the result post: {result.html[-800:]}"
        assert (site / "g1" / f"{picture.group(1)}.png").is_file()
        fetched = requests.get(f"{url}g1/{picture.group(1)}.png", timeout=HANG_GUARD)
        assert fetched.status_code == 200 and fetched.content.startswith(b"\x89PNG")
        assert "<script>alert(1)</script>" not in (site / "g1" / "day-1.html").read_text(encoding="utf-8")
        # the game page links the bot's posts by phpBB's post ids, the result just delivered included
        page = (site / "g1" / "index.html").read_text(encoding="utf-8")
        for post in (posts[0], result):
            assert post_url.replace("{id}", str(post.id)) in page, (post.id, post.text[:80])

        # Night 1: the GM modkills the rest of the mafia; the town wins
        gm.pm(board.bot, "g1", "модкилл Lucky_Strike")
        gm.pm(board.bot, "g1", "модкилл \"Кот Баюн\"")
        board.wait_past_a_pm()
        game.tick_until_ended()  # no idle tick after the end
        game.assert_town_won(gm)
        ticks = _files(site)
        assert '"winner": "town"' in ticks["g1/game.json"].decode()

        exported = tmp_path / "g1-export.json"
        assert game.cli("game", "export", "g1", "-o", str(exported)).returncode == 0
        done = game.run([sys.executable, "-m", "forumbot.cli.main", "replay", str(exported), "--pages",
                         str(tmp_path / "replayed")])
        assert done.returncode == 0, done.stderr[-2000:]
        assert _files(tmp_path / "replayed") == ticks, "replay --pages differs from the folder the ticks wrote"
        game.assert_export_replays(exported)  # the posts too, links and picture included: the same export

        thread = f"{board.base_url.rstrip('/')}/viewtopic.php?p={result.id}#p{result.id}"
        for width, size in WIDTHS.items():
            _screenshot(thread, tmp_path / f"thread-{width}.png", size, tmp_path / "chromium")
            _screenshot(f"{url}g1/", tmp_path / f"game-page-{width}.png", size, tmp_path / "chromium")
            _screenshot(f"{url}g1/day-1.html", tmp_path / f"day-1-{width}.png", size, tmp_path / "chromium")
        print(f"\npages on phpBB: {time.monotonic() - t0:.0f} s; log and screenshots in {tmp_path}")
    finally:
        server.terminate()
        server.wait(timeout=HANG_GUARD)
        _image_limits(board, "0")  # any later check on the board sees it as stock


def _image_limits(board, pixels: str) -> None:  # type: ignore[no-untyped-def]
    php = "php8.2" if shutil.which("php8.2") else "php"
    for key in ("max_post_img_width", "max_post_img_height"):
        subprocess.run([php, "bin/phpbbcli.php", "--no-ansi", "config:set", key, pixels], cwd=board.dir / "www",
                       check=True, capture_output=True, timeout=HANG_GUARD)


MYBB_ROLES = {"Lucky_Strike": "mafia", "Kolya_95": "mafia", "Мурзик": "mafia", "Наташа": "doctor",
              "Старый Мельник": "maniac"}


def test_pages_on_mybb_replay_byte_for_byte(mybb_pages_board, tmp_path):
    """Free Hunt on MyBB through Day 1 (an edited vote, C-11; an agitation, H-4): the folder the ticks wrote
    is what `game export` then `replay --pages` builds; the result post shows the SVG picture."""
    t0 = time.monotonic()
    board = mybb_pages_board
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in board.players}
    post_url = f"{board.base_url.rstrip('/')}/showthread.php?pid={{id}}#pid{{id}}"
    pages = f'\n[pages]\nfolder = "site"\nurl = "http://127.0.0.1:9/"\nvote_history = "live"\npost_url = "{post_url}"\n'
    game = LiveGame(board, tmp_path, "g1", "free_hunt", MYBB_ROLES, {"post": 3, "pm": 3}, forum_settings=pages)
    game.play_setup(gm, p, MYBB_ROLES, "Ёлка", f"{board.gm}: конец-фазы")
    vote = game.vote_topic
    edited = p["Наташа"].reply(vote, "Ёлка")
    for name in ("Маша", "Кот Баюн", "Дядя Фёдор", "ёжик", "Alex Smith", "Ёлка", "Петя2007"):
        p[name].reply(vote, "Мурзик")
    p["Kolya_95"].reply(vote, "голосуйте за Маша")  # agitation: a vote against himself (H-4)
    game.tick()
    p["Наташа"].edit(edited, "Маша")
    game.tick()
    game.end_phase(gm)
    game.tick()
    game.tick()
    result = next(post for post in gm.posts_by(game.game_topic, board.bot) if "Итоги дня 1." in post.text)
    assert re.search(r"http://127\.0\.0\.1:9/g1/day-1-[0-9a-f]{12}\.svg", result.html), result.html[-800:]
    ticks = _files(tmp_path / "site")
    assert "g1/day-1.html" in ticks and any(f.endswith(".svg") for f in ticks)
    # the game page links the bot's posts by MyBB's post ids (a post MyBB merged: the one it joined)
    assert post_url.replace("{id}", str(result.id)) in ticks["g1/index.html"].decode()
    exported = tmp_path / "g1-export.json"
    assert game.cli("game", "export", "g1", "-o", str(exported)).returncode == 0
    done = game.run([sys.executable, "-m", "forumbot.cli.main", "replay", str(exported), "--pages",
                     str(tmp_path / "replayed")])
    assert done.returncode == 0, done.stderr[-2000:]
    assert _files(tmp_path / "replayed") == ticks, "replay --pages differs from the folder the ticks wrote"
    print(f"\npages on MyBB: {time.monotonic() - t0:.0f} s; log in {tmp_path}")
