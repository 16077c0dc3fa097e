"""A sign-up run by the daemon (S-1..S-3): stored like any input, so a restart (a SIGKILL) loses nothing, the game
starts with exactly its players when it closes, and `game export` replays to the same messages."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from daemon_world import GM, STARTED, World, pg_database  # noqa: F401  (fixture)
from sqlalchemy import select

from forumbot import replay
from forumbot.games.export import export_game
from forumbot.games.status import game_status
from forumbot.games.stop import stop_game
from forumbot.pages.dashboard import dashboard
from forumbot.pages.dashboard_view import tick_line
from forumbot.store.game import fold_game
from forumbot.store.models import InputRow, OverrideRow, SeatRow

NAMES = ["Маша", "Петя", "Вася", "Коля", "Оля", "Аня", "Дима", "Лена", "Игорь", "Сова", "Ёжик"]
SIGNUP = f"""
[games.g1]
forum = "main"
variant = "moscow"
game_thread = "g1/game"
vote_thread = "g1/vote"
gms = ["{GM}"]
timezone = "Europe/Moscow"
[games.g1.signup]
closes = {(STARTED + timedelta(days=3)).isoformat()}
close_when_full = true
list_every = 120
"""


@pytest.fixture
def signup_world(tmp_path):
    w = World(tmp_path, games=SIGNUP)
    yield w
    w.close()


def test_s1_s3_the_daemon_runs_a_sign_up_through_a_restart_and_starts_the_game_with_its_players(signup_world):
    w = signup_world
    w.start()
    w.tick()
    assert w.bot_posts("g1/game")[0][1].startswith("[b]Набор в игру: московская мафия[/b]")
    for i, name in enumerate(NAMES[:6]):
        w.now += timedelta(minutes=30)
        w.post("game", name, "+")
        w.tick()
    w.restart()  # what a SIGKILL leaves: the store; nothing of the sign-up is lost
    w.now += timedelta(minutes=30)
    w.pm(GM, "добавить Гость")
    w.post("game", "Маша", "-")
    w.tick()
    for name in NAMES[6:]:
        w.now += timedelta(minutes=30)
        w.post("game", name, "+")
        w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    expected = NAMES[1:6] + ["Гость"] + NAMES[6:10]
    assert [p.nick for p in run.result.players] == expected and run.phase == "setup"
    texts = [t for _, t, _ in w.bot_posts("g1/game")]
    assert sum(t.startswith("[b]Набор закрыт[/b]") for t in texts) == 1
    (opening,) = [t for t in texts if "(SHA-256)" in t]  # the Setup post: the draw's commitment over the list
    assert all(n in opening for n in expected) and "Ёжик" not in opening and "Маша" not in opening
    assert "День 1 начнётся 01.12 15:29:30 МСК" in opening  # no `start`: a day after the close (Сова, 15:29:30)
    with w.daemon.sessions.begin() as s:
        assert [r.nick for r in s.scalars(select(SeatRow).where(SeatRow.game_id == 1).order_by(SeatRow.seat_no))] == expected
    with w.daemon.sessions.begin() as s:  # the GM's `добавить` is in the override log (C-9, S-3)
        (entry,) = s.scalars(select(OverrideRow)).all()
    assert entry.gm == GM and entry.command == "добавить Гость"
    assert "Гость" not in entry.state_before and "Гость" in entry.state_after
    roles = [to for to, _, _ in w.bot_pms()]
    assert set(expected) <= set(roles) and "Ёжик" not in roles  # each player got his role PM
    assert GM in roles  # the answer to `добавить`


def test_s3_a_sign_up_exported_replays_to_the_same_messages(signup_world, tmp_path):
    w = signup_world
    w.start()
    w.tick()
    for name in NAMES[:10]:
        w.now += timedelta(minutes=20)
        w.post("game", name, "+")
        w.tick()
    w.now += timedelta(hours=1)
    w.pm("Маша", "подтверждаю")
    w.tick()
    # her PM reached the game: the seats written at the close route the players' PMs to it (C-2)
    assert any(to == "Маша" and text.startswith("Роль подтверждена") for to, text, _ in w.bot_pms())
    exported = export_game(w.daemon.sessions, w.config, "g1", w.now)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    replayed, _ = replay.replay(replay.load(path))
    stored = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert [m.text for m in replayed.messages] == [m.text for m in stored.messages]
    assert [p.nick for p in replayed.result.players] == NAMES[:10]


def test_s3_a_short_sign_up_is_extended_then_cancelled_and_the_game_ends_game_status_shows_it(signup_world):
    w = signup_world
    w.start()
    w.tick()
    w.now += timedelta(hours=1)
    w.post("game", "Маша", "+")
    w.post("game", "Петя", "запас")
    w.tick()
    status = game_status(w.daemon.sessions, w.config, "g1", w.now)
    assert "фаза: набор (открыт), до 03.12 10:00 МСК (через 71 ч)" in status  # as the posts write it (issue 28)
    assert ("набор: открыт, записались 1 из 10 (закрытие 03.12 10:00 МСК (через 71 ч)); игроки: Маша; запас: Петя"
            in status)
    (board,) = dashboard(w.daemon.sessions, w.now)["games"]  # the GM's dashboard shows the sign-up's phase too
    assert board["phase"] == "signup open" and board["deadline"] == "2026-12-03T10:00:00+03:00"
    (board,) = dashboard(w.daemon.sessions, w.now, config=w.config)["games"]  # and the list, in the GM's words
    assert board["lines"][1:3] == ["Набор: записались 1 из 10: Маша", "Запас: Петя"]
    # issue 28 item 14: the sign-up's phase in words, not the stored "signup open"; Setup is not «Набор»
    assert board["lines"][0].startswith("g1: идёт, набор открыт, срок 03.12 10:00 МСК (через "), board["lines"][0]
    assert tick_line({"state": "done", "phase": "signup open", "stored": 1, "queued": 0, "sent": 0}, "ru") == (
        "Последний тик: выполнен, набор открыт; сохранено 1, в очередь 0, отправлено 0 (так с —)")
    assert tick_line({"state": "done", "phase": "signup open", "stored": 1, "queued": 0, "sent": 0}, "en") == (
        "Last tick: done, sign-up open; 1 stored, 0 queued, 0 sent (so since —)")
    w.now += timedelta(days=5)
    w.tick()
    w.tick()
    texts = [t for _, t, _ in w.bot_posts("g1/game")]
    assert texts[-2].startswith("[b]Набор продлён[/b]") and texts[-1].startswith("[b]Игра отменена[/b]")
    assert [to for to, _, _ in w.bot_pms()] == [GM, GM]  # told of the extension, then of the cancellation
    assert game_status(w.daemon.sessions, w.config, "g1", w.now).startswith("g1: окончена")


SEASON = SIGNUP + f"""
[games.g2]
forum = "main"
variant = "moscow"
game_thread = "g1/game"
vote_thread = "g1/vote"
gms = ["{GM}"]
timezone = "Europe/Moscow"
[games.g2.signup]
closes = {(STARTED + timedelta(days=20)).isoformat()}
[season]
games = ["g1", "g2"]
gap = 2
"""


def test_s5_check_config_says_the_season_opens_its_next_game_in_the_shared_thread(tmp_path, capsys):
    """S-5: a season's next game in the same thread is not the GM's to start: check-config says the season opens
    it when the game before it ends, not that `forumbot game start` waits (which read as an order to run it)."""
    from forumbot.cli.main import main

    w = World(tmp_path, games=SEASON)
    try:
        w.start()
        assert main(["check-config", "-c", str(w.config_path)], clock=lambda: w.now) == 0
        err = capsys.readouterr().err
        assert "games.g2.game_thread: это и тема игры 'g1' (ещё идёт); в теме идёт одна игра за раз: сезон " \
               "откроет g2 сам, когда закончится g1 (S-5)" in err, err
        assert "game start g2" not in err
    finally:
        w.close()


def test_s5_when_a_season_game_ends_the_next_ones_sign_up_opens_gap_later_in_the_same_thread(tmp_path):
    w = World(tmp_path, games=SEASON)
    try:
        w.start()
        w.tick()
        w.now += timedelta(days=5)  # g1's sign-up: short, extended, cancelled (S-3): g1 ends
        w.tick()
        w.tick()
        assert game_status(w.daemon.sessions, w.config, "g1", w.now).startswith("g1: окончена")
        assert game_status(w.daemon.sessions, w.config, "g2", w.now).startswith("g2: не начата")
        w.now += timedelta(hours=2)  # season.gap later
        w.tick()
        assert game_status(w.daemon.sessions, w.config, "g2", w.now).startswith("g2: идёт")
        openings = [(t, at) for _, t, at in w.bot_posts("g1/game") if t.startswith("[b]Набор в игру")]
        assert len(openings) == 2 and openings[1][1] == w.now  # posted by this tick (the clock is the test's)
        w.now += timedelta(minutes=10)
        w.post("game", "Маша", "+")
        w.tick()
        assert "игроки: Маша" in game_status(w.daemon.sessions, w.config, "g2", w.now)
    finally:
        w.close()


@pytest.mark.parametrize("joined", [3, 10])
def test_s3_game_stop_of_a_sign_up_game_reveals_the_draw_of_its_close_or_none_and_replays(signup_world, tmp_path,
                                                                                            joined):
    w = signup_world
    w.start()
    w.tick()
    for name in NAMES[:joined]:
        w.now += timedelta(minutes=20)
        w.post("game", name, "+")
        w.tick()
    w.now += timedelta(hours=1)
    stop_game(w.daemon.sessions, w.config, "g1", w.now, "тест")
    w.tick()
    closing = w.bot_posts("g1/game")[-1][1]
    assert ("Сова" in closing) == (joined == 10) and ("Маша" in closing) == (joined == 10)
    exported = export_game(w.daemon.sessions, w.config, "g1", w.now)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    replayed, _ = replay.replay(replay.load(path))
    assert replayed.messages[-1].text == closing.rsplit("\n\n#fb:", 1)[0]


def test_s5_notify_pms_the_last_games_players_once_except_who_answered_ne_pisat(tmp_path):
    w = World(tmp_path, games=SEASON.replace("gap = 2", "gap = 2\nnotify = true"))
    try:
        w.start()
        w.tick()
        for name in NAMES[:10]:
            w.now += timedelta(minutes=20)
            w.post("game", name, "+")
            w.tick()
        w.now += timedelta(hours=1)
        w.pm("Петя", "[b]Не писать![/b]")  # S-5: never PMed about a sign-up again
        w.tick()
        stop_game(w.daemon.sessions, w.config, "g1", w.now, "")
        w.tick()
        assert game_status(w.daemon.sessions, w.config, "g1", w.now).startswith("g1: остановлена")
        before = len(w.bot_pms())
        w.now += timedelta(hours=2)
        w.tick()
        w.tick()
        notices = [(to, text) for to, text, _ in w.bot_pms()[before:]]
        assert sorted(to for to, _ in notices) == sorted(n for n in NAMES[:10] if n != "Петя")
        assert notices[0][1].startswith("Открыт набор в следующую игру сезона — g2: запись сообщением «+»")
        w.now += timedelta(hours=1)
        w.tick()
        assert len(w.bot_pms()) == before + 9  # once
    finally:
        w.close()


def test_s1_a_sign_up_post_a_moderator_deleted_before_the_close_counts_as_never_made(tmp_path):
    w = World(tmp_path, games=SIGNUP.replace("close_when_full = true", "close_when_full = false"))
    try:
        w.start()
        w.tick()
        ids = []
        for name in NAMES:  # eleven joins: Ёжик is the reserve's first
            w.now += timedelta(minutes=20)
            ids.append(w.post("game", name, "+").id)
            w.tick()
        w.forum.delete_post(ids[0])  # Маша's join removed by a moderator before the close
        w.now = STARTED + timedelta(days=3, minutes=5)
        w.tick()
        run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
        assert [p.nick for p in run.result.players] == NAMES[1:]  # the reserve's first took the place
    finally:
        w.close()


def test_s4_the_daemon_offers_a_seat_to_the_reserve_routes_the_answer_and_makes_the_replacement(signup_world, tmp_path):
    w = signup_world
    w.start()
    w.tick()
    w.now += timedelta(minutes=20)
    w.post("game", "Ёжик", "запас")  # in the sign-up's reserve (S-2)
    for name in NAMES[:10]:
        w.now += timedelta(minutes=20)
        w.post("game", name, "+")
        w.tick()
    w.now += timedelta(hours=1)
    w.post("game", "Гость", "запас")  # during the game: in the reserve after Ёжик
    w.pm(GM, "замена Петя")
    w.tick()
    offers = [text for to, text, _ in w.bot_pms() if to == "Ёжик"]
    assert len(offers) == 1 and offers[0].startswith("Ведущий ищет замену: место игрока [b]Петя[/b] свободно")
    status = game_status(w.daemon.sessions, w.config, "g1", w.now).splitlines()  # S-4: the GM sees the reserve
    assert "запас: Ёжик, Гость" in status and any(line.startswith(
        "предложено: место игрока Петя; кому: Ёжик; до 30.11 20:39 МСК (через ") for line in status)
    (board,) = dashboard(w.daemon.sessions, w.now, config=w.config)["games"]
    assert "Запас: Ёжик, Гость" in board["lines"] and "Место игрока Петя предложено Ёжик до 30.11 20:39 МСК" \
        in board["lines"]
    w.now += timedelta(minutes=10)
    w.pm("Ёжик", "нет")  # the reserve player's PM reaches the game though he plays no seat
    w.tick()
    assert any(to == "Гость" and text.startswith("Ведущий ищет замену") for to, text, _ in w.bot_pms())
    w.now += timedelta(minutes=10)
    w.pm("Гость", "принимаю")
    w.tick()
    texts = [t for _, t, _ in w.bot_posts("g1/game")]
    assert any(t.startswith("Замена: место игрока [b]Петя[/b] занимает [b]Гость[/b].") for t in texts)
    with w.daemon.sessions.begin() as s:
        assert "Гость" in [r.current_nick for r in s.scalars(select(SeatRow).where(SeatRow.game_id == 1))]
    w.now += timedelta(minutes=10)
    w.pm("Гость", "подтверждаю")  # now a player: his PMs go to his seat
    w.tick()
    assert any(to == "Гость" and text.startswith("Роль подтверждена") for to, text, _ in w.bot_pms())
    exported = export_game(w.daemon.sessions, w.config, "g1", w.now)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    replayed, _ = replay.replay(replay.load(path))
    stored = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert [m.text for m in replayed.messages] == [m.text for m in stored.messages]


def test_s4_zamena_nick_alone_asks_the_forum_about_no_account_and_offers_the_seat(signup_world):
    """The check of a `замена`'s new account (issue 7 item 2) looked up the account '' for `замена НИК` alone: a
    forum that can tell answered "no such account", and the offer to the reserve was refused."""
    w = signup_world
    w.forum.accounts = set(NAMES) | {GM}
    w.start()
    w.tick()
    w.now += timedelta(minutes=20)
    w.post("game", "Ёжик", "запас")
    for name in NAMES[:10]:
        w.now += timedelta(minutes=20)
        w.post("game", name, "+")
        w.tick()
    w.now += timedelta(hours=1)
    w.pm(GM, "замена Петя")
    w.tick()
    assert not [c for c in w.forum.calls if c.startswith("account_exists")]
    (answer,) = [t for to, t, at in w.bot_pms() if to == GM and at == w.now and t.startswith("Выполнено")]
    assert [t for to, t, _ in w.bot_pms() if to == "Ёжик"][0].startswith("Ведущий ищет замену")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])  # the stored kind fits PostgreSQL's column
def test_s4_a_full_inbox_refusing_the_offer_is_stored_and_passes_it_on_in_the_same_tick(request, tmp_path, database):
    """S-4: `нет`, silence or a full inbox passes the offer to the next. The outbox's refusal of the offer PM is
    stored as an input (kind "refused") the fold sees, so the offer does not wait out `offer_hours` (the tick
    folds it in and delivers the next offer at once), and the export carries it: a replay gives the same
    messages."""
    w = World(tmp_path / "w", games=SIGNUP,
              database=request.getfixturevalue("pg_database") if database == "postgresql" else "")
    request.addfinalizer(w.close)
    w.start()
    w.tick()
    w.now += timedelta(minutes=20)
    w.post("game", "Ёжик", "запас")
    for name in NAMES[:10]:
        w.now += timedelta(minutes=20)
        w.post("game", name, "+")
        w.tick()
    w.forum.full_inboxes = {"Ёжик"}
    w.now += timedelta(hours=1)
    w.post("game", "Гость", "запас")
    w.pm(GM, "замена Петя")
    report = w.tick()
    assert not [t for to, t, _ in w.bot_pms() if to == "Ёжик"]  # refused by the forum
    with w.daemon.sessions.begin() as s:
        stored = [(r.kind, r.author) for r in s.scalars(select(InputRow).where(InputRow.kind == "refused"))]
    assert stored == [("refused", "Ёжик")]
    (outcome,) = report.games
    assert outcome.delivery is not None and len(outcome.delivery.undelivered) == 1
    (offer,) = [(t, at) for to, t, at in w.bot_pms() if to == "Гость"]
    assert offer[0].startswith("Ведущий ищет замену: место игрока [b]Петя[/b]") and offer[1] == w.now
    told = [t for to, t, _ in w.bot_pms() if to == GM]
    assert any(t.startswith("Форум не доставил [b]Ёжик[/b] предложение места игрока [b]Петя[/b]") for t in told)
    assert any(t.startswith("Форум отказался принять сообщение") for t in told)  # the outbox's own notice
    w.now += timedelta(minutes=10)
    w.pm("Гость", "принимаю")
    w.tick()
    with w.daemon.sessions.begin() as s:
        assert "Гость" in [r.current_nick for r in s.scalars(select(SeatRow).where(SeatRow.game_id == 1))]
    exported = export_game(w.daemon.sessions, w.config, "g1", w.now)
    assert [e["from"] for e in exported["events"] if e["where"] == "undelivered"] == ["Ёжик"]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    replayed, _ = replay.replay(replay.load(path))
    stored_run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert [m.text for m in replayed.messages] == [m.text for m in stored_run.messages]
    assert any(m.text.startswith("Форум не доставил [b]Ёжик[/b]") for m in replayed.messages)


NABOR = SIGNUP.replace("close_when_full = true", 'close_when_full = true\nthread = "g1/nabor"')


def test_s1_s3_a_sign_up_in_its_own_thread_is_read_and_posted_there_and_the_game_starts_in_the_game_thread(
        tmp_path):
    w = World(tmp_path, games=NABOR)
    try:
        w.start()
        w.tick()
        assert [t.split("\n")[0] for _, t, _ in w.bot_posts("g1/nabor")] == ["[b]Набор в игру: московская мафия[/b]"]
        assert w.bot_posts("g1/game") == []  # the game thread waits for the game
        w.now += timedelta(minutes=20)
        w.post("game", "Чужой", "+")  # a `+` in the game thread is not the sign-up's (S-1: its own thread)
        w.post("vote", "Чужой2", "+")
        for name in NAMES[:9]:
            w.now += timedelta(minutes=20)
            w.post("nabor", name, "+")
            w.tick()
        w.restart()  # the sign-up thread's cursor is stored like the others: nothing is read twice or lost
        w.now += timedelta(minutes=20)
        w.post("nabor", NAMES[9], "+")
        w.tick()
        run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
        assert [p.nick for p in run.result.players] == NAMES[:10] and run.phase == "setup"
        nabor = [t for _, t, _ in w.bot_posts("g1/nabor")]
        assert sum(t.startswith("[b]Набор закрыт[/b]") for t in nabor) == 1 and all("(SHA-256)" not in t for t in nabor)
        (opening,) = [t for _, t, _ in w.bot_posts("g1/game") if "(SHA-256)" in t]  # Setup: the game thread
        assert all(n in opening for n in NAMES[:10]) and "Чужой" not in opening
        assert not any(t.startswith("[b]Набор") for _, t, _ in w.bot_posts("g1/game"))
        assert not any(to == "Чужой" for to, _, _ in w.bot_pms())
    finally:
        w.close()


def test_s1_c11_a_join_deleted_from_the_sign_up_thread_before_its_close_counts_as_never_made(tmp_path):
    w = World(tmp_path, games=NABOR.replace("close_when_full = true", "close_when_full = false"))
    try:
        w.start()
        w.tick()
        ids = []
        for name in NAMES:  # eleven joins: Ёжик is the reserve's first
            w.now += timedelta(minutes=20)
            ids.append(w.post("nabor", name, "+").id)
            w.tick()
        w.forum.delete_post(ids[0])  # Маша's join removed by a moderator: only the re-read at the close sees it
        w.now = STARTED + timedelta(days=3, minutes=5)
        w.tick()
        run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
        assert [p.nick for p in run.result.players] == NAMES[1:]  # the reserve's first took the place
        closed = [t for _, t, _ in w.bot_posts("g1/nabor") if t.startswith("[b]Набор закрыт[/b]")]
        assert len(closed) == 1 and "Маша" not in closed[0]
    finally:
        w.close()


def test_s3_s4_a_sign_up_in_its_own_thread_exports_and_replays_and_its_reserve_words_there_count(tmp_path):
    w = World(tmp_path, games=NABOR)
    try:
        w.start()
        w.tick()
        for name in NAMES[:10]:
            w.now += timedelta(minutes=20)
            w.post("nabor", name, "+")
            w.tick()
        w.now += timedelta(hours=1)
        w.post("game", "Игровой", "запас")  # not the sign-up's thread: talk (S-4)
        w.post("nabor", "Ёжик", "запас", ago=timedelta(seconds=20))
        w.pm(GM, "замена Петя", ago=timedelta(seconds=10))
        w.tick()
        assert [to for to, text, _ in w.bot_pms() if "предложено вам из запаса" in text] == ["Ёжик"]
        exported = export_game(w.daemon.sessions, w.config, "g1", w.now)
        assert exported["signup"]["thread"] == "g1/nabor"
        path = tmp_path / "export.json"
        path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
        replayed, _ = replay.replay(replay.load(path))
        stored = fold_game(w.daemon.sessions, w.config, "g1", w.now)
        assert [(m.where, m.text) for m in replayed.messages] == [(m.where, m.text) for m in stored.messages]
    finally:
        w.close()


def test_s5_s1_the_season_notice_links_the_next_games_own_sign_up_thread_where_it_opens(tmp_path):
    season = SEASON.replace("gap = 2", "gap = 0\nnotify = true").replace(
        "[games.g2.signup]\n", '[games.g2.signup]\nthread = "g2/nabor"\n')
    w = World(tmp_path, games=season)
    try:
        w.start()
        w.tick()
        for name in NAMES[:10]:
            w.now += timedelta(minutes=20)
            w.post("game", name, "+")
            w.tick()
        stop_game(w.daemon.sessions, w.config, "g1", w.now, "")
        w.tick()
        before = len(w.bot_pms())
        w.now += timedelta(minutes=1)
        w.tick()
        w.tick()
        notices = [text for _, text, _ in w.bot_pms()[before:]]
        assert len(notices) == 10 and all("g2/nabor" in text and "g1/game" not in text for text in notices)
        assert [t.split("\n")[0] for _, t, _ in w.bot_posts("g2/nabor")] == ["[b]Набор в игру: московская мафия[/b]"]
    finally:
        w.close()


@pytest.mark.parametrize("shared", [False, True], ids=["to-the-bot", "cc"])
def test_s5_ne_pisat_is_honoured_however_it_arrives_to_the_bot_alone_or_with_others_in_copy(tmp_path, shared):
    """S-5: a player who answers `не писать` is never PMed about a sign-up again. Written to the bot and others at
    once (a CC: stored as a "conv", folded as a shared input) it was not read: the season's notice went to him all
    the same, and the game told him to send it again to the bot alone. Either way it is taken, and he is told so."""
    w = World(tmp_path, games=SEASON.replace("gap = 2", "gap = 2\nnotify = true"))
    try:
        w.start()
        w.tick()
        for name in NAMES[:10]:
            w.now += timedelta(minutes=20)
            w.post("game", name, "+")
            w.tick()
        w.now += timedelta(hours=1)
        before = len(w.bot_pms())
        w.forum.add_pm("Петя", "не писать", w.now - timedelta(seconds=30), shared=shared)
        w.tick()
        with w.daemon.sessions.begin() as s:
            kinds = [r.kind for r in s.scalars(select(InputRow).where(InputRow.author == "Петя",
                                                                      InputRow.kind.in_(("pm", "conv"))))]
        assert kinds == ["conv" if shared else "pm"]
        (answer,) = [(to, t.split("\n")[0]) for to, t, _ in w.bot_pms()[before:]]
        assert answer == ("Петя", "Принято: о наборах в следующие игры сезона бот вам больше не напишет.")
        stop_game(w.daemon.sessions, w.config, "g1", w.now, "")
        w.tick()
        before = len(w.bot_pms())
        w.now += timedelta(hours=2)
        w.tick()
        w.tick()
        assert game_status(w.daemon.sessions, w.config, "g2", w.now).startswith("g2: идёт")
        notices = [to for to, _, _ in w.bot_pms()[before:]]
        assert sorted(notices) == sorted(n for n in NAMES[:10] if n != "Петя")
    finally:
        w.close()
