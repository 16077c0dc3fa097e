"""inputs: version; checkpoints: inputs_mark, enqueued (issue 19: a tick reads and matches only what is new)

Revision ID: 0008_inputs_version
Revises: 0007_checkpoints

`inputs.version` counts the changes of a stored input (1 when stored, one more at each edit, deletion mark or
facts recorded; forumbot/store/models.py bumps it on every ORM update). The game's tip records beside it
(`checkpoints.inputs_mark`) the largest input id it saw and the count and version sum of the inputs it could
have seen, so the next tick checks in one query that none of them changed and loads only the rows after them
(forumbot/store/inputs.py). `checkpoints.enqueued` is set on the tip's row once the tick that folded it has put
its due messages in the outbox, so the next tick matches only the other messages against the outbox. Rows
stored before this revision start at 1; tips stored before it have no mark and are not marked enqueued, so the
next tick reads the game whole and matches every message, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0008_inputs_version'
down_revision = '0007_checkpoints'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inputs') as batch:
        batch.add_column(sa.Column('version', sa.Integer(), nullable=False, server_default='1'))
    with op.batch_alter_table('checkpoints') as batch:
        batch.add_column(sa.Column('inputs_mark', sa.Text(), nullable=True))
        batch.add_column(sa.Column('enqueued', sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('checkpoints') as batch:
        batch.drop_column('enqueued')
        batch.drop_column('inputs_mark')
    with op.batch_alter_table('inputs') as batch:
        batch.drop_column('version')
