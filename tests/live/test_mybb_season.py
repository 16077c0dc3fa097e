"""A season on a real MyBB 1.8.37 board (issue 29, "Done means"): two Free Hunt games (R-10's smallest cast, 7
players, one mafioso) in the same two threads through `forumbot tick` processes, each from its sign-up, on a clock
the board's PHP and the bot's ticks share (shared_clock.py), to the standings.

The config holds no player: `[games.g1.signup]` and `[games.g2.signup]` (S-1), `[season] games = [g1, g2]` with
`notify = true` (S-5). The GM starts g1, whose sign-up the first tick opens in the game thread. Players join with
«+» (the account that posted, S-1), one leaves with «-», one's talk with a «+» in it signs nobody up, three go to
the reserve with «запас» in between; the seventh join closes it (`close_when_full`) and Setup starts with exactly
those seven, the reserve named (S-2, S-3). The GM's `замена НИК` offers the seat to the first of the reserve, who
answers `нет`: it passes to the second (S-4); he stays silent, and once the test has moved the clock past
`offer_hours` it passes to the third, who takes it with `принимаю` and gets the seat's role (S-4). Day 1: the town
hangs the mafioso, the replacement voting; the town wins. g2's sign-up opens by itself at g1's end (`gap` 0,
S-5) and each of g1's players at its end is told so by PM once, the reserve player who took a seat too, but the
one who had PMed `не писать` (S-5). Seven join g2, it closes, and the GM modkills its mafioso in Setup: the town
wins. `forumbot season standings` (`--json`, `--pages`: the season index) ranks every seat held at the games'
ends over both games as S-6 computes it, recomputed here (seasonkit.rated).

Cheap by design (the suite runs at its budget on 2 cores): the smallest cast that still ends, one day of votes,
no confirmations (test_phpbb_season.py covers them), a tick only where the bot must answer before a player can,
and the clock moved instead of waiting out an offer. Each GM or player PM is folded by the next tick (the bot's
account shows seconds, conftest.EXACT_TIMES). MyBB merges a member's consecutive posts in a thread (stock
MERGE_MINS): nobody posts twice in a row here."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from livegame import RU_ROLE, LiveGame
from seasonkit import SIDE, between, check_standings, new_pms, pm_ids
from shared_clock import SharedClock

pytestmark = pytest.mark.live

CAST = "cast = { mafia = 1, doctor = 0, maniac = 0 }"  # 7 players, one mafioso, six civilians
ROLE_OF = {ru: role for role, ru in RU_ROLE.items()}
OFFER = timedelta(hours=1)  # signup.offer_hours (S-4): far within Setup's 24 hours before Day 1 (S-3)
LEAVER, TALKER = "Наташа", "Мурзик"
DECLINES, SILENT, ACCEPTS = "Ёлка", "Kolya_95", "Старый Мельник"  # g1's reserve, in the order of their «запас»
REPLACED = "Маша"  # the GM's `замена Маша` (S-4)
UNSUBSCRIBED = "Петя2007"  # PMs `не писать` during g1: no sign-up notice (S-5)
# g1's sign-up as posted, in order: nobody twice in a row (MyBB would merge the two posts into one)
SIGNUP_1 = [("Маша", "+"), (LEAVER, "+"), (TALKER, "Маша тоже играет: +"), (DECLINES, "запас"), ("Кот Баюн", "+"),
            (LEAVER, "-"), ("Дядя Фёдор", "+"), (SILENT, "запас"), ("Lucky_Strike", "+"), (ACCEPTS, "запас"),
            ("ёжик", "+"), (UNSUBSCRIBED, "+"), ("Alex Smith", "+")]
JOINERS_1 = [name for name, word in SIGNUP_1 if word == "+" and name != LEAVER]
JOINERS_2 = [LEAVER, TALKER, DECLINES, SILENT, "Кот Баюн", "Дядя Фёдор", UNSUBSCRIBED]
OPENING = "Игра начинается. Игроки:"
NOTICE = "Открыт набор в следующую игру сезона"


def signup_table(closes: datetime, offer: str = "") -> str:
    return f"closes = {closes.isoformat()}\nclose_when_full = true\nplayers = 7\n{offer}"


def roles_from_pms(members: dict, bot: str, seen: dict[str, set[str]]) -> dict[str, str]:
    """Each member's one new role PM, as the role it names."""
    roles = {}
    for name, member in members.items():
        got = [t for t in new_pms(member, bot, seen[name]) if "Ваша роль:" in t]
        assert len(got) == 1, (name, got)
        roles[name] = ROLE_OF[got[0].split("Ваша роль: ", 1)[1].split(".", 1)[0]]
    return roles


