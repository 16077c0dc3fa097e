"""The daemon's commands and their exit codes: 0 ok, 2 bad config or setup, 3 forum unreachable; expected
failures are one line on stderr, never a traceback."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from daemon_world import config_toml, game_toml

from forumbot.cli.main import main
from forumbot.errors import ForumUnavailable
from forumbot.forum.adapter import AdapterBase
from forumbot.store.schema import SCHEMA_HEAD


class DownForum(AdapterBase):
    """An adapter for a forum that never answers."""

    def __init__(self, **_):
        pass

    logins = 0

    def login(self):
        DownForum.logins += 1
        raise ForumUnavailable("connection refused")

    def fetch_posts(self, topic, after=None):
        raise ForumUnavailable("connection refused")

    fetch_pms = reply = send_pm = find_own_post = fetch_posts


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "forumbot.toml"
    start = datetime.now(timezone.utc) + timedelta(days=1)
    path.write_text(config_toml(game_toml("g1", start=start)), encoding="utf-8")
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_tick_before_db_upgrade_exits_2_naming_the_command(config, capsys):
    code, _, err = run(capsys, "tick", "-c", str(config))
    assert code == 2 and "запустите `forumbot db upgrade`" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("language, said", [
    ("ru", ("forumbot: в базе данных нет таблиц forumbot, а этому forumbot нужна {head}: запустите `forumbot db "
            "upgrade`", "база данных в версии схемы {head}")),
    ("en", ("forumbot: the database has no forumbot tables, this forumbot needs {head}: run `forumbot db upgrade`",
            "database at schema version {head}")),
])
def test_issue28_db_upgrade_and_a_database_not_upgraded_speak_the_gms_language(config, capsys, language, said):
    """`forumbot db upgrade`'s report and a database not upgraded yet were English to a Russian GM (stop 36)."""
    text = config.read_text(encoding="utf-8").replace('forum = "main"', f'forum = "main"\nlanguage = "{language}"', 1)
    config.write_text(text, encoding="utf-8")
    refused, upgraded = (line.format(head=SCHEMA_HEAD) for line in said)
    code, _, err = run(capsys, "game", "list", "-c", str(config))
    assert code == 2 and err.strip() == refused
    code, out, _ = run(capsys, "db", "upgrade", "-c", str(config))
    assert code == 0 and out.strip() == upgraded


def test_the_whole_lifecycle_from_the_command_line(config, capsys):
    assert run(capsys, "db", "upgrade", "-c", str(config))[0] == 0
    code, out, _ = run(capsys, "game", "list", "-c", str(config))
    assert code == 0 and out.split() == ["g1", "не", "начата", "live"]
    code, out, _ = run(capsys, "game", "start", "g1", "-c", str(config))
    assert code == 0 and "контрольная сумма раздачи ролей" in out
    # tick holds back what is younger than grace_seconds: the GM is told when the role PMs go, not "next tick"
    assert "Первый тик начиная с " in out and " (grace_seconds = " in out and " UTC (" not in out
    assert run(capsys, "game", "start", "g1", "-c", str(config))[0] == 2  # once only
    assert run(capsys, "tick", "-c", str(config))[0] == 0
    code, out, _ = run(capsys, "game", "status", "g1", "-c", str(config))
    assert code == 0 and "g1: идёт" in out and "отправлено 11" in out  # the player list and ten role PMs
    assert "фаза: подготовка" in out and "в игре (10)" in out
    assert run(capsys, "game", "status", "nope", "-c", str(config))[0] == 2


def test_game_start_refuses_a_setup_the_rules_refuse(tmp_path, capsys):
    path = tmp_path / "forumbot.toml"
    path.write_text(config_toml(game_toml("g1", players=[(f"P{i}", "") for i in range(9)])), encoding="utf-8")
    run(capsys, "db", "upgrade", "-c", str(path))
    code, _, err = run(capsys, "game", "start", "g1", "-c", str(path))
    assert code == 2 and err.startswith("forumbot: games.g1:")


def test_unreachable_forum_exits_3_after_retries(config, capsys):
    text = config.read_text(encoding="utf-8").replace('engine = "memory"',
                                                        f'engine = "{__name__}:DownForum"\nbase_url = "http://x"')
    config.write_text(text, encoding="utf-8")
    run(capsys, "db", "upgrade", "-c", str(config))
    run(capsys, "game", "start", "g1", "-c", str(config))
    code, _, err = run(capsys, "tick", "-c", str(config))
    assert code == 3 and "forum unreachable" in err and "connection refused" in err


