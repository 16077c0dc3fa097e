"""Issue 28 item 6 on the XenForo emulator (HTML, not the API) through `forumbot tick` processes: a GM's `замена`
to an account the board does not have was announced in the game thread («Замена: место игрока Маша занимает
Новичок»), then the role PM to nobody failed and the GM got an English error. The account is looked up before
anything is announced (members/find, as the conversation form's recipients box asks): the GM gets the refusal in
his language, the thread and the seats stay as they were. A replacement by an account the board has goes on."""

from __future__ import annotations

import pytest
from xfgame import GM, FileClock, XfGame, season_board

from xfemu import Emulator

pytestmark = [pytest.mark.live, pytest.mark.xdist_group("xenforo_games")]

START = 1_800_000_000.0
ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia"}
REFUSED = "Команда не выполнена: на форуме нет такого аккаунта: «Новичок»."


def seats_of(game: XfGame) -> list[str]:
    """`game status` but for the outbox's count (the refusal is one PM more)."""
    return [line for line in game.cli("game", "status", "g1").stdout.splitlines() if not line.startswith("очередь сообщений")]


def test_issue28_item6_a_replacement_by_an_account_the_board_lacks_is_refused_before_it_is_announced(tmp_path):
    clock = FileClock(tmp_path / "clock", START)
    with Emulator(season_board(clock, "2.2")) as xf:
        xf.board.member("Запасной")
        game = XfGame(tmp_path, xf, clock)
        game.add_game("g1", ROLES)
        game.tick()  # Setup: the opening post and the role conversations
        game.pm(GM, "конец-фазы", "g1: 1")
        game.tick()
        assert "Наступил день 1" in game.game_text()
        seats = seats_of(game)

        game.pm(GM, "замена Маша Новичок", "g1: 2")
        game.tick()
        assert "Новичок" not in game.game_text()
        said = "\n".join(game.bot_pms_to(GM))
        assert REFUSED in said, said[-1500:]
        assert "outbox" not in said and "[b]" not in said
        assert not xf.board.conversations_of("Новичок")
        assert seats_of(game) == seats

        game.pm(GM, "замена Маша Запасной", "g1: 3")
        game.tick()
        assert "Замена: место игрока Маша занимает Запасной." in game.game_text()
        assert any("Ваша роль: шериф." in t for t in game.bot_pms_to("Запасной"))
        game.assert_each_once()
