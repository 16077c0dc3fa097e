"""The database restored from a copy taken two ticks earlier (issue 26 item 5): the next tick finds on the forum
what the bot already said since that copy and sends none of it again (the night result, the death PM, both check
results, the acknowledgements); what it never sent goes out once. C-12 (each message once) on the memory forum,
through the daemon's cycles, SQLite and PostgreSQL; and on a forum whose thread pages show the unread-PM count
(phpBB, MyBB), where a restored tick would otherwise skip the inbox whose PMs the bot has already read."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Callable

import pytest
from daemon_world import BOT, GM, STEPS, T0, World, pg_database  # noqa: F401  (fixture)
from sqlalchemy import create_engine, select, text

from adapters.flaskbb.forum import FlaskbbForum
from adapters.invision.forum import InvisionForum
from adapters.mybb.forum import MybbForum
from adapters.mybbru.forum import MybbruForum
from adapters.phpbb.forum import PhpbbForum
from adapters.punbb.forum import PunbbForum
from adapters.smf.forum import SmfForum
from adapters.vbulletin.forum import VbulletinForum
from adapters.xenforo.forum import XenforoForum
from forumbot.forum.adapter import UNREAD_PMS
from forumbot.cli.main import main
from forumbot.outbox.restore import loses_read_pms
from forumbot.store.models import OutboxRow

Steps = list[tuple]

# The case: copied once Day 1 is resolved; then the night's moves (acknowledged by PM) and its result (a
# post, the death PM, the check results); put back; then a GM's `статус`, never answered before the restore.
NIGHT_BY_DEADLINE = (STEPS, 3, 6)


def _nothing(w: World) -> None:
    pass


def _gm_ends_the_day(w: World) -> None:
    w.pm(GM, "конец-фазы")


# A GM closes Day 1 by PM after the copy, the night's moves follow, all within the half hour the inbox may go
# unread: the restored database knows no deadline due, so a tick that trusts the pages' unread-PM count (0: the
# bot read every PM before the restore) would leave the inbox unread, and send it all again once it reads it.
AFTER_VOTES = STEPS[2][0]
DAY_CLOSED_BY_GM = (STEPS[:3] + [(AFTER_VOTES + timedelta(minutes=10), _gm_ends_the_day),
                                 (AFTER_VOTES + timedelta(minutes=20), STEPS[4][1]),
                                 (AFTER_VOTES + timedelta(minutes=25), _nothing),
                                 (AFTER_VOTES + timedelta(minutes=40), _nothing)], 2, 5)


class UnreadShown:
    """The memory forum as phpBB and MyBB show it to the bot: every thread page read carries the header's
    unread-PM count (adapters/html/inbox.py reads it there), and a PM is unread until an inbox read returns it."""

    shows_unread_pms = True

    def __init__(self, forum) -> None:  # type: ignore[no-untyped-def]
        self._forum = forum
        self._read: set[str] = set()
        self._shown: list[int] = []

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        if name == "CAPABILITIES":
            return self._forum.CAPABILITIES | {UNREAD_PMS}
        return getattr(self._forum, name)

    def fetch_posts(self, topic: str, after: str | None = None):  # type: ignore[no-untyped-def]
        found = self._forum.fetch_posts(topic, after)
        self._shown.append(sum(1 for p in self._forum.pms if p.to == BOT and p.pm.id not in self._read))
        return found

    def fetch_pms(self, after: str | None = None):  # type: ignore[no-untyped-def]
        pms, cursor = self._forum.fetch_pms(after)
        self._read.update(pm.id for pm in pms)
        return pms, cursor

    def unread_pms_shown(self) -> int | None:
        shown, self._shown = self._shown, []
        return max(shown) if shown else None


def _world(root: Path, unread_shown: bool, database: str = "") -> World:
    w = World(root, database=database)
    if unread_shown:
        w.forum = UnreadShown(w.forum)  # the daemons' factory hands out `w.forum` as it is when they open it
    return w


def _outbox(w: World) -> list[tuple[str, str]]:
    with w.daemon.sessions.begin() as session:
        return sorted((key, status) for key, status in session.execute(select(OutboxRow.key, OutboxRow.status)))


def _play(w: World, steps: Steps, copy_after: int | None = None, restore_before: int | None = None,
          take_copy: Callable[[], None] = lambda: None, put_back: Callable[[], None] = lambda: None
          ) -> list[list[tuple[str, str]]]:
    """Play the steps, a tick after each; return the outbox (key, status) after each tick."""
    w.start()
    outboxes = []
    for i, (at, act) in enumerate(steps):
        if i == restore_before:
            w.daemon.close()
            put_back()
            w.restart()
        w.now = at
        act(w)
        w.tick()
        outboxes.append(_outbox(w))
        if i == copy_after:
            take_copy()
    return outboxes


def _reference(root: Path, steps: Steps, unread_shown: bool) -> tuple[tuple[list, list], list]:
    """The forum and the outboxes after the same game and ticks with no restore."""
    w = _world(root, unread_shown)
    outboxes = _play(w, steps)
    state = w.state()
    w.close()
    return state, outboxes


def _copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite database (sqlite3's backup API, as `sqlite3 DB .backup FILE` makes it)."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    with dst:
        src.backup(dst)
    src.close()
    dst.close()


def _same_forum_as_reference(w: World, reference: tuple[list, list]) -> None:
    posts, pms = w.state()
    ref_posts, ref_pms = reference
    assert [t for _, t, _ in posts] == [t for _, t, _ in ref_posts]  # no post twice, none missing
    assert sorted((to, t) for to, t, _ in pms) == sorted((to, t) for to, t, _ in ref_pms)
    with w.daemon.sessions.begin() as session:
        statuses = set(session.scalars(select(OutboxRow.status)))
    assert statuses == {"sent"}  # nothing owed, nothing left uncertain


@pytest.mark.parametrize("case, unread_shown", [(NIGHT_BY_DEADLINE, False), (DAY_CLOSED_BY_GM, True)],
                         ids=["night-result-and-checks", "day-closed-by-gm-unread-count-shown"])
def test_a_restored_sqlite_database_sends_nothing_twice(tmp_path, case, unread_shown):
    steps, copy_after, restore_before = case
    reference, reference_outboxes = _reference(tmp_path / "reference", steps, unread_shown)
    w = _world(tmp_path / "restored", unread_shown)
    database, copy = w.root / "forumbot.db", tmp_path / "copy.db"
    outboxes = _play(w, steps, copy_after, restore_before, lambda: _copy_sqlite(database, copy),
                     lambda: _copy_sqlite(copy, database))
    # the tick after the restore already knows, and has recorded as sent, all the forum holds: it read the PMs
    # again (the GM's `конец-фазы`, the night's moves) and found the posts and PMs that answered them
    assert outboxes[restore_before] == reference_outboxes[restore_before]
    _same_forum_as_reference(w, reference)
    w.close()


# Copied once Night 1 is open; since then the bot has only acknowledged the night's moves by PM, which no post in
# the threads shows: the operator says so with `forumbot db restored` (deploy/README.md).
ONLY_PMS_SINCE = (STEPS, 3, 5)


def test_a_restore_after_which_the_bot_sent_only_pms(tmp_path, capsys):
    """Without `db restored` the acknowledgements go out twice here (checked when this test was written): the
    tick has nothing on the forum to see the restore by."""
    steps, copy_after, restore_before = ONLY_PMS_SINCE
    reference, _ = _reference(tmp_path / "reference", steps, False)
    w = _world(tmp_path / "restored", False)
    database, copy = w.root / "forumbot.db", tmp_path / "copy.db"

    def put_back() -> None:
        _copy_sqlite(copy, database)
        assert main(["db", "restored", "-c", str(w.config_path)]) == 0
        assert "идущих игр отмечено как восстановленные из копии: 1 (g1);" in capsys.readouterr().out

    _play(w, steps, copy_after, restore_before, lambda: _copy_sqlite(database, copy), put_back)
    _same_forum_as_reference(w, reference)
    w.close()


def test_a_restored_postgresql_database_sends_nothing_twice(tmp_path, pg_database):
    steps, copy_after, restore_before = NIGHT_BY_DEADLINE
    reference, reference_outboxes = _reference(tmp_path / "reference", steps, False)
    w = _world(tmp_path / "restored", False, database=pg_database)
    admin = create_engine(pg_database.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    name = pg_database.rsplit("/", 1)[1]
    copy = name + "_copy"

    def take_copy() -> None:
        w.daemon.close()  # CREATE DATABASE ... TEMPLATE wants no other session on its template
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{copy}" TEMPLATE "{name}"'))
        w.restart()

    def put_back() -> None:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            c.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{copy}"'))
            c.execute(text(f'DROP DATABASE "{copy}"'))

    try:
        outboxes = _play(w, steps, copy_after, restore_before, take_copy, put_back)
        assert outboxes[restore_before] == reference_outboxes[restore_before]
        _same_forum_as_reference(w, reference)
    finally:
        w.close()
        admin.dispose()


def test_an_earlier_game_of_another_database_in_the_same_threads_is_no_restore(tmp_path):
    """The bot's posts from before this game's start (a game played in these threads from another database, as
    the live boards' tests do) carry markers this outbox never held: no sign of a restore, and no look-up."""
    w = _world(tmp_path, False)
    w.now = STEPS[0][0]
    w.post("game", BOT, "Игра окончена: победа города!\n\n#fb:0123abcd", ago=timedelta(hours=30))
    w.post("vote", BOT, "Итоговый подсчёт голосов\n\n#fb:4567cdef", ago=timedelta(hours=30))
    w.now = STEPS[0][0] - timedelta(minutes=1)
    w.start()
    w.now = STEPS[0][0]
    w.forum.calls.clear()
    w.tick()
    assert not [c for c in w.forum.calls if c.startswith("find_own")]
    assert w.bot_posts("g1/game")[-1][1].startswith("[b]Игра начинается")
    w.close()


class DeletesReadPms:
    """The memory forum as an adapter that deletes the PMs it has read (adapters/html/inbox.py, `delete_read_pms`,
    the default): after a restore the PMs read since the copy are no longer in the inbox."""

    deletes_pms = delete_read_pms = True

    def __init__(self, forum) -> None:  # type: ignore[no-untyped-def]
        self._forum = forum

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self._forum, name)


