"""`[pages]` in forumbot.toml (issue 20 item 4): each problem named with its place, nothing half-configured."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import config_toml, game_toml  # noqa: E402

from forumbot.config.types import ConfigProblems  # noqa: E402
from forumbot.config.load import load_config


def _load(tmp_path: Path, pages: str, game_extra: str = ""):  # type: ignore[no-untyped-def]
    path = tmp_path / "forumbot.toml"
    path.write_text(config_toml(game_toml("g1") + game_extra, extra=pages), encoding="utf-8")
    return load_config(path)


def _problems(tmp_path: Path, pages: str) -> list[str]:
    with pytest.raises(ConfigProblems) as e:
        _load(tmp_path, pages)
    return e.value.problems


def test_a_full_pages_table(tmp_path: Path) -> None:
    config = _load(tmp_path, '[pages]\nfolder = "site"\nurl = "https://m.example.org/"\nvote_history = "live"\n'
                             'post_url = "https://f.example.org/p/{id}"\ndashboard = "private/d.txt"\n',
                   game_extra="publish = false\n")
    assert config.pages.folder == (tmp_path / "site").resolve() and config.pages.vote_history == "live"
    assert config.games["g1"].publish is False
    assert _load(tmp_path, "").pages is None


def test_each_problem_is_named(tmp_path: Path) -> None:
    assert any(p.startswith("pages.url:") for p in _problems(tmp_path, '[pages]\nfolder = "s"\nurl = "http://m.example.org/"\n'))
    assert any(p.startswith("pages.folder:") for p in _problems(tmp_path, '[pages]\nurl = "https://m.example.org/"\n'))
    assert any(p.startswith("pages.vote_history:") for p in _problems(
        tmp_path, '[pages]\nfolder = "s"\nurl = "https://m.example.org/"\nvote_history = "never"\n'))
    assert any("не должен лежать внутри pages.folder" in p for p in _problems(  # the GMs' language (issue 28)
        tmp_path, '[pages]\nfolder = "s"\nurl = "https://m.example.org/"\ndashboard = "s/d.txt"\n'))
    assert any(p.startswith("pages.colour:") for p in _problems(
        tmp_path, '[pages]\nfolder = "s"\nurl = "https://m.example.org/"\ncolour = 1\n'))
    assert any(p.startswith("pages.post_url:") for p in _problems(
        tmp_path, '[pages]\nfolder = "s"\nurl = "https://m.example.org/"\npost_url = "https://f.example.org/p"\n'))


def test_http_only_on_this_machine(tmp_path: Path) -> None:
    """`forumbot serve` on 127.0.0.1 for a board on the same machine; anything else public is https."""
    assert _load(tmp_path, '[pages]\nfolder = "s"\nurl = "http://127.0.0.1:8080/"\n').pages.url == "http://127.0.0.1:8080/"