def test_game_start_retries_a_forum_that_is_down_as_the_config_says(config, capsys, monkeypatch):
    """`game start`'s account look-up (issue 28 item 4) retries as a tick does, `retries` times after `backoff_seconds`
    (the test config: 2 retries, no wait), not by built-in defaults that kept the GM waiting 35 s for a board that
    is down."""
    text = config.read_text(encoding="utf-8").replace('engine = "memory"',
                                                        f'engine = "{__name__}:DownForum"\nbase_url = "http://x"')
    config.write_text(text, encoding="utf-8")
    run(capsys, "db", "upgrade", "-c", str(config))
    monkeypatch.setattr(DownForum, "logins", 0)
    code, out, err = run(capsys, "game", "start", "g1", "-c", str(config))
    assert code == 0 and "connection refused" in err
    assert DownForum.logins == 3  # the first try and the config's 2 retries


def test_unknown_engine_and_missing_password_are_config_errors(config, capsys):
    run(capsys, "db", "upgrade", "-c", str(config))
    run(capsys, "game", "start", "g1", "-c", str(config))
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('engine = "memory"', 'engine = "nosuchbb"\nbase_url = "http://x"'), encoding="utf-8")
    code, _, err = run(capsys, "tick", "-c", str(config))
    assert code == 2 and "неизвестный движок форума 'nosuchbb'" in err  # the GMs' language (issue 28)
    config.write_text(text.replace('login = "', 'password_env = "FORUMBOT_TEST_NO_SUCH_VAR"\nlogin = "'),
                      encoding="utf-8")
    code, _, err = run(capsys, "tick", "-c", str(config))
    assert code == 2 and "FORUMBOT_TEST_NO_SUCH_VAR is not set" in err


def test_a_second_tick_skips_a_locked_game_and_exits_0(config, capsys):
    from forumbot.config.load import load_config
    from forumbot.store import open_engine
    from forumbot.store.locks import locks_for

    run(capsys, "db", "upgrade", "-c", str(config))
    run(capsys, "game", "start", "g1", "-c", str(config))
    loaded = load_config(config)
    engine = open_engine(loaded.database_url)
    with locks_for(engine, loaded.state_dir).hold("game:g1") as mine:
        assert mine
        assert run(capsys, "tick", "-c", str(config))[0] == 0
        code, out, _ = run(capsys, "game", "status", "g1", "-c", str(config))
        assert "очередь сообщений: пусто" in out  # the locked game was left alone
    engine.dispose()
    assert run(capsys, "tick", "-c", str(config))[0] == 0
    assert "отправлено 11" in run(capsys, "game", "status", "g1", "-c", str(config))[1]


def test_the_core_cli_offers_the_daemon_commands(capsys):
    from forumbot.cli.main import main as forumbot

    with pytest.raises(SystemExit) as caught:
        forumbot(["tick", "--help"])
    assert caught.value.code == 0 and "--config" in capsys.readouterr().out


class LockedOutForum(DownForum):
    """A forum that keeps serving its login page; it was given the password, and must not leak it."""

    def __init__(self, password=None, **_):
        self.password = password

    def login(self):
        from forumbot.errors import LoginRequired

        raise LoginRequired("the forum served its login page")


def test_check_config_online_names_the_unreachable_forum_and_exits_3(config, capsys):
    text = config.read_text(encoding="utf-8").replace('engine = "memory"',
                                                        f'engine = "{__name__}:DownForum"\nbase_url = "http://x"')
    config.write_text(text, encoding="utf-8")
    assert run(capsys, "check-config", "-c", str(config))[0] == 0  # offline, nothing is contacted
    code, _, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert code == 3 and err.startswith("forumbot: forums.main: не удалось войти: connection refused")  # ru: the game's


def test_the_password_never_appears_in_output_or_logs(config, capsys, caplog, monkeypatch):
    secret = "hunter2-s3cr3t"
    monkeypatch.setenv("FORUMBOT_TEST_SECRET", secret)
    text = config.read_text(encoding="utf-8").replace(
        'engine = "memory"', f'engine = "{__name__}:LockedOutForum"\nbase_url = "http://x"\n'
                             'password_env = "FORUMBOT_TEST_SECRET"')
    config.write_text(text, encoding="utf-8")
    run(capsys, "db", "upgrade", "-c", str(config))
    run(capsys, "game", "start", "g1", "-c", str(config))
    code, out, err = run(capsys, "tick", "-c", str(config))
    assert code == 3 and "login page" in err
    assert secret not in out + err + caplog.text


