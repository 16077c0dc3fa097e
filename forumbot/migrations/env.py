"""Alembic environment, driven from forumbot.store.schema: the engine arrives in config.attributes."""

from __future__ import annotations

from alembic import context

from forumbot.store.models import Base

engine = context.config.attributes.get("engine")
if engine is None:
    raise RuntimeError("run migrations through `forumbot db upgrade`, which passes the database engine")

with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
