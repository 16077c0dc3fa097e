"""The store: raw inputs stored once, edits keep the first text (C-11), the schema is Alembic's and checked."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, select, text

from adapters.memory.forum import MemoryForum
from daemon_world import pg_database, world  # noqa: F401  (fixtures)
from forumbot.store import Base, InputRow, SchemaOutdated, open_engine, require_current, session_factory, upgrade
from forumbot.store.records import forum_id, store_pms, store_posts
from forumbot.store.schema import current_revision, head_revision
from forumbot.texts import TABLES
from forumbot.store.game import _input
from forumbot.model import Where

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def sessions(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    upgrade(engine)
    yield session_factory(engine)
    engine.dispose()


def test_rereading_a_page_stores_nothing_twice(sessions):
    forum = MemoryForum()
    post = forum.add_post("t", "Маша", "Петя", NOW)
    pm = forum.add_pm("Петя", "проверка Маша", NOW)
    for _ in range(2):
        with sessions.begin() as s:
            fid = forum_id(s, "main", "memory")
            store_posts(s, fid, [post], NOW)
            store_pms(s, fid, [pm], NOW)
    with sessions.begin() as s:
        assert s.scalar(select(func.count()).select_from(InputRow)) == 2


def test_an_edit_updates_the_text_and_keeps_the_first_one(sessions):
    forum = MemoryForum()
    post = forum.add_post("vote", "Маша", "Петя", NOW)
    with sessions.begin() as s:
        fid = forum_id(s, "main", "memory")
        store_posts(s, fid, [post], NOW)
    first_edit, second_edit = NOW + timedelta(minutes=5), NOW + timedelta(hours=30)
    forum.edit_post(post.id, "Вася", first_edit)
    with sessions.begin() as s:
        assert store_posts(s, fid, forum.topics["vote"], NOW) == 1
    forum.edit_post(post.id, "Оля", second_edit)
    with sessions.begin() as s:
        store_posts(s, fid, forum.topics["vote"], NOW)
        row = s.scalar(select(InputRow))
        assert (row.first_text, row.text) == ("Петя", "Оля")
        assert row.edited_at == second_edit and row.first_edited_at == first_edit
        # the fold sees the earliest edit (the forum only shows the latest) and the first text (C-11)
        item = _input(row, Where.VOTE)
        assert (item.text, item.first_text, item.edited_at) == ("Оля", "Петя", first_edit)
        assert store_posts(s, fid, forum.topics["vote"], NOW) == 0  # unchanged: no write


def test_an_edit_time_that_drifts_alone_is_no_edit(sessions):
    """Adapters hand back seen posts every cycle; a relative edit time ("5 минут назад") drifts from read to
    read. Only a change of text, edit count or edit marker is an edit: the first edit time stays (C-11)."""
    forum = MemoryForum()
    post = forum.add_post("vote", "Маша", "Петя", NOW)
    with sessions.begin() as s:
        fid = forum_id(s, "main", "memory")
        store_posts(s, fid, [post], NOW)
    edited = NOW + timedelta(minutes=5)
    forum.edit_post(post.id, "Петя", edited)  # same text, the marker appears: an edit
    with sessions.begin() as s:
        assert store_posts(s, fid, forum.topics["vote"], NOW) == 1
    from dataclasses import replace

    drifted = [replace(p, edited_at=edited + timedelta(minutes=1)) for p in forum.topics["vote"]]
    with sessions.begin() as s:
        assert store_posts(s, fid, drifted, NOW) == 0
        row = s.scalar(select(InputRow))
        assert row.first_edited_at == edited and row.edited_at == edited


def test_H3_an_edit_that_only_adds_a_quote_is_recorded_and_the_fold_sees_both_versions(sessions):
    """The adapter removes quotes, so the text may stay the same: the `quoted` mark carries the change, and
    the first version stays for C-11 (first_quoted)."""
    from dataclasses import replace

    forum = MemoryForum()
    post = forum.add_post("vote", "Маша", "Петя", NOW)
    with sessions.begin() as s:
        fid = forum_id(s, "main", "memory")
        store_posts(s, fid, [post], NOW)
    edited = replace(post, quoted=True, edited_at=NOW + timedelta(minutes=5), edit_count=1)
    with sessions.begin() as s:
        assert store_posts(s, fid, [edited], NOW) == 1
        row = s.scalar(select(InputRow))
        assert (row.quoted, row.first_quoted) == (True, False)
        item = _input(row, Where.VOTE)
        assert (item.text, item.first_text) == ("[quote][/quote]Петя", "Петя")
        assert _input(row, Where.GAME).text == "Петя"  # only vote-thread posts carry the mark
        assert store_posts(s, fid, [edited], NOW) == 0


def test_rows_stored_before_revision_0002_read_as_unquoted(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    upgrade(engine, "0001")
    with engine.begin() as c:
        c.execute(text("INSERT INTO forums (name, engine) VALUES ('main', 'memory')"))
        c.execute(text(
            "INSERT INTO inputs (forum_id, kind, topic, item_id, author, posted_at, edit_count, subject, first_text, "
            "text, html, first_seen_at) VALUES (1, 'post', 'vote', '7', 'Маша', '2026-12-01 12:00:00', 0, '', "
            "'Петя', 'Петя', 'Петя', '2026-12-01 12:00:00')"))
    upgrade(engine)
    require_current(engine, TABLES["en"])
    sessions = session_factory(engine)
    with sessions.begin() as s:
        row = s.scalar(select(InputRow))
        assert row.quoted is None and _input(row, Where.VOTE).text == "Петя"
        again = MemoryForum().add_post("vote", "Маша", "Петя", NOW)
        assert store_posts(s, 1, [replace_id(again, "7")], NOW) == 0  # re-read unquoted: no write
    engine.dispose()


def replace_id(post, item_id):
    from dataclasses import replace

    return replace(post, id=item_id)


def test_tick_refuses_an_outdated_schema_naming_the_command(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    with pytest.raises(SchemaOutdated, match="forumbot db upgrade"):
        require_current(engine, TABLES["en"])
    upgrade(engine)
    require_current(engine, TABLES["en"])
    with engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = '0000'"))
    with pytest.raises(SchemaOutdated, match="forumbot db upgrade"):
        require_current(engine, TABLES["en"])
    engine.dispose()


def _assert_migrations_match_models(engine) -> None:
    upgrade(engine)
    upgrade(engine)  # idempotent
    assert current_revision(engine) == head_revision()
    with engine.connect() as c:
        assert compare_metadata(MigrationContext.configure(c), Base.metadata) == []


def test_migrations_build_exactly_the_models_sqlite(tmp_path):
    engine = open_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    _assert_migrations_match_models(engine)
    engine.dispose()


def test_migrations_build_exactly_the_models_postgresql(pg_database):
    engine = open_engine(pg_database)
    _assert_migrations_match_models(engine)
    engine.dispose()


def test_schema_head_constant_is_the_newest_migration():
    from forumbot.store.schema import SCHEMA_HEAD

    assert SCHEMA_HEAD == head_revision()


def test_posts_are_filed_under_the_thread_as_configured(world):
    """An adapter may report a post's topic as a bare id while the config names the thread by URL."""
    from dataclasses import replace

    from daemon_world import STEPS

    real = world.forum.fetch_posts
    world.forum.fetch_posts = lambda topic, after=None: (
        lambda posts, cursor: ([replace(p, topic="t=" + str(len(topic))) for p in posts], cursor))(*real(topic, after))
    world.start()
    world.now = STEPS[2][0]
    world.post("vote", "М1", "Маф1")
    world.tick()
    with world.daemon.sessions.begin() as s:
        assert s.scalar(select(InputRow.topic).where(InputRow.author == "М1")) == "g1/vote"


def test_database_wal_and_lock_folder_are_private_issue7_item21(tmp_path):
    """The database holds the bot's session cookies: owner-only, even under a permissive umask."""
    import os
    import stat

    from forumbot.store.locks import FileLocks

    old = os.umask(0o022)
    try:
        path = tmp_path / "private.db"
        engine = open_engine(f"sqlite:///{path}")
        upgrade(engine)
        with engine.connect() as c:  # WAL mode: the -wal and -shm files exist while a connection is open
            c.exec_driver_sql("SELECT 1")
            files = [path, path.with_name("private.db-wal"), path.with_name("private.db-shm")]
            modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in files}
        engine.dispose()
        locks = FileLocks(tmp_path)
        with locks.hold("game:g1") as mine:
            assert mine
            lock_modes = tuple(stat.S_IMODE(p.stat().st_mode) for p in (locks.directory, locks.path("game:g1")))
        shared = tmp_path / "old.db"
        shared.touch(mode=0o644)
        open_engine(f"sqlite:///{shared}").dispose()
    finally:
        os.umask(old)
    assert modes == {"private.db": 0o600, "private.db-wal": 0o600, "private.db-shm": 0o600}
    assert lock_modes == (0o700, 0o600)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o600
