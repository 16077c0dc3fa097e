"""issue 11 item 9: what `tick` and `run` tell the person at the terminal, and -v/-q over the config's log_level."""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from daemon_world import config_toml, game_toml

from forumbot.cli.main import main


@pytest.fixture
def started(tmp_path, capsys):
    path = tmp_path / "forumbot.toml"
    start = datetime.now(timezone.utc) + timedelta(days=1)
    path.write_text(config_toml(game_toml("g1", start=start) + game_toml("g2", start=start, prefix="x")),
                    encoding="utf-8")
    assert main(["db", "upgrade", "-c", str(path)]) == 0
    assert main(["game", "start", "g1", "-c", str(path)]) == 0
    capsys.readouterr()
    return path


def test_tick_prints_one_line_per_game(started, capsys):
    assert main(["tick", "-c", str(started)]) == 0
    out, err = capsys.readouterr()
    # issue 28 item 1: a Russian game's line in Russian
    assert out.splitlines() == ["g1: подготовка; сохранено сообщений в темах: 0, личных: 0, в очередь поставлено: 11, "
                                "отправлено: 11"]  # g2 not started
    assert main(["tick", "-c", str(started)]) == 0
    assert capsys.readouterr().out.splitlines() == ["g1: подготовка; сохранено сообщений в темах: 0, личных: 0, "
                                                    "в очередь поставлено: 0, отправлено: 0"]


def test_tick_speaks_an_english_games_language(started, capsys):
    """issue 28 item 1: the summary was English for every game; an English game's GM still reads English."""
    text = started.read_text(encoding="utf-8")
    g1, g2 = text.split("[games.g2]")
    started.write_text(g1 + "[games.g2]" + g2.replace('forum = "main"', 'forum = "main"\nlanguage = "en"', 1),
                       encoding="utf-8")
    assert main(["game", "start", "g2", "-c", str(started)]) == 0
    capsys.readouterr()
    assert main(["tick", "-c", str(started)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "g2: setup; 0 post(s) and 0 PM(s) stored, 11 message(s) queued, 11 sent" in lines, lines
    assert "g1: подготовка; сохранено сообщений в темах: 0, личных: 0, в очередь поставлено: 11, отправлено: 11" in lines


def test_tick_quiet_prints_no_summary_and_verbose_logs_debug(started, capsys):
    root = logging.getLogger()
    saved = root.level
    try:
        assert main(["tick", "-q", "-c", str(started)]) == 0
        assert capsys.readouterr().out == "" and root.level == logging.WARNING
        assert main(["-v", "tick", "-c", str(started)]) == 0
        assert root.level == logging.DEBUG and capsys.readouterr().out.startswith("g1: подготовка;")
    finally:
        root.setLevel(saved)


def test_run_says_when_it_starts_and_stops(started, capsys, monkeypatch):
    from forumbot.cycle import daemon

    real = daemon.run_forever
    stop = threading.Event()
    stop.set()  # one cycle, then the loop sees the stop (as after SIGTERM)
    cycles = []

    def once(d, _stop=None):
        cycles.append(1)
        return real(d, stop)

    monkeypatch.setattr(daemon, "run_forever", once)
    assert main(["run", "-c", str(started)]) == 0
    err = capsys.readouterr().err
    lines = [l for l in err.splitlines() if l.startswith("forumbot: ")]
    assert cycles == [1]
    assert lines[0].startswith("forumbot: running 2 configured game(s) from ") and "every 60 s" in lines[0]
    assert lines[-1] == "forumbot: stopped (exit 0)"


def test_tick_says_what_grace_seconds_holds_back(tmp_path, capsys):
    """A GM's first `tick` right after `game start` sends nothing while grace_seconds runs: the summary says so
    and when, instead of a bare "0 sent"."""
    path = tmp_path / "forumbot.toml"
    start = datetime.now(timezone.utc) + timedelta(days=1)
    path.write_text(config_toml(game_toml("g1", start=start)).replace("grace_seconds = 0", "grace_seconds = 3600"),
                    encoding="utf-8")
    assert main(["db", "upgrade", "-c", str(path)]) == 0
    before = datetime.now(timezone.utc).replace(microsecond=0)  # the summary shows whole seconds
    assert main(["game", "start", "g1", "-c", str(path)]) == 0
    capsys.readouterr()
    assert main(["tick", "-c", str(path)]) == 0
    after = datetime.now(timezone.utc)
    line, = capsys.readouterr().out.splitlines()
    assert line.startswith("g1: подготовка; сохранено сообщений в темах: 0, личных: 0, в очередь поставлено: 0, "
                           "отправлено: 0, ещё 11 — не раньше "), line
    # said in the game's zone (issue 17 item 13) as the texts write times (issue 28 item 4), not UTC
    shown, zone = line.split("не раньше ")[1].rsplit(" (grace_seconds)", 1)[0].rsplit(" ", 1)
    assert zone == "МСК", line
    moscow = ZoneInfo("Europe/Moscow")
    day = datetime.strptime(shown, "%d.%m %H:%M:%S")
    due = day.replace(year=(before + timedelta(hours=1)).astimezone(moscow).year, tzinfo=moscow)
    # the role PMs were made at `game start`: an hour after it, whatever time the commands took (issue 28 item 1)
    assert before + timedelta(hours=1) <= due <= after + timedelta(hours=1), line


def test_tick_summary_counts_the_pms_it_stored(tmp_path):
    """A tick that stored ten confirmations said "0 input(s) stored" (GM acceptance on SMF): PMs count too."""
    from daemon_world import World, _confirm

    from forumbot.cycle.summary import tick_summary

    world = World(tmp_path)
    world.start()
    world.tick()
    _confirm(world)
    world.post("vote", "М1", "Дон")
    line, = tick_summary(world.daemon.sessions, world.tick())
    world.close()
    confirmed = len([p for p in world.forum.pms if p.pm.text == "подтверждаю"])
    assert confirmed >= 5 and f", личных: {confirmed}, " in line, line