def notices(members: dict, bot: str, seen: dict[str, set[str]]) -> set[str]:
    """Who got S-5's sign-up notice since `seen`, each at most once."""
    got = {name: sum(NOTICE in t for t in new_pms(member, bot, seen[name])) for name, member in members.items()}
    assert all(n <= 1 for n in got.values()), got
    return {name for name, n in got.items() if n}


def test_a_season_of_two_games_on_mybb_each_from_its_sign_up_to_the_standings(mybb_season_board, tmp_path):
    t0 = time.monotonic()
    board = mybb_season_board
    clock = SharedClock(Path(board.script_env["FAKETIME_TIMESTAMP_FILE"]))
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in board.players}
    closes = (datetime.now(timezone.utc) + timedelta(days=7)).replace(microsecond=0)
    g1 = LiveGame(board, tmp_path, "g1", "free_hunt", {}, {"post": 1, "pm": 1}, options=CAST,
                  signup=signup_table(closes, f"offer_hours = {OFFER.total_seconds() / 3600:g}\n"))
    g1.env.update(clock.process_env(board.script_env["FORUMBOT_LIBFAKETIME"]))  # every tick on the board's clock
    g2 = g1.next_game("g2", "free_hunt", {}, options=CAST, signup=signup_table(closes))
    g1.season(["g1", "g2"], notify=True)
    bot, topic, vote = board.bot, g1.game_topic, g1.vote_topic
    seen = {name: pm_ids(member, bot) for name, member in p.items()}
    seen_gm = pm_ids(gm, bot)

    # === g1's sign-up: opened by the first tick (S-1), closed by the seventh join (S-2, S-3) ======================
    g1.tick()
    opened = g1.game_text(gm)
    assert opened.startswith("Набор в игру: мафия со свободной охотой") and "Нужно 7" in opened, opened
    for name, word in SIGNUP_1:
        p[name].reply(topic, word)
    g1.tick()
    closed = g1.game_text(gm).split("Набор закрыт", 1)[1]
    places = between(closed, "Игроки:", "Запас:")
    assert all(name in places for name in JOINERS_1) and LEAVER not in places and TALKER not in places, closed[:800]
    reserve = between(closed, "Запас:", "Роли придут")
    assert [reserve.index(n) for n in (DECLINES, SILENT, ACCEPTS)] == sorted(reserve.index(n) for n in
                                                                            (DECLINES, SILENT, ACCEPTS)), reserve
    assert OPENING in closed and LEAVER not in closed.split(OPENING, 1)[1], closed[-800:]
    roles_1 = roles_from_pms({n: p[n] for n in JOINERS_1}, bot, seen)
    assert sorted(roles_1.values()) == ["civilian"] * 6 + ["mafia"], roles_1
    for name in (LEAVER, TALKER, DECLINES, SILENT, ACCEPTS):
        assert not any("Ваша роль:" in t for t in new_pms(p[name], bot, seen[name])), f"{name} got a role"
    seen = {name: pm_ids(member, bot) for name, member in p.items()}
    p[UNSUBSCRIBED].pm(bot, "g1", "не писать")  # S-5: never PMed about a sign-up again

    # === S-4: the seat goes down the reserve: `нет`, silence past offer_hours, `принимаю` ========================
    gm.pm(bot, "g1", f"замена {REPLACED}")
    board.wait_past_a_pm()
    g1.tick()
    offer = [t for t in new_pms(p[DECLINES], bot, seen[DECLINES]) if t.startswith("Ведущий ищет замену")]
    assert len(offer) == 1 and f"место игрока {REPLACED} свободно" in offer[0], offer
    assert any(f"Место игрока {REPLACED} предложено {DECLINES} (запас)" in t for t in new_pms(gm, bot, seen_gm))
    p[DECLINES].pm(bot, "g1", "нет")
    board.wait_past_a_pm()
    g1.tick()
    declined = clock.now()  # the second offer is stamped before this, so it lapses before `declined + OFFER`
    assert any(t.startswith("Понятно, место предложено следующему") for t in new_pms(p[DECLINES], bot, seen[DECLINES]))
    offer = [t for t in new_pms(p[SILENT], bot, seen[SILENT]) if t.startswith("Ведущий ищет замену")]
    assert len(offer) == 1 and f"место игрока {REPLACED} свободно" in offer[0], offer
    to_gm = new_pms(gm, bot, seen_gm)
    assert any(f"{DECLINES} отказался от места игрока {REPLACED}. Предложение переходит к следующему" in t
               for t in to_gm), to_gm
    assert not new_pms(p[ACCEPTS], bot, seen[ACCEPTS]), "offered to two at once (S-4: one offer at a time)"
    clock.move_past(declined + OFFER)  # silence: the offer's time runs out without a wait
    g1.tick()
    assert any(t.startswith("Время ответа истекло") for t in new_pms(p[SILENT], bot, seen[SILENT]))
    offer = [t for t in new_pms(p[ACCEPTS], bot, seen[ACCEPTS]) if t.startswith("Ведущий ищет замену")]
    assert len(offer) == 1, offer
    assert any(f"{SILENT} не ответил вовремя на предложение места игрока {REPLACED}" in t
               for t in new_pms(gm, bot, seen_gm))
    p[ACCEPTS].pm(bot, "g1", "принимаю")
    board.wait_past_a_pm()
    g1.tick()
    assert f"Замена: место игрока {REPLACED} занимает {ACCEPTS}." in g1.game_text(gm)
    role = [t for t in new_pms(p[ACCEPTS], bot, seen[ACCEPTS]) if "Ваша роль:" in t]
    assert len(role) == 1 and f"Ваша роль: {RU_ROLE[roles_1[REPLACED]]}." in role[0], role
    assert any(f"{ACCEPTS} принял место игрока {REPLACED}: замена сделана." in t for t in new_pms(gm, bot, seen_gm))
    seated_1 = [ACCEPTS if n == REPLACED else n for n in JOINERS_1]
    roles_1[ACCEPTS] = roles_1.pop(REPLACED)
    g1.players = seated_1

    # === g1's Day 1: the town hangs the mafioso, the replacement voting; the town wins ===========================
    g1.end_phase(gm)
    g1.tick()
    assert "Наступил день 1" in g1.game_text(gm).split(OPENING, 1)[1]
    mafioso = next(n for n in seated_1 if roles_1[n] == "mafia")
    target = next(n for n in seated_1 if n != mafioso)
    for name in seated_1:
        p[name].reply(vote, target if name == mafioso else mafioso)
    g1.end_phase(gm)
    g1.tick_until_ended()
    g1.assert_town_won(gm)
    final = g1.game_text(gm).split("Итоговый подсчёт голосов", 1)[1]
    assert f"{mafioso} — 6" in final and "Автокилл" not in final.split("Игра окончена", 1)[0], final[:1500]

    # === g2's sign-up opens by itself as g1 ends (S-5); g1's players are told once, but who said `не писать` ======
    if "Набор в игру" not in g2.game_text(gm).split("Игра окончена", 1)[1]:
        g2.tick()  # g1 ended in the tick's fold, after the season looked: the next tick opens it
    assert g2.game_text(gm).split("Игра окончена", 1)[1].count("Набор в игру: мафия со свободной охотой") == 1
    notified = {name for name in seated_1 if name != UNSUBSCRIBED}
    assert notices(p, bot, seen) == notified, "S-5's notice: each player of g1 at its end once, but who said no"
    # seven join g2: who left g1's sign-up, the talker, two of g1's reserve, three of g1's players
    for name in JOINERS_2:
        p[name].reply(topic, "+")
    g2.tick()
    closed = g2.game_text(gm).split("Игра окончена", 1)[1].split("Набор закрыт", 1)[1]
    assert all(name in between(closed, "Игроки:", "Роли придут") for name in JOINERS_2), closed[:800]
    roles_2 = roles_from_pms({n: p[n] for n in JOINERS_2}, bot, seen)
    assert notices(p, bot, seen) == notified, "the notice again in a later tick (S-5: once)"

    # g2's Setup: the GM modkills its mafioso; the town wins
    mafioso_2 = next(n for n in JOINERS_2 if roles_2[n] == "mafia")
    gm.pm(bot, "g2", f"модкилл {mafioso_2}")
    board.wait_past_a_pm()
    g2.tick_until_ended()
    ending = g2.game_text(gm).split(OPENING)[2].split("Игра окончена: победа города!", 1)
    assert len(ending) == 2 and all(name in ending[1] for name in JOINERS_2), ending[-1][-1500:]

    # === every bot post and PM on the board once, both outboxes drained; the standings (S-6) =====================
    posts, pms = g1.assert_each_once(gm, [gm, *p.values()])
    g1.assert_outbox_drained()
    g2.assert_outbox_drained()
    games = [({n: SIDE[roles_1[n]] for n in seated_1}, set()),
             ({n: SIDE[roles_2[n]] for n in JOINERS_2}, {mafioso_2})]
    doc = check_standings(g2, ["g1", "g2"], games, tmp_path / "site")
    assert REPLACED not in {r["nick"] for r in doc["standings"]}  # replaced in g1, in no seat at an end (S-6)
    print(f"\nMyBB season: {time.monotonic() - t0:.0f} s, {posts} bot posts, {pms} bot PMs; log: {g1.log}")
