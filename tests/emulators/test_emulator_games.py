"""Whole Moscow games through real `forumbot tick` processes against each engine's emulator (issue 18 item 3):
vBulletin 3.8 and 4.2, Invision 4, mybb.ru. Setup's delivery is cut by a SIGKILL of the `forumbot tick` process
the moment the board has taken the third role PM (before the answer leaves: the PM is out, the process never
learns it); the next tick finds it on the board and sends the rest. Every bot post and PM once (by its marker),
one login for the whole game, the outbox drained, and an idle tick's requests reported (and no login in it). The emulators' flood timers are off here (the bot
is told so), as the live boards lower theirs: at the stock 30-60 s a Setup's ten role PMs alone would take
minutes, and the suite's budget is a few seconds a tick; the stock timers are tested in test_*_emulated.py. vBulletin shows times with seconds here (its `timeformat` set to H:i:s, a board setting), so the
GM's commands are folded without waiting for a minute's end."""

from __future__ import annotations

import time

import pytest

from emugame import ROLES, EmuBoard, EmuGame, play_moscow
from invision import Invision
from mybbru import Mybbru
from vbulletin import VBulletin

BOT, PASSWORD = "GM_Bot", "пароль-бота"


def _vb(version: str):
    emu = VBulletin(BOT, PASSWORD, version=version, seconds=True)
    return emu, "vbulletin", "showthread.php?t={}", "private.php?do=insertpm"


# emulator, engine, topic path, what the path of the POST sending a PM holds (the SIGKILL point)
CASES = {
    "vbulletin-3.8": lambda: _vb("3.8"),
    "vbulletin-4.2": lambda: _vb("4.2"),
    # friendly URLs off: only index.php answers, every route through index.php?/ (issue 28 item 3); one game
    # covers both, the adapter's flows with rewrite on are tested in test_invision_emulated.py and
    # test_invision_queued_kill.py (a second whole game would cost the suite another minute and a half)
    "invision": lambda: (Invision(BOT, PASSWORD, rewrite=False), "invision", "topic/{}-x/", "messenger/compose/"),
    "mybbru": lambda: (Mybbru(BOT, PASSWORD), "mybbru", "viewtopic.php?id={}", "messages.php?action=new"),
}


@pytest.mark.parametrize("case", [
    pytest.param(case, marks=pytest.mark.xdist_group(f"emulator_{case.split('-')[0]}")) for case in CASES])
def test_a_moscow_game_on_the_emulator(case, tmp_path):
    t0 = time.monotonic()
    emu, engine, topic, pm_send = CASES[case]()
    emu.flood = {k: 0.0 for k in emu.flood}
    with emu:
        board = EmuBoard(emu, engine, topic, PASSWORD, pm_send)
        if isinstance(emu, Invision):
            board.base_url = emu.link("")  # the board's own base: index.php?/ without rewrite
        game = EmuGame(board, tmp_path, "g1", "moscow", ROLES, {"post": 0, "pm": 0})
        measured = play_moscow(board, game)
    print(f"\n{case} Moscow game: {time.monotonic() - t0:.0f} s, {measured['posts']} bot posts, {measured['pms']} "
          f"bot PMs, idle tick {measured['idle_requests']} requests; log: {game.log}")
    assert measured["idle_requests"] <= 4
