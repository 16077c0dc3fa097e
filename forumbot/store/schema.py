"""Schema versioning with Alembic, configured in code so it works from an installed package (no alembic.ini).

`tick` only compares the database's version with SCHEMA_HEAD, without importing Alembic (half a second of a
cron tick's start-up); a test keeps SCHEMA_HEAD equal to the newest migration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from sqlalchemy import Engine, inspect, text

from forumbot.errors import ForumbotError

if TYPE_CHECKING:
    from alembic.config import Config as AlembicConfig

SCHEMA_HEAD = "0011_read_spans"  # the newest revision in forumbot/migrations/versions


class SchemaOutdated(ForumbotError):
    """The database is missing tables or carries another schema version than this forumbot."""


def alembic_config(engine: Engine | None) -> "AlembicConfig":
    # imported on first use: alembic loads only to upgrade the schema or read its head, never on a tick
    from alembic.config import Config as AlembicConfig

    config = AlembicConfig()
    config.set_main_option("script_location", "forumbot:migrations")
    config.attributes["engine"] = engine
    return config


def head_revision() -> str:
    # imported on first use, as in alembic_config
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config(None)).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine, revision: str = "head") -> None:
    # imported on first use, as in alembic_config
    from alembic import command

    command.upgrade(alembic_config(engine), revision)


def require_current(engine: Engine, t: Mapping[str, str]) -> None:
    """Refuse to work on a database whose schema is not the one this code expects, saying so in the GMs' language
    `t` (issue 28)."""
    current = current_revision(engine)
    if current != SCHEMA_HEAD:
        state = t["db.no_tables"] if current is None else t["db.at_version"].format(version=current)
        raise SchemaOutdated(t["db.outdated"].format(state=state, head=SCHEMA_HEAD))
