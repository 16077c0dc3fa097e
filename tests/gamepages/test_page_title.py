"""The pages name a game as its players read it (issue 28 item 9): the game's `title`, else its key as words,
never a bare config key in the heading where the GM gave a title; the folder and the links keep the key. The
title travels through `game export`, so `replay --pages` shows the same heading."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import config_toml, game_toml  # noqa: E402
from gamekit import Game  # noqa: E402
from pagekit import site  # noqa: E402

from forumbot import replay  # noqa: E402
from forumbot.config.load import load_config  # noqa: E402
from forumbot.pages.commands import transcript_pages  # noqa: E402
from forumbot.pages.publish import game_pages  # noqa: E402

URL = "https://mafia.example.org/"
TRANSCRIPTS = Path(__file__).parents[2] / "fixtures" / "transcripts"


def _pages(tmp_path: Path, name: str, title: str = ""):  # type: ignore[no-untyped-def]
    table = game_toml(name)
    if title:
        table = table.replace('forum = "main"', f'forum = "main"\ntitle = "{title}"', 1)
    path = tmp_path / "forumbot.toml"
    pages = f'[pages]\nfolder = "site"\nurl = "{URL}"\nvote_history = "live"\n'
    path.write_text(config_toml(table, extra=pages), encoding="utf-8")
    config = load_config(path)
    g = Game.moscow()
    return game_pages(config, config.games[name], g.setup(), g.run("day 1", "+1h").run, URL)


def test_the_pages_show_the_games_title_and_keep_its_key_for_the_folder(tmp_path: Path) -> None:
    files = site(_pages(tmp_path, "autumn", "Осенняя мафия"))
    page = files["autumn/index.html"].decode()
    assert "<h1>Игра «Осенняя мафия»</h1>" in page and "«autumn»" not in page
    assert "<title>Игра «Осенняя мафия»</title>" in page
    assert "Осенняя мафия" in files["autumn/day-1.html"].decode()
    index = files["index.html"].decode()
    assert '<a href="autumn/index.html"><bdi>Осенняя мафия</bdi></a>' in index


def test_without_a_title_the_key_reads_as_words(tmp_path: Path) -> None:
    files = site(_pages(tmp_path, "autumn_2026"))
    assert "<h1>Игра «autumn 2026»</h1>" in files["autumn_2026/index.html"].decode()


def test_a_transcripts_pages_take_the_exported_title(tmp_path: Path) -> None:
    raw = json.loads((TRANSCRIPTS / "moscow_three_misfires.json").read_text(encoding="utf-8"))
    t = replay.parse_transcript(raw | {"game": "autumn", "pages": {"url": URL, "title": "Осенняя мафия"}})
    page = site(transcript_pages(t, replay.replay(t)[0], "autumn"))["autumn/index.html"].decode()
    assert "<h1>Игра «Осенняя мафия»</h1>" in page
