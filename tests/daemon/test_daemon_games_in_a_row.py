"""Games one after another on one forum, with the same players and GM (issue 7 items 1, 15, 17, 23)."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import CAST, GM, STARTED, STEPS, T0, World, game_toml, play

from forumbot.games.status import game_status
from forumbot.store.models import GameRow
from forumbot.store.game import fold_game

DAY1 = STEPS[2][0]
SECOND_T0 = T0 + timedelta(days=10)
MAFIA = ("Дон", "Маф1", "Маф2")


def _end_first_game(w: World) -> None:
    """g1 ends on Day 1: the GM pauses and resumes, says something and modkills the three mafia."""
    play(w, upto=2)
    w.now = DAY1 + timedelta(minutes=40)
    w.pm(GM, "пауза", ago=timedelta(minutes=9))
    w.pm(GM, "продолжить", ago=timedelta(minutes=8))
    w.pm(GM, "сказать Всем удачи", ago=timedelta(minutes=7))
    for mafioso in MAFIA:
        w.pm(GM, f"модкилл {mafioso}")
    w.tick()
    with w.daemon.sessions.begin() as s:
        assert s.get(GameRow, 1).status == "ended"


def two_games(tmp_path) -> World:
    return World(tmp_path, games=game_toml("g1") + game_toml("g2", start=SECOND_T0))


def test_a_second_game_takes_no_pm_of_the_first_issue7_item1(tmp_path):
    w = two_games(tmp_path)
    _end_first_game(w)
    w.now = SECOND_T0 - timedelta(days=1)
    w.start("g2", seed=3)
    w.now += timedelta(minutes=1)
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g2", w.now)
    assert run.phase == "setup"
    assert all(p.alive for p in run.result.players)
    assert [m.key for m in run.messages if m.key.startswith(("gm/", "undo/"))] == []
    assert [t for _, t, _ in w.bot_posts("g2/game")] == [run.messages[0].text + "\n\n" + _marker(w, "g2")]
    # g2 answered nobody's old PMs: only role PMs went out for it
    assert {to for to, t, at in w.bot_pms() if at >= w.now - timedelta(minutes=1)} == {n for n, _ in CAST}
    w.close()


def _marker(w: World, game: str) -> str:
    from forumbot.outbox.store import marker

    return marker(game, "setup/players")


def test_a_pm_of_the_second_game_reaches_it_after_the_first_ended_issue7_item1(tmp_path):
    w = two_games(tmp_path)
    _end_first_game(w)
    w.now = SECOND_T0 - timedelta(days=1)
    w.start("g2", seed=3)
    w.now += timedelta(hours=1)
    w.pm("М1", "подтверждаю")
    w.tick()
    replies = [t for to, t, at in w.bot_pms() if to == "М1" and at == w.now]
    assert len(replies) == 2  # the role PM and the answer to the confirmation
    w.close()


def test_status_of_an_ended_game_folds_all_its_pms_issue7_item17(tmp_path):
    w = World(tmp_path)
    _end_first_game(w)
    w.now += timedelta(days=2)
    status = game_status(w.daemon.sessions, w.config, "g1", now=w.now)
    phase = status.splitlines()[1]
    assert phase.startswith("фаза: игра окончена")
    alive = phase.split(": ", 2)[2].split(", ")
    assert sorted(alive) == sorted(n for n, _ in CAST if n not in MAFIA)
    w.close()


def test_a_tick_that_listed_the_game_before_another_ended_it_sends_nothing_issue7_item15(tmp_path):
    """Tick B lists g1 as running; before it takes the game's lock, tick A ends the game. B must not fold the
    ended game again (it used to, without the game's PMs, and sent confirmation reminders to the dead)."""
    w = World(tmp_path)
    play(w, upto=2)
    w.now = DAY1 + timedelta(minutes=40)
    for mafioso in MAFIA:
        w.pm(GM, f"модкилл {mafioso}")
    first, second = w.daemon, w.new_daemon()
    seen: dict[str, tuple] = {}

    def other_tick_ends_the_game(point: str) -> None:
        if point == "after_list" and not seen:
            first.cycle()
            seen["after_end"] = w.state()

    report = second.cycle(other_tick_ends_the_game)
    assert w.state() == seen["after_end"]
    assert [g.state for g in report.games] == ["ended"]
    with w.daemon.sessions.begin() as s:
        assert s.get(GameRow, 1).ended_at == w.now
    w.close()


def test_setup_reminder_is_timed_from_game_start_not_an_earlier_post_issue7_item23(tmp_path):
    """C-2: Setup runs from `game start` to Day 1; its one reminder falls half-way (or 12 h before Day 1)."""
    w = World(tmp_path)
    w.now = T0 - timedelta(days=10)
    w.post("game", GM, "Скоро игра, записывайтесь")
    w.now = T0 - timedelta(hours=2)
    w.start()
    w.now += timedelta(minutes=1)
    w.tick()
    roles = [(to, at) for to, t, at in w.bot_pms()]
    assert len(roles) == len(CAST) and all(at == w.now for _, at in roles)
    w.now = T0 - timedelta(hours=1, minutes=1)
    w.tick()
    assert len(w.bot_pms()) == len(CAST)  # no reminder yet
    w.now = T0 - timedelta(minutes=59)
    w.tick()
    assert len(w.bot_pms()) == 2 * len(CAST)
    w.close()


def test_pm_before_game_start_is_not_the_games(tmp_path):
    """A confirmation sent before `game start` (e.g. for the last game) does not confirm the new role."""
    w = World(tmp_path)
    w.now = STARTED - timedelta(days=3)
    w.pm("М1", "подтверждаю")
    w.now = STARTED
    w.start()
    w.now = STARTED + timedelta(minutes=1)
    w.tick()
    assert [t for to, t, _ in w.bot_pms() if to == "М1"] and len([to for to, _, _ in w.bot_pms() if to == "М1"]) == 1
    w.close()


# --- a season in the same threads: game 2 where game 1 was played ----------------------------------------------


def same_threads(tmp_path) -> World:
    g2 = game_toml("g2", start=SECOND_T0).replace('"g2/game"', '"g1/game"').replace('"g2/vote"', '"g1/vote"')
    return World(tmp_path, games=game_toml("g1") + g2)


def test_a_second_game_in_the_first_games_threads_waits_for_it_to_end(tmp_path, capsys):
    """The config names both games (g1's table kept, so `game status g1` still folds its end); the threads are
    shared, so g2 cannot start while g1 runs, and check-config says so ahead: a warning, not a refusal."""
    from forumbot.cli.main import main
    from forumbot.errors import ConfigError

    w = same_threads(tmp_path)
    assert main(["check-config", "-c", str(w.config_path)], clock=lambda: w.now) == 0
    err = capsys.readouterr().err
    assert "forumbot: предупреждение: games.g2.game_thread: это и тема игры 'g1' (ещё не начата)" in err
    assert "games.g1" not in err  # of two games not started, the later one waits
    play(w, upto=2)
    try:
        w.start("g2", seed=3)
    except ConfigError as e:
        assert str(e).startswith("games.g2.game_thread: also the thread of game 'g1', which is still running")
    else:
        raise AssertionError("g2 started in g1's threads while g1 runs: both would count the same votes")
    w.close()


def test_a_second_game_in_the_same_threads_counts_no_vote_of_the_first(tmp_path, capsys):
    from forumbot.cli.main import main

    w = same_threads(tmp_path)
    _end_first_game(w)  # g1's Day 1 had 7 votes for Маф1 in g1/vote
    assert main(["check-config", "-c", str(w.config_path)], clock=lambda: w.now) == 0
    assert "warning" not in capsys.readouterr().err  # g1 has ended: g2 may start in its threads
    w.now = SECOND_T0 - timedelta(days=1)
    w.start("g2", seed=3)
    w.now += timedelta(minutes=1)
    w.tick()
    w.now = SECOND_T0 + timedelta(minutes=1)
    w.tick()  # Day 1 opens (without a tick while it runs, it would open only when the bot is back: C-14)
    w.now = SECOND_T0 + timedelta(hours=2)
    w.post("vote", "М1", "М2")
    w.now = SECOND_T0 + timedelta(hours=24, minutes=1)
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g2", w.now)
    final = next(m.text for m in run.messages if "Итоговый подсчёт голосов (день 1)" in m.text)
    # its one vote only: none of g1's seven for Маф1 posted in the same vote thread
    assert "[b]М2[/b] — 1 голос: М1 (L-5)\n\nБез голоса (9)" in final and "Маф1[/b] —" not in final, final
    assert "итог: игра окончена" in game_status(w.daemon.sessions, w.config, "g1", now=w.now)
    w.close()
