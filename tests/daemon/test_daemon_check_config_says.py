"""issue 17 item 15 (the GM's side): `check-config` says the cast it will deal, and that `cast.mafia` does not count
the Don (R-10, M-1); `check-config --online` says what it verified (the login, the board's zone, each thread read,
the selectors), not only "ok"."""

from __future__ import annotations

from daemon_world import config_toml, game_toml
from test_daemon_cli import board, config, phpbb_config, run  # noqa: F401 (fixtures)

from forumbot.cli.main import main

START = "2027-12-01T10:00:00+03:00"


def _check(tmp_path, capsys, games: str) -> str:
    path = tmp_path / "forumbot.toml"
    path.write_text(config_toml(games), encoding="utf-8")
    assert main(["check-config", "-c", str(path)]) == 0
    return capsys.readouterr().out


def _english(games: str) -> str:
    return games.replace('forum = "main"', 'forum = "main"\nlanguage = "en"')


def test_the_cast_summary_of_a_moscow_game_with_the_roles_given(tmp_path, capsys):
    out = _check(tmp_path, capsys, _english(game_toml("g1")))
    assert "games.g1: Moscow mafia, 10 players: 6 civilian, 1 sheriff, 3 mafia members (2 mafia and the Don)\n" in out


def test_the_cast_summary_says_cast_mafia_does_not_count_the_don(tmp_path, capsys):
    players = [(f"И{i}", "") for i in range(1, 12)]
    games = game_toml("g1", players=players) + "[games.g1.options]\ncast = { mafia = 2, don = 1 }\n"
    out = _check(tmp_path, capsys, _english(games))
    assert ("games.g1: Moscow mafia, 11 players: 7 civilian, 1 sheriff, 3 mafia members (the Don among them, chosen "
            "by the mafia during Setup, M-1); cast.mafia counts the mafiosi without the Don (R-10)\n") in out


def test_the_cast_summary_of_a_free_hunt_game(tmp_path, capsys):
    players = [(f"И{i}", "") for i in range(1, 13)]
    games = game_toml("g1", players=players).replace('variant = "moscow"', 'variant = "free_hunt"')
    out = _check(tmp_path, capsys, _english(games))
    assert ("games.g1: Free Hunt mafia, 12 players: 7 civilian, 1 doctor, 1 maniac, 3 mafia (no Don in this "
            "variant)\n") in out


def test_the_cast_summary_speaks_the_gms_language(tmp_path, capsys):
    """issue 28 item 4: a Russian game's check-config printed its cast line in English among Russian lines."""
    players = [(f"И{i}", "") for i in range(1, 12)]
    games = game_toml("g1", players=players) + "[games.g1.options]\ncast = { mafia = 2, don = 1 }\n"
    out = _check(tmp_path, capsys, games)
    assert ("games.g1: московская мафия, игроков — 11: мирный житель — 7, шериф — 1, членов мафии — 3 (дона из них "
            "выбирает сама мафия в подготовке, M-1); cast.mafia считает мафию без дона (R-10)\n") in out
    hunt = [(f"И{i}", "") for i in range(1, 13)]
    out = _check(tmp_path, capsys, game_toml("g1", players=hunt).replace('variant = "moscow"', 'variant = "free_hunt"'))
    assert ("games.g1: мафия со свободной охотой, игроков — 12: мирный житель — 7, доктор — 1, маньяк — 1, "
            "мафия — 3 (в этом варианте дона нет)\n") in out


def test_check_config_online_says_what_it_verified(config, capsys, board):
    phpbb_config(config, None)  # the game's zone, Europe/Moscow, is the one the board shows (UTC+03:00)
    code, out, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert (code, err) == (0, "")
    lines = out.splitlines()  # in the game's language, Russian by default (issue 28 item 4)
    assert "проверено: forums.main: вход выполнен как Бот" in lines
    assert ("проверено: forums.main: форум показывает боту время в UTC+03:00 (Europe/Moscow) — в том поясе, в котором "
            "бот его читает") in lines
    assert "проверено: games.g1.game_thread: прочитана тема 101 (сообщений на первой странице: 0)" in lines
    assert "проверено: games.g1.vote_thread: прочитана тема 102 (сообщений на первой странице: 0)" in lines
    assert "проверено: forums.main: все селекторы, нужные боту, нашлись на странице темы и во входящих" in lines
    assert "проверено: games.g1: все учётные записи игры (11) есть на форуме" in lines
    assert lines[-1].endswith(": всё в порядке (форумов: 1, игр: 1)")


def test_issue28_item4_check_config_online_says_it_in_english_for_english_games(config, capsys, board):
    phpbb_config(config, None)
    config.write_text(config.read_text(encoding="utf-8").replace('variant = "moscow"',
                                                                 'variant = "moscow"\nlanguage = "en"'),
                      encoding="utf-8")
    code, out, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "verified: forums.main: logged in as Бот" in lines
    assert ("verified: forums.main: the board shows the bot's times in UTC+03:00 (Europe/Moscow), the zone they "
            "are read in") in lines
    assert "verified: games.g1.game_thread: read 101 (0 post(s) on its first page)" in lines
    assert "verified: games.g1.vote_thread: read 102 (0 post(s) on its first page)" in lines
    assert "verified: forums.main: every selector the bot needs matched the thread page and the inbox" in lines
    assert "verified: games.g1: the board has every account of the game (11)" in lines
    assert lines[-1].endswith(": ok (1 forum(s), 1 game(s))")


def test_s1_check_config_online_reads_the_sign_up_thread_like_the_games_threads(tmp_path, capsys, board):
    from datetime import datetime, timedelta, timezone

    from daemon_world import GM
    from test_daemon_cli import phpbb_config

    closes = (datetime.now(timezone.utc) + timedelta(days=3)).isoformat()
    path = tmp_path / "forumbot.toml"
    path.write_text(config_toml(f"""
[games.g1]
forum = "main"
variant = "moscow"
game_thread = "g1/game"
vote_thread = "g1/vote"
gms = ["{GM}"]
[games.g1.signup]
closes = {closes}
thread = "103"
"""), encoding="utf-8")
    phpbb_config(path, None)
    code, out, err = run(capsys, "check-config", "--online", "-c", str(path))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "проверено: games.g1.signup.thread: прочитана тема 103 (сообщений на первой странице: 0)" in lines
    assert "проверено: games.g1.game_thread: прочитана тема 101 (сообщений на первой странице: 0)" in lines
