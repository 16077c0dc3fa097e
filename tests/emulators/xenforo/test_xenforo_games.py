"""Issue 18 item 3 (XenForo): a season of two Moscow games on the XenForo emulator (2.3 mode, plain index.php?
URLs: direct-messages/, 180 s between new conversations) through real `forumbot tick` processes, one of them
killed (as by SIGKILL) mid-delivery of Setup's role PMs. Asserted: every bot post and PM on the board once (by
its marker); the players' answers inside their role conversations read (confirmations, the night's shot); the
second game's PMs in conversations of its own; an idle tick's requests (reported, and at most 2: the two
threads' last pages, whose conversations_unread stands for the inbox). Also: a wrong password costs one login
POST over two ticks, not one a tick (XF locks the account out)."""

from __future__ import annotations

import pytest
from xfgame import BOT, GM, PLAYERS, RU_ROLE, FileClock, XfGame, season_board

from xfemu import Emulator

pytestmark = [pytest.mark.live, pytest.mark.xdist_group("xenforo_games")]

START = 1_800_000_000.0
ROLES_1 = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia"}
ROLES_2 = {"Дядя Фёдор": "sheriff", "ёжик": "don", "Незнайка": "mafia"}


def end_phase(game: XfGame, name: str, n: int) -> None:
    game.pm(GM, "конец-фазы", f"{name}: {n}")


def test_a_season_of_two_games_with_a_killed_tick_on_xenforo_2_3(tmp_path, capsys):
    clock = FileClock(tmp_path / "clock", START)
    with Emulator(season_board(clock, "2.3")) as xf:
        game = XfGame(tmp_path, xf, clock)
        game.add_game("g1", ROLES_1)

        # Setup: the opening post and 7 role conversations; the tick dies after the 3rd thing sent
        assert game.tick_killed_at("after_send", 3) == 137, "the crash point was never reached"
        game.tick()
        for name in PLAYERS:
            role = RU_ROLE[ROLES_1.get(name, "civilian")]
            assert sum(f"Ваша роль: {role}." in t for t in game.bot_pms_to(name)) == 1, name
        assert game.game_text().count("Игра начинается. Игроки:") == 1
        subject = xf.board.conversations_of("Маша")[0].title
        for name in PLAYERS:  # each answers inside his role conversation
            game.pm(name, "подтверждаю", subject)
        end_phase(game, "g1", 1)
        game.tick()
        for name in PLAYERS:
            assert sum("Роль подтверждена" in t for t in game.bot_pms_to(name)) == 1, name
            assert len([c for c in xf.board.conversations_of(name) if c.starter == BOT]) == 1  # replies, not new
        assert "Наступил день 1" in game.game_text()

        game.settle()
        idle = game.idle_requests()
        with capsys.disabled():
            print(f"\nXenForo 2.3 emulator, idle tick: {len(idle)} requests {idle}")
        assert len(idle) <= 2, idle

        # Day 1: five votes hang the Don; Night 1: the mafioso shoots, the GM modkills him: the town wins
        for name in ("Маша", "Дядя Фёдор", "ёжик", "Печкин 2000", "Незнайка"):
            game.vote(name, "Кот Баюн")
        game.vote("Lucky_Strike", "Маша")
        end_phase(game, "g1", 2)
        game.tick()
        assert "Наступила ночь 1" in game.game_text()
        game.pm("Lucky_Strike", "убить Маша", subject)
        game.pm(GM, "модкилл Lucky_Strike", "g1: 3")
        game.tick_until_ended("g1")
        assert "Игра окончена: победа города!" in game.game_text()

        # game 2 in the same threads: conversations of its own subject, Setup to the end by modkills
        game.add_game("g2", ROLES_2)
        game.tick()
        subject2 = next(c.title for c in xf.board.conversations_of("Маша") if c.title != subject)
        assert "g2" in subject2
        for name in PLAYERS:
            role = RU_ROLE[ROLES_2.get(name, "civilian")]
            assert sum(f"Ваша роль: {role}." in t for t in game.bot_pms_to(name, subject2)) == 1, name
            assert len([c for c in xf.board.conversations_of(name) if c.starter == BOT]) == 2
        for name in PLAYERS:
            game.pm(name, "подтверждаю", subject2)
        end_phase(game, "g2", 1)
        game.tick()
        assert game.game_text().split("Игра начинается. Игроки:")[2].count("Наступил день 1") == 1
        game.pm(GM, "модкилл ёжик", "g2: 2")
        game.pm(GM, "модкилл Незнайка", "g2: 3")
        game.tick_until_ended("g2")
        assert game.game_text().count("Игра окончена: победа города!") == 2
        posts, pms = game.assert_each_once()
        logins = [r for m, r in xf.board.requests if (m, r) == ("POST", "login/login")]
        assert len(logins) == 1  # the session is kept between the processes
        with capsys.disabled():
            print(f"XenForo season: {posts} bot posts, {pms} bot PMs, each once; game time "
                  f"{(clock() - START) / 60:.0f} min")


