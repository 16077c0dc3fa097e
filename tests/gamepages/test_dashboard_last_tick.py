"""`forumbot dashboard` gives each game's last tick result (issue 20 item 5), as the daemon left it in the private
dashboard file ([pages] dashboard) after each tick, with since when the game has been so. The store keeps no
such record: a tick that fails changes nothing there (tests/daemon/test_daemon_errors.py)."""

from __future__ import annotations

import json
import os
import stat
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import STEPS, World, config_toml, game_toml  # noqa: E402

from forumbot.cli.main import main  # noqa: E402
from forumbot.config.load import load_config  # noqa: E402


def _world(tmp_path: Path) -> World:
    w = World(tmp_path / "w")
    extra = '[pages]\nfolder = "site"\nurl = "https://mafia.example.org/"\ndashboard = "private/dashboard.json"\n'
    w.config_path.write_text(config_toml(game_toml("g1"), extra=extra), encoding="utf-8")
    w.config = load_config(w.config_path)
    w.daemon.close()
    w.daemon = w.new_daemon()
    return w


def _dashboard(w: World, capsys) -> dict:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    assert main(["dashboard", "--json", "-c", str(w.config_path)], clock=lambda: w.now) == 0
    return json.loads(capsys.readouterr().out)


def test_dashboard_says_each_games_last_tick(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    w = _world(tmp_path)
    try:
        w.start()
        (g,) = _dashboard(w, capsys)["games"]
        assert g["last_tick"] is None  # started, never ticked
        for at, step in STEPS[:4]:  # Setup, confirmations, Day 1's votes, Day 1 resolved
            w.now = at
            step(w)
            w.tick()
        (g,) = _dashboard(w, capsys)["games"]
        last = g["last_tick"]
        assert last["state"] == "done" and last["phase"] == "night 1" and last["sent"] > 0
        assert last["since"] == w.now.isoformat()
        resolved = w.now
        for _ in range(3):  # the bot's own posts read back, then quiet ticks: the same result
            w.now += timedelta(minutes=1)
            w.tick()
        (g,) = _dashboard(w, capsys)["games"]
        assert g["last_tick"]["sent"] == 0 and g["last_tick"]["stored"] == 0
        assert g["last_tick"]["since"] == (resolved + timedelta(minutes=2)).isoformat()  # the first quiet one
        assert main(["dashboard", "-c", str(w.config_path)], clock=lambda: w.now) == 0
        # in the game's language (issue 28 item 14)
        assert "Последний тик: выполнен, ночь 1; сохранено 0, в очередь 0, отправлено 0 (так с" in capsys.readouterr().out
        # `dashboard -o` over the daemon's own file keeps what the next tick reads
        path = w.config.pages.dashboard
        assert main(["dashboard", "--json", "-c", str(w.config_path), "-o", str(path)], clock=lambda: w.now) == 0
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        w.now += timedelta(minutes=1)
        w.tick()
        (g,) = _dashboard(w, capsys)["games"]
        assert g["last_tick"]["since"] == (resolved + timedelta(minutes=2)).isoformat()
    finally:
        w.close()
