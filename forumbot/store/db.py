"""Opening the database: one SQLAlchemy engine per process, tuned so several `tick`s can share a SQLite file."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker


def open_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        database = make_url(url).database
        if database and database != ":memory:" and not database.startswith("file:"):
            private_file(Path(database))
        # 30 s of patience with a concurrent writer; transactions here last milliseconds
        engine = create_engine(url, connect_args={"timeout": 30})
        _sqlite_immediate_transactions(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


def private_file(path: Path) -> None:
    """Create the database file readable by its owner only (it holds the bot's session cookies), or take
    group and world access away from one that is not. SQLite creates its -wal and -shm files with the
    database file's permissions, so they follow (issue 7 item 21)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        mode = os.fstat(fd).st_mode & 0o777
        if mode & 0o077:
            os.fchmod(fd, mode & 0o700)
    finally:
        os.close(fd)


def _sqlite_immediate_transactions(engine: Engine) -> None:
    """Take SQLite's write lock at BEGIN, not at the first write.

    With the driver's default deferred transactions, a transaction that reads and then writes while another
    process committed in between fails at once with "database is locked" instead of waiting (the busy timeout
    does not apply to a lock upgrade). BEGIN IMMEDIATE waits its turn instead. It writes nothing by itself.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # the driver must not issue its own BEGIN
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        # WAL: readers never wait for the writer. synchronous=NORMAL: a commit survives a killed process (what
        # the outbox relies on) without an fsync each time; only a power cut may lose the last commits, and
        # the outbox then asks the forum (find_own_post) before it sends again.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
