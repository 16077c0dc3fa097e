"""C-14 (issue 26 item 6): a count the bot never sent, because it was down across the day's deadline, is on no
page: the ticks' folder, `replay --pages` of the export and `pages build` agree byte for byte."""

from __future__ import annotations

import json
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import CAST, STARTED, T0, World, config_toml, game_toml  # noqa: E402

from forumbot.cli.main import main  # noqa: E402
from forumbot.config.load import load_config  # noqa: E402
from forumbot.games.export import export_game  # noqa: E402

URL = "https://mafia.example.org/"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_C14_a_count_never_sent_is_on_no_page_and_replay_builds_the_ticks_folder(tmp_path: Path) -> None:
    w = World(tmp_path / "w")
    extra = f'[pages]\nfolder = "site"\nurl = "{URL}"\nvote_history = "live"\n'
    w.config_path.write_text(config_toml(game_toml("g1"), extra=extra), encoding="utf-8")
    w.config = load_config(w.config_path)
    w.daemon.close()
    w.daemon = w.new_daemon()
    try:
        w.start()
        w.now = STARTED + timedelta(hours=2)
        for nick, _ in CAST:
            w.pm(nick, "подтверждаю")
        w.tick()
        w.now = T0 + timedelta(hours=2)
        w.post("vote", "М1", "Маф1")
        w.tick()
        w.now = T0 + timedelta(hours=3, minutes=1)
        w.tick()  # the count of 12:00 goes out
        w.now = T0 + timedelta(hours=20)
        w.post("vote", "М2", "Маф1")  # while the bot is down: a count falls due at 21:00, before the deadline
        w.now = T0 + timedelta(hours=26)
        w.tick()
        site = _files(w.root / "site")
        assert len(w.bot_posts("g1/vote")) == 1  # the count of 21:00 was never posted
        transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
        assert transcript["unsent"]
        path = tmp_path / "g1.json"
        path.write_text(json.dumps(transcript, ensure_ascii=False), encoding="utf-8")
        out = tmp_path / "replayed"
        assert main(["replay", str(path), "--pages", str(out)]) == 0
        assert _files(out) == site
        built = tmp_path / "built"
        assert main(["pages", "build", "-c", str(w.config_path), "-o", str(built)], clock=lambda: w.now) == 0
        assert _files(built) == site
    finally:
        w.close()
