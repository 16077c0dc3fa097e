"""resolutions: when the bot resolved each phase of a game (C-13)

Revision ID: 0005_resolutions
Revises: 0004

A deadline gets only the inputs read before the bot resolved it (RULES.md C-13): each phase a tick's fold
resolves is recorded once, with the tick's time, and every later fold (and an export's replay) gives that
deadline only the inputs first read by then (inputs.first_seen_at). Games running when this revision is applied
have no rows for the phases already resolved: those fold by the stamps alone, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0005_resolutions'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('resolutions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=40), nullable=False),
    sa.Column('resolved_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'phase')
    )


def downgrade() -> None:
    op.drop_table('resolutions')
