"""C-14 through the daemon on the memory forum, on the test's clock: each tick's reads of a game's threads are
recorded durably as spans of ticks with one outcome (`read_spans`, SQLite and PostgreSQL), failed ones too; a tick loop stopped for longer than the
grace before a Free Hunt deadline, or a forum failing for that long, waives the no-show autokill (H-5) with the
gap named in the result post and one PM to the GMs; the export carries the reads, so replay sends the same bytes."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from sqlalchemy import event
from daemon_world import GM, STARTED, T0, World, game_toml, pg_database  # noqa: F401  (fixture)
from sqlalchemy import select, text

from forumbot import replay
from forumbot.errors import ForumUnavailable
from forumbot.games.export import export_game
from forumbot.store import open_engine, session_factory, upgrade
from forumbot.store.game import fold_game
from forumbot.model import ReadSpan
from forumbot.store.models import GameRow, OutboxRow, ReadSpanRow
from forumbot.store.reads import read_spans, record_read

HUNT = [("Ф1", "mafia"), ("Ф2", "mafia"), ("Ф3", "mafia"), ("Док", "doctor"), ("Ман", "maniac")] + [
    (f"Г{i}", "civilian") for i in range(1, 8)]
DEADLINE = T0 + timedelta(hours=4)  # 4-hour days
M = timedelta(minutes=1)


def _world(tmp_path) -> World:
    games = game_toml("g1", HUNT).replace('variant = "moscow"', 'variant = "free_hunt"') + \
        "day_hours = 4\nnight_hours = 2\n"
    w = World(tmp_path, games=games)
    w.start()
    w.now = STARTED + M
    w.tick()
    w.now = STARTED + timedelta(hours=2)
    for nick, _ in HUNT:
        w.pm(nick, "подтверждаю")
    w.tick()
    w.now = T0 + M
    w.tick()  # Day 1 opens, until T0 + 4 h
    voters = [n for n, _ in HUNT if n != "Г6"]  # Г6 never votes: H-5 autokills him at a watched deadline
    w.now = T0 + 30 * M
    for i, v in enumerate(voters):
        w.post("vote", v, voters[(i + 1) % len(voters)])  # a ring: an all-way tie, nobody hanged (H-6)
    return w


def _tick_every(w: World, until: datetime, every: timedelta = 10 * M) -> None:
    while w.now + every <= until:
        w.now += every
        w.tick()


def _result(w: World) -> str:
    return next(text for _, text, _ in w.bot_posts("g1/game") if "Итоги дня 1" in text)


def _sent(w: World) -> list[tuple]:
    with w.daemon.sessions.begin() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.status == "sent", OutboxRow.origin == "core")
                               .order_by(OutboxRow.due_at, OutboxRow.id))
        return [(r.due_at, r.where, r.to, r.text) for r in rows]


def _replays_to_what_was_sent(w: World) -> dict:
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
    result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
    assert [(m.at, str(m.where), m.to, m.text) for m in result.messages] == _sent(w)
    assert replay.to_json(result)["result"] == replay.to_json(fold_game(w.daemon.sessions, w.config, "g1",
                                                                        w.now))["result"]
    return transcript


def _alive(w: World, nick: str) -> bool:
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    return next(p.alive for p in run.result.players if p.nick == nick)


def test_c14_h5_a_tick_loop_stopped_longer_than_the_grace_before_the_deadline_waives_the_autokill(tmp_path):
    w = _world(tmp_path)
    _tick_every(w, DEADLINE - 60 * M)  # the last tick before the stop: 13:00 MSK
    w.now = DEADLINE + 2 * M  # no tick for an hour: the bot is back two minutes after the deadline
    w.tick()
    assert _alive(w, "Г6")
    assert ("Автокилл за неявку не применяется: бот не мог читать форум с 01.12 13:00 до 01.12 14:02 (МСК)."
            in _result(w))
    to_gm = [text for to, text, _ in w.bot_pms() if to == GM and "подведён после сбоя" in text]
    assert len(to_gm) == 1 and "с 01.12 13:00 до 01.12 14:02 (МСК)" in to_gm[0]
    transcript = _replays_to_what_was_sent(w)
    spans = _spans(transcript)
    assert [s for s in spans if s.ok and s.last == DEADLINE - 60 * M]  # the last tick before the stop ...
    assert [s for s in spans if s.ok and s.first == DEADLINE + 2 * M]  # ... and the one after it, apart
    assert not [s for s in spans if DEADLINE - 60 * M < s.last and s.first < DEADLINE + 2 * M]
    w.close()


def _spans(transcript: dict) -> list[ReadSpan]:
    return [ReadSpan(datetime.fromisoformat(r["first"]), datetime.fromisoformat(r["last"]), r["ok"])
            for r in transcript["reads"]]


def test_c14_h5_a_bot_stopped_long_before_the_window_names_its_real_last_read(tmp_path):
    """C-14: every tick is recorded, so a tick loop stopped three hours before the deadline (before the grace
    ahead of the two-hour window) is named from its last read, 11:00 MSK, not from where the window is watched
    from (11:30): the players are told the real outage."""
    w = _world(tmp_path)
    _tick_every(w, DEADLINE - 3 * 60 * M)  # the last tick before the stop: 11:00 MSK
    w.now = DEADLINE + 2 * M
    w.tick()
    assert _alive(w, "Г6")
    assert ("Автокилл за неявку не применяется: бот не мог читать форум с 01.12 11:00 до 01.12 14:02 (МСК)."
            in _result(w))
    to_gm = [text for to, text, _ in w.bot_pms() if to == GM and "подведён после сбоя" in text]
    assert len(to_gm) == 1 and "с 01.12 11:00 до 01.12 14:02 (МСК)" in to_gm[0]
    _replays_to_what_was_sent(w)
    w.close()


def test_c14_a_quiet_tick_writes_its_read_in_one_statement(tmp_path):
    """C-14 records every tick, and a quiet tick must stay cheap (issue 27 item 7): it moves the open span's end
    with one UPDATE and adds no row; a tick after more than the grace without one opens a new span."""
    w = _world(tmp_path)
    _tick_every(w, T0 + 60 * M)
    with w.daemon.sessions.begin() as session:
        game_id = session.scalar(select(GameRow.id))
        before = read_spans(session, game_id)
    seen: list[str] = []
    engine = w.daemon.sessions.kw["bind"]

    def count(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if "read_spans" in statement and not statement.lstrip().upper().startswith("SELECT"):
            seen.append(statement.split()[0].upper())  # the writes (the fold reads the spans as it read the rows)

    event.listen(engine, "before_cursor_execute", count)
    w.now += 10 * M
    w.tick()
    event.remove(engine, "before_cursor_execute", count)
    assert seen == ["UPDATE"]
    with w.daemon.sessions.begin() as session:
        after = read_spans(session, game_id)
    assert after == (*before[:-1], ReadSpan(before[-1].first, w.now, True))
    w.now += 31 * M  # the grace is 30 minutes
    w.tick()
    with w.daemon.sessions.begin() as session:
        assert read_spans(session, game_id)[-2:] == (after[-1], ReadSpan(w.now, w.now, True))
    w.close()


def test_c14_h5_the_same_game_watched_to_the_deadline_autokills_as_before(tmp_path):
    w = _world(tmp_path)
    _tick_every(w, DEADLINE + 2 * M)
    assert not _alive(w, "Г6")
    assert "Автокилл за неявку" not in _result(w)
    assert not [text for to, text, _ in w.bot_pms() if "подведён после сбоя" in text]
    _replays_to_what_was_sent(w)
    w.close()


def test_c14_reads_the_forum_failed_are_recorded_and_disturb_the_deadline(tmp_path, monkeypatch):
    """The ticks run on but the forum answers 503 to every thread read for 50 minutes before the deadline: each
    failed read is recorded (the rows stay, the tick stops before the fold) and the deadline is disturbed."""
    w = _world(tmp_path)
    _tick_every(w, DEADLINE - 50 * M)
    fetch = w.forum.fetch_posts

    def down(topic, after=None):  # type: ignore[no-untyped-def]
        raise ForumUnavailable("HTTP 503 Service Unavailable")

    monkeypatch.setattr(w.forum, "fetch_posts", down)
    _tick_every(w, DEADLINE)
    monkeypatch.setattr(w.forum, "fetch_posts", fetch)
    w.now = DEADLINE + M
    w.tick()
    with w.daemon.sessions.begin() as session:  # five failed ticks, 10 minutes apart: one span
        failed = session.scalars(select(ReadSpanRow).where(ReadSpanRow.ok.is_(False))).all()
        assert [(r.first_at, r.last_at) for r in failed] == [(DEADLINE - 40 * M, DEADLINE)]
        assert (failed[0].error or "").startswith("game: ") and "503" in (failed[0].error or "")
    assert _alive(w, "Г6")
    assert "бот не мог читать форум с 01.12 13:10 до 01.12 14:01 (МСК)." in _result(w)
    _replays_to_what_was_sent(w)
    w.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def sessions(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}" if request.param == "sqlite" else request.getfixturevalue(
        "pg_database")
    engine = open_engine(url)
    upgrade(engine)
    yield session_factory(engine)
    engine.dispose()


def test_c14_the_store_keeps_spans_of_ticks_with_one_outcome(sessions):
    """SQLite and PostgreSQL: a tick like the one before and within the grace moves the span's end; a failed
    tick, a successful one after it, or one after a longer pause opens a new span; another game's spans are not
    this game's."""
    grace = 30 * M
    with sessions.begin() as session:
        games = []
        for name in ("g1", "g2"):
            game = GameRow(name=name, forum_id=_forum(session), status="running", mode="live", setup_json="{}", seed=1,
                        commitment="0" * 64,
                        started_at=STARTED)
            session.add(game)
            session.flush()
            games.append(game.id)
        g1, g2 = games
        for at, error in ((T0, None), (T0 + 10 * M, None), (T0 + 20 * M, "vote: HTTP 503"), (T0 + 30 * M, "forum: x"),
                          (T0 + 40 * M, None), (T0 + 80 * M, None)):
            record_read(session, g1, at, grace, error)
            session.flush()
        record_read(session, g2, T0 + 5 * M, grace, "game: timeout")
    with sessions.begin() as session:
        assert read_spans(session, g1) == (ReadSpan(T0, T0 + 10 * M, True), ReadSpan(T0 + 20 * M, T0 + 30 * M, False),
                                           ReadSpan(T0 + 40 * M, T0 + 40 * M, True),
                                           ReadSpan(T0 + 80 * M, T0 + 80 * M, True))
        assert read_spans(session, g2) == (ReadSpan(T0 + 5 * M, T0 + 5 * M, False),)
        row = session.scalars(select(ReadSpanRow).where(ReadSpanRow.game_id == g1, ReadSpanRow.ok.is_(False))).one()
        assert row.error == "vote: HTTP 503"  # what the forum answered when the span began


