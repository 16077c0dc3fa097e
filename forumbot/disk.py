"""A full or read-only disk, told in one line that names what could not be written (issue 26 item 10): the
database (SQLite's SQLITE_FULL / SQLITE_READONLY, PostgreSQL's disk_full / read_only_sql_transaction) or a file
(ENOSPC, EDQUOT, EROFS). Not a bug, so no traceback: the transaction that failed was rolled back, the outbox
rows it had committed before stand, and the next tick carries on once the disk can be written."""

from __future__ import annotations

import errno

from sqlalchemy import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

FULL, READ_ONLY = "disk full", "read-only"
_SQLITE = {13: FULL, 8: READ_ONLY}  # SQLITE_FULL, SQLITE_READONLY (extended codes keep these in their low byte)
_POSTGRES = {"53100": FULL, "25006": READ_ONLY}  # disk_full, read_only_sql_transaction
_OS = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READ_ONLY}


def disk_problem(error: BaseException, database_url: str) -> str | None:
    """`disk full: ...` or `read-only: ...` naming the database or file `error` could not write; None when
    `error` is something else."""
    if isinstance(error, OSError) and error.errno in _OS:
        where = f"cannot write {error.filename}" if error.filename else "cannot write a file"
        return f"{_OS[error.errno]}: {where} ({error.strerror})"
    if isinstance(error, DBAPIError):
        code = getattr(error.orig, "sqlite_errorcode", None)
        kind = _SQLITE.get(code & 0xFF) if isinstance(code, int) else _POSTGRES.get(getattr(error.orig, "pgcode", ""))
        if kind is not None:
            said = str(error.orig).strip().splitlines()[0] if str(error.orig).strip() else type(error.orig).__name__
            return f"{kind}: cannot write the database {database_name(database_url)} ({said})"
    return None


def database_name(url: str) -> str:
    """The SQLite file, or the server's URL without its password."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return "(unreadable URL)"
    if parsed.get_backend_name() == "sqlite":
        return parsed.database or ":memory:"
    return parsed.render_as_string(hide_password=True)
