"""M-15: where the adapter can lock a conversation (CLOSE_CONVERSATION: XenForo), the mafia's conference is locked
after the PM that closes it when Day 1 opens, once; a lock the forum refuses is told to the GMs once and the game
goes on; an adapter without the ability gets no lock at all (phpBB and MyBB PMs have none)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from daemon_world import BOT, GM, STARTED, T0, World, game_toml
from sqlalchemy import select

from adapters.memory.forum import MemoryForum
from forumbot.errors import FormRejected
from forumbot.forum.adapter import CLOSE_CONVERSATION
from forumbot.store.models import OutboxRow

CONVERSATION = game_toml("g1") + '\n[games.g1.options]\nconference = "conversation"\n'
MAFIA = "Дон, Маф1, Маф2"


@dataclass
class LockingForum(MemoryForum):
    """The memory forum with the ability XenForo's adapter has: it records each lock, or refuses it."""

    CAPABILITIES = MemoryForum.CAPABILITIES | {CLOSE_CONVERSATION}

    refuse: str = ""
    closed: list[tuple[str, str]] = field(default_factory=list)

    def close_conversation(self, to: str, subject: str) -> None:
        self._call(f"close_conversation {to}")
        if self.refuse:
            raise FormRejected(self.refuse)
        self.closed.append((to, subject))


def world(tmp_path, forum: MemoryForum) -> World:  # type: ignore[no-untyped-def]
    w = World(tmp_path, games=CONVERSATION, forum=forum)
    forum.clock = lambda: w.now
    return w


def to_day_1(w: World) -> None:
    w.start()
    w.now = STARTED + timedelta(minutes=1)
    w.tick()
    w.now = T0 + timedelta(minutes=1)
    w.tick()


def close_rows(w: World) -> dict[str, str]:
    with w.daemon.sessions.begin() as s:
        return {r.key: r.status for r in s.scalars(select(OutboxRow).where(OutboxRow.where == "lock"))}


def test_m15_the_conference_is_locked_after_the_pm_that_closes_it_once(tmp_path) -> None:
    forum = LockingForum(bot=BOT)
    w = world(tmp_path, forum)
    try:
        to_day_1(w)
        assert [to for to, _ in forum.closed] == [MAFIA]
        closing = max(i for i, c in enumerate(forum.calls) if c == f"send_pm {MAFIA}")
        assert forum.calls.index(f"close_conversation {MAFIA}") > closing  # told first, then locked
        assert any(t.startswith("Конференция закрыта") for to, t, _ in w.bot_pms() if to == MAFIA)
        w.now += timedelta(hours=1)
        w.tick()
        assert len(forum.closed) == 1 and close_rows(w) == {"close/conference": "sent"}
    finally:
        w.close()


def test_m15_a_refused_conference_lock_is_told_to_the_gms_once_and_the_game_goes_on(tmp_path) -> None:
    w = world(tmp_path, LockingForum(bot=BOT, refuse="you do not have permission"))
    try:
        to_day_1(w)
        notices = [t for to, t, _ in w.bot_pms() if to == GM and "M-15" in t]
        assert len(notices) == 1 and "Форум не дал боту закрыть от ответов переписку мафии" in notices[0]
        assert "you do not have permission" in notices[0]
        assert close_rows(w) == {"close/conference": "refused"}
        assert any("день 1" in t.casefold() for _, t, _ in w.bot_posts("g1/game"))
    finally:
        w.close()


def test_m15_an_adapter_that_cannot_lock_a_conversation_gets_no_lock(tmp_path) -> None:
    w = world(tmp_path, MemoryForum(bot=BOT))
    try:
        to_day_1(w)
        assert any(t.startswith("Конференция закрыта") for to, t, _ in w.bot_pms() if to == MAFIA)
        assert close_rows(w) == {}
    finally:
        w.close()


def test_m15_a_replacements_conversation_and_the_one_it_left_behind_are_both_locked(tmp_path) -> None:
    """C-9 before Day 1: the members as they are get a new conversation (the close goes there); the first one,
    which the replaced player still sees, is locked too."""
    forum = LockingForum(bot=BOT)
    w = world(tmp_path, forum)
    try:
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        w.tick()
        w.now = STARTED + timedelta(hours=1)
        w.pm(GM, "замена Маф2 Новичок")
        w.tick()
        assert "Дон, Маф1, Новичок" in [to for to, _, _ in w.bot_pms()]
        w.now = T0 + timedelta(minutes=1)
        w.tick()
        assert sorted(to for to, _ in forum.closed) == ["Дон, Маф1, Маф2", "Дон, Маф1, Новичок"]
        assert any(t.startswith("Конференция закрыта") for to, t, _ in w.bot_pms() if to == "Дон, Маф1, Новичок")
    finally:
        w.close()
