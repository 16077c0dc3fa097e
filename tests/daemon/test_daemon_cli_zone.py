"""issue 17 item 13: the command line speaks the game's zone, not UTC (`game start`, `game status`, `probe`), and
`game status` shows the GMs every role and the Don (the public never sees that output)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from daemon_world import play, world  # noqa: F401 (a fixture)

from forumbot.cli.main import main
from forumbot.probe.board import ProbeReport
from forumbot.probe.report_text import to_text


@pytest.fixture
def cli(world, capsys):
    def run(*argv: str) -> str:
        code = main([*argv, "-c", str(world.config_path)], clock=lambda: world.now)
        out, err = capsys.readouterr()
        assert code == 0, err
        return out

    return run


def test_game_start_says_when_the_first_tick_is_due_in_the_games_zone(world, cli):
    out = cli("game", "start", "g1")  # the world's clock: 2026-11-30 10:00 MSK, 07:00 UTC
    # issue 28 item 4: the time as the texts write it, not «2026-11-30 10:00:00 Europe/Moscow» in a Russian line
    assert "Первый тик начиная с 30.11 10:00:00 МСК (grace_seconds = 0)" in out
    assert "UTC" not in out and "started" not in out  # issue 28 item 4: a Russian game's GM reads Russian


def test_game_status_of_a_running_game_speaks_moscow_time_and_shows_the_roles(world, cli):
    w = world
    play(w, upto=3)  # Day 1 resolved at 2026-12-02 10:01 MSK: Маф1 is out, night 1 until 22:00
    out = cli("game", "status", "g1")
    assert out.startswith("g1: идёт, режим ") and "начата 30.11 10:00 МСК" in out
    # issue 28: as the posts write it, with how long is left as the dashboard says it
    assert "фаза: ночь 1, до 02.12 22:00 МСК (через 11 ч);" in out
    assert "+00:00" not in out
    lines = out.splitlines()
    roles = lines.index("роли (только для ведущих):")
    assert lines[roles + 1:roles + 4] == ["  Шериф: шериф, в игре", "  Дон: дон мафии, в игре", "  Маф1: мафия, вне игры (повешение, день 1)"]
    assert "дон: Дон" in lines
    # what the players see never names a role before the end
    assert not [t for _, t, _ in w.bot_posts() if "дон мафии" in t or "мирный житель" in t]


def test_game_status_of_a_stopped_game_names_when_in_the_games_zone_and_why(world, cli):
    w = world
    play(w, upto=3)
    w.now += timedelta(hours=1)
    cli("game", "stop", "g1", "--reason", "Сервер переезжает.")
    w.tick()
    out = cli("game", "status", "g1")
    assert ("итог: остановлена командой `forumbot game stop` 02.12 11:01 МСК, без победителя "
            "(причина: Сервер переезжает.); зерно 7") in out
    assert "роли (только для ведущих)" not in out  # the end lists them already
    assert ", остановлена 02.12 11:01 МСК" in out.splitlines()[0]


def test_probe_shows_post_times_in_the_games_zone():
    report = ProbeReport(forum="main", engine="phpbb", detected="phpbb", guest=False, thread="t", timezone="UTC")
    report.posts.append({"id": "2", "author": "alice", "author_id": "5", "posted_at": "2026-11-26T12:07:09+00:00",
                         "posted_latest": None, "edited_at": "2026-11-26T14:35:00+00:00", "edit_notice": True,
                         "quote_stripped": False, "signature_stripped": False, "text": "Всем привет"})
    text = to_text(report, "Europe/Moscow", "en")
    assert "times read in: UTC; shown in Europe/Moscow" in text
    assert "#2 alice at 2026-11-26 15:07:09 Europe/Moscow [edited 2026-11-26 17:35:00 Europe/Moscow]" in text
    assert "+00:00" not in text


def test_game_start_speaks_the_games_language(world, cli):
    """issue 28 item 4: `game start` answered a Russian game's GM in English; an English game's GM reads English."""
    text = world.config_path.read_text(encoding="utf-8")
    world.config_path.write_text(text.replace('forum = "main"', 'forum = "main"\nlanguage = "en"', 1), encoding="utf-8")
    out = cli("game", "start", "g1")
    assert out.startswith("g1: started; commitment ")
    assert "The first tick from 30.11 10:00:00 MSK (grace_seconds = 0) sends the role PMs" in out


def test_game_status_and_list_speak_the_games_language(world, cli):
    """issue 28 item 1: `game status` and `game list` were English whatever the game's language: a Russian game's
    GM reads Russian (above), an English game's GM reads English, nothing Russian but the players' nicknames."""
    text = world.config_path.read_text(encoding="utf-8")
    world.config_path.write_text(text.replace('forum = "main"', 'forum = "main"\nlanguage = "en"', 1), encoding="utf-8")
    play(world, upto=3)
    out = cli("game", "status", "g1")
    assert out.startswith("g1: running, mode ") and "started 30.11 10:00 MSK" in out
    assert "phase: night 1, until 02.12 22:00 MSK (in 11 h);" in out
    lines = out.splitlines()
    roles = lines.index("roles (for the GMs only):")
    assert lines[roles + 1:roles + 4] == ["  Шериф: sheriff, alive", "  Дон: mafia Don, alive",
                                          "  Маф1: mafia, out (vote, day 1)"]
    assert "don: Дон" in lines and any(line.startswith("outbox: sent ") for line in lines)
    nicks = sorted({p.nick for p in world.config.games["g1"].players} | {"продолжить"}, key=len, reverse=True)
    for nick in nicks:
        out = out.replace(nick, "")
    assert not re.search("[а-яё]", out, re.IGNORECASE), out
    assert cli("game", "list").splitlines() == ["g1\trunning\t" + world.config.games["g1"].mode]


def test_game_list_speaks_russian_for_a_russian_game(world, cli):
    assert cli("game", "list").split("\t")[:2] == ["g1", "не начата"]
    play(world, upto=1)
    assert cli("game", "list").split("\t")[:2] == ["g1", "идёт"]
