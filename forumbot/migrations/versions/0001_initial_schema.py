"""initial schema

Revision ID: 0001
Revises:

Datetimes are stored as naive UTC (forumbot.store.models.UTCDateTime converts).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('forums',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('engine', sa.String(length=200), nullable=False),
    sa.Column('cookies', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('cursors',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('forum_id', sa.Integer(), nullable=False),
    sa.Column('stream', sa.String(length=600), nullable=False),
    sa.Column('value', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['forum_id'], ['forums.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('forum_id', 'stream')
    )
    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('forum_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('mode', sa.String(length=20), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('setup_json', sa.Text(), nullable=False),
    sa.Column('commitment', sa.String(length=64), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['forum_id'], ['forums.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('inputs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('forum_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('topic', sa.String(length=500), nullable=False),
    sa.Column('item_id', sa.String(length=100), nullable=False),
    sa.Column('author', sa.String(length=200), nullable=False),
    sa.Column('author_id', sa.String(length=100), nullable=True),
    sa.Column('posted_at', sa.DateTime(), nullable=False),
    sa.Column('edited_at', sa.DateTime(), nullable=True),
    sa.Column('first_edited_at', sa.DateTime(), nullable=True),
    sa.Column('edit_count', sa.Integer(), nullable=False),
    sa.Column('subject', sa.Text(), nullable=False),
    sa.Column('first_text', sa.Text(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('html', sa.Text(), nullable=False),
    sa.Column('first_seen_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['forum_id'], ['forums.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('forum_id', 'kind', 'topic', 'item_id')
    )
    op.create_table('outbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=300), nullable=False),
    sa.Column('marker', sa.String(length=20), nullable=False),
    sa.Column('due_at', sa.DateTime(), nullable=False),
    sa.Column('where', sa.String(length=10), nullable=False),
    sa.Column('to', sa.String(length=200), nullable=True),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('origin', sa.String(length=10), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('attempted_at', sa.DateTime(), nullable=True),
    sa.Column('batch', sa.String(length=20), nullable=True),
    sa.Column('remote_id', sa.String(length=100), nullable=True),
    sa.Column('sent_at', sa.DateTime(), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'key')
    )
    op.create_table('overrides',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('input_id', sa.Integer(), nullable=False),
    sa.Column('gm', sa.String(length=200), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('command', sa.Text(), nullable=False),
    sa.Column('state_before', sa.Text(), nullable=False),
    sa.Column('state_after', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['input_id'], ['inputs.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'input_id')
    )
    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_no', sa.Integer(), nullable=False),
    sa.Column('nick', sa.String(length=200), nullable=False),
    sa.Column('current_nick', sa.String(length=200), nullable=False),
    sa.Column('role', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'seat_no')
    )
    op.create_index('ix_outbox_game_status', 'outbox', ['game_id', 'status'])


def downgrade() -> None:
    op.drop_index('ix_outbox_game_status', 'outbox')
    op.drop_table('seats')
    op.drop_table('overrides')
    op.drop_table('outbox')
    op.drop_table('inputs')
    op.drop_table('games')
    op.drop_table('cursors')
    op.drop_table('forums')
