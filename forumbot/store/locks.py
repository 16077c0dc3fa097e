"""Per-game (and per-inbox) mutual exclusion between concurrent `tick` processes.

SQLite: an flock()ed file per name in a directory beside the database; the kernel drops it when the process
dies, so a killed tick never leaves a game locked. PostgreSQL: a session-level advisory lock on a connection
held for the duration, released the same way when the connection goes.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path
from typing import ContextManager, Iterator, Protocol

from sqlalchemy import Engine, text


class Locks(Protocol):
    def hold(self, name: str, wait: float = 0.0) -> ContextManager[bool]:
        """Try to take `name`, waiting up to `wait` seconds; yields whether it was taken."""
        ...


def locks_for(engine: Engine, lock_dir: Path) -> Locks:
    if engine.dialect.name == "postgresql":
        return AdvisoryLocks(engine)
    database = engine.url.database
    if database and database != ":memory:":
        lock_dir = Path(database).resolve().parent
    return FileLocks(lock_dir)


def _poll(try_once, wait: float) -> bool:
    deadline = time.monotonic() + wait
    while True:
        if try_once():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


class FileLocks:
    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory) / ".forumbot-locks"

    def path(self, name: str) -> Path:
        safe = re.sub(r"[^\w.-]", "_", name)[:80]
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]  # two names that sanitise alike stay apart
        return self.directory / f"{safe}-{digest}.lock"

    @contextmanager
    def hold(self, name: str, wait: float = 0.0) -> Iterator[bool]:
        if not self.directory.is_dir():
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        elif self.directory.stat().st_mode & 0o077:
            self.directory.chmod(0o700)  # private like the database beside it (issue 7 item 21)
        fd = os.open(self.path(name), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            def try_once() -> bool:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    return False

            taken = _poll(try_once, wait)
            try:
                yield taken
            finally:
                if taken:
                    fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


class AdvisoryLocks:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @staticmethod
    def key(name: str) -> int:
        return int.from_bytes(hashlib.sha256(f"forumbot:{name}".encode()).digest()[:8], "big", signed=True)

    @contextmanager
    def hold(self, name: str, wait: float = 0.0) -> Iterator[bool]:
        key = self.key(name)
        with self.engine.connect() as connection:
            # autocommit: the lock belongs to the session, and no transaction should stay open around the cycle
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")

            def try_once() -> bool:
                return bool(connection.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar())

            taken = _poll(try_once, wait)
            try:
                yield taken
            finally:
                if taken:
                    connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