def test_game_start_refuses_a_game_whose_day_one_is_over_issue7_item14(tmp_path, capsys):
    """C-1: a game started after its Day 1 deadline would resolve every past deadline in its first tick."""
    from sqlalchemy import func, select

    from forumbot.config.load import load_config
    from forumbot.store import GameRow, open_engine, session_factory

    path = tmp_path / "forumbot.toml"
    start = datetime.now(timezone.utc) - timedelta(hours=25)  # Day 1 (24 h) ended an hour ago
    path.write_text(config_toml(game_toml("g1", start=start)), encoding="utf-8")
    run(capsys, "db", "upgrade", "-c", str(path))
    code, _, err = run(capsys, "game", "start", "g1", "-c", str(path))
    assert code == 2 and err.startswith("forumbot: games.g1.start: Day 1 would have ended at")
    assert "set `start` to a later time" in err and len(err.strip().splitlines()) == 1
    engine = open_engine(load_config(path).database_url)
    with session_factory(engine).begin() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 0
    engine.dispose()
    text = path.read_text(encoding="utf-8").replace(start.isoformat(), (start + timedelta(hours=2)).isoformat())
    path.write_text(text, encoding="utf-8")  # Day 1 still open: it may start (late, but with a day to play)
    assert run(capsys, "game", "start", "g1", "-c", str(path))[0] == 0


# --- check-config --online: the board's zone (issue 7 item 3) and threads it cannot name (item 19) ----------

PHPBB_URL = "http://127.0.0.1:8081/"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def phpbb_config(path, zone: str | None, game_thread: str = "101"):
    text = path.read_text(encoding="utf-8").replace(
        'engine = "memory"', f'engine = "phpbb"\nbase_url = "{PHPBB_URL}"' + (f'\ntimezone_name = "{zone}"' if zone else ""))
    text = text.replace('game_thread = "g1/game"', f'game_thread = "{game_thread}"')
    path.write_text(text.replace('vote_thread = "g1/vote"', 'vote_thread = "102"'), encoding="utf-8")


@pytest.fixture
def board(monkeypatch):
    """The real phpBB adapter with login and topic reading stubbed: what --online checks is the rest."""
    import responses

    from adapters.phpbb.forum import PhpbbForum

    def fetch_posts(self, topic, after=None):
        self.topic_id(topic)
        return [], None

    monkeypatch.setattr(PhpbbForum, "login", lambda self: None)
    monkeypatch.setattr(PhpbbForum, "fetch_posts", fetch_posts)

    with responses.RequestsMock(assert_all_requests_are_fired=False) as http:
        # the saved page's footer: "Часовой пояс: UTC+03:00"
        http.add("GET", PHPBB_URL + "index.php", body=(FIXTURES / "phpbb" / "05_index_logged_in.html").read_bytes(),
                 content_type="text/html; charset=UTF-8")
        # the probe's selector check (issue 9 item 4) reads a thread page and the inbox
        for path, name in (("viewtopic.php", "20_topic_page1.html"), ("ucp.php", "30_pm_inbox_all_unread.html")):
            http.add("GET", PHPBB_URL + path, body=(FIXTURES / "phpbb" / name).read_bytes(),
                     content_type="text/html; charset=UTF-8")
        # issue 28 item 4: each player's profile by name, as the saved pages show one; MISSING has no account
        http.add_callback("GET", PHPBB_URL + "memberlist.php", callback=_profile)
        yield http


MISSING = "Мафф1"  # a typo of Маф1, who has one


def _profile(request):  # type: ignore[no-untyped-def]
    from urllib.parse import parse_qs, urlsplit

    name = parse_qs(urlsplit(request.url).query)["un"][0]
    headers = {"Content-Type": "text/html; charset=UTF-8"}
    if name == MISSING:  # a 404 with the notice box, as phpBB answers a name nobody has
        return 404, headers, (FIXTURES / "phpbb" / "47_memberlist_viewprofile_un_no_user.html").read_bytes()
    page = (FIXTURES / "phpbb" / "44_memberlist_profile_masha.html").read_text(encoding="utf-8")
    return 200, headers, page.replace("Маша", name).encode("utf-8")


