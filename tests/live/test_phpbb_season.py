"""A season on a real phpBB 3.3.10 board: two Moscow games in a row, the same 7 players and GM, the same two
threads, through `forumbot tick` processes (issue 8 item 3).

In a real game a second game started after another ended took every earlier PM (the first game's GM commands
among them) and reached night 2 in one tick. Here the GM plays game 1 to its end with `пауза`, `сказать`,
`продолжить`, `конец-фазы` and `модкилл` by PM, the players confirm, vote and shoot; meanwhile the GM adds
game 2's table to the same config (game 1's kept, so its `game status` still folds its end) in the same threads:
check-config warns and `game start g2` is refused while game 1 runs (two games in one vote thread would count
the same votes), and both go through once game 1 has ended. Game 2 is then played with inputs of its own.
Asserted: game 2's first tick acts on nothing of game 1 (no GM command answered or replayed, no confirmation
carried over, no vote of game 1 in the shared vote thread); it sends its role PMs and opening post once; its
phases move only on its own `конец-фазы`; every bot post and PM of both games is on the board exactly once;
`game status g1` reads the same after game 2 as when game 1 ended; both outboxes are drained.
Phases move only by GM PMs, each folded by the next tick (the bot's account shows seconds, conftest.EXACT_TIMES).
"""

from __future__ import annotations

import time

import pytest

from livegame import LiveGame

pytestmark = pytest.mark.live

CAST = 'cast = { mafia = 1, don = 1, sheriff = 1 }'  # 7 players, 4 civilians
ROLES_1 = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia"}
ROLES_2 = {"Дядя Фёдор": "sheriff", "ёжик": "don", "Незнайка": "mafia"}
RU_ROLE = {"sheriff": "шериф", "don": "дон мафии", "mafia": "мафия", "civilian": "мирный житель"}
SAY = "Сезон открыт: первая партия, удачи всем!"
OPENING = "Игра начинается. Игроки:"


def new_pms(member, bot: str, seen: set[str]) -> list[str]:
    return [m.text for m in member.pms_from(bot) if m.id not in seen]


def pm_ids(member, bot: str) -> set[str]:
    return {m.id for m in member.pms_from(bot)}


def tick_until_ended(game: LiveGame) -> None:
    for _ in range(3):
        game.tick()
        status = game.cli("game", "status", game.name).stdout
        if status.startswith(f"{game.name}: окончена"):
            return
    raise AssertionError(f"{game.name} did not end: {status}")