def _lost_pms_notices(w: World) -> list[str]:
    return [text for to, text, _ in w.bot_pms() if to == GM and text.startswith("База данных бота восстановлена")]


@pytest.mark.parametrize("case", [NIGHT_BY_DEADLINE, ONLY_PMS_SINCE], ids=["seen-in-the-threads", "db-restored"])
def test_a_restore_where_read_pms_are_deleted_is_told_to_the_gm_once(tmp_path, case):
    """delete_read_pms: the PMs read since the copy are gone, so the GM is told once that the commands and night
    moves since then are lost, however the restore was noted (an own post in the threads, `forumbot db restored`);
    nothing else changes (C-12: each message once)."""
    steps, copy_after, restore_before = case
    w = _world(tmp_path, False)
    w.forum = DeletesReadPms(w.forum)
    database, copy = w.root / "forumbot.db", tmp_path / "copy.db"

    def put_back() -> None:
        _copy_sqlite(copy, database)
        if case is ONLY_PMS_SINCE:
            assert main(["db", "restored", "-c", str(w.config_path)]) == 0

    _play(w, steps, copy_after, restore_before, lambda: _copy_sqlite(database, copy), put_back)
    notices = _lost_pms_notices(w)
    assert len(notices) == 1, notices
    assert "delete_read_pms = true" in notices[0] and "ещё раз" in notices[0]
    w.close()


def test_no_restore_no_lost_pms_notice(tmp_path):
    w = _world(tmp_path, False)
    w.forum = DeletesReadPms(w.forum)
    _play(w, NIGHT_BY_DEADLINE[0])
    assert _lost_pms_notices(w) == []
    w.close()


def test_only_the_engines_that_delete_read_pms_lose_them_on_a_restore():
    """phpBB, MyBB, SMF and vBulletin delete the PMs they have read (unless delete_read_pms = false); mybb.ru,
    FluxBB, FlaskBB, Invision and XenForo never delete, so a restored database reads them again: no notice."""
    deleting = {PhpbbForum, MybbForum, SmfForum, VbulletinForum}
    for adapter_class in deleting | {MybbruForum, PunbbForum, FlaskbbForum, InvisionForum, XenforoForum}:
        adapter = adapter_class("http://forum.invalid/", BOT, "secret")
        assert loses_read_pms(adapter) is (adapter_class in deleting), adapter_class.__name__
    assert not loses_read_pms(PhpbbForum("http://forum.invalid/", BOT, "secret", delete_read_pms=False))
