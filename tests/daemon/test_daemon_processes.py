"""Real processes: four `forumbot tick`s at once post each message exactly once (SQLite, and PostgreSQL when
FORUMBOT_TEST_PG_URL is set); a tick killed with SIGKILL mid-cycle loses and duplicates nothing; `forumbot run`
exits cleanly on SIGTERM. Every subprocess is bounded in time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import select
from daemon_world import BOT, CAST, GM, config_toml, game_toml, pg_database  # noqa: F401  (fixture)
from fileforum import FileForum

from forumbot.cli.main import main
from forumbot.config.load import load_config
from forumbot.games.start import start_game
from forumbot.store import GameRow, open_engine, session_factory, upgrade

HERE = Path(__file__).parent
REPO = HERE.parent.parent
# seconds any one subprocess may take: a guard against a hang only. Four ticks at once took 20 s on 2 cores shared
# with other jobs; the 60 s this was is within a slower machine's reach (issue 28 item 1)
LIMIT = 900


def setup_game(root: Path, database: str = "", delay: float = 0.0,
               now: datetime | None = None) -> tuple[Path, FileForum]:
    """A game started an hour ago whose Day 1 opens tomorrow: due now are the player list, ten role PMs and
    replies to the ten confirmations below."""
    root.mkdir(parents=True, exist_ok=True)
    now = now or datetime.now(timezone.utc)
    forum_file = root / "forum.pickle"
    extra = f'base_url = "file://{forum_file}"\npath = "{forum_file}"\ndelay = {delay}'
    path = root / "forumbot.toml"
    path.write_text(config_toml(game_toml("g1", start=now + timedelta(days=1)), database, engine="fileforum:FileForum",
                                forum_extra=extra), encoding="utf-8")
    config = load_config(path)
    engine = open_engine(config.database_url)
    upgrade(engine)
    start_game(session_factory(engine), config, "g1", now - timedelta(hours=1), seed=11)
    engine.dispose()
    forum = FileForum(str(forum_file), bot=BOT)
    for nick, _ in CAST:
        forum.add_pm(nick, "подтверждаю", now - timedelta(minutes=30))
    forum.save()
    return path, forum


def tick_process(config: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(REPO)]))
    return subprocess.Popen([sys.executable, "-m", "forumbot.cli.main", "tick", "-c", str(config)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"a tick process still ran after {LIMIT} s: hung (stderr: {proc.communicate()[1][-2000:]})")
    return proc.returncode, err


def delivered(forum: FileForum) -> list[tuple[str, str]]:
    forum.load()
    posts = [(p.topic, p.text) for p in forum.posts_by(BOT)]
    pms = [(p.to, p.pm.text) for p in forum.pms if p.pm.author == BOT]
    return posts + pms


def assert_each_once(items: list[tuple[str, str]]) -> None:
    twice = [item for item, n in Counter(items).items() if n > 1]
    assert twice == []
    markers = [text.rsplit("#fb:", 1)[1] for _, text in items]
    assert len(markers) == len(set(markers))
    assert len(items) == 21  # the player list, ten role PMs, ten confirmation replies


def four_ticks_at_once(config: Path, forum: FileForum) -> None:
    procs = [tick_process(config) for _ in range(4)]
    results = [finish(p) for p in procs]
    assert [code for code, _ in results] == [0, 0, 0, 0], [err for _, err in results]
    assert_each_once(delivered(forum))


def test_four_concurrent_ticks_post_each_message_once_sqlite(tmp_path):
    config, forum = setup_game(tmp_path, delay=0.02)
    four_ticks_at_once(config, forum)


def test_four_concurrent_ticks_post_each_message_once_postgresql(tmp_path, pg_database):
    config, forum = setup_game(tmp_path, database=pg_database, delay=0.02)
    four_ticks_at_once(config, forum)


def test_sigkill_mid_cycle_then_a_new_tick_loses_and_duplicates_nothing(tmp_path):
    now = datetime.now(timezone.utc)
    config, forum = setup_game(tmp_path / "killed", delay=0.05, now=now)
    for at_least in (3, 12):
        proc = tick_process(config)
        deadline = time.monotonic() + LIMIT
        while len(delivered(forum)) < at_least and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=LIMIT)
    code, err = finish(tick_process(config))
    assert code == 0, err
    items = delivered(forum)
    assert_each_once(items)
    clean_config, clean_forum = setup_game(tmp_path / "clean", now=now)
    assert main(["tick", "-c", str(clean_config)]) == 0
    # the same messages as an uninterrupted run (markers differ: the forum ids of the PMs they answer do)
    strip = lambda items: sorted((where, text.rsplit("\n\n#fb:", 1)[0]) for where, text in items)  # noqa: E731
    assert strip(items) == strip(delivered(clean_forum))


def test_run_exits_cleanly_on_sigterm(tmp_path):
    config, forum = setup_game(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(REPO)]))
    proc = subprocess.Popen([sys.executable, "-m", "forumbot.cli.main", "run", "-c", str(config)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + LIMIT
    while len(delivered(forum)) < 21 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()[1]  # still running, between cycles
    proc.send_signal(signal.SIGTERM)
    code, err = finish(proc)
    assert code == 0, err
    assert "Traceback" not in err
    assert_each_once(delivered(forum))


def end_of_game(root: Path, now: datetime, race: int = 0) -> tuple[Path, FileForum]:
    """A game on Day 1 whose GM has just modkilled the three mafia: the tick that folds it ends the game.
    `race`: that many ticks list the game as running before any folds, and all but the first read the inbox
    only once the first has exited (fileforum.FileForum's barrier and gate)."""
    root.mkdir(parents=True, exist_ok=True)
    forum_file = root / "forum.pickle"
    extra = f'base_url = "file://{forum_file}"\npath = "{forum_file}"\ndelay = 0.02'
    if race:
        extra += f"\nbarrier = {race}\ngate = true"
    path = root / "forumbot.toml"
    path.write_text(config_toml(game_toml("g1", start=now - timedelta(hours=1)), engine="fileforum:FileForum",
                                forum_extra=extra), encoding="utf-8")
    config = load_config(path)
    engine = open_engine(config.database_url)
    upgrade(engine)
    start_game(session_factory(engine), config, "g1", now - timedelta(hours=2), seed=11)
    engine.dispose()
    forum = FileForum(str(forum_file), bot=BOT)
    for nick, _ in CAST:
        forum.add_pm(nick, "подтверждаю", now - timedelta(minutes=110))  # before the Setup reminder
    for mafioso in ("Дон", "Маф1", "Маф2"):
        forum.add_pm(GM, f"модкилл {mafioso}", now - timedelta(minutes=5))
    forum.save()
    return path, forum


def test_four_ticks_at_the_games_end_send_only_what_one_tick_sends_issue7_item15(tmp_path):
    """The tick that ends the game delivers its last messages; a tick that listed the game as running before
    then must send nothing (it used to fold the ended game without its PMs and PM reminders to the dead).
    test_daemon_games_in_a_row.py forces that interleaving in one process; this runs the real thing."""
    now = datetime.now(timezone.utc)
    config, forum = end_of_game(tmp_path / "four", now, race=4)
    procs = [tick_process(config) for _ in range(4)]
    results = [finish(p) for p in procs]
    assert [code for code, _ in results] == [0, 0, 0, 0], [err for _, err in results]
    clean_config, clean_forum = end_of_game(tmp_path / "one", now)
    assert main(["tick", "-c", str(clean_config)]) == 0
    assert main(["tick", "-c", str(clean_config)]) == 0  # the ended game is not ticked again
    strip = lambda items: sorted((where, text.rsplit("\n\n#fb:", 1)[0]) for where, text in items)  # noqa: E731
    once = strip(delivered(clean_forum))
    assert strip(delivered(forum)) == once
    for path in (config, clean_config):
        engine = open_engine(load_config(path).database_url)
        with session_factory(engine).begin() as s:
            assert s.scalar(select(GameRow.status)) == "ended"
        engine.dispose()
