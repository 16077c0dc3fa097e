"""A game on a live board played through real `forumbot tick` processes, as under cron (issue 8 item 2).

`LiveGame` writes the config (the bot's account and the board's threads from board.env), runs `forumbot`
subprocesses (each tick a new process; `tick_killed_at` dies like SIGKILL at a named point), and checks what
the bot left on the board: every post and PM once (by the marker each carries), none lost.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

from boards import Board, Member

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PASSWORD_ENV = "FORUMBOT_LIVE_BOT_PASSWORD"
TICK_TIMEOUT = 300
MARKER = re.compile(r"#fb:[0-9a-f]{8}")
# A board script's engine name where forumbot's adapter has another: fluxbb.sh's board is driven by adapters/punbb.py.
ADAPTER_ENGINE = {"fluxbb": "punbb"}


def next_minute(engine: str = "phpbb") -> None:
    """Wait until a GM PM just sent is folded by the next tick. phpBB shows a PM's time to the minute, so it
    counts from that minute's end (C-1, C-9); MyBB shows "less than a minute ago" for a minute after it, whose
    range ends at the moment the page is read: wait until it reads "1 minute ago"."""
    now = time.time()
    wait = math.floor(now / 60) * 60 + 60 - now + 0.5
    time.sleep(max(wait, 61.0) if engine == "mybb" else wait)


class LiveGame:
    def __init__(self, board: Board, tmp: Path, name: str, variant: str, roles: dict[str, str],
                 bot_intervals: dict[str, float], options: str = "") -> None:
        self.board, self.tmp, self.name = board, tmp, name
        self.config = tmp / "forumbot.toml"
        self.env = {**os.environ, PASSWORD_ENV: board.password, "PYTHONPATH": str(ROOT)}
        self.log = tmp / "ticks.log"
        self.game_topic, self.vote_topic = board.env["GAME_TOPIC"], board.env["VOTE_TOPIC"]
        players = ",\n    ".join(f'{{ nick = "{p}", role = "{roles.get(p, "civilian")}" }}' for p in board.players)
        start = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(hours=2)
        intervals = ", ".join(f"{k} = {v}" for k, v in bot_intervals.items())
        self.config.write_text(f"""poll_seconds = 60
grace_seconds = 0
retries = 2
backoff_seconds = 1

[forums.live]
engine = "{ADAPTER_ENGINE.get(board.engine, board.engine)}"
base_url = "{board.base_url}"
login = "{board.bot}"
password_env = "{PASSWORD_ENV}"
intervals = {{ {intervals} }}

[games.{name}]
forum = "live"
variant = "{variant}"
language = "ru"
game_thread = "{board.topic_url(self.game_topic)}"
vote_thread = "{board.topic_url(self.vote_topic)}"
gms = ["{board.gm}"]
start = {start.isoformat()}
timezone = "Europe/Moscow"
day_hours = 48
night_hours = 24
runoff_hours = 24
remind_hours = 0
options = {{ {options} }}
players = [
    {players}
]
""", encoding="utf-8")
        done = self.cli("db", "upgrade")
        assert done.returncode == 0, done.stderr
        done = self.cli("game", "start", name)
        assert done.returncode == 0, done.stdout + done.stderr

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        return self.run([sys.executable, "-m", "forumbot.cli", *args, "-c", str(self.config)])

    def run(self, cmd: list[str]) -> subprocess.CompletedProcess:
        t = time.monotonic()
        done = subprocess.run(cmd, cwd=self.tmp, env=self.env, capture_output=True, text=True, timeout=TICK_TIMEOUT)
        with open(self.log, "a") as f:
            f.write(f"$ {' '.join(cmd[2:])}\n-> {done.returncode} in {time.monotonic() - t:.1f} s\n"
                    f"{done.stdout}{done.stderr}\n")
        return done

    def tick(self) -> str:
        done = self.cli("tick")
        assert done.returncode == 0, f"tick failed ({done.returncode}): {done.stderr[-3000:]}"
        return done.stdout + done.stderr

    def tick_killed_at(self, point: str, occurrence: int = 1) -> int:
        return self.run([sys.executable, str(HERE / "tick_and_die.py"), str(self.config), point,
                         str(occurrence)]).returncode

    def end_phase(self, gm: Member) -> None:
        """The GM closes the open phase by PM (C-1, C-9); the next tick folds it once its minute is over."""
        # a new subject each time: MyBB drops a PM identical to one the member already sent (same subject,
        # text and recipient) without a word, so a second "конец-фазы" never arrived
        self.end_phases = getattr(self, "end_phases", 0) + 1
        gm.pm(self.board.bot, f"{self.name}: {self.end_phases}", "конец-фазы")
        next_minute(self.board.engine)

    # --- what the bot left on the board -------------------------------------------------------------------

    def bot_posts(self, reader: Member) -> list[str]:
        return [p.text for t in (self.game_topic, self.vote_topic) for p in reader.posts_by(t, self.board.bot)]

    def game_text(self, reader: Member) -> str:
        return "\n".join(p.text for p in reader.posts_by(self.game_topic, self.board.bot))

    def assert_each_once(self, reader: Member, members: list[Member]) -> tuple[int, int]:
        """Every bot post and PM on the board carries its marker, and no marker is there twice."""
        posts = self.bot_posts(reader)
        marks = [m for t in posts for m in MARKER.findall(t)]
        twice = [m for m, n in Counter(marks).items() if n > 1]
        assert not twice, f"bot posts on the board twice: {twice}"
        assert len(marks) >= len(posts), "a bot post without its marker"
        pms = 0
        for member in members:
            texts = [m.text for m in member.pms_from(self.board.bot)]
            marks = [m for t in texts for m in MARKER.findall(t)]
            twice = [m for m, n in Counter(marks).items() if n > 1]
            assert not twice, f"{member.name} got the same bot PM twice: {twice}"
            pms += len(texts)
        return len(posts), pms

    def assert_outbox_drained(self) -> None:
        status = self.cli("game", "status", self.name)
        outbox = next((ln for ln in status.stdout.splitlines() if ln.startswith("outbox:")), "")
        assert status.returncode == 0 and re.fullmatch(r"outbox: sent \d+", outbox), status.stdout + status.stderr
