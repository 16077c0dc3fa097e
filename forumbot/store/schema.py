"""Schema versioning with Alembic, configured in code so it works from an installed package (no alembic.ini)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from forumbot.errors import ForumbotError


class SchemaOutdated(ForumbotError):
    """The database is missing tables or carries an older schema version than this forumbot."""


def alembic_config(engine: Engine) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", "forumbot:migrations")
    config.attributes["engine"] = engine
    return config


def head_revision() -> str:
    script = ScriptDirectory.from_config(alembic_config(None))  # type: ignore[arg-type]
    head = script.get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    command.upgrade(alembic_config(engine), revision)


def require_current(engine: Engine) -> None:
    """Refuse to work on a database whose schema is not the one this code expects."""
    current = current_revision(engine)
    if current != head_revision():
        state = "has no forumbot tables" if current is None else f"is at schema version {current}"
        raise SchemaOutdated(f"the database {state}, this forumbot needs {head_revision()}: "
                             "run `forumbot db upgrade`")