def test_issue7_item3_online_names_a_board_zone_other_than_the_one_dates_are_read_in(config, capsys, board):
    phpbb_config(config, "Europe/London")
    code, _, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert code == 2
    assert err.startswith("forumbot: forums.main.timezone_name: the board shows the bot's account times in UTC+03:00, "
                          "but they are read in Europe/London (UTC+00:00)")
    assert len(err.strip().splitlines()) == 1


def test_issue7_item3_online_accepts_the_board_zone_defaulted_from_the_game(config, capsys, board):
    phpbb_config(config, None)  # the game's zone is Europe/Moscow: UTC+03:00, as the board shows
    code, out, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert (code, err) == (0, "") and "всё в порядке" in out


def test_issue7_item19_online_names_a_thread_that_is_not_a_topic(config, capsys, board):
    phpbb_config(config, None, game_thread="topic two")
    code, _, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert code == 2
    # issue 28 item 2: in the game's language (Russian)
    assert err == ("forumbot: games.g1.game_thread: «topic two» — не адрес темы phpbb (может быть, раздела или "
                   "сообщения?); адрес темы выглядит как http://127.0.0.1:8081/viewtopic.php?t=123, или укажите "
                   "номер темы\n")


FORUM_URL = PHPBB_URL + "viewforum.php?f=2"
NOT_A_THREAD = (f"games.g1.game_thread: «{FORUM_URL}» — не адрес темы phpbb (может быть, раздела или сообщения?); "
                "адрес темы выглядит как http://127.0.0.1:8081/viewtopic.php?t=123, или укажите номер темы")


def test_issue28_item2_check_config_names_a_bad_thread_in_an_english_games_language(config, capsys):
    phpbb_config(config, None, game_thread=FORUM_URL)
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('forum = "main"', 'forum = "main"\nlanguage = "en"', 1), encoding="utf-8")
    code, _, err = run(capsys, "check-config", "-c", str(config))
    assert code == 2 and (f"games.g1.game_thread: '{FORUM_URL}' is not a phpbb thread's address (a forum's or a "
                          "post's?); a thread's address looks like http://127.0.0.1:8081/viewtopic.php?t=123, or "
                          "give the thread's number") in err


def test_issue28_item4_check_config_names_a_forum_address_in_place_of_a_thread(config, capsys):
    phpbb_config(config, None, game_thread=FORUM_URL)
    code, _, err = run(capsys, "check-config", "-c", str(config))
    assert code == 2 and NOT_A_THREAD in err and "ValueError" not in err


def test_issue28_item4_game_start_refuses_a_forum_address_in_place_of_a_thread(config, capsys):
    phpbb_config(config, None, game_thread=FORUM_URL)
    assert run(capsys, "db", "upgrade", "-c", str(config))[0] == 0
    code, _, err = run(capsys, "game", "start", "g1", "-c", str(config))
    assert (code, err) == (2, f"forumbot: {NOT_A_THREAD}\n")


def test_issue28_item4_tick_names_a_thread_address_edited_after_the_start(config, capsys, board):
    phpbb_config(config, None)
    assert run(capsys, "db", "upgrade", "-c", str(config))[0] == 0
    assert run(capsys, "game", "start", "g1", "-c", str(config))[0] == 0
    config.write_text(config.read_text(encoding="utf-8").replace('game_thread = "101"', f'game_thread = "{FORUM_URL}"'),
                      encoding="utf-8")
    code, _, err = run(capsys, "tick", "-c", str(config))
    assert code == 2 and f"forumbot: {NOT_A_THREAD}" in err and "unexpected error" not in err


def test_issue28_item5_a_refused_login_names_the_variable_holding_the_password(config, capsys, board, monkeypatch):
    from adapters.phpbb.forum import PhpbbForum
    from forumbot.errors import LoginRequired

    def refuse(self):
        raise LoginRequired("phpbb: login refused: You have specified an incorrect password.")

    monkeypatch.setattr(PhpbbForum, "login", refuse)
    monkeypatch.setenv("FORUMBOT_PASSWORD", "wrong")
    phpbb_config(config, None)
    config.write_text(config.read_text(encoding="utf-8").replace(
        'login = "Бот"', 'login = "Бот"\npassword_env = "FORUMBOT_PASSWORD"'), encoding="utf-8")
    code, _, err = run(capsys, "check-config", "--online", "-c", str(config))
    assert code == 2
    assert ("forums.main: не удалось войти: phpbb: login refused: You have specified an incorrect password. (check the "
            "password in the environment variable FORUMBOT_PASSWORD and forums.main.login = 'Бот')") in err
