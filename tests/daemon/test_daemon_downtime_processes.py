"""C-14 done as issue 30 asks, on the memory forum kept in a file (tests/daemon/fileforum.py) through real
`forumbot tick` processes: the ticks run on the test's clock (libfaketime, Debian package `faketime`, which
.ci/provision installs), every 20 minutes through a Free Hunt day, then the loop stops an hour before the deadline
and the next tick runs two minutes after it. The no-show is not autokilled, the result post names the gap, the GM
gets one PM. (A live board plays on its own real clock: see the branch's report.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from daemon_world import BOT, GM, config_toml, game_toml
from fileforum import FileForum

from forumbot.config.load import load_config
from forumbot.games.start import start_game
from forumbot.store import open_engine, session_factory, upgrade
from forumbot.store.game import fold_game

HERE = Path(__file__).parent
REPO = HERE.parent.parent
LIMIT = 900  # seconds a tick process may take: a guard against a hang only
MSK = timezone(timedelta(hours=3))
T0 = datetime(2026, 12, 1, 10, 0, tzinfo=MSK)  # Day 1 opens; 4-hour days
STARTED = T0 - timedelta(days=1)
DEADLINE = T0 + timedelta(hours=4)
HUNT = [("Ф1", "mafia"), ("Ф2", "mafia"), ("Ф3", "mafia"), ("Док", "doctor"), ("Ман", "maniac")] + [
    (f"Г{i}", "civilian") for i in range(1, 8)]


def _faketime() -> str:
    found = shutil.which("faketime")
    if found is None:
        if os.environ.get("FORUMBOT_REQUIRE_LIVE") == "1":
            pytest.fail("faketime is not installed (Debian package faketime; .ci/provision installs it)")
        pytest.skip("faketime is not installed (Debian package faketime)")
    return found


def tick_at(config: Path, at: datetime) -> str:
    """One `forumbot tick` process whose clock starts at `at` (the test's clock, not the wall clock)."""
    stamp = at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(REPO)]), TZ="UTC")
    done = subprocess.run([_faketime(), stamp, sys.executable, "-m", "forumbot.cli.main", "tick", "-c", str(config)],
                          env=env, capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout + done.stderr


def test_c14_h5_tick_processes_stopped_an_hour_before_a_free_hunt_deadline_waive_the_no_show(tmp_path):
    _faketime()
    forum_file = tmp_path / "forum.pickle"
    config_path = tmp_path / "forumbot.toml"
    games = game_toml("g1", HUNT).replace('variant = "moscow"', 'variant = "free_hunt"') + \
        "day_hours = 4\nnight_hours = 2\n"
    config_path.write_text(config_toml(games, engine="fileforum:FileForum", forum_extra=(
        f'base_url = "file://{forum_file}"\npath = "{forum_file}"\n')), encoding="utf-8")
    config = load_config(config_path)
    engine = open_engine(config.database_url)
    upgrade(engine)
    sessions = session_factory(engine)
    start_game(sessions, config, "g1", STARTED, seed=5)
    forum = FileForum(str(forum_file), bot=BOT)
    for nick, _ in HUNT:
        forum.add_pm(nick, "подтверждаю", STARTED + timedelta(minutes=30))
    forum.save()
    tick_at(config_path, STARTED + timedelta(hours=1))
    tick_at(config_path, T0 + timedelta(minutes=1))  # Day 1 opens, until 14:00 MSK
    forum.load()
    voters = [n for n, _ in HUNT if n != "Г6"]  # Г6 never votes (H-5)
    for i, v in enumerate(voters):  # a ring: an all-way tie, nobody is hanged (H-6)
        forum.add_post("g1/vote", v, voters[(i + 1) % len(voters)], T0 + timedelta(minutes=30))
    forum.save()
    at = T0 + timedelta(minutes=40)
    while at <= DEADLINE - timedelta(hours=1):  # every 20 minutes up to 13:00 MSK, then the loop stops
        tick_at(config_path, at)
        at += timedelta(minutes=20)
    tick_at(config_path, DEADLINE + timedelta(minutes=2))  # back two minutes after the deadline
    forum.load()
    result = [p.text for p in forum.posts_by(BOT, "g1/game") if "Итоги дня 1" in p.text]
    assert len(result) == 1
    assert ("Автокилл за неявку не применяется: бот не мог читать форум с 01.12 13:00 до 01.12 14:02 (МСК)."
            in result[0])
    to_gm = [p.pm.text for p in forum.pms if p.pm.author == BOT and p.to == GM and "после сбоя" in p.pm.text]
    assert len(to_gm) == 1 and "с 01.12 13:00 до 01.12 14:02 (МСК)" in to_gm[0]
    run = fold_game(sessions, config, "g1", DEADLINE + timedelta(minutes=2))
    assert next(p.alive for p in run.result.players if p.nick == "Г6")
    engine.dispose()
