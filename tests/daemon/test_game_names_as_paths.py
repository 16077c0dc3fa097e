"""A game's name becomes a path (its folder of the public pages), a forum's name part of a state file's name: one
rule for both (forumbot/names.py, docs/config.md), enforced where a name enters (issue 26 item 2). `replay` is the
dispute tool: a transcript someone else sends must never write outside the folder it is given."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from daemon_world import config_toml, game_toml

from forumbot.cli.main import main
from forumbot.errors import UnsafeName
from forumbot.names import NAME_RULE, inside, name_rule, within
from forumbot.texts import TABLES
from forumbot.pages.output import write_files

RULE_RU = name_rule(TABLES["ru"])  # check-config says it in the GMs' language, Russian by default (issue 28)
TRANSCRIPT = Path(__file__).parents[2] / "fixtures" / "transcripts" / "moscow_draw.json"
BAD_NAMES = ["../escape", ".", "..", "", "a/b", "<b>осень</b> 2026", "осень\x002026", "x" * 65, "я" * 300, "-rf",
             "a b", "/etc", "a\\b", ".hidden"]
GOOD_NAMES = ["осень", "осень-2026", "Game_7", "x" * 64]


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path under `root` with its bytes (None for a folder)."""
    return {str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes()) for p in sorted(root.rglob("*"))}


def _transcript(tmp_path: Path, game: str) -> Path:
    raw = json.loads(TRANSCRIPT.read_text(encoding="utf-8"))
    raw["game"] = game
    path = tmp_path / "in" / "sent.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    return path


def _one_line_naming_the_rule(err: str) -> None:
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("forumbot: ") and NAME_RULE in err, err


@pytest.mark.parametrize("name", BAD_NAMES)
@pytest.mark.parametrize("pages", [True, False])
def test_replay_refuses_a_transcript_whose_game_is_not_a_name_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, pages: bool) -> None:
    path = _transcript(tmp_path, name)
    out = tmp_path / "work" / "site"
    out.mkdir(parents=True)
    (out / "index.html").write_text("the season", encoding="utf-8")
    before = _tree(tmp_path)
    code = main(["replay", str(path)] + (["--pages", str(out)] if pages else []))
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    _one_line_naming_the_rule(captured.err)
    assert "transcript: game: " in captured.err
    assert _tree(tmp_path) == before  # the folder, its parent and everything beside them are as they were


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_cyrillic_and_plain_names_replay_into_their_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           name: str) -> None:
    out = tmp_path / "site"
    assert main(["replay", str(_transcript(tmp_path, name)), "--pages", str(out)]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in out.iterdir()) == sorted(["index.html", name])
    assert (out / name / "index.html").is_file() and (out / name / "game.json").is_file()


def test_a_transcript_without_a_game_is_named_after_its_file_only_when_that_is_a_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = json.loads(TRANSCRIPT.read_text(encoding="utf-8"))
    raw.pop("game", None)
    bad = tmp_path / "моя игра.json"
    bad.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "site"
    assert main(["replay", str(bad), "--pages", str(out)]) == 2
    _one_line_naming_the_rule(capsys.readouterr().err)
    assert not out.exists()
    good = tmp_path / "осень.json"
    good.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", str(good), "--pages", str(out)]) == 0
    assert (out / "осень" / "index.html").is_file()


def _config(tmp_path: Path, game: str = "g1", forum: str = "main") -> Path:
    start = datetime.now(timezone.utc) + timedelta(days=1)
    text = config_toml(game_toml("PLACEHOLDER", start=start), database=f"sqlite:///{tmp_path / 'forumbot.db'}",
                       extra=f'[pages]\nfolder = "{tmp_path / "site"}"\nurl = "https://mafia.example.org/"\n')
    text = text.replace("[games.PLACEHOLDER]", f"[games.{json.dumps(game)}]")
    text = text.replace("[forums.main]", f"[forums.{json.dumps(forum)}]").replace('forum = "main"',
                                                                                    f"forum = {json.dumps(forum)}")
    path = tmp_path / "forumbot.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["../../evil", ".", "<b>осень</b> 2026", "x" * 65, "a\x00b"])
def test_check_config_names_a_game_that_cannot_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           name: str) -> None:
    config = _config(tmp_path, game=name)
    assert main(["check-config", "-c", str(config)]) == 2
    err = capsys.readouterr().err
    problems = [line for line in err.splitlines() if RULE_RU in line]  # the GMs' language (issue 28)
    assert len(problems) == 1 and problems[0].startswith("forumbot: games: ") and repr(name)[:60] in problems[0], err
    assert "Traceback" not in err


def test_check_config_names_a_forum_that_cannot_be_part_of_a_file_name(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, forum="../../evil")
    assert main(["check-config", "-c", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"forumbot: forums: '../../evil' не может быть именем: {RULE_RU}" in err.splitlines()


@pytest.mark.parametrize("name", GOOD_NAMES[:2])
def test_check_config_accepts_cyrillic_names(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    config = _config(tmp_path, game=name, forum="форум")
    code = main(["check-config", "-c", str(config)])
    err = capsys.readouterr().err
    assert RULE_RU not in err and code == 0, err


@pytest.mark.parametrize("command", [["game", "start"], ["pages", "build"], ["game", "export"]])
@pytest.mark.parametrize("name", ["../escape", ".", "a/b", "<b>осень</b> 2026"])
def test_commands_refuse_a_name_that_cannot_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        command: list[str], name: str) -> None:
    config = _config(tmp_path)
    assert main(["db", "upgrade", "-c", str(config)]) == 0
    capsys.readouterr()
    before = _tree(tmp_path)
    assert main([*command, name, "-c", str(config)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    _one_line_naming_the_rule(captured.err)
    assert _tree(tmp_path) == before


def test_the_path_of_a_name_stays_in_its_folder(tmp_path: Path) -> None:
    """Defence in depth: what turns a name or a site's relative path into a path refuses one that leaves."""
    assert inside(tmp_path, "осень", prefix=".handshake-", suffix=".json") == tmp_path / ".handshake-осень.json"
    for name in BAD_NAMES:
        with pytest.raises(UnsafeName):
            inside(tmp_path, name)
    for rel in ["../x", "a/../../x", "/etc/passwd", ".", "", "a/\x00"]:
        with pytest.raises(UnsafeName):
            within(tmp_path, rel)
    site = tmp_path / "site"
    site.mkdir()
    before = _tree(tmp_path)
    for files in [{"../escape/index.html": b"x"}, {"g/index.html": b"x", "../../escape.html": b"x"}]:
        with pytest.raises(UnsafeName):
            write_files(site, files)
    assert _tree(tmp_path) == before
    assert write_files(site, {"осень/index.html": b"x"}) == ["осень/index.html"]
    assert os.path.isfile(site / "осень" / "index.html")


def test_a_name_inside_the_current_folder_is_a_path_inside_it(tmp_path: Path, monkeypatch) -> None:
    """The default config is ./forumbot.toml, so the state folder is "." itself: `probe --handshake` writes
    ./.handshake-NAME.json, and `pages build -o .` writes into the current folder (found walking a GM's first
    steps on the XenForo emulator: the handshake refused its own state file)."""
    monkeypatch.chdir(tmp_path)
    assert inside(Path("."), "main", prefix=".handshake-", suffix=".json") == Path(".handshake-main.json")
    assert within(Path("."), "осень/index.html") == Path("осень/index.html")
    for rel in ["../x", ".", ""]:
        with pytest.raises(UnsafeName):
            within(Path("."), rel)
