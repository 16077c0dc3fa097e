"""C-11 on the XenForo emulator through `forumbot tick` processes (issue 26 item 3): a moderator deletes the first
vote post of Day 1, soft ("Remove from public view": its link answers 403) or hard ("Permanently delete": 404).
The re-read at the deadline, or at a GM's `конец-фазы`, starts at the next vote post still there: only the
deleted vote is void (named in the final count), the others count (M-7, M-8) and the Don, with the most
votes, leaves (M-9). On today's main every tick from the deadline on exited 3 on the deleted post's link and
Day 1 stayed unresolved."""

from __future__ import annotations

import pytest
from xfgame import GM, FileClock, XfGame, season_board

from xfemu import Emulator

pytestmark = [pytest.mark.live, pytest.mark.xdist_group("xenforo_games")]

START = 1_800_000_000.0
ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia"}
HOUR = 3600


@pytest.mark.parametrize("hard, close", [(True, "deadline"), (False, "конец-фазы")])
def test_C11_issue26_item3_the_first_vote_post_deleted_on_xenforo(tmp_path, hard, close):
    clock = FileClock(tmp_path / "clock", START)
    with Emulator(season_board(clock, "2.2")) as xf:
        game = XfGame(tmp_path, xf, clock)
        game.add_game("g1", ROLES)
        game.tick()  # Setup: the opening post and the role conversations
        game.pm(GM, "конец-фазы", "g1: 1")
        game.tick()
        assert "Наступил день 1" in game.game_text()

        game.vote("Lucky_Strike", "Маша")  # the day's first vote post: deleted below
        first = xf.board.threads[game.vote_tid].posts[-1]
        for name in ("Маша", "Дядя Фёдор", "ёжик", "Печкин 2000", "Незнайка"):
            game.vote(name, "Кот Баюн")
        game.vote("Кот Баюн", "Маша")
        game.tick()  # the votes stored
        clock.advance(HOUR)
        xf.board.delete_post(first, hard=hard)
        game.tick()
        if close == "deadline":
            clock.advance(48 * HOUR)
        else:
            game.pm(GM, "конец-фазы", "g1: 2")
        game.tick()

        text = game.game_text()
        assert "Наступила ночь 1" in text, text[-1500:]
        final = text[text.index("Итоговый подсчёт голосов (день 1)"):]
        assert "Не засчитано: Lucky_Strike «Маша» — сообщение удалено из темы." in final
        assert "Кот Баюн — 5" in final, final
        assert "никто не уходит" not in final
        assert "По итогам голосования игру покидает Кот Баюн." in final
        game.assert_each_once()
