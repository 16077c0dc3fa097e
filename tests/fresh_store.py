"""A new game's SQLite store as `forumbot db upgrade` makes it, for the tests that drive `forumbot` processes
(tests/live/livegame.py, tests/emulators/xenforo/xfgame.py): the first game of a test process runs the real
command, and every later game gets a copy of the file it wrote. The schema is the code's, the same for every game;
the command's process imports alembic and costs ~1-1.5 s of CPU, once per game before (issue 28 item 2). The
command itself is tested in tests/daemon/test_daemon_cli.py."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable


class FreshStore:
    def __init__(self) -> None:
        self.made: bytes | None = None  # the store a real `db upgrade` wrote in this process, before any game

    def upgrade(self, db: Path, run: Callable[[], subprocess.CompletedProcess]) -> None:
        """`db` (absent: a new game's folder) as `db upgrade` leaves it: `run` runs the command the first time;
        later, its file is copied, private to its owner as the command makes it."""
        if self.made is not None:
            db.write_bytes(self.made)
            db.chmod(0o600)
            return
        done = run()
        assert done.returncode == 0, done.stdout + done.stderr
        if not Path(f"{db}-wal").exists():  # the command closed it whole (no write-ahead log left to copy)
            self.made = db.read_bytes()


STORE = FreshStore()
