"""read_spans: every tick's read of a game's threads, recorded as spans of ticks with one outcome (C-14)

Revision ID: 0011_read_spans
Revises: 0010_checkpoints_json

Until now a successful read was recorded only from a grace before a deadline's window on, so a bot stopped
before that moment had its gap named from there, later than the real outage (issue 30 item 4). Every tick is
recorded now, and a quiet tick must stay one statement: a row is a span (first_at, last_at, ok, error) that a tick
like the one before moves on. The old rows become one span per tick (successful when every thread read then
was; the failed threads' errors joined), which the fold judges exactly as it judged the ticks. What the old rows
never recorded (successful reads far from a deadline) stays unknown: a gap that began before this revision is
named from the last read recorded then. The downgrade gives each span's first and last tick back as rows.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0011_read_spans'
down_revision = '0010_checkpoints_json'
branch_labels = None
depends_on = None


def upgrade() -> None:
    spans = op.create_table('read_spans',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('first_at', sa.DateTime(), nullable=False),
    sa.Column('last_at', sa.DateTime(), nullable=False),
    sa.Column('ok', sa.Boolean(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_read_spans_game_last', 'read_spans', ['game_id', 'last_at'], unique=False)
    ticks: dict[tuple[int, object], list[str]] = {}  # (game, tick time) -> the failed threads' errors
    old = sa.table('thread_reads', sa.column('id', sa.Integer()), sa.column('game_id', sa.Integer()),
                   sa.column('thread', sa.String()), sa.column('read_at', sa.DateTime()),
                   sa.column('ok', sa.Boolean()), sa.column('error', sa.Text()))  # typed: SQLite gives text else
    for game_id, thread, read_at, ok, error in op.get_bind().execute(sa.select(
            old.c.game_id, old.c.thread, old.c.read_at, old.c.ok, old.c.error).order_by(
            old.c.game_id, old.c.read_at, old.c.id)):
        failed = ticks.setdefault((game_id, read_at), [])
        if not ok:
            failed.append(f"{thread}: {error}")
    if ticks:
        op.bulk_insert(spans, [{"game_id": game_id, "first_at": at, "last_at": at, "ok": not failed,
                                "error": "; ".join(failed) or None} for (game_id, at), failed in ticks.items()])
    op.drop_index('ix_thread_reads_game_at', table_name='thread_reads')
    op.drop_table('thread_reads')


def downgrade() -> None:
    reads = op.create_table('thread_reads',
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
    rows = []
    spans = sa.table('read_spans', sa.column('id', sa.Integer()), sa.column('game_id', sa.Integer()),
                     sa.column('first_at', sa.DateTime()), sa.column('last_at', sa.DateTime()),
                     sa.column('ok', sa.Boolean()), sa.column('error', sa.Text()))
    for game_id, first_at, last_at, ok, error in op.get_bind().execute(sa.select(
            spans.c.game_id, spans.c.first_at, spans.c.last_at, spans.c.ok, spans.c.error).order_by(
            spans.c.game_id, spans.c.first_at, spans.c.id)):
        for at in dict.fromkeys((first_at, last_at)):
            rows.append({"game_id": game_id, "thread": "forum", "read_at": at, "ok": ok, "error": error})
    if rows:
        op.bulk_insert(reads, rows)
    op.drop_index('ix_read_spans_game_last', table_name='read_spans')
    op.drop_table('read_spans')
