"""A Moscow game on the XenForo emulator through real `forumbot` processes, as under cron. Each process's clock
is the shared file the emulator reads too (clockshim/sitecustomize.py): the test moves game time, a flood wait
moves it on, nothing waits on the wall clock. The players and the GM act on the board's state directly."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

from xfemu import Board, Emulator
from xfemu.state import fold
from forked_cli import run_python
from fresh_store import STORE
from stored_game import tick_until_ended
from tick_summary import IDLE_SUMMARY

HANG_GUARD = 900  # seconds: catches a hung tick, never measures the machine (tests/live/boards.py's, issue 28 item 1)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BOT, PASSWORD_ENV = "МафБот", "FORUMBOT_XF_BOT_PASSWORD"
MARKER = re.compile(r"#fb:[0-9a-f]{8}")
PLAYERS = ("Маша", "Кот Баюн", "Дядя Фёдор", "Lucky_Strike", "ёжик", "Печкин 2000", "Незнайка")
GM = "Ведущий"
CAST = "cast = { mafia = 1, don = 1, sheriff = 1 }"  # 7 players, 4 civilians
RU_ROLE = {"sheriff": "шериф", "don": "дон мафии", "mafia": "мафия", "civilian": "мирный житель"}


class FileClock:
    def __init__(self, path: Path, start: float) -> None:
        self.path = path
        path.write_text(repr(start), encoding="ascii")

    def __call__(self) -> float:
        return float(self.path.read_text(encoding="ascii").strip())

    def advance(self, seconds: float) -> None:
        self.path.write_text(repr(self() + seconds), encoding="ascii")


class XfGame:
    def __init__(self, tmp: Path, emulator: Emulator, clock: FileClock, password: str = "пароль бота",
                 max_wait: int = 200, api_key: str | None = None) -> None:
        self.tmp, self.xf, self.board, self.clock = tmp, emulator, emulator.board, clock
        self.config = tmp / "forumbot.toml"
        self.env = {**os.environ, PASSWORD_ENV: password, "XF_API_KEY": api_key or "",
                    "XFEMU_CLOCK": str(clock.path),
                    "PYTHONPATH": os.pathsep.join((str(HERE / "clockshim"), str(ROOT)))}
        self.log = tmp / "ticks.log"
        self.game_tid, self.vote_tid = 101, 102
        self.config.write_text(f"""poll_seconds = 60
grace_seconds = 0
retries = 1
backoff_seconds = 1

[forums.xf]
engine = "xenforo"
base_url = "{emulator.base_url}"
login = "{BOT}"
{'api_key_env = "XF_API_KEY"' if api_key else f'password_env = "{PASSWORD_ENV}"'}
timezone_name = "Europe/Moscow"
# a flood wait up to 200 s is slept (on the shared clock): a Setup's conversations go out in one tick
max_wait = {max_wait}
""", encoding="utf-8")
        self.upgraded = False

    def thread_url(self, tid: int) -> str:
        t = self.board.threads[tid]
        return f"{self.xf.base_url}threads/{t.slug}.{t.id}/"

    def add_game(self, name: str, roles: dict[str, str]) -> None:
        players = ",\n    ".join(f'{{ nick = "{p}", role = "{roles.get(p, "civilian")}" }}' for p in PLAYERS)
        start = datetime.fromtimestamp(self.clock(), timezone.utc).replace(microsecond=0) + timedelta(hours=2)
        with open(self.config, "a", encoding="utf-8") as f:
            f.write(f"""