def _forum(session) -> int:  # type: ignore[no-untyped-def]
    from forumbot.store.records import forum_id
    return forum_id(session, "main", "memory")


def test_c14_a_tick_that_cannot_log_in_records_a_failed_read_for_each_game(tmp_path, monkeypatch):
    """No login: no thread of the forum's games is read this tick, and the record says so ("forum: …")."""
    w = _world(tmp_path)

    def refused() -> None:
        raise ForumUnavailable("HTTP 502 Bad Gateway")

    w.now = T0 + 40 * M
    w.restart()  # a new process logs in again
    monkeypatch.setattr(w.forum, "login", refused)
    w.tick()
    with w.daemon.sessions.begin() as session:
        rows = session.scalars(select(ReadSpanRow).where(ReadSpanRow.first_at == w.now)).all()
        assert [r.ok for r in rows] == [False] and (rows[0].error or "").startswith("forum: ")
        assert "502" in (rows[0].error or "")
    w.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def engine_at_0010(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}" if request.param == "sqlite" else request.getfixturevalue(
        "pg_database")
    engine = open_engine(url)
    upgrade(engine, "0010_checkpoints_json")
    yield engine
    engine.dispose()


def test_c14_migration_0011_turns_each_recorded_tick_into_a_span_of_its_own(engine_at_0010):
    """The per-thread rows of 0009 become one span per tick, failed when any thread failed then (its errors
    kept, naming the thread), so the fold judges an old game's deadlines exactly as it did; the downgrade gives
    the ticks back as rows."""
    from alembic import command

    from forumbot.store.schema import alembic_config

    with session_factory(engine_at_0010).begin() as session:
        game = GameRow(name="g1", forum_id=_forum(session), status="running", mode="live", setup_json="{}", seed=1,
                       commitment="0" * 64, started_at=STARTED)
        session.add(game)
        session.flush()
        game_id = game.id
    stamp = lambda at: at.astimezone(T0.tzinfo).replace(tzinfo=None) - T0.utcoffset()  # noqa: E731  # naive UTC
    with engine_at_0010.begin() as c:
        for at, thread, ok, error in ((T0, "game", True, None), (T0, "vote", True, None),
                                      (T0 + 10 * M, "game", True, None), (T0 + 10 * M, "vote", False, "HTTP 503"),
                                      (T0 + 20 * M, "forum", False, "login")):
            c.execute(text("INSERT INTO thread_reads (game_id, thread, read_at, ok, error) VALUES (:g, :t, :at, :ok, :e)"),
                      {"g": game_id, "t": thread, "at": stamp(at), "ok": ok, "e": error})
    upgrade(engine_at_0010)
    sessions = session_factory(engine_at_0010)
    with sessions.begin() as session:
        assert read_spans(session, game_id) == (ReadSpan(T0, T0, True), ReadSpan(T0 + 10 * M, T0 + 10 * M, False),
                                                ReadSpan(T0 + 20 * M, T0 + 20 * M, False))
        errors = session.scalars(select(ReadSpanRow.error).order_by(ReadSpanRow.first_at)).all()
        assert errors == [None, "vote: HTTP 503", "forum: login"]
        record_read(session, game_id, T0 + 30 * M, 30 * M)  # the daemon records on after the upgrade
    command.downgrade(alembic_config(engine_at_0010), "0010_checkpoints_json")
    with engine_at_0010.connect() as c:
        rows = c.execute(text("SELECT read_at, ok FROM thread_reads ORDER BY read_at")).all()
    assert [(stamp(T0 + k * M), ok) for k, ok in ((0, True), (10, False), (20, False), (30, True))] == \
        [(datetime.fromisoformat(str(r[0])), bool(r[1])) for r in rows]  # SQLite answers text
