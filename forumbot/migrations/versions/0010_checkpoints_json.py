"""checkpoints_json: checkpoints and tips stored as plain JSON (compressed), never pickles (issue 27 item 4)

Revision ID: 0010_checkpoints_json
Revises: 0009_thread_reads

A pickle read from the database runs whatever it names; plain data (forumbot/engine/plain.py) only builds the
engine's values. The pickled rows are dropped, not converted: checkpoints and tips are a cache, and each game's
next tick folds from its inputs and stores new ones. The column stays binary: the JSON is compressed (a tip
repeats the texts the bot said). The downgrade drops the JSON rows the same way.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0010_checkpoints_json'
down_revision = '0009_thread_reads'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM checkpoints"))


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM checkpoints"))