def test_a_wrong_password_is_posted_once_over_two_ticks(tmp_path):
    clock = FileClock(tmp_path / "clock", START)
    with Emulator(season_board(clock, "2.2")) as xf:
        game = XfGame(tmp_path, xf, clock, password="не тот пароль")
        game.add_game("g1", ROLES_1)
        for _ in range(2):
            out = game.cli("tick")
            assert "Incorrect password" in out.stdout + out.stderr or "not trying again" in out.stdout + out.stderr
            clock.advance(60)
        assert [r for m, r in xf.board.requests if m == "POST"] == ["login/login"]


def test_game_status_says_when_the_last_role_pm_goes_out_at_xenforo_s_pace(tmp_path):
    """Under cron with the stock max_wait (60 s), a new conversation every 180 s goes out one a tick: the GM
    reads in `game status` when the last role PM will have gone out."""
    clock = FileClock(tmp_path / "clock", START)
    with Emulator(season_board(clock, "2.2")) as xf:
        game = XfGame(tmp_path, xf, clock, max_wait=60)
        game.add_game("g1", ROLES_1)
        game.tick()
        started = [c for c in xf.board.conversations.values() if c.starter == BOT]
        assert len(started) == 1  # the next waits 180 s, longer than a tick may wait
        status = game.cli("game", "status", "g1").stdout
        sent_at = xf.board.messages[started[0].messages[0]].at
        eta = sent_at + 180 * len(PLAYERS[1:])
        line = next(x for x in status.splitlines() if x.startswith("ЛС ждут отправки"))
        assert line.startswith(f"ЛС ждут отправки: {len(PLAYERS) - 1}; форум принимает новое раз в 180 с"), status
        from datetime import datetime, timezone
        from forumbot.texts import get_texts
        # in the game's zone, as every time `game status` shows (issue 17 item 13), as the posts write it (issue 28)
        at = get_texts("ru", str, "Europe/Moscow").v.time_s(datetime.fromtimestamp(int(eta), timezone.utc))
        assert at in line, (line, eta)


def test_setup_through_the_rest_api_sends_every_role_pm_at_once(tmp_path):
    """Issue 18 item 4 in a `forumbot tick` process: with `api_key_env`, no page is read and no flood timer
    applies, so a Setup's role PMs go out in one tick without game time passing; answers are read back."""
    from adapters.xenforo.api import SCOPES
    clock = FileClock(tmp_path / "clock", START)
    board = season_board(clock, "2.3")
    board.api_keys["xf-bot-key"] = (BOT, frozenset(SCOPES))
    with Emulator(board) as xf:
        game = XfGame(tmp_path, xf, clock, api_key="xf-bot-key", max_wait=60)
        game.add_game("g1", ROLES_1)
        before = clock()
        game.tick()
        assert clock() - before < 30  # no flood wait slept
        for name in PLAYERS:
            assert sum("Ваша роль:" in t for t in game.bot_pms_to(name)) == 1, name
        subject = xf.board.conversations_of("Маша")[0].title
        for name in PLAYERS:
            game.pm(name, "подтверждаю", subject)
        game.tick()
        assert all(sum("Роль подтверждена" in t for t in game.bot_pms_to(name)) == 1 for name in PLAYERS)
        assert all(route.startswith("api/") for _, route in xf.board.requests)
        game.assert_each_once()
