"""A disk that fills up or turns read-only in the middle of a `forumbot tick` (issue 26 item 10): the tick ends
with one line naming the database and the problem, exit 2 like any other database it cannot use, no traceback;
the next tick, once the disk can be written, loses and duplicates nothing (the check of the crash tests:
each message once, the same messages as an uninterrupted run).

The failure is SQLite's own: after the tick's first N statements the test sets, on the tick's connection,
`PRAGMA max_page_count` to the pages the file has (the next page it needs is refused with SQLITE_FULL, "database
or disk is full", as on a full disk) or `PRAGMA query_only` (SQLITE_READONLY, "attempt to write a readonly
database", as after a remount read-only). N walks the failure through the cycle: before anything is queued,
between queueing and sending, between sends."""

from __future__ import annotations

import errno
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import Engine, event
from sqlalchemy.exc import OperationalError
from test_daemon_processes import assert_each_once, delivered, setup_game

from forumbot.cli.main import main
from forumbot.config.load import load_config
from forumbot.cycle.daemon import Daemon, run_forever
from forumbot.disk import disk_problem

FULL = "PRAGMA max_page_count = {pages}"
READ_ONLY = "PRAGMA query_only = ON"


@contextmanager
def disk_fails_after(statements: int, pragma: str) -> Iterator[dict[str, int]]:
    """Every engine opened inside: after `statements` statements its connection can write no more."""
    seen = {"statements": 0, "failed_at": 0}

    def after(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        seen["statements"] += 1
        if seen["statements"] == statements:
            raw = conn.connection.dbapi_connection.cursor()
            pages = raw.execute("PRAGMA page_count").fetchone()[0]
            raw.execute(pragma.format(pages=pages))
            raw.close()
            seen["failed_at"] = statements

    event.listen(Engine, "after_cursor_execute", after)
    try:
        yield seen
    finally:
        event.remove(Engine, "after_cursor_execute", after)


def _strip(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted((where, text.rsplit("\n\n#fb:", 1)[0]) for where, text in items)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> tuple[datetime, list[tuple[str, str]]]:
    now = datetime.now(timezone.utc)
    config, forum = setup_game(tmp_path_factory.mktemp("clean"), now=now)
    assert main(["tick", "-c", str(config)]) == 0
    return now, delivered(forum)


# From the 60th statement on, this tick needs no new page (what it sends updates rows it queued), so a full
# disk fails it up to there; a read-only one at any point: at 100 and 140 after 3 and 13 of its 21 messages.
CASES = [(FULL, n) for n in (5, 20, 40, 60)] + [(READ_ONLY, n) for n in (5, 40, 100, 140)]


@pytest.mark.parametrize("pragma, statements", CASES)
def test_a_disk_that_fails_mid_tick_is_one_line_and_loses_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], uninterrupted: tuple[datetime, list[tuple[str, str]]],
        pragma: str, statements: int) -> None:
    said = ("disk full" if pragma == FULL else "read-only") + ": cannot write the database"
    now, reference = uninterrupted
    config, forum = setup_game(tmp_path, now=now)
    capsys.readouterr()
    with disk_fails_after(statements, pragma) as seen:
        code = main(["tick", "-c", str(config)])
    captured = capsys.readouterr()
    assert seen["failed_at"] == statements and code == 2, captured
    assert "Traceback" not in captured.err and "unexpected error" not in captured.err + captured.out
    database = tmp_path / "forumbot.db"
    # the game's line, or the tick's when the disk fails outside a game's cycle (a read-only SQLite file refuses
    # every later transaction: each begins IMMEDIATE)
    last = captured.err.splitlines()[-1]
    assert last.startswith((f"forumbot: g1: {said} {database} (", f"forumbot: {said} {database} (")), captured.err
    # the log records say the same, and nothing else is said
    assert all(f"{said} {database} (" in text for text in captured.err.splitlines()), captured.err
    sent_before = len(delivered(forum))
    assert sent_before < 21
    assert main(["tick", "-c", str(config)]) == 0  # the disk can be written again
    items = delivered(forum)
    assert_each_once(items)
    assert _strip(items) == _strip(reference)


def test_os_errors_of_a_full_or_read_only_disk_name_the_file() -> None:
    """The files a tick writes besides the database (the pages, the dashboard, the lock files): the errno the
    OS gives for the write, as open() and write() raise it."""
    full = OSError(errno.ENOSPC, "No space left on device", "/var/www/mafia/g1/index.html")
    assert disk_problem(full, "sqlite:////x.db") == \
        "disk full: cannot write /var/www/mafia/g1/index.html (No space left on device)"
    ro = OSError(errno.EROFS, "Read-only file system", "/var/lib/forumbot/.forumbot-locks/g1.lock")
    assert disk_problem(ro, "sqlite:////x.db") == \
        "read-only: cannot write /var/lib/forumbot/.forumbot-locks/g1.lock (Read-only file system)"
    assert disk_problem(OSError(errno.ENOENT, "No such file or directory", "/x"), "sqlite:////x.db") is None
    assert disk_problem(OperationalError("SELECT 1", {}, Exception("database is locked")), "sqlite:////x.db") is None


def test_run_says_the_disk_problem_and_goes_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`forumbot run` is a service: a cycle that cannot write logs one line and the next cycle tries again."""
    config, forum = setup_game(tmp_path)
    daemon = Daemon(load_config(config))
    stop = threading.Event()
    stop.set()  # one cycle, then stop
    try:
        with disk_fails_after(1, READ_ONLY) as seen:
            assert run_forever(daemon, stop) == 0
    finally:
        daemon.close()
    assert seen["failed_at"] == 1
    (record,) = [r for r in caplog.records if r.levelname == "ERROR" and "cycle failed" in r.getMessage()]
    said = f"cycle failed: read-only: cannot write the database {tmp_path / 'forumbot.db'} ("
    assert record.getMessage().startswith(said)
    assert record.exc_info is None
    assert delivered(forum) == []
