"""thread_reads: each tick's read of each of a game's threads, successful or failed (C-14)

Revision ID: 0009_thread_reads
Revises: 0008_inputs_version

A deadline before which the bot could not read the game's threads for longer than `downtime_grace` is disturbed
(RULES.md C-14): nobody leaves for a missing vote at it. Each tick records, per game and thread, its time and
whether the forum answered; the fold reads them (forumbot/store/game.py) and `game export` carries them, so a
replay decides the same. Games running when this revision is applied have no rows for the time before it: the
fold knows nothing before a game's first row, and no deadline is disturbed by that time.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0009_thread_reads'
down_revision = '0008_inputs_version'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('thread_reads',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('thread', sa.String(length=20), nullable=False),
    sa.Column('read_at', sa.DateTime(), nullable=False),
    sa.Column('ok', sa.Boolean(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_thread_reads_game_at', 'thread_reads', ['game_id', 'read_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_thread_reads_game_at', table_name='thread_reads')
    op.drop_table('thread_reads')
