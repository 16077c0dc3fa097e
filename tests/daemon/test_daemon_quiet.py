"""A 20-game tick over the memory forum with no new input does no write to the database but C-14's record of each
game's read (issue 3, "Done means" 6; issue 30 item 4): quiet cycles every few minutes must not churn the disk, and
the quiet games' reads move the ends of their open spans of successful reads in one UPDATE. Nor does it load or
fold a quiet game: at most 3 statements a game (issue 27 item 7, forumbot/cycle/quiet.py)."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import STARTED, World, game_toml
from sqlalchemy import event, select

from forumbot.store.models import ReadSpanRow
from forumbot.store.records import INBOX, forum_id, get_cursor, set_cursor, store_pms

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")


def test_a_quiet_tick_over_20_games_writes_nothing(tmp_path):
    names = [f"g{i:02d}" for i in range(20)]
    # distinct players per game, so each game's PMs are its own
    w = World(tmp_path, games="".join(game_toml(n, prefix=f"{n}_") for n in names))
    for name in names:
        w.start(name)
    w.now = STARTED + timedelta(minutes=1)
    w.tick()  # Setup: 20 player lists and 200 role PMs go out
    assert len(w.bot_pms()) == 200
    w.forum.add_pm("g03_М1", "подтверждаю", w.now)  # an input: this tick must write
    w.now += timedelta(minutes=1)
    w.tick()

    statements: list[str] = []
    event.listen(w.daemon.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: statements.append(statement))
    w.now += timedelta(minutes=5)
    report = w.tick()
    assert [g.state for g in report.games] == ["done"] * 20
    writes = [s for s in statements if s.lstrip().upper().startswith(WRITES)]
    spans = [s for s in writes if s.lstrip().upper().startswith("UPDATE READ_SPANS SET LAST_AT")]
    assert len(spans) == 1 and writes == spans, writes  # C-14: one statement for the 20 games, no row added
    assert len(statements) <= 3 * 20, statements  # issue 27 item 7: no game loaded nor folded
    with w.daemon.sessions.begin() as session:  # C-14: every game's read is recorded all the same
        ends = list(session.execute(select(ReadSpanRow.game_id, ReadSpanRow.last_at, ReadSpanRow.ok)))
    assert len(ends) == 20 and {(at, ok) for _, at, ok in ends} == {(w.now, True)}


def test_a_quiet_game_still_resolves_its_deadline(tmp_path):
    """A deadline coming is not "nothing new" (C-11, C-14): the tick at it folds the game although no input came."""
    w = World(tmp_path, games=game_toml("g1"))
    w.start("g1")
    w.now = STARTED + timedelta(minutes=1)
    w.tick()
    w.now += timedelta(minutes=1)
    w.tick()
    w.now += timedelta(minutes=1)
    assert w.tick().games[0].phase == "setup"  # quiet
    w.now = STARTED + timedelta(days=2)  # past Setup's deadline: Day 1 opens with no new input
    assert w.tick().games[0].phase.startswith("day")


def test_a_pm_another_process_stores_after_a_games_fold_is_not_in_its_mark(tmp_path):
    """Another tick of the forum (cron starting one while this one runs) may read the inbox while this tick's later
    games are played: a PM it stores after a game's fold was not in that fold, so that game is left no mark and its
    next tick folds the PM (the player's confirmation is answered)."""
    w = World(tmp_path, games=game_toml("g1", prefix="a_") + game_toml("g2", prefix="b_"))
    for name in ("g1", "g2"):
        w.start(name)
    for minutes in (1, 2, 3):
        w.now = STARTED + timedelta(minutes=minutes)
        w.tick()
    w.now += timedelta(minutes=1)
    w.post("game", "a_М1", "Всем привет", game="g1")
    pms = len(w.bot_pms())
    stored: list[int] = []

    def other_process_reads_the_inbox(point: str) -> None:  # after g1's fold, before the forum's end
        if point == "after_outbox" and not stored:
            w.pm("a_М1", "подтверждаю")
            with w.daemon.sessions.begin() as session:
                forum = forum_id(session, "main", "memory")
                found, cursor = w.forum.fetch_pms(after=get_cursor(session, forum, INBOX))
                stored.append(store_pms(session, forum, found, w.now))
                set_cursor(session, forum, INBOX, cursor)

    w.tick(other_process_reads_the_inbox)
    assert stored == [1] and len(w.bot_pms()) == pms
    w.now += timedelta(minutes=1)
    w.tick()
    assert [to for to, _, _ in w.bot_pms()[pms:]] == ["a_М1"]
    w.close()