def test_a_season_of_two_games_on_phpbb(phpbb_season_board, tmp_path):
    t0 = time.monotonic()
    board = phpbb_season_board
    gm = board.member(board.gm)
    seated = board.players[:7]
    p = {name: board.member(name) for name in seated}
    g1 = LiveGame(board, tmp_path, "g1", "moscow", ROLES_1, {"post": 1.2, "pm": 1.2}, options=CAST, players=seated)
    vote, bot = g1.vote_topic, board.bot

    # === game 1 ==================================================================================================
    g1.tick()
    for name, member in p.items():
        role = RU_ROLE[ROLES_1.get(name, "civilian")]
        assert any(f"Ваша роль: {role}." in t for t in new_pms(member, bot, set())), f"{name}: no role PM"

    # Setup: confirmations; the GM pauses, speaks, resumes and opens Day 1, all in one minute (C-9)
    for member in p.values():
        member.pm(bot, "g1", "подтверждаю")
    for command in ("пауза", f"сказать {SAY}", "продолжить"):
        gm.pm(bot, "g1", command)
    g1.end_phase(gm)
    g1.tick()
    text = g1.game_text(gm)
    assert text.count(SAY) == 1 and "Игра приостановлена ведущим." in text and "Наступил день 1" in text, text[-1500:]

    # Day 1: five votes hang the Don
    for name in ("Маша", "Дядя Фёдор", "ёжик", "Печкин 2000", "Незнайка"):
        p[name].reply(vote, "Кот Баюн")
    for name in ("Кот Баюн", "Lucky_Strike"):
        p[name].reply(vote, "Маша")
    g1.end_phase(gm)
    g1.tick()
    text = g1.game_text(gm)
    assert "Кот Баюн — 5" in text.split("Итоговый подсчёт голосов", 1)[1] and "Наступила ночь 1" in text, text[-1500:]

    # Night 1: the GM prepares game 2 in the same threads; it may not start while game 1 runs
    g2 = g1.next_game("g2", "moscow", ROLES_2, options=CAST)
    checked = g1.cli("check-config")
    assert checked.returncode == 0, checked.stderr
    assert "games.g2.game_thread: это и тема игры 'g1' (ещё идёт)" in checked.stderr, checked.stderr
    refused = g2.cli("game", "start", "g2")
    assert refused.returncode == 2 and "which is still running" in refused.stderr, refused.stdout + refused.stderr

    # the last mafioso shoots; the GM modkills him: the town wins
    p["Lucky_Strike"].pm(bot, "g1", "убить Маша")
    gm.pm(bot, "g1", "модкилл Lucky_Strike")
    board.wait_past_a_pm()
    tick_until_ended(g1)
    text = g1.game_text(gm)
    assert "Игра окончена: победа города!" in text and "Зерно жеребьёвки" in text, text[-1500:]
    g1_status = g1.cli("game", "status", "g1").stdout
    assert "итог: игра окончена" in g1_status and "победитель — город" in g1_status, g1_status
    g1_answers = [t for t in new_pms(gm, bot, set()) if "Выполнено" in t]

    # === game 2: started the way the docs say, in the same threads ============================================
    checked = g2.cli("check-config")
    assert checked.returncode == 0 and "warning" not in checked.stderr, checked.stderr
    g2.start()
    seen = {name: pm_ids(member, bot) for name, member in p.items()}
    seen_gm = pm_ids(gm, bot)
    posts_before = len(g1.bot_posts(gm))
    vote_before = len(gm.posts_by(vote, bot))

    g2.tick()  # game 2's first tick: nothing of game 1 may act here
    for name, member in p.items():
        got = new_pms(member, bot, seen[name])
        role = RU_ROLE[ROLES_2.get(name, "civilian")]
        assert sum("Ваша роль:" in t for t in got) == 1 and any(f"Ваша роль: {role}." in t for t in got), (name, got)
        assert not any("Роль подтверждена" in t for t in got), f"{name}: game 1's confirmation carried over: {got}"
    to_gm = new_pms(gm, bot, seen_gm)
    assert not any("Выполнено" in t or "Роли подтверждены" in t for t in to_gm), f"game 1's PMs replayed: {to_gm}"
    fresh = g2.game_text(gm).split(OPENING)
    assert len(fresh) == 3, "game 2's opening post is not on the board exactly once"
    assert SAY not in fresh[2] and "Наступил день" not in fresh[2] and "приостановлена" not in fresh[2], fresh[2]
    assert len(g2.bot_posts(gm)) == posts_before + 1, "game 2's first tick posted more than its opening"
    assert len(gm.posts_by(vote, bot)) == vote_before
    status = g2.cli("game", "status", "g2").stdout
    assert "фаза: подготовка" in status and "в игре (7)" in status, status

    # Setup: game 2's own confirmations and the GM's end-phase
    for member in p.values():
        member.pm(bot, "g2", "подтверждаю")
    g2.end_phase(gm)
    g2.tick()
    for name, member in p.items():
        got = new_pms(member, bot, seen[name])
        assert sum("Роль подтверждена" in t for t in got) == 1, (name, got)
    assert "Наступил день 1" in g2.game_text(gm).split(OPENING)[2]

    # Day 1: game 2's votes in the vote thread that holds game 1's
    for name in ("Маша", "Кот Баюн", "Lucky_Strike", "Печкин 2000"):
        p[name].reply(vote, "Незнайка")
    p["Незнайка"].reply(vote, "Маша")
    g2.end_phase(gm)
    g2.tick()
    day = g2.game_text(gm).split(OPENING)[2]
    final = day.split("Итоговый подсчёт голосов", 1)[1].split("Итоги дня 1.", 1)[0]
    assert "Незнайка — 4" in final and "Маша — 1" in final and "Кот Баюн —" not in final, f"game 1's votes: {final}"
    assert "Без голоса (2)" in final and "Дядя Фёдор" in final and "ёжик" in final, final
    assert "Наступила ночь 1" in day

    gm.pm(bot, "g2", "модкилл ёжик")
    board.wait_past_a_pm()
    tick_until_ended(g2)
    day = g2.game_text(gm).split(OPENING)[2]
    assert "Игра окончена: победа города!" in day, day[-1500:]

    # === both games on the board once; game 1 as it ended ======================================================
    posts, pms = g1.assert_each_once(gm, [gm, *p.values()])
    to_gm = new_pms(gm, bot, seen_gm)
    assert sum("Выполнено" in t for t in to_gm) == 3, to_gm  # game 2's two end-phases and its modkill
    assert len(g1_answers) == 6, g1_answers  # pause, say, resume, two end-phases, modkill
    assert g1.cli("game", "status", "g1").stdout == g1_status, "game 2 changed how game 1 reads"
    g1.assert_outbox_drained()
    g2.assert_outbox_drained()
    print(f"\nphpBB season: {time.monotonic() - t0:.0f} s, {posts} bot posts, {pms} bot PMs; log: {g1.log}")
