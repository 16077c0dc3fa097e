"""S-6 for a running daemon: `forumbot season standings` exports the store's games of `[season] games` as `game
export` writes them and ranks the finished ones: the same table as the export files give, a running game and a
game never started counting for nothing."""

from __future__ import annotations

import json
from datetime import timedelta

from daemon_world import T0, World, game_toml
from test_daemon_games_in_a_row import SECOND_T0, _end_first_game

from forumbot.cli.main import main
from forumbot.games.export import export_game

SEASON = '\n[season]\ngames = ["g1", "g2", "g3"]\n'


def _cli(w: World, capsys, *args: str) -> str:  # type: ignore[no-untyped-def]
    assert main(["season", "standings", "-c", str(w.config_path), *args], clock=lambda: w.now) == 0
    return capsys.readouterr().out


def test_s6_the_stored_season_ranks_its_finished_games_as_their_exports_do(tmp_path, capsys):
    third = game_toml("g3", start=T0 + timedelta(days=30))
    w = World(tmp_path, games=game_toml("g1") + game_toml("g2", start=SECOND_T0) + third + SEASON)
    _end_first_game(w)  # g1 ends: the GM modkilled the three mafia; the town won
    w.now = SECOND_T0 - timedelta(days=1)
    w.start("g2", seed=3)
    w.now += timedelta(minutes=1)
    w.tick()  # g2 runs; g3 was never started
    stored = _cli(w, capsys, "--json")
    doc = json.loads(stored)
    assert [g["game"] for g in doc["games"]] == ["g1"]
    rows = {r["nick"]: r for r in doc["standings"]}
    assert rows["Дон"]["modkills"] == 1 and rows["Дон"]["rating"] == "1490.0"
    assert rows["М1"]["wins"] == 1 and rows["М1"]["rating"] == "1510.0"
    exports = tmp_path / "exports"
    exports.mkdir()
    for name in ("g1", "g2"):
        (exports / f"{name}.json").write_text(json.dumps(export_game(w.daemon.sessions, w.config, name, w.now),
                                                         ensure_ascii=False), encoding="utf-8")
    assert _cli(w, capsys, "--json", "--exports", str(exports)) == stored
    assert _cli(w, capsys, "--json") == stored  # the same bytes every time
    w.close()


def test_s6_the_tick_that_closes_a_season_game_writes_the_standings_the_command_prints(tmp_path, capsys):
    pages = '\n[pages]\nfolder = "site"\nurl = "http://127.0.0.1/"\n'
    w = World(tmp_path, games=game_toml("g1") + game_toml("g2", start=SECOND_T0) + SEASON.replace(', "g3"', "")
              + pages)
    _end_first_game(w)
    site = tmp_path / "site"
    written = (site / "standings.json").read_text(encoding="utf-8")
    assert json.loads(written)["games"][0]["game"] == "g1"
    assert written == _cli(w, capsys, "--json")  # the store's fold and the exports give the same bytes
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="g1/index.html"><bdi>g1</bdi></a>' in index and "Рейтинг сезона" in index
    w.close()


def test_s6_no_season_table_says_so(tmp_path, capsys):
    w = World(tmp_path)
    assert main(["season", "standings", "-c", str(w.config_path)], clock=lambda: w.now) == 2
    assert "no [season] table" in capsys.readouterr().err
    w.close()
