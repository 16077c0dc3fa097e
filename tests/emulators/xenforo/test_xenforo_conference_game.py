"""M-15 through the daemon's cycle on the XenForo emulator, a game with `conference = "conversation"` on a forum
whose engine is xenforo: at Setup the bot starts one conversation with the Don and both mafiosi; what they write
in it reaches the bot as messages written to it and others, stored apart (kind `conv`), never a move nor a
command, and nothing is answered; when Day 1 opens the closing words are a reply in that same conversation, which
the bot then locks (its starter may: Conversation::actionEdit's conversation_locked)."""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "daemon"))
from daemon_world import BOT, CAST, STARTED, T0  # noqa: E402
from test_xenforo_daemon import XfWorld  # noqa: E402

from forumbot.config.conference import conference_of  # noqa: E402
from forumbot.config.load import load_config  # noqa: E402
from forumbot.store import InputRow  # noqa: E402
from xfemu.state import fold  # noqa: E402

MAFIA = {"Дон", "Маф1", "Маф2"}


def conference_world(tmp_path: Path) -> XfWorld:
    """XfWorld's game with the option, on a forum configured as xenforo (the option's check asks the engine)."""
    w = XfWorld(tmp_path)
    text = w.config_path.read_text(encoding="utf-8").replace(
        'engine = "memory"', f'engine = "xenforo"\nbase_url = "{w.emulator.base_url}"', 1)
    w.config_path.write_text(text + '\n[games.g1.options]\nconference = "conversation"\n', encoding="utf-8")
    w.config = load_config(w.config_path)
    w.restart()
    return w


def members(w: XfWorld, c) -> set[str]:  # type: ignore[no-untyped-def]
    return {m for m in c.members if fold(m) != fold(BOT)}


def test_m15_xenforo_the_mafia_talk_in_one_conversation_that_the_bot_closes_and_locks_at_day_1(tmp_path):
    w = conference_world(tmp_path)
    try:
        assert conference_of(w.config, w.config.games["g1"]) == "conversation"
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        w.tick()
        (conference,) = [c for c in w.board.conversations.values() if c.starter == BOT and len(c.members) > 2]
        assert members(w, conference) == MAFIA
        assert w.board.messages[conference.messages[0]].text.startswith("Конференция мафии: ")

        w.now = STARTED + timedelta(hours=2)
        at = (w.now - timedelta(minutes=1)).timestamp()
        w.board.add_message(conference.id, "Маф1", "роль", at)  # a question the bot answers in a PM to it alone
        w.board.add_message(conference.id, "Дон", "дон Маф2", at)  # M-1's nomination counts only in a PM to the bot
        for nick, _ in CAST:  # each confirms in his own role conversation
            (own,) = [c for c in w.board.conversations_of(nick) if c.starter == BOT and members(w, c) == {nick}]
            w.board.add_message(own.id, nick, "подтверждаю", at)
        sent = len([m for m in w.board.messages.values() if m.author == BOT])
        w.tick()
        assert [w.board.messages[m].author for m in conference.messages] == [BOT, "Маф1", "Дон"], "answered in it"
        confirmations = len([m for m in w.board.messages.values() if m.author == BOT]) - sent
        assert confirmations == len(CAST)  # the role confirmations, and nothing for the conference's words
        with w.daemon.sessions() as s:
            rows = s.execute(select(InputRow.author, InputRow.kind).where(InputRow.author.in_(("Маф1", "Дон"))))
            assert sorted(tuple(r) for r in rows) == [("Дон", "conv"), ("Дон", "pm"), ("Маф1", "conv"), ("Маф1", "pm")]

        w.now = T0 + timedelta(minutes=1)
        w.tick()
        closing = w.board.messages[conference.messages[-1]]
        assert closing.author == BOT and closing.text.startswith("Конференция закрыта: дальше мафия не общается.")
        mafia_conversations = [c for c in w.board.conversations.values() if members(w, c) == MAFIA]
        assert mafia_conversations == [conference]  # the close is a reply in it, not a new conversation
        assert not conference.conversation_open  # then locked: the mafia can write no more in it (XF's canReply)
    finally:
        w.close()
