"""inputs: posted_latest and deleted_at

Revision ID: 0003
Revises: 0002

`posted_latest`: where the forum shows a post's or PM's time only roughly ("1 минуту назад", whole minutes),
the latest instant it allows (`posted_at` is then the earliest); a range across a deadline counts before it
(C-1). `deleted_at`: the post was gone from the thread when it was re-read at that deadline (C-11). NULL for
rows stored before this revision: exact, and not known to be deleted.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inputs') as batch:
        batch.add_column(sa.Column('posted_latest', sa.DateTime(), nullable=True))
        batch.add_column(sa.Column('deleted_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('inputs') as batch:
        batch.drop_column('deleted_at')
        batch.drop_column('posted_latest')
