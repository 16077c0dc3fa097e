"""inputs: quoted and first_quoted

Revision ID: 0002
Revises: 0001

Whether a post held a quote (removed from its text by the adapter), now and when first stored: a vote post
with a quote is no vote (H-3, M-7), and the fold judges a post by its first text (C-11). NULL for rows stored
before this revision and for PMs: no quote known.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inputs') as batch:
        batch.add_column(sa.Column('quoted', sa.Boolean(), nullable=True))
        batch.add_column(sa.Column('first_quoted', sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('inputs') as batch:
        batch.drop_column('first_quoted')
        batch.drop_column('quoted')
