"""The pages in a running game (issue 20 item 4): the tick writes the changed files before it delivers, a quiet
tick writes nothing, the opening post links the game page, the day's result ends with its picture and the day
page's link; a post whose picture cannot be written waits, and the tick's line says why."""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import STEPS, World, config_toml, game_toml  # noqa: E402

from forumbot.config.load import load_config  # noqa: E402
from forumbot.cycle.summary import tick_summary  # noqa: E402

URL = "https://mafia.example.org/site/"


def _world(tmp_path: Path, history: str = "after_day", picture: str = "true") -> World:
    w = World(tmp_path / "w")
    extra = f'[pages]\nfolder = "site"\nurl = "{URL}"\nvote_history = "{history}"\npicture = {picture}\n'
    w.config_path.write_text(config_toml(game_toml("g1"), extra=extra), encoding="utf-8")
    w.config = load_config(w.config_path)
    w.daemon.close()
    w.daemon = w.new_daemon()
    return w


def _play(w: World, until: int) -> None:
    for at, step in STEPS[:until]:
        w.now = at
        step(w)
        w.tick()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_tick_writes_pages_and_links_the_posts(tmp_path: Path) -> None:
    w = _world(tmp_path)
    try:
        w.start()
        _play(w, 4)  # Setup, confirmations, Day 1's votes, Day 1 resolved
        site = w.root / "site"
        files = _files(site)
        assert "g1/index.html" in files and "index.html" in files and "g1/day-1.html" in files
        pictures = [f for f in files if f.startswith("g1/day-1-") and f.endswith(".svg")]
        assert len(pictures) == 1
        posts = [text for topic, text, _ in w.bot_posts("g1/game")]
        assert f"[url]{URL}g1/[/url]" in posts[0]  # the opening post links the game page
        result = next(p for p in posts if "Итоги дня 1" in p)
        assert f"[img]{URL}{pictures[0]}[/img]" in result and f"[url]{URL}g1/day-1.html[/url]" in result
        # a quiet tick writes nothing
        before = {p: os.stat(site / p).st_mtime_ns for p in files}
        w.now += timedelta(minutes=1)
        w.tick()
        assert {p: os.stat(site / p).st_mtime_ns for p in files} == before
        assert _files(site) == files
    finally:
        w.close()


def test_a_post_whose_picture_cannot_be_written_waits(tmp_path: Path) -> None:
    w = _world(tmp_path)
    try:
        w.start()
        _play(w, 3)
        site = w.root / "site"
        (site / "g1" / "day-1.html").mkdir()  # a file that cannot be written, whoever runs the test
        w.now, step = STEPS[3]
        report = w.tick()
        assert not any("Итоги дня 1" in text for _, text, _ in w.bot_posts("g1/game"))
        lines = tick_summary(w.daemon.sessions, report)
        assert any("сообщения с картинкой ждут: cannot write the pages" in ln for ln in lines)
        (site / "g1" / "day-1.html").rmdir()
        w.now += timedelta(minutes=1)
        w.tick()
        assert any("Итоги дня 1" in text and "[img]" in text for _, text, _ in w.bot_posts("g1/game"))
    finally:
        w.close()


def test_after_end_publishes_no_vote_history_while_the_game_runs(tmp_path: Path) -> None:
    w = _world(tmp_path, "after_end")
    try:
        w.start()
        _play(w, 4)
        files = _files(w.root / "site")
        assert not any(f.endswith(".svg") or "day-" in f for f in files)
        result = next(t for _, t, _ in w.bot_posts("g1/game") if "Итоги дня 1" in t)
        assert "[img]" not in result
    finally:
        w.close()


def test_without_the_picture_the_result_links_the_day_page(tmp_path: Path) -> None:
    w = _world(tmp_path, picture="false")
    try:
        w.start()
        _play(w, 4)
        files = _files(w.root / "site")
        assert "g1/day-1.html" in files and not any(f.endswith(".svg") for f in files)
        result = next(t for _, t, _ in w.bot_posts("g1/game") if "Итоги дня 1" in t)
        assert "[img]" not in result and f"[url]{URL}g1/day-1.html[/url]" in result
    finally:
        w.close()
