"""issue 28 item 4: players' accounts are looked up before anything is posted. `check-config --online` and
`game start` ask the board for each player and GM (phpBB: the profile by name); a typo is named in the board's own
words, in the GMs' language, and `game start` then starts nothing. The board is the saved phpBB pages behind the
real adapter (test_daemon_cli's `board`: a profile for every name but MISSING, which gets phpBB's «no such user»)."""

from __future__ import annotations

from sqlalchemy import func, select
from test_daemon_cli import MISSING, board, config, phpbb_config, run  # noqa: F401 (fixtures)

from forumbot.config.load import load_config
from forumbot.store import GameRow, open_engine, session_factory

NO_SUCH_USER = "Запрашиваемого пользователя не существует."  # fixtures/phpbb/47_memberlist_viewprofile_un_no_user


def _with_typo(config, language: str = "") -> None:
    phpbb_config(config, None)
    text = config.read_text(encoding="utf-8").replace('"Маф1"', f'"{MISSING}"', 1)
    if language:
        text = text.replace('variant = "moscow"', f'variant = "moscow"\nlanguage = "{language}"')
    config.write_text(text, encoding="utf-8")


def _games(config) -> int:
    engine = open_engine(load_config(config).database_url)
    with session_factory(engine).begin() as s:
        count = s.scalar(select(func.count()).select_from(GameRow))
    engine.dispose()
    return count


def test_issue28_item4_check_config_online_names_a_players_typo_in_the_boards_words(config, capsys, board):
    _with_typo(config)
    code, _, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert code == 2
    (line,) = [ln for ln in err.splitlines() if MISSING in ln]
    assert line == (f"forumbot: games.g1.players: на форуме нет учётной записи «{MISSING}» (форум отвечает: "
                    f"«Информация {NO_SUCH_USER}»): проверьте, как пишется имя")


def test_issue28_item4_check_config_online_names_it_in_english_for_english_games(config, capsys, board):
    _with_typo(config, "en")
    code, _, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert code == 2
    (line,) = [ln for ln in err.splitlines() if MISSING in ln]
    assert line == (f"forumbot: games.g1.players: the board has no account «{MISSING}» (the board says: "
                    f"«Информация {NO_SUCH_USER}»): check how the name is spelt")


def test_issue28_item4_game_start_refuses_a_typo_before_anything_is_drawn_or_posted(config, capsys, board):
    _with_typo(config)
    run(capsys, "db", "upgrade", "-c", str(config))
    code, out, err = run(capsys, "game", "start", "g1", "-c", str(config))
    assert code == 2 and out == ""
    assert f"нет учётной записи «{MISSING}»" in err and NO_SUCH_USER in err
    assert "игра g1 не начата, ничего не отправлено" in err
    assert _games(config) == 0  # no draw, no seed, nothing for a tick to post
    assert not [c for c in board.calls if c.request.method == "POST"]
    config.write_text(config.read_text(encoding="utf-8").replace(f'"{MISSING}"', '"Маф1"'), encoding="utf-8")
    code, out, err = run(capsys, "game", "start", "g1", "-c", str(config))  # the name fixed: it starts
    assert code == 0 and "игра запущена" in out and err == ""
    assert _games(config) == 1


def test_issue28_item4_game_start_with_an_unreachable_member_list_warns_and_starts(config, capsys, board):
    """A board that does not answer the look-up is no typo: the start goes on, and says what was not checked."""
    phpbb_config(config, None)
    board.replace("GET", "http://127.0.0.1:8081/memberlist.php", status=503, body="down")
    run(capsys, "db", "upgrade", "-c", str(config))
    code, out, err = run(capsys, "game", "start", "g1", "-c", str(config))
    assert code == 0 and "игра запущена" in out
    assert "предупреждение: учётные записи игры g1 не проверены" in err
