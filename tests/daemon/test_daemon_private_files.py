"""Issue 17 item 25: what holds a running game's secrets is for its owner's eyes. `game export -o FILE` holds
every PM (roles, night moves): it is written 0600 whatever the umask, also over a file that was readable; and the
deploy guide hands the password to Docker in a file (`--env-file`), not on a command line `ps` shows."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from daemon_world import play, world  # noqa: F401 (a fixture)

from forumbot.cli.main import main

REPO = Path(__file__).resolve().parents[2]


def _export(w, out: Path) -> None:
    assert main(["game", "export", "g1", "-o", str(out), "--until", w.now.isoformat(),
                 "-c", str(w.config_path)]) == 0


def test_game_export_writes_a_file_only_its_owner_reads(world, tmp_path):
    w = world
    play(w, upto=1)  # Setup: the role PMs are out, the game is running
    old = os.umask(0o022)
    try:
        fresh, existing = tmp_path / "fresh.json", tmp_path / "existing.json"
        existing.write_text("old", encoding="utf-8")
        existing.chmod(0o644)
        _export(w, fresh)
        _export(w, existing)
    finally:
        os.umask(old)
    for path in (fresh, existing):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert "\"sheriff\"" in path.read_text(encoding="utf-8")  # the roles are in it: why it is private
    assert existing.read_text(encoding="utf-8") == fresh.read_text(encoding="utf-8")


def test_the_deploy_guide_passes_the_password_to_docker_in_a_file():
    guide = (REPO / "deploy" / "README.md").read_text(encoding="utf-8")
    runs = [line for line in guide.splitlines() if line.startswith("docker run")]
    assert runs and not any(re.search(r"\s(-e|--env)\s+\w*PASSWORD=", line) for line in runs), runs
    service = next(line for line in runs if " -d " in line)
    assert "--env-file /etc/forumbot/env" in service
    assert "install -m 600 /dev/null /etc/forumbot/env" in guide
