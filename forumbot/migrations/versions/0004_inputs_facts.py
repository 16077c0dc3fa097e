"""inputs: facts

Revision ID: 0004
Revises: 0003

What the daemon learnt from the forum for an input, recorded once so every fold reads the same answer: for a
GM `замена`, whether the new account exists (issue 7 item 2). NULL: not checked yet. Rows stored before this
revision are marked checked ("{}"), so no command already folded is judged anew.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inputs') as batch:
        batch.add_column(sa.Column('facts', sa.Text(), nullable=True))
    op.execute("UPDATE inputs SET facts = '{}'")


def downgrade() -> None:
    with op.batch_alter_table('inputs') as batch:
        batch.drop_column('facts')