[games.{name}]
forum = "xf"
variant = "moscow"
language = "ru"
game_thread = "{self.thread_url(self.game_tid)}"
vote_thread = "{self.thread_url(self.vote_tid)}"
gms = ["{GM}"]
start = {start.isoformat()}
timezone = "Europe/Moscow"
day_hours = 48
night_hours = 24
runoff_hours = 24
remind_hours = 0
options = {{ {CAST} }}
players = [
    {players}
]
""")
        if not self.upgraded:  # a real `db upgrade` once a test process (fresh_store.py)
            STORE.upgrade(self.tmp / "forumbot.db", lambda: self.cli("db", "upgrade"))
            self.upgraded = True
        done = self.cli("game", "start", name)
        assert done.returncode == 0, done.stdout + done.stderr

    # --- processes --------------------------------------------------------------------------------------------

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        return self.run([sys.executable, "-m", "forumbot.cli.main", *args, "-c", str(self.config)])

    def run(self, cmd: list[str]) -> subprocess.CompletedProcess:
        """`python -m module …` or `python script …`, a process forked from one that imported forumbot
        (forked_cli.py: what each start-up spent importing was the games' largest CPU cost)."""
        t = time.monotonic()
        done, cpu = run_python(cmd, self.env, self.tmp, timeout=HANG_GUARD)
        with open(self.log, "a") as f:
            f.write(f"$ {' '.join(cmd[2:])}\n-> {done.returncode} in {time.monotonic() - t:.1f} s, "
                    f"{cpu:.2f} s of CPU\n{done.stdout}{done.stderr}\n")
        return done

    def tick(self) -> str:
        self.clock.advance(5)  # what the players did is in the past when the tick reads it
        done = self.cli("tick")
        assert done.returncode == 0, f"tick failed ({done.returncode}): {done.stderr[-3000:]}"
        return done.stdout + done.stderr

    def tick_until_ended(self, name: str, most: int = 3) -> None:
        """Tick until the store marks `name` ended, at most `most` ticks (stored_game.tick_until_ended)."""
        tick_until_ended(self.tick, self.tmp / "forumbot.db", name, most, self.log)

    def tick_killed_at(self, point: str, occurrence: int) -> int:
        self.clock.advance(5)
        return self.run([sys.executable, str(ROOT / "tests" / "live" / "tick_and_die.py"), str(self.config), point,
                         str(occurrence)]).returncode

    def settle(self, most: int = 3) -> None:
        """Tick until a tick sends nothing: the tick after the bot answered inside conversations reads them
        back once (their last message changed), so only the tick after that one is idle."""
        for _ in range(most):
            if IDLE_SUMMARY.search(self.tick()):
                return
        raise AssertionError(f"{most} ticks in a row still sent something; log: {self.log}")

    def idle_requests(self) -> list[tuple[str, str]]:
        """One tick with nothing to do: the requests it made, as the emulator served them."""
        mark = len(self.board.requests)
        assert IDLE_SUMMARY.search(self.tick())
        return self.board.requests[mark:]

    # --- the other side ---------------------------------------------------------------------------------------

    def pm(self, author: str, text: str, subject: str) -> None:
        """A player's (or the GM's) PM to the bot: inside the conversation of that subject, else a new one."""
        mine = [c for c in self.board.conversations_of(author)
                if fold(c.title) == fold(subject) and any(fold(m) == fold(BOT) for m in c.members)]
        if mine:
            self.board.add_message(mine[0].id, author, text)
        else:
            self.board.start_conversation(author, [BOT], subject, text)

    def vote(self, author: str, text: str) -> None:
        self.board.add_post(self.vote_tid, author, text)

    def bot_pms_to(self, name: str, subject: str | None = None) -> list[str]:
        """The bot's messages to `name` (in conversations titled `subject`, when given)."""
        return [_plain(m.text) for c in self.board.conversations_of(name) if subject in (None, c.title)
                for m in map(self.board.messages.get, c.messages) if m is not None and fold(m.author) == fold(BOT)]

    def game_text(self) -> str:
        return "\n".join(_plain(p.text) for p in self.board.visible_posts(self.game_tid) if p.author == BOT)

    def assert_each_once(self) -> tuple[int, int]:
        """Every bot post and PM carries its marker, and none is on the board twice."""
        posts = [p.text for p in self.board.posts.values() if p.author == BOT]
        pms = [m.text for m in self.board.messages.values() if fold(m.author) == fold(BOT)]
        marks = [m for t in [*posts, *pms] for m in MARKER.findall(t)]
        assert len(marks) >= len(posts) + len(pms), "a bot message without its marker"
        twice = [m for m, n in Counter(marks).items() if n > 1]
        assert not twice, f"on the board twice: {twice}"
        return len(posts), len(pms)



def _plain(text: str) -> str:
    return re.sub(r"\[/?b\]", "", text)


def season_board(clock: FileClock, version: str) -> Board:
    board = Board(clock=clock, version=version, friendly=version < "2.3")
    board.member(BOT, "пароль бота")
    for name in (GM, *PLAYERS):
        board.member(name)
    board.thread("Мафия: игра", "mafiya-igra", GM, "Тема игры.", at=clock() - 3600)
    board.thread("Мафия: голосование", "mafiya-golosovanie", GM, "Тема голосования.", at=clock() - 3600)
    return board
