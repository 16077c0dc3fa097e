"""Issue 30's "Done means" on a real phpBB 3.3.10 board through `forumbot tick` processes: one Free Hunt game (the
board's 10 players, R-10 cast) with `post_minimum = 2`, `post_minimum_action = "warn_then_autokill"` (R-11),
`majority_ends_day = true` (R-12), `lock_threads = true` (R-13: the bot made a global moderator first through
phpBB's ACP, as a GM's admin would) and C-14 over the whole day (`downtime_window = 20`, `downtime_grace = 10`
minutes) on a clock the board's PHP and the bot's ticks share (shared_clock.py): days of 20 minutes, so every post
surely falls inside Day 1 however slow the machine, and the test moves that clock past Day 1's deadline instead of
waiting for it; the nights are long and the GM closes them. The grace is 10 minutes, not C-14's smallest (1): on a
machine under a load of 25 a few posts and a tick took over a minute of Day 2, where the ticks run, and Day 2's
deadline was disturbed too (stop 37); Day 1's gap is made by moving the clock, whatever the grace.
  Day 1: Шарик votes but never writes in the game thread; Печкин 2000 writes but never votes. The tick loop stops
         right after the day opened and runs again only after the deadline (the clock moved past it): the
         deadline is disturbed, so the no-show stays (H-5 waived, the gap named in the result post, one GM PM);
         Шарик is warned; the vote thread is closed at the deadline.
  Night 1: the GM closes it; Day 2's start opens the vote thread again.
  Day 2: the ticks run every few posts; the ninth vote makes a majority for Kapitan Vrungel (5 of 9): that post's
         time is the deadline, a later change of vote is not counted; Шарик, silent again, leaves as an autokill
         (so nobody leaves by vote, H-6); the vote thread is closed again.
Asserted: the posts and PMs as players read them, in Russian; the lock read back as a player sees the reply page;
`game export` + `replay --json` gives the bot's messages byte for byte."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from livegame import LiveGame
from moderators import may_reply, promote_phpbb
from shared_clock import SharedClock
from stored_game import due_at, phase_deadline, posted_at, read_spans

pytestmark = pytest.mark.live

ROLES = {"Маша": "doctor", "Кот Баюн": "mafia", "Lucky_Strike": "mafia"}
OPTIONS = ('cast = { mafia = 2, doctor = 1, maniac = 0 }, post_minimum = 2, '
           'post_minimum_action = "warn_then_autokill", post_minimum_reminder_hours = 0, majority_ends_day = true, '
           "lock_threads = true, downtime_grace = 10, downtime_window = 20")
GRACE = timedelta(minutes=10)
DAY = timedelta(minutes=20)  # far longer than Day 1's 27 posts take on any machine that finishes the suite
MSK = ZoneInfo("Europe/Moscow")
SILENT, NO_SHOW = "Шарик", "Печкин 2000"
# Day 1: no majority (6 of 10 would end it); Незнайка leaves by vote
DAY1_VOTES = {"Маша": "Незнайка", "Кот Баюн": "Незнайка", "Дядя Фёдор": "Незнайка", "Lucky_Strike": "Незнайка",
              "ёжик": "Kapitan Vrungel", "Незнайка": "Kapitan Vrungel", "Kapitan Vrungel": "Алёна_77",
              "Алёна_77": "Kapitan Vrungel", SILENT: "Алёна_77"}
# Day 2, 9 alive: the ninth vote is Kapitan Vrungel's fifth, the majority; everyone has voted by then (H-5)
DAY2_VOTES = {"Маша": "Kapitan Vrungel", "Дядя Фёдор": "Kapitan Vrungel", "ёжик": "Kapitan Vrungel",
              NO_SHOW: "Kapitan Vrungel", "Кот Баюн": "Алёна_77", "Lucky_Strike": "Алёна_77",
              "Kapitan Vrungel": "Кот Баюн", SILENT: "Кот Баюн", "Алёна_77": "Kapitan Vrungel"}


def test_issue30_free_hunt_r11_r12_r13_c14_on_phpbb(phpbb_activity_board, tmp_path):
    t0 = time.monotonic()
    board = phpbb_activity_board
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in board.players}
    promote_phpbb(board)  # the board seeds the bot as an ordinary member
    clock = SharedClock(Path(board.script_env["FAKETIME_TIMESTAMP_FILE"]))
    game = LiveGame(board, tmp_path, "g1", "free_hunt", ROLES, {"post": 1.2, "pm": 1.2}, options=OPTIONS,
                    hours=(DAY.total_seconds() / 3600, 24))
    # every tick on the board's clock (its config and `game start` before this ran with the clock not yet moved)
    game.env.update(clock.process_env(board.script_env["FORUMBOT_LIBFAKETIME"]))
    topic, vote = game.game_topic, game.vote_topic
    reader = p["ёжик"]

    # --- Setup; the GM's конец-фазы opens Day 1, whose deadline is 20 minutes after that PM ----------------------
    opened = clock.now()
    game.play_setup(gm, p, ROLES, "Незнайка", "конец-фазы")
    assert "Минимум за день — 2 сообщения в игровой теме" in game.game_text(gm)
    day1_deadline = phase_deadline(game.db, game.name)
    assert opened + DAY < day1_deadline < clock.now() + DAY  # 20 minutes after the GM's PM
    assert may_reply(reader, "phpbb", vote)

    # --- Day 1: one tick, then the loop stops; everyone writes, but Шарик; everyone votes, but Печкин 2000 ------
    game.tick()
    last_read = clock.now()
    for name in board.players:
        if name != SILENT:
            p[name].reply(topic, f"Я {name}, ищу мафию")
            p[name].reply(topic, f"{name}: подозреваю тех, кто молчит")
    for name, target in DAY1_VOTES.items():
        p[name].reply(vote, target)
    assert clock.now() < day1_deadline, "Day 1's posts took longer than the day"
    assert day1_deadline - last_read > GRACE + timedelta(seconds=30)  # no read for over the grace before it
    clock.move_past(day1_deadline)  # from here on the board and the bot are that far ahead: the game's times agree
    game.tick()  # the bot is back after the deadline

    day1 = game.game_text(gm).split("Итоговый подсчёт голосов (день 1)", 1)[1]
    start, end = day1_gap(game, day1_deadline)
    assert (f"Автокилл за неявку не применяется: бот не мог читать форум с {start} до {end} (МСК)."
            in day1), day1[:1500]
    assert f"Автокилл: {NO_SHOW}" not in day1, day1[:1500]
    warning = day1.split("Предупреждение за неактивность (минимум — 2 сообщения в игровой теме за день):", 1)[1]
    assert warning.split("\n")[0].strip() == f"{SILENT}.", day1[:1500]
    assert "По итогам голосования игру покидает Незнайка" in day1, day1[:1500]
    downtime = [m.text for m in gm.pms_from(board.bot) if "подведён после сбоя" in m.text]
    assert len(downtime) == 1 and f"бот не мог читать форум с {start} до {end} (МСК)" in downtime[0], downtime
    assert not may_reply(reader, "phpbb", vote), "Day 1's deadline should have closed the vote thread (R-13)"

    # --- Night 1: no moves; the GM closes it and Day 2's start opens the vote thread -----------------------------
    game.end_phase(gm)
    game.tick()
    assert "Наступил день 2" in game.game_text(gm)
    assert may_reply(reader, "phpbb", vote), "Day 2's start should have opened the vote thread (R-13)"

    # --- Day 2: the ticks keep running; the ninth vote makes the majority; a later one is not counted ------------
    game.tick()
    alive = [name for name in board.players if name != "Незнайка"]
    writers = [name for name in alive if name != SILENT]
    for n, name in enumerate(writers):
        p[name].reply(topic, f"День 2, {name} на месте")
        p[name].reply(topic, f"{name}: голосую по итогам обсуждения")
        if n % 3 == 2:
            game.tick()
    for n, (name, target) in enumerate(DAY2_VOTES.items()):
        if n == len(DAY2_VOTES) - 1:
            majority_post = p[name].reply(vote, target)
        else:
            p[name].reply(vote, target)
        if n == 4:
            game.tick()
    p["Маша"].reply(vote, "Алёна_77")  # after the majority: not counted
    game.tick()

    text = game.game_text(gm)
    assert "Итоги дня 2." in text, text[-1500:]
    count, day2 = text.split("Итоговый подсчёт голосов (день 2)", 1)[1].split("Итоги дня 2.", 1)
    assert "Kapitan Vrungel — 5" in count and "Маша" in count.split("Kapitan Vrungel — 5", 1)[1].split("\n")[0], count
    assert "Алёна_77 — 2" in count, count  # Маша's later vote for her is not counted
    majority_at = posted_at(game.db, majority_post)
    assert (f"День закончился досрочно: у Kapitan Vrungel больше половины голосов живых игроков (сообщение от "
            in day2), day2[:1200]
    assert due_at(game.db, game.name, "day 2/result") == majority_at  # the majority-making post's time is the deadline
    assert f"Автокилл: {SILENT} покидает игру (причина — мало сообщений в игровой теме)." in day2, day2[:1200]
    assert "Из-за автокилла по итогам голосования никто не уходит." in day2, day2[:1200]
    assert "не мог читать форум" not in day2, day2[:1200]  # the ticks ran: Day 2's deadline is not disturbed
    assert not may_reply(reader, "phpbb", vote), "Day 2's early end should have closed the vote thread (R-13)"

    game.assert_outbox_drained()
    assert game.assert_export_replays() > 0  # reads, majority, locks and activity all in the fold
    print(f"\nissue 30 game on phpBB: {time.monotonic() - t0:.0f} s")


def day1_gap(game: LiveGame, deadline: datetime) -> tuple[str, str]:
    """C-14's gap as the bot recorded it: its last successful read before Day 1's deadline (the end of a span of
    successful ticks: every tick is recorded) and the first tick after it, in Moscow time to the minute, as the
    result post names them."""
    spans = read_spans(game.db, game.name)
    before = max(last for _, last in spans if last < deadline)
    after = min(first for first, _ in spans if first > deadline)
    return tuple(at.astimezone(MSK).strftime("%d.%m %H:%M") for at in (before, after))  # type: ignore[return-value]
