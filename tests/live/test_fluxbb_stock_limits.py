"""FluxBB at its stock flood limits (POST_FLOOD 30: 30 s between two posts of a Member and, on a timer of its own,
between two PMs; issue 9): the bot, told no intervals, paces itself by the adapter's profile (the board's real rule),
so a night's end (its result post, then the Sheriff's and the Don's check results by PM) goes out in one tick with
no refusal from the board, and nothing is lost or sent twice.

A 7-player Moscow cast (R-10: a Don, a mafioso, a Sheriff, four civilians) keeps Setup's role PMs (7 x 30 s) in one
tick. The phases end by the GM's `конец-фазы` PMs, each folded by the next tick (the bot's account shows seconds,
conftest.EXACT_TIMES; C-1, C-9).
"""

from __future__ import annotations

import time

import pytest

from livegame import LiveGame

pytestmark = pytest.mark.live

ROLES = {"Маша": "sheriff", "Lucky_Strike": "don", "Шарик": "mafia"}
FLOOD = 30.0  # the board's stock g_post_flood, which the adapter's profile holds too


def test_a_night_result_and_its_check_pms_in_one_tick_at_stock_limits(fluxbb_stock_board, tmp_path):
    t0 = time.monotonic()
    board = fluxbb_stock_board
    assert float(board.env["POST_FLOOD"]) == FLOOD, "this scenario is about the stock limit"
    gm, sheriff, don = board.member(board.gm), board.member("Маша"), board.member("Lucky_Strike")
    game = LiveGame(board, tmp_path, "g1", "moscow", ROLES, {},
                    options="cast = { mafia = 1, don = 1, sheriff = 1 }")

    game.tick()  # the player list and 7 role PMs, 30 s apart
    for name in board.players:
        assert any("Ваша роль:" in m.text for m in board.member(name).pms_from(board.bot)), f"{name}: no role PM"
    game.end_phase(gm)
    game.tick()
    assert "Наступил день 1" in game.game_text(gm)
    game.end_phase(gm)  # a day without votes: nobody leaves, night 1
    game.tick()
    assert "Наступила ночь 1" in game.game_text(gm)

    sheriff.pm(board.bot, "g1", "проверка Lucky_Strike")
    don.pm(board.bot, "g1", "проверка Маша")
    game.tick()
    assert any("Принято: проверка. Цель — Lucky_Strike." in m.text for m in sheriff.pms_from(board.bot))
    assert any("Принято: проверка. Цель — Маша." in m.text for m in don.pms_from(board.bot))

    game.end_phase(gm)
    started = time.monotonic()
    out = game.tick()
    took = time.monotonic() - started
    assert "Итоги ночи 1." in game.game_text(gm)
    checks = {member.name: [m.text for m in member.pms_from(board.bot) if "Результат проверки" in m.text]
              for member in (sheriff, don)}
    assert checks["Маша"] == [c for c in checks["Маша"] if "Lucky_Strike — мафия" in c] != [], checks
    assert checks["Lucky_Strike"] == [c for c in checks["Lucky_Strike"] if "Маша — шериф" in c] != [], checks
    # the post and the first PM (the GM's "Выполнено") go at once (two timers); each check PM waits out the PM
    # timer, within the tick
    assert took >= 2 * FLOOD, f"three PMs within {took:.0f} s: not paced by the board's {FLOOD:.0f} s"
    assert "refused as too soon" not in out, f"the board refused a send: the bot did not pace itself: {out}"
    game.assert_each_once(gm, [gm, *(board.member(n) for n in board.players)])
    game.assert_outbox_drained()
    print(f"\nFluxBB stock limits: {time.monotonic() - t0:.0f} s; the night's end tick took {took:.0f} s")
