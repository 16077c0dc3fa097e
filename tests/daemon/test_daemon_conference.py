"""M-15's conversation through the daemon: the bot's one PM to all the mafia at Setup, and the members' replies to
it (PMs written to the bot and others, `ForumPM.shared`) stored apart and never read as a move or a command."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from daemon_world import World, game_toml
from forumbot.store import InputRow

CONVERSATION = game_toml("g1") + '\n[games.g1.options]\nconference = "conversation"\n'


def test_m15_the_mafia_get_one_pm_together_and_their_replies_to_it_are_no_moves(tmp_path) -> None:
    w = World(tmp_path, games=CONVERSATION)
    try:
        w.start()
        w.tick()
        together = [(to, text) for to, text, _ in w.bot_pms() if "," in to]
        assert [to for to, _ in together] == ["Дон, Маф1, Маф2"]
        assert "Конференция мафии: " in together[0][1]
        before = len(w.bot_pms())
        w.now += timedelta(minutes=10)
        w.forum.add_pm("Маф1", "роль", w.now - timedelta(seconds=30), shared=True)
        w.tick()
        assert len(w.bot_pms()) == before, "a reply in the conversation was answered as a PM to the bot"
        w.now += timedelta(minutes=10)
        w.pm("Маф1", "роль")
        w.tick()
        assert len(w.bot_pms()) == before + 1  # the same word to the bot alone is read, and answered (C-15)
        with w.daemon.sessions() as s:
            kinds = sorted(s.scalars(select(InputRow.kind).where(InputRow.author == "Маф1")))
        assert kinds == ["conv", "pm"]
    finally:
        w.close()
