"""A tick loads only what is new (issue 19, forumbot/store/inputs.py, revision 0008_inputs_version): the game's
tip is stored with a mark of the rows it saw; the next tick reads only the rows after them, when one query shows
those unchanged, and the game whole otherwise. Whichever way they are read, the inputs are `load_game`'s and the
tick's fold is the whole fold: an old post edited (C-11), marked deleted at a deadline (C-11), a post stored late
but stamped before the tip (C-13), or facts recorded on a PM all make the tick read the game whole."""

from __future__ import annotations

from datetime import timedelta

import pytest
from daemon_world import STEPS, pg_database, play, world  # noqa: F401  (world, pg_database: fixtures)
from sqlalchemy import select

from forumbot.forum.adapter import ForumPost
from forumbot.game import run
from forumbot.store.checkpoints import load_marked_tip
from forumbot.store.models import ForumRow, GameRow, InputRow
from forumbot.store.records import mark_deleted, store_posts
from forumbot.store.inputs import InputsChanged, Mark, StoredInputs, load_inputs
from forumbot.store.game import load_game


def _game(w):  # type: ignore[no-untyped-def]
    with w.daemon.sessions.begin() as session:
        return session.scalar(select(GameRow.id)), session.scalar(select(ForumRow.id))


def _read(w, game_id):  # type: ignore[no-untyped-def]
    """What the next tick reads: the stored tip, its mark, and the inputs from them."""
    with w.daemon.sessions.begin() as session:
        tip, mark, _ = load_marked_tip(session, game_id)
    setup, inputs, commands = load_inputs(w.daemon.sessions, w.config, game_id, tip, Mark.loads(mark))
    with w.daemon.sessions.begin() as session:
        whole = load_game(session, w.config, game_id)
    return tip, inputs, commands, whole


def _played(w):  # type: ignore[no-untyped-def]
    play(w)
    w.now = STEPS[-1][0] + timedelta(minutes=5)
    w.post("vote", "М3", "М4")  # Day 2: a vote the next tick reads
    w.tick()
    return _game(w)


def _stored_vote(w, forum_id, author: str, text: str) -> None:  # type: ignore[no-untyped-def]
    """A vote as a tick's reading stores it (the next fold's new input)."""
    w.now += timedelta(minutes=5)
    post = ForumPost(id=f"v-{author}-{w.now:%H%M}", topic="g1/vote", author=author, author_id=None,
                     posted_at=w.now - timedelta(seconds=30), edited_at=None, edit_count=0, text=text, html=text)
    with w.daemon.sessions.begin() as session:
        assert store_posts(session, forum_id, [post], w.now, "g1/vote")


def test_issue19_a_tick_reads_only_the_rows_after_its_tip(world):  # noqa: F811
    game_id, forum_id = _played(world)
    _stored_vote(world, forum_id, "М4", "М3")
    tip, inputs, _, (setup, whole, commands) = _read(world, game_id)
    assert tip is not None and inputs.checked and inputs.start == tip.seen
    assert [i.text for i in inputs[tip.seen:]] == ["М3"]  # the one vote stored since (`post` sends it 30 s ago)
    assert list(inputs) == whole  # the rows the tip saw, read only now, are load_game's
    assert run(setup, inputs, world.now) == run(setup, whole, world.now)


def test_issue19_a_tick_after_one_vote_folds_from_the_tip_without_reading_the_game(world, monkeypatch):  # noqa: F811
    """The tick itself: one new vote is read alone, the rows the tip saw are not read, and the game the tick
    announced is the whole fold's."""
    game_id, _ = _played(world)
    world.now += timedelta(minutes=5)
    world.post("vote", "М4", "М3")
    read = []
    real = StoredInputs._every
    monkeypatch.setattr(StoredInputs, "_every", lambda self: read.append(1) or real(self))
    world.tick()
    assert not read
    with world.daemon.sessions.begin() as session:
        setup, inputs, _ = load_game(session, world.config, game_id)
        tip, mark, _ = load_marked_tip(session, game_id)
    assert tip is not None and tip.seen == len(inputs) and Mark.loads(mark) is not None
    _, again, _, _ = _read(world, game_id)
    assert again.checked and len(again) == len(inputs) and list(again) == inputs


