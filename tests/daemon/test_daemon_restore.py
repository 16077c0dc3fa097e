"""The database restored from a copy taken two ticks earlier (issue 26 item 5): the next tick finds on the forum
what the bot already said since that copy and sends none of it again (the night result, the death PM, both check
results, the acknowledgements); what it never sent goes out once. C-12 (each message once) on the memory forum,
through the daemon's cycles, SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from daemon_world import GM, STEPS, World, pg_database  # noqa: F401  (fixture)
from sqlalchemy import create_engine, select, text

from forumbot.store.models import OutboxRow

COPY_AFTER = 3  # Day 1 resolved; then the night's moves (acknowledged by PM) and its result (posts and PMs)
PLAYED_ON = 5  # the last step ticked before the copy is put back
STATUS_STEP = 6  # a GM's `статус` sent after the restore: never answered before it


def _reference(root: Path) -> tuple[list, list]:
    """The forum after an uninterrupted game through the GM's `статус`."""
    w = World(root)
    w.start()
    for at, act in STEPS[: STATUS_STEP + 1]:
        w.now = at
        act(w)
        w.tick()
    state = w.state()
    w.close()
    return state


def _copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of a live SQLite database (sqlite3's backup API, as `sqlite3 .backup` makes it)."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()


def _play_restore_and_tick(w: World, take_copy, put_back) -> None:
    w.start()
    for at, act in STEPS[: PLAYED_ON + 1]:
        w.now = at
        act(w)
        w.tick()
        if at == STEPS[COPY_AFTER][0]:
            take_copy()
    w.daemon.close()
    put_back()
    w.restart()
    w.now, act = STEPS[STATUS_STEP]
    act(w)
    w.tick()


def _same_forum_as_reference(w: World, reference: tuple[list, list]) -> None:
    posts, pms = w.state()
    ref_posts, ref_pms = reference
    assert [t for _, t, _ in posts] == [t for _, t, _ in ref_posts]  # no post twice, none missing
    assert sorted((to, t) for to, t, _ in pms) == sorted((to, t) for to, t, _ in ref_pms)
    with w.daemon.sessions.begin() as session:
        statuses = set(session.scalars(select(OutboxRow.status)))
    assert statuses == {"sent"}  # nothing owed, nothing left uncertain


def test_a_restored_sqlite_database_sends_nothing_twice(tmp_path):
    reference = _reference(tmp_path / "reference")
    w = World(tmp_path / "restored")
    database, copy = w.root / "forumbot.db", tmp_path / "copy.db"
    _play_restore_and_tick(w, lambda: _copy_sqlite(database, copy), lambda: _copy_sqlite(copy, database))
    _same_forum_as_reference(w, reference)
    answers = [t for to, t, _ in w.bot_pms() if to == GM]
    assert len(answers) == len(set(answers))
    w.close()


def test_a_restored_postgresql_database_sends_nothing_twice(tmp_path, pg_database):
    reference = _reference(tmp_path / "reference")
    w = World(tmp_path / "restored", database=pg_database)
    admin = create_engine(pg_database.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    name = pg_database.rsplit("/", 1)[1]
    copy = name + "_copy"

    def take_copy() -> None:
        w.daemon.close()  # CREATE DATABASE ... TEMPLATE wants no other session on the template
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{copy}" TEMPLATE "{name}"'))
        w.restart()

    def put_back() -> None:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            c.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{copy}"'))
            c.execute(text(f'DROP DATABASE "{copy}"'))

    try:
        _play_restore_and_tick(w, take_copy, put_back)
        _same_forum_as_reference(w, reference)
    finally:
        w.close()
        admin.dispose()
