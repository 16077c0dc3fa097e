"""M-15 on XenForo: the mafia's conference is one conversation the bot starts with every member (`recipients`
takes a comma-separated list, §12); the members' messages in it reach the bot as PMs written to it and others
(`ForumPM.shared`, told by the list row naming more than one other participant), a conversation of the bot and one
player is not; the closing message goes into the same conversation. Against the emulator, in every mode, and
through the REST API."""

from __future__ import annotations

import pytest
from test_xenforo_adapter import adapter
from xfsupport import BOT, make_board

from adapters.xenforo.api import SCOPES, XenforoApiForum
from forumbot.errors import FormRejected
from forumbot.forum.adapter import CONFERENCE, can
from xfemu import Emulator

SUBJECT = "Мафия 1"
MAFIA = "Дон, Маф1, Кот Баюн"


def test_m15_a_message_in_the_mafia_conversation_is_shared_one_to_the_bot_alone_is_not(xf, clock):
    bot = adapter(xf, clock)
    conference = bot.send_pm(MAFIA, SUBJECT, "Конференция мафии: Дон, Маф1, Кот Баюн")
    role = bot.send_pm("Дон", SUBJECT, "Ваша роль: дон мафии.")
    assert {m for m in xf.board.conversations[int(conference)].members} == {BOT, "Дон", "Маф1", "Кот Баюн"}
    xf.board.add_message(int(conference), "Маф1", "Маяк: ник жирным.")
    xf.board.add_message(int(role), "Дон", "подтверждаю")
    xf.board.start_conversation("Шериф", [BOT], "Ход", "проверка Дон")
    xf.board.start_conversation("Кот Баюн", [BOT, "Шериф"], "Вопрос", "когда день?")  # a player's to two
    pms, _ = bot.fetch_pms()
    assert sorted((p.author, p.text, p.shared) for p in pms) == [
        ("Дон", "подтверждаю", False), ("Кот Баюн", "когда день?", True),
        ("Маф1", "Маяк: ник жирным.", True), ("Шериф", "проверка Дон", False)]
    assert can(bot, CONFERENCE)


def test_m15_the_closing_message_goes_into_the_conference_itself(xf22, clock):
    """Day 1: the bot's PM to the same members and subject is a reply in the conversation they talk in (no new
    conversation, no 180 s start flood); a new process whose session was lost finds it from the list its cycle's
    inbox read shows."""
    bot = adapter(xf22, clock)
    conference = bot.send_pm(MAFIA, SUBJECT, "Конференция мафии")
    xf22.board.add_message(int(conference), "Дон", "сигнал: смайлик")
    fresh = adapter(xf22, clock)
    fresh.fetch_pms()
    assert fresh.send_pm("Кот Баюн, Дон, Маф1", SUBJECT, "Конференция закрыта") == conference
    texts = [xf22.board.messages[m].text for m in xf22.board.conversations[int(conference)].messages]
    assert texts == ["Конференция мафии", "сигнал: смайлик", "Конференция закрыта"]
    assert len(xf22.board.conversations_of("Дон")) == 1


def test_m15_a_replacement_gets_a_conversation_of_the_members_as_they_are(xf22, clock):
    """C-9 before Day 1 (as phpBB and MyBB do): the bot cannot add a member to its conversation through the
    adapter, so the members as they are now get a new one, and the close goes there."""
    bot = adapter(xf22, clock)
    first = bot.send_pm("Дон, Маф1", SUBJECT, "Конференция мафии")
    second = bot.send_pm("Дон, Кот Баюн", SUBJECT, "Конференция мафии (замена)")
    assert second != first
    assert bot.send_pm("Дон, Кот Баюн", SUBJECT, "Конференция закрыта") == second


def test_m15_api_a_message_in_the_mafia_conversation_is_shared(clock):
    board = make_board(clock)
    board.api_keys["k"] = (BOT, frozenset(SCOPES))
    with Emulator(board) as xf:
        bot = XenforoApiForum(xf.base_url, BOT, "k", clock=clock, sleep=clock.sleep)
        conference = bot.send_pm(MAFIA, SUBJECT, "Конференция мафии")
        xf.board.add_message(int(conference), "Маф1", "Маяк")
        xf.board.start_conversation("Шериф", [BOT], "Ход", "проверка Дон")
        pms, _ = bot.fetch_pms()
        assert sorted((p.author, p.shared) for p in pms) == [("Маф1", True), ("Шериф", False)]
        assert can(bot, CONFERENCE)


def test_m15_the_bot_locks_the_conference_it_closed_and_no_one_replies_in_it_after(xf, clock):
    """XF lets the starter lock a conversation (actionEdit's conversation_locked); a locked one takes no reply,
    the starter's neither. A process whose session was lost finds the conversation from the list."""
    bot = adapter(xf, clock)
    conference = bot.send_pm(MAFIA, SUBJECT, "Конференция мафии")
    bot.send_pm(MAFIA, SUBJECT, "Конференция закрыта")
    adapter(xf, clock).close_conversation(MAFIA, SUBJECT)
    c = xf.board.conversations[int(conference)]
    assert not c.conversation_open and c.title == SUBJECT
    bot.close_conversation(MAFIA, SUBJECT)  # done again: no error
    assert bot.send_pm(MAFIA, SUBJECT, "ещё") != conference  # the reply refused: a new conversation
    with pytest.raises(FormRejected, match="no conversation"):
        bot.close_conversation("Шериф, Маф1", SUBJECT)


def test_m15_api_the_bot_locks_the_conference_it_closed(clock):
    """The REST API's way: `POST conversations/{id}` with conversation_open 0 (its starter may); a new process
    finds the conversation in the list (the bot's, titled so, with those recipients)."""
    board = make_board(clock)
    board.api_keys["k"] = (BOT, frozenset(SCOPES))
    with Emulator(board) as xf:
        bot = XenforoApiForum(xf.base_url, BOT, "k", clock=clock, sleep=clock.sleep)
        conference = bot.send_pm(MAFIA, SUBJECT, "Конференция мафии")
        bot.send_pm("Дон", SUBJECT, "Ваша роль: дон мафии.")
        XenforoApiForum(xf.base_url, BOT, "k", clock=clock, sleep=clock.sleep).close_conversation(MAFIA, SUBJECT)
        assert not board.conversations[int(conference)].conversation_open
        assert [c.conversation_open for c in board.conversations.values()] == [False, True]
        assert bot.send_pm(MAFIA, SUBJECT, "ещё") != conference  # the reply refused: a new conversation
