"""games: stop_reason

Revision ID: 0006_stop_reason
Revises: 0004

Why `forumbot game stop` ended a game (its `--reason`), kept so `game export` can write the stop into the
transcript and `replay` ends the game as it ended (issue 17 item 12). NULL: not stopped, or stopped before this
revision (read as no reason given).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0006_stop_reason'
down_revision = '0005_resolutions'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('stop_reason', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.drop_column('stop_reason')
