"""checkpoints: the game at each resolved deadline (issue 19 item 3)

Revision ID: 0007_checkpoints
Revises: 0006_stop_reason

The Game right after a deadline was resolved, with what the fold had said and a digest of the inputs it saw
(forumbot/engine/checkpoint.py), so a fold starts at the latest one whose digest still matches instead of from
Setup. A cache: games running when this revision is applied have none, and fold from Setup until their next
deadline is resolved.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0007_checkpoints'
down_revision = '0006_stop_reason'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('checkpoints',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=40), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'at')
    )


def downgrade() -> None:
    op.drop_table('checkpoints')
