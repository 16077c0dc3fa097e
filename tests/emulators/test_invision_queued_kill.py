"""A `forumbot tick` killed right after Invision took a post into its moderation queue (issue 18, item 3's
SIGKILL with the queue): IPS 4 answers a queued reply as a published one and shows the author his own queued
comment (`ipsModerated`, tests/emulators/invision.py), so the next tick's recovery finds the post. The players
cannot see it: it must be recorded as a fresh PostQueued is (the row "queued", the GMs told once, the `game
status` outbox line), never counted sent nor posted again."""

from __future__ import annotations

import re

import pytest

from emugame import GAME_TOPIC, ROLES, EmuBoard, EmuGame
from invision import Invision

BOT, PASSWORD = "GM_Bot", "пароль-бота"


@pytest.mark.xdist_group("emulator_invision")
def test_a_queued_post_found_after_a_sigkill_is_queued_not_sent(tmp_path):
    emu = Invision(BOT, PASSWORD)
    emu.flood = {k: 0.0 for k in emu.flood}
    with emu:
        board = EmuBoard(emu, "invision", "topic/{}-x/", PASSWORD, "messenger/compose/")
        game = EmuGame(board, tmp_path, "g1", "moscow", ROLES, {"post": 0, "pm": 0})
        emu.moderated.add(BOT)  # the bot's new comments go to the moderation queue
        game.tick_killed_on(f"topic/{GAME_TOPIC}-", 1)  # Setup's opening post: taken into the queue, then SIGKILL
        (held,) = emu.posts_by(BOT, GAME_TOPIC)
        assert held.id in emu.pending and "Игра начинается" in held.text
        summary = game.tick()
        assert [p.id for p in emu.posts_by(BOT, GAME_TOPIC)] == [held.id], "the queued post was posted again"
        notices = [m for m in emu.pms_from(BOT) if board.gm in m.to and "проверку модератором" in m.text]
        assert len(notices) == 1 and "Игра начинается" in notices[0].text, summary
        assert held.id in emu.pending and held.id not in [p.id for p in emu.shown(GAME_TOPIC, "Маша")]
        status = game.cli("game", "status", "g1").stdout
        outbox = next(ln for ln in status.splitlines() if ln.startswith("очередь сообщений:"))
        assert re.search(r"ждут разбора 1\b", outbox) and "в отправке" not in outbox, status
        assert "ждут модератора: 1" in summary, summary
        game.tick()  # nothing sent again, the notice not repeated
        assert [p.id for p in emu.posts_by(BOT, GAME_TOPIC)] == [held.id]
        assert len([m for m in emu.pms_from(BOT) if "проверку модератором" in m.text]) == 1
