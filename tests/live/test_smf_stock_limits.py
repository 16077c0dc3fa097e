"""The bot on an SMF 2.1.4 board with SMF's stock limits (issue 9 "Done means"): spamWaitTime 5 s, one timer for
posts and one for PMs, per IP; 20 PMs an hour for a Regular Member such as the bot.

A short Moscow game: Setup (10 role PMs, nobody confirms), an empty Day 1, and a night in which the Sheriff and
the Don check. The tick that ends the night sends the result post and, in the same tick, the two check results
and the GM's acknowledgement by PM: the bot spaces its PMs by the board's rule (the profile's 5 s plus a margin,
as SMF lets go of an entry only when it is older than the limit in whole seconds), so the board refuses none of
its sends, and nothing is lost. The whole game stays under the hourly limit (18 PMs).
"""

from __future__ import annotations

import re
import time

import pytest

from boards import SERVED
from livegame import LiveGame

pytestmark = pytest.mark.live

ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia", "Шарик": "mafia"}


def served_lines(board) -> list[bytes]:  # type: ignore[no-untyped-def]
    with open(board.dir / "run" / "php.log", "rb") as f:
        return [line for line in f if SERVED.search(line)]


def test_a_night_result_and_its_check_pms_in_one_tick_under_stock_limits(smf_stock_board, tmp_path):
    t0 = time.monotonic()
    board = smf_stock_board
    assert board.env["SPAM_WAIT"] == "5"
    gm = board.member(board.gm)
    sheriff, don = board.member("Маша"), board.member("Кот Баюн")
    game = LiveGame(board, tmp_path, "g1", "moscow", ROLES, {})  # the profile's own SMF limits

    game.tick()
    assert all(any("Ваша роль:" in m.text for m in board.member(n).pms_from(board.bot)) for n in board.players)
    game.end_phase(gm)
    game.tick()
    assert "Наступил день 1" in game.game_text(gm)
    game.end_phase(gm)
    game.tick()
    assert "Наступила ночь 1" in game.game_text(gm)
    sheriff.pm(board.bot, "g1", "проверяю Lucky_Strike")
    don.pm(board.bot, "g1", "проверка Маша")
    game.tick()
    game.end_phase(gm)
    time.sleep(6.0)  # the members' own sends share the IP's timers: the tick below starts with both free

    before = len(served_lines(board))
    started = time.monotonic()
    game.tick()
    took = time.monotonic() - started
    during = served_lines(board)[before:]
    sends = [ln for ln in during if re.search(rb"\]: POST /index\.php\?action=(?:post2|pm;sa=send2)", ln)]
    refused = [ln for ln in sends if b"[403]" in ln]
    assert not refused, f"the board refused sends as floods: {refused}"
    pm_sends = [ln for ln in sends if b"send2" in ln]
    assert len(pm_sends) >= 3 and len(sends) > len(pm_sends), sends  # the result post, then >= 3 PMs
    assert took >= 5.0 * (len(pm_sends) - 1), f"{len(pm_sends)} PMs in {took:.1f} s: faster than SMF allows"

    night = game.game_text(gm).split("Итоги ночи 1.", 1)[1]
    assert "Наступил день 2" in night, night[:500]
    assert any("Результат проверки: Lucky_Strike — мафия." in m.text for m in sheriff.pms_from(board.bot))  # M-3
    assert any("Результат проверки: Маша — шериф." in m.text for m in don.pms_from(board.bot))  # M-4
    members = [gm, *(board.member(n) for n in board.players)]
    posts, pms = game.assert_each_once(gm, members)
    game.assert_outbox_drained()
    print(f"\nSMF stock limits: {time.monotonic() - t0:.0f} s; the night's tick: {len(sends)} sends "
          f"({len(pm_sends)} PMs) in {took:.1f} s, none refused; {posts} bot posts, {pms} bot PMs")