@pytest.mark.parametrize("change", ["edited", "deleted", "late", "facts"])
def test_issue19_C11_C13_a_changed_or_late_row_makes_the_tick_read_the_game_whole(world, change):  # noqa: F811
    game_id, forum_id = _played(world)
    with world.daemon.sessions.begin() as session:
        tip, _, _ = load_marked_tip(session, game_id)
        first = session.scalar(select(InputRow).where(InputRow.topic == "g1/vote").order_by(InputRow.id).limit(1))
        old = ForumPost(topic="g1/vote", id=first.item_id, author=first.author, author_id=first.author_id,
                        posted_at=first.posted_at, edited_at=None, edit_count=0, text=first.text, html=first.html)
        if change == "edited":  # C-11: the text now differs, the first text stays
            assert store_posts(session, forum_id, [_with(old, text="М2", edit_count=1)], world.now, "g1/vote")
        elif change == "deleted":  # C-11: gone at a deadline's re-read
            assert mark_deleted(session, forum_id, "g1/vote", [first.item_id], world.now)
        elif change == "late":  # C-13: stored now, stamped before the tip's until (a moderated post approved)
            late = _with(old, id="late-1", author="М5", text="М6", posted_at=tip.until - timedelta(hours=3))
            assert store_posts(session, forum_id, [late], world.now, "g1/vote")
        else:  # what the daemon learnt of a PM (tick_bookkeeping.check_accounts)
            pm = session.scalar(select(InputRow).where(InputRow.kind == "pm").order_by(InputRow.id).limit(1))
            pm.facts = '{"missing_accounts": []}'
    _, inputs, _, (_, whole, _) = _read(world, game_id)
    assert not inputs.checked and list(inputs) == whole
    # the tick reads the game whole and stores a tip marked anew: the next one reads only what is new again
    world.now += timedelta(minutes=5)
    world.post("vote", "М4", "М3")
    world.tick()
    _stored_vote(world, forum_id, "М6", "М3")
    _, inputs, _, (setup, whole, _) = _read(world, game_id)
    assert inputs.checked and [i.author for i in inputs[inputs.start:]] == ["М6"] and list(inputs) == whole


def _with(post: ForumPost, **changes) -> ForumPost:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    return replace(post, **changes)


def test_issue19_a_row_the_tip_saw_changed_during_the_tick_is_caught_when_read(world):  # noqa: F811
    """Another tick edits a row the tip saw between this tick's check and its reading of those rows (a deadline's
    checkpoint): InputsChanged, and the tick reads the game whole (tick._fold)."""
    game_id, forum_id = _played(world)
    _stored_vote(world, forum_id, "М4", "М3")
    _, inputs, _, _ = _read(world, game_id)
    assert inputs.checked
    with world.daemon.sessions.begin() as session:
        row = session.scalar(select(InputRow).where(InputRow.topic == "g1/vote").order_by(InputRow.id).limit(1))
        row.text = "М2"  # an edit as store_posts records it (the version grows)
    with pytest.raises(InputsChanged):
        list(inputs)
    whole = inputs.whole()
    assert isinstance(whole, StoredInputs) and not whole.checked
    with world.daemon.sessions.begin() as session:
        assert list(whole) == load_game(session, world.config, game_id)[1]
    assert any(i.text == "М2" and i.first_text is not None for i in whole)


def test_issue19_the_version_grows_at_every_write_of_a_row(world):  # noqa: F811
    game_id, forum_id = _played(world)
    with world.daemon.sessions.begin() as session:
        row = session.scalar(select(InputRow).order_by(InputRow.id).limit(1))
        assert row.version == 1
        row.text = row.text + "!"
    with world.daemon.sessions.begin() as session:
        row = session.scalar(select(InputRow).order_by(InputRow.id).limit(1))
        assert row.version == 2


