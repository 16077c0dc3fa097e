"""A season on a real phpBB 3.3.10 board: two Moscow games in a row in the same two threads, through `forumbot
tick` processes (issue 8 item 3), the second one hands-off from its sign-up to the standings (issue 29).

In a real game a second game started after another ended took every earlier PM (the first game's GM commands
among them) and reached night 2 in one tick. Here the config holds both games and `[season] games = [g1, g2]`
(S-5) from the start; g2 takes its players from a sign-up (`[games.g2.signup]`, S-1). The GM plays game 1 to its
end with `пауза`, `сказать`, `продолжить`, `конец-фазы` and `модкилл` by PM, the players confirm, vote and shoot;
meanwhile check-config warns that g2 shares g1's threads and `game start g2` is refused while game 1 runs (two
games in one vote thread would count the same votes). Game 1 ends; `season.gap` later, a moment the test reaches
by moving the clock the board's PHP and the bot's ticks share (shared_clock.py), g2's sign-up opens by itself in
the game thread (S-5). Players join with «+» (the account that posted, never a name in the text, S-1), one leaves
with «-», one goes to the reserve with «запас»; the list is posted after the first join, the changes after it are
held for `list_every` and listed when the test moves the clock past it (S-2); the seventh join closes it (`close_when_full`) and g2's Setup starts with exactly those seven (S-3). The GM's
`замена НИК` offers a seat to the reserve, who takes it with `принимаю` (S-4). Game 2 is then played with inputs
of its own, and `forumbot season standings` (text, `--json`, `--pages`) ranks the players over both games as S-6
computes it, recomputed here from the games' seats.
Asserted as before: game 2 acts on nothing of game 1 (no GM command answered or replayed, no confirmation carried
over, no vote of game 1 in the shared vote thread); it sends its role PMs and opening post once; every bot post
and PM of both games is on the board exactly once; `game status g1` reads the same after game 2 as when game 1
ended; both outboxes are drained.
Phases move only by GM PMs, each folded by the next tick (the bot's account shows seconds, conftest.EXACT_TIMES).
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from livegame import RU_ROLE, LiveGame
from seasonkit import SIDE, between, check_standings, new_pms, pm_ids
from shared_clock import SharedClock
from stored_game import ended_at, seats as stored_seats

pytestmark = pytest.mark.live

CAST = 'cast = { mafia = 1, don = 1, sheriff = 1 }'  # 7 players, 4 civilians
ROLES_1 = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia"}
ROLE_OF = {ru: role for role, ru in RU_ROLE.items()}
SAY = "Сезон открыт: первая партия, удачи всем!"
OPENING = "Игра начинается. Игроки:"
GAP = timedelta(minutes=15)  # season.gap: g2's sign-up opens this long after g1 ended (S-5)
LIST_EVERY = timedelta(minutes=20)  # signup.list_every (S-2); the clock's moves stay within phpBB's 1 h sessions
LEAVER, RESERVE = "Алёна_77", "Kapitan Vrungel"
# g2's sign-up: the seven who join, in the order of their «+» (Алёна_77 joins second, then leaves)
JOINERS = ["Шарик", "Маша", "Кот Баюн", "Дядя Фёдор", "Lucky_Strike", "ёжик", "Печкин 2000"]
REPLACED = "Шарик"  # the GM's `замена Шарик` offers his seat to the reserve: Kapitan Vrungel takes it (S-4)


def test_a_season_of_two_games_on_phpbb_the_second_from_its_sign_up_to_the_standings(phpbb_season_board, tmp_path):
    t0 = time.monotonic()
    board = phpbb_season_board
    clock = SharedClock(Path(board.script_env["FAKETIME_TIMESTAMP_FILE"]))
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in board.players}
    g1 = LiveGame(board, tmp_path, "g1", "moscow", ROLES_1, {"post": 1.2, "pm": 1.2}, options=CAST,
                  players=board.players[:7])
    g1.env.update(clock.process_env(board.script_env["FORUMBOT_LIBFAKETIME"]))  # every tick on the board's clock
    closes = (datetime.now(timezone.utc) + timedelta(days=7)).replace(microsecond=0)
    g2 = g1.next_game("g2", "moscow", {}, options=CAST,
                      signup=f"closes = {closes.isoformat()}\nclose_when_full = true\nplayers = 7\n"
                             f"list_every = {LIST_EVERY.total_seconds() / 60:g}\n")
    g1.season(["g1", "g2"], gap_hours=GAP.total_seconds() / 3600)
    vote, bot = g1.vote_topic, board.bot
    p1 = {name: p[name] for name in g1.players}

    # === game 1 ==================================================================================================
    g1.tick()
    for name, member in p1.items():
        role = RU_ROLE[ROLES_1.get(name, "civilian")]
        assert any(f"Ваша роль: {role}." in t for t in new_pms(member, bot, set())), f"{name}: no role PM"
    assert g2.stored_status() is None  # the season's next game waits for g1, not stored yet (S-5)

    # Setup: confirmations; the GM pauses, speaks, resumes and opens Day 1, all in one minute (C-9)
    for member in p1.values():
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

    # Night 1: g2 shares g1's threads; it may not start while game 1 runs, not even by the GM's hand
    checked = g1.cli("check-config")
    assert checked.returncode == 0, checked.stderr
    assert "games.g2.game_thread: это и тема игры 'g1' (ещё идёт)" in checked.stderr, checked.stderr
    refused = g2.cli("game", "start", "g2")
    assert refused.returncode == 2 and "which is still running" in refused.stderr, refused.stdout + refused.stderr

    # the last mafioso shoots; the GM modkills him: the town wins
    p["Lucky_Strike"].pm(bot, "g1", "убить Маша")
    gm.pm(bot, "g1", "модкилл Lucky_Strike")
    board.wait_past_a_pm()
    g1.tick_until_ended()
    text = g1.game_text(gm)
    assert "Игра окончена: победа города!" in text and "Зерно жеребьёвки" in text, text[-1500:]
    g1_status = g1.cli("game", "status", "g1").stdout
    assert "итог: игра окончена" in g1_status and "победитель — город" in g1_status, g1_status
    g1_answers = [t for t in new_pms(gm, bot, set()) if "Выполнено" in t]
    seen = {name: pm_ids(member, bot) for name, member in p.items()}
    seen_gm = pm_ids(gm, bot)
    posts_before = len(gm.posts_by(g1.game_topic, bot))
    vote_before = len(gm.posts_by(vote, bot))

    # === game 2's sign-up opens by itself season.gap after game 1 ended (S-5) =====================================
    g1_ended = ended_at(g1.db, "g1")
    g2.tick()
    if clock.now() < g1_ended + GAP:  # this tick ran before the gap was over: nothing may have opened
        assert g2.stored_status() is None
        assert len(gm.posts_by(g1.game_topic, bot)) == posts_before
    clock.move_past(g1_ended + GAP)
    g2.tick()
    posted = [post.text for post in gm.posts_by(g2.game_topic, bot)[posts_before:]]
    assert len(posted) == 1 and posted[0].startswith("Набор в игру: московская мафия"), posted
    assert "Нужно 7" in posted[0] and "«+»" in posted[0] and "«запас»" in posted[0], posted[0]
    assert g2.stored_status() == "running"
    assert len(gm.posts_by(vote, bot)) == vote_before and not new_pms(gm, bot, seen_gm)

    # S-1, S-2: the first join is listed at once; the changes after it are held for `list_every` (S-2), then listed
    joining = clock.now()  # the first join is stamped between this and `listed`; its list is held from it
    p[JOINERS[0]].reply(g2.game_topic, "+")
    g2.tick()
    listed = clock.now()
    listing = g2.game_text(gm).split("Список записавшихся")
    assert len(listing) == 2 and JOINERS[0] in between(listing[1], "Игроки:", "Свободно: 6"), listing[-1]
    p[LEAVER].reply(g2.game_topic, "+")
    p["Незнайка"].reply(g2.game_topic, "Маша тоже играет: +")  # talk: nobody, Маша least of all, is signed up
    p[RESERVE].reply(g2.game_topic, "запас")  # the reserve only
    p[LEAVER].reply(g2.game_topic, "-")
    for name in JOINERS[1:6]:
        p[name].reply(g2.game_topic, "+")
    g2.tick()
    if clock.now() < joining + LIST_EVERY:  # the held list cannot have been due yet
        assert g2.game_text(gm).count("Список записавшихся") == 1, "a second list within list_every (S-2)"
    status = g2.cli("game", "status", "g2").stdout
    assert "записались 6 из 7" in status and LEAVER not in status and "Незнайка" not in status, status
    clock.move_past(listed + LIST_EVERY)
    g2.tick()
    listing = g2.game_text(gm).split("Список записавшихся")
    assert len(listing) == 3, "the held changes were not listed once list_every was over (S-2)"
    places = between(listing[2], "Игроки:", "Запас:")
    assert all(name in places for name in JOINERS[:6]) and LEAVER not in places and "Незнайка" not in places, places
    assert RESERVE in between(listing[2], "Запас:", "Свободно: 1") and LEAVER not in listing[2], listing[2]
    assert "Набор закрыт" not in g2.game_text(gm)

    p[JOINERS[6]].reply(g2.game_topic, "+")  # the seventh join closes the sign-up (close_when_full, S-3)
    setup_tick = g2.tick()
    text = g2.game_text(gm)
    closed = text.split("Набор закрыт", 1)[1]
    for name in JOINERS:
        assert name in between(closed, "Игроки:", "Запас:"), (name, closed[:800])
    assert LEAVER not in closed.split(OPENING, 1)[0] and RESERVE in between(closed, "Запас:", "Роли придут"), closed[:800]
    g2.players = list(JOINERS)
    p2 = {name: p[name] for name in JOINERS}

    # game 2's Setup: its role PMs once, nothing of game 1 acted on
    roles_2: dict[str, str] = {}
    for name, member in p2.items():
        got = new_pms(member, bot, seen[name])
        role_pms = [t for t in got if "Ваша роль:" in t]
        assert len(role_pms) == 1, (name, got)
        roles_2[name] = ROLE_OF[role_pms[0].split("Ваша роль: ", 1)[1].split(".", 1)[0]]
        assert not any("Роль подтверждена" in t for t in got), f"{name}: game 1's confirmation carried over: {got}"
    for name in ("Незнайка", LEAVER, RESERVE):
        assert not any("Ваша роль:" in t for t in new_pms(p[name], bot, seen[name])), f"{name} got a role"
    # drawn: the two of the mafia choose their Don later (M-1), so both are told «мафия»
    assert sorted(roles_2.values()) == sorted(["sheriff", "mafia", "mafia"] + ["civilian"] * 4), roles_2
    to_gm = new_pms(gm, bot, seen_gm)
    assert not any("Выполнено" in t or "Роли подтверждены" in t for t in to_gm), f"game 1's PMs replayed: {to_gm}"
    fresh = g2.game_text(gm).split(OPENING)
    assert len(fresh) == 3, "game 2's opening post is not on the board exactly once"
    assert all(name in fresh[2] for name in JOINERS) and LEAVER not in fresh[2], fresh[2]
    assert SAY not in fresh[2] and "Наступил день" not in fresh[2] and "приостановлена" not in fresh[2], fresh[2]
    assert len(gm.posts_by(vote, bot)) == vote_before
    assert "g2: подготовка;" in setup_tick, setup_tick  # the tick's summary: g2's phase (C-1's Setup)
    assert sorted(stored_seats(g2.db, "g2")) == sorted(JOINERS), "Setup's seats are not the seven who joined (S-3)"

    # S-4: the GM's `замена Шарик` offers his seat to the reserve; Kapitan Vrungel takes it with `принимаю`
    gm.pm(bot, "g2", f"замена {REPLACED}")
    board.wait_past_a_pm()
    g2.tick()
    offer = [t for t in new_pms(p[RESERVE], bot, seen[RESERVE]) if t.startswith("Ведущий ищет замену")]
    assert len(offer) == 1 and f"место игрока {REPLACED} свободно" in offer[0], offer
    assert any(f"Место игрока {REPLACED} предложено {RESERVE} (запас)" in t for t in new_pms(gm, bot, seen_gm))
    p[RESERVE].pm(bot, "g2", "принимаю")
    board.wait_past_a_pm()
    g2.tick()
    assert f"Замена: место игрока {REPLACED} занимает {RESERVE}." in g2.game_text(gm)
    role = [t for t in new_pms(p[RESERVE], bot, seen[RESERVE]) if "Ваша роль:" in t]
    assert len(role) == 1 and f"Ваша роль: {RU_ROLE[roles_2[REPLACED]]}." in role[0], role
    assert any(f"{RESERVE} принял место игрока {REPLACED}: замена сделана." in t for t in new_pms(gm, bot, seen_gm))
    seated = [RESERVE if n == REPLACED else n for n in JOINERS]
    roles_2[RESERVE] = roles_2.pop(REPLACED)
    g2.players = seated
    p2 = {name: p[name] for name in seated}

    # Setup: game 2's own confirmations and the GM's end-phase
    for member in p2.values():
        member.pm(bot, "g2", "подтверждаю")
    g2.end_phase(gm)
    g2.tick()
    for name, member in p2.items():
        got = new_pms(member, bot, seen[name])
        assert sum("Роль подтверждена" in t for t in got) == 1, (name, got)
    assert "Наступил день 1" in g2.game_text(gm).split(OPENING)[2]

    # Day 1: game 2's votes in the vote thread that holds game 1's: the town hangs the mafioso
    mafioso, last_mafioso = (n for n in seated if roles_2[n] == "mafia")
    target = next(n for n in seated if SIDE[roles_2[n]] == "town")
    expected = {mafioso: 5, target: 2}
    for name in seated:
        p[name].reply(vote, target if SIDE[roles_2[name]] == "mafia" else mafioso)
    g2.end_phase(gm)
    g2.tick()
    day = g2.game_text(gm).split(OPENING)[2]
    final = day.split("Итоговый подсчёт голосов", 1)[1].split("Итоги дня 1.", 1)[0]
    counted = {name: int(m.group(1)) for name in board.players if (m := re.search(rf"{re.escape(name)} — (\d+)", final))}
    assert counted == expected, f"game 1's votes or a vote lost: {final}"
    assert "Без голоса" not in final, final
    assert "Наступила ночь 1" in day and f"игру покидает {mafioso}" in day.split("Итоги дня 1.", 1)[1], day[-1500:]

    # Night 1: the GM modkills the last of the mafia: the town wins
    gm.pm(bot, "g2", f"модкилл {last_mafioso}")
    board.wait_past_a_pm()
    g2.tick_until_ended()
    ending = g2.game_text(gm).split(OPENING)[2].split("Игра окончена: победа города!", 1)
    assert len(ending) == 2 and all(name in ending[1] for name in seated), ending[-1][-1500:]

    # === both games on the board once; game 1 as it ended ======================================================
    posts, pms = g1.assert_each_once(gm, [gm, *p.values()])
    to_gm = new_pms(gm, bot, seen_gm)
    assert sum(t.startswith("Выполнено") for t in to_gm) == 4, to_gm  # замена, two end-phases, modkill
    assert len(g1_answers) == 6, g1_answers  # pause, say, resume, two end-phases, modkill
    assert g1.cli("game", "status", "g1").stdout == g1_status, "game 2 changed how game 1 reads"
    g1.assert_outbox_drained()
    g2.assert_outbox_drained()

    # === the standings (S-6): both games, recomputed from their seats at the end ================================
    games = [({n: SIDE[ROLES_1.get(n, "civilian")] for n in g1.players}, {"Lucky_Strike"}),
             ({n: SIDE[roles_2[n]] for n in seated}, {last_mafioso})]
    doc = check_standings(g2, ["g1", "g2"], games, tmp_path / "site")
    assert REPLACED not in {r["nick"] for r in doc["standings"]}  # replaced: not rated (S-6)
    print(f"\nphpBB season: {time.monotonic() - t0:.0f} s, {posts} bot posts, {pms} bot PMs; log: {g1.log}")