def test_issue19_C9_a_gm_command_a_dead_tick_folded_is_logged_by_the_next(world, monkeypatch):  # noqa: F811
    """A tick that folded a GM command and stored its tip, then died before its bookkeeping: the next tick reads
    only what is new since that tip (not the command), and still logs the override once (C-9); and since that
    tip's messages were never put in the outbox (its row is not marked enqueued), the answer to the command is
    queued and sent by the next tick."""
    from daemon_world import GM, Crash

    from forumbot.cycle import tick as tick_module
    from forumbot.store.models import OverrideRow

    play(world, upto=len(STEPS) - 2)
    world.now = STEPS[-1][0]
    world.pm(GM, "статус")
    real = tick_module.sync_game

    def die(*args):  # type: ignore[no-untyped-def]
        raise Crash("after the fold")

    monkeypatch.setattr(tick_module, "sync_game", die)
    with pytest.raises(Crash):
        world.tick()
    with world.daemon.sessions.begin() as session:
        assert load_marked_tip(session, game_id := _game(world)[0])[2] is False
    monkeypatch.setattr(tick_module, "sync_game", real)
    world.restart()
    world.now += timedelta(minutes=1)
    world.tick()
    world.now += timedelta(minutes=1)
    world.post("vote", "М3", "М4")
    world.tick()  # its tip is marked enqueued
    with world.daemon.sessions.begin() as session:
        logged = list(session.scalars(select(OverrideRow.command)))
        assert load_marked_tip(session, game_id)[2] is True
    assert logged.count("статус") == 1
    assert any(to == GM and "Дон" in text for to, text, _ in world.bot_pms())  # the status, roles and all


def test_issue19_a_tick_matches_only_the_messages_its_tip_had_not_queued(world):  # noqa: F811
    """`enqueue` given the keys the tip's tick queued (its row marked enqueued) looks up only the others."""
    from sqlalchemy import event

    from forumbot.model import Message, Where
    from forumbot.outbox.store import enqueue
    from forumbot.store.models import OutboxRow

    game_id, _ = _played(world)
    with world.daemon.sessions.begin() as session:
        tip, _, enqueued = load_marked_tip(session, game_id)
        keys = set(session.scalars(select(OutboxRow.key).where(OutboxRow.game_id == game_id)))
    assert tip is not None and enqueued
    sent = {m.key for m in tip.state.messages if m.at <= tip.until}
    assert sent <= keys
    new = Message(world.now, Where.GAME, None, "текст", "test/new")
    statements = []
    engine = world.daemon.sessions.kw["bind"]
    listen = lambda conn, cursor, sql, params, *rest: statements.append((sql, str(params)))  # noqa: E731
    event.listen(engine, "before_cursor_execute", listen)
    try:
        with world.daemon.sessions.begin() as session:
            old = next(m for m in tip.state.messages if m.key in sent)
            assert enqueue(session, game_id, "g1", [old, new], "core", stored=sent) == 1
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    looked_up = [params for sql, params in statements if sql.lstrip().startswith("SELECT") and "outbox" in sql]
    assert len(looked_up) == 1 and "test/new" in looked_up[0] and old.key not in looked_up[0]


def test_issue19_a_gm_command_checked_by_its_tick_leaves_the_tip_usable(world):  # noqa: F811
    """The tick records what it learnt of a GM PM (its facts: the row's version grows) before folding it: the tip
    it stores is marked with that version, so the next tick still reads only what is new."""
    from daemon_world import GM

    game_id, forum_id = _played(world)
    world.now += timedelta(minutes=5)
    world.pm(GM, "статус")
    world.tick()
    with world.daemon.sessions.begin() as session:
        facts = session.scalar(select(InputRow.facts).where(InputRow.kind == "pm").order_by(InputRow.id.desc()))
    assert facts == "{}"
    _stored_vote(world, forum_id, "М6", "М3")
    _, inputs, _, (_, whole, _) = _read(world, game_id)
    assert inputs.checked and [i.author for i in inputs[inputs.start:]] == ["М6"] and list(inputs) == whole


def test_issue19_C11_on_postgresql_a_tick_reads_only_what_is_new_and_an_edit_reads_the_game_whole(
        tmp_path, pg_database):  # noqa: F811
    """The same on PostgreSQL (the mark's query, the version's bump, the rows after the tip)."""
    from daemon_world import World

    w = World(tmp_path, database=pg_database)
    try:
        game_id, forum_id = _played(w)
        _stored_vote(w, forum_id, "М4", "М3")
        tip, inputs, _, (_, whole, _) = _read(w, game_id)
        assert inputs.checked and [i.author for i in inputs[inputs.start:]] == ["М4"] and list(inputs) == whole
        with w.daemon.sessions.begin() as session:
            row = session.scalar(select(InputRow).where(InputRow.topic == "g1/vote").order_by(InputRow.id).limit(1))
            row.text = "М2"
        _, inputs, _, (_, whole, _) = _read(w, game_id)
        assert not inputs.checked and list(inputs) == whole
    finally:
        w.close()
