"""A game on a live board played through real `forumbot tick` processes, as under cron (issue 8 item 2).

`LiveGame` writes the config (the bot's account and the board's threads from board.env), runs `forumbot`
processes (each tick a new process, forked from one that imported forumbot: tests/forked_cli.py; `tick_killed_at`
dies like SIGKILL at a named point), and checks what
the bot left on the board: every post and PM once (by the marker each carries), none lost.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from boards import HANG_GUARD, Board, Member, live_required
from forked_cli import run_python
from fresh_store import STORE
from stored_game import outbox_counts, stored_status, tick_until_ended
from tick_summary import IDLE_SUMMARY

# the role names of the role PMs («Ваша роль: шериф.»)
RU_ROLE = {"sheriff": "шериф", "don": "дон мафии", "mafia": "мафия", "civilian": "мирный житель",
           "doctor": "доктор", "maniac": "маньяк"}
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PASSWORD_ENV = "FORUMBOT_LIVE_BOT_PASSWORD"
# seconds one forumbot command may take: a guard against a hang only (issue 28 item 1). A tick sits out the
# board's flood waits (up to max_wait each; stock limits: minutes in one tick) and slows under a loaded machine;
# a command still running after the whole suite's budget has hung on any machine.
MARKER = re.compile(r"#fb:[0-9a-f]{8}")
# What a reader must never see in a rendered bot post: a BBCode tag the board did not render (an opening tag of
# the codes the bot uses, any closing tag), Markdown emphasis, an HTML entity escaped twice. A player's text the
# bot quotes keeps its brackets only escaped (a zero-width space after "["), which none of these match.
LITERAL_MARKUP = re.compile(r"\[(?:b|i|u|s|\*|list|spoiler|size|color|quote|url|code|hide)(?:=[^\]]*)?\]|\[/"
                            r"|\*\*|&(?:lt|gt|amp|quot|nbsp|#\d+);", re.I)
RENDERED_BOLD = re.compile(r"<(?:strong|b)\b|mycode_b|font-weight:\s*bold", re.I)
CHROMIUM = "chromium"
# Headless Chromium as root in a container: no sandbox (it refuses root without), no GPU, /tmp instead of a small
# /dev/shm, and nothing of a first run's prompts or a desktop's services.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                  "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--lang=ru")


def screenshot(url: str, shot: Path, profile: Path, size: str = "1280,7000", chromium: str = CHROMIUM) -> Path | None:
    """A PNG of `url` at `shot`, taken by headless Chromium (Debian's `chromium`, installed by .ci/provision).
    When it cannot be taken (no Chromium, Chromium failing, no PNG written): under FORUMBOT_REQUIRE_LIVE=1 the
    test fails saying why (issue 17 item 3: nobody could look at the games); otherwise None, after a line."""
    binary = shutil.which(chromium)
    why = f"{chromium} is not installed (Debian package chromium)" if binary is None else ""
    if binary is not None:
        shot.unlink(missing_ok=True)
        try:
            done = subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={size}",
                                   f"--screenshot={shot}", url], capture_output=True, text=True,
                                  timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            why = f"{chromium} took over {HANG_GUARD} s"
        else:
            if done.returncode != 0 or not shot.exists() or not shot.read_bytes().startswith(b"\x89PNG"):
                why = f"{chromium} exited {done.returncode} without a PNG: {done.stderr.strip()[-300:]}"
    if not why:
        return shot
    if live_required():
        pytest.fail(f"no screenshot of {url}: {why}", pytrace=False)
    print(f"\nno screenshot of {url}: {why}")
    return None


# A board script's engine name where forumbot's adapter has another: fluxbb.sh's board is driven by adapters/punbb/forum.py.
ADAPTER_ENGINE = {"fluxbb": "punbb"}


class LiveGame:
    def __init__(self, board: Board, tmp: Path, name: str, variant: str, roles: dict[str, str],
                 bot_intervals: dict[str, float], options: str = "", players: list[str] | None = None,
                 forum_settings: str = "", hours: tuple[float, float] = (48, 24), signup: str | None = None) -> None:
        """`signup`: the keys of `[games.NAME.signup]`, for a game that takes its players from a sign-up (S-1):
        no players given, `game start` opens the sign-up."""
        self.board, self.tmp, self.name = board, tmp, name
        self.hours = hours  # a day's and a night's length: short where a test needs real deadlines
        self.config = tmp / "forumbot.toml"
        self.env = {**os.environ, PASSWORD_ENV: board.password, "PYTHONPATH": str(ROOT)}
        self.log = tmp / "ticks.log"
        self.game_topic, self.vote_topic = board.env["GAME_TOPIC"], board.env["VOTE_TOPIC"]
        self.players = [] if signup is not None else list(players or board.players)
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
{forum_settings}
""" + self._game_table(variant, roles, options, signup), encoding="utf-8")
        STORE.upgrade(self.db, lambda: self.cli("db", "upgrade"))  # a real `db upgrade` once a test process
        self.start()

    def _game_table(self, variant: str, roles: dict[str, str], options: str, signup: str | None = None) -> str:
        """The game's table: its players and roles, or, with `signup` (the keys of `[games.NAME.signup]`), no
        players and no start: the sign-up brings the players and its close starts Setup (S-1, S-3)."""
        board = self.board
        players = ",\n    ".join(f'{{ nick = "{p}", role = "{roles.get(p, "civilian")}" }}' for p in self.players)
        start = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(hours=2)
        seats = (f"start = {start.isoformat()}" if signup is None else "",
                 f"players = [\n    {players}\n]" if signup is None else f"[games.{self.name}.signup]\n{signup}")
        return f"""
[games.{self.name}]
forum = "live"
variant = "{variant}"
language = "ru"
game_thread = "{board.topic_url(self.game_topic)}"
vote_thread = "{board.topic_url(self.vote_topic)}"
gms = ["{board.gm}"]
{seats[0]}
timezone = "Europe/Moscow"
day_hours = {self.hours[0]}
night_hours = {self.hours[1]}
runoff_hours = 24
remind_hours = 0
options = {{ {options} }}
{seats[1]}
"""

    def start(self) -> subprocess.CompletedProcess:
        done = self.cli("game", "start", self.name)
        assert done.returncode == 0, done.stdout + done.stderr
        return done

    def next_game(self, name: str, variant: str, roles: dict[str, str], options: str = "",
                  players: list[str] | None = None, signup: str | None = None) -> "LiveGame":
        """The season's next game: its table added to the same config (this game's kept, so `game status` of
        this one still folds its end), the same database and threads. Not started: `start()` it, or, with a
        `signup` table and a `season()` listing it, the season opens its sign-up when this game ends (S-5)."""
        game = copy.copy(self)
        game.name, game.end_phases = name, 0
        game.players = [] if signup is not None else list(players or self.players)
        with open(self.config, "a", encoding="utf-8") as f:
            f.write(game._game_table(variant, roles, options, signup))
        return game

    def season(self, games: list[str], gap_hours: float = 0, notify: bool = False) -> None:
        """`[season]` (S-5) added to the config: `games` in the order they run; `notify`: the players of a game
        that ended are told by PM that the next sign-up is open."""
        listed = ", ".join(f'"{g}"' for g in games)
        with open(self.config, "a", encoding="utf-8") as f:
            f.write(f"\n[season]\ngames = [{listed}]\ngap = {gap_hours}\nnotify = {str(notify).lower()}\n")

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
        done = self.cli("tick")
        assert done.returncode == 0, f"tick failed ({done.returncode}): {done.stderr[-3000:]}"
        return done.stdout + done.stderr

    def tick_until_ended(self, most: int = 3) -> None:
        """Tick until the store marks the game ended, at most `most` ticks (stored_game.tick_until_ended)."""
        tick_until_ended(self.tick, self.db, self.name, most, self.log)

    def settle(self, engine: str, most: int = 5) -> None:
        """Tick until a tick sends nothing, once every GM PM sent so far has taken effect (shown to the minute,
        it counts from its minute's end, C-1): then the board holds nothing the next tick must act on or read
        back (a dialogue the bot's own answer changed), so that tick is idle. A condition, not a count of ticks:
        an undo folded one tick later on a loaded machine moved the answers, and the read-back, a tick on."""
        self.board.wait_past_a_pm()
        for _ in range(most):
            if IDLE_SUMMARY.search(self.tick()):
                return
        raise AssertionError(f"{most} ticks in a row still sent something; log: {self.log}")

    def tick_killed_at(self, point: str, occurrence: int = 1) -> int:
        return self.run([sys.executable, str(HERE / "tick_and_die.py"), str(self.config), point,
                         str(occurrence)]).returncode

    def end_phase(self, gm: Member) -> None:
        """The GM closes the open phase by PM (C-1, C-9); the next tick folds it once its minute is over."""
        # a new subject each time: MyBB drops a PM identical to one the member already sent (same subject,
        # text and recipient) without a word, so a second "конец-фазы" never arrived
        self.end_phases = getattr(self, "end_phases", 0) + 1
        gm.pm(self.board.bot, f"{self.name}: {self.end_phases}", "конец-фазы")
        self.board.wait_past_a_pm()

    # --- the steps every whole game plays ------------------------------------------------------------------

    def play_setup(self, gm: Member, players: dict[str, Member], roles: dict[str, str], forger: str,
                   forged: str) -> None:
        """Setup as the whole games play it: each player's role PM (`roles`, civilians left out), the
        confirmations by PM, `forger`'s PM quoting a GM command (`forged`: not from the GM's account, so it
        changes nothing, C-9), then the GM's `конец-фазы` opens Day 1."""
        bot = self.board.bot
        self.tick()
        for name, member in players.items():
            role = RU_ROLE[roles.get(name, "civilian")]
            assert any(f"Ваша роль: {role}." in m.text for m in member.pms_from(bot)), f"{name}: no role PM"
        assert "Игра начинается. Игроки:" in self.game_text(gm)
        for member in players.values():
            member.pm(bot, self.name, "подтверждаю")
        players[forger].pm(bot, self.name, forged)
        self.tick()
        for name, member in players.items():
            assert any("Роль подтверждена" in m.text for m in member.pms_from(bot)), f"{name}: not confirmed"
        assert "Наступил день 1" not in self.game_text(gm), "a player's PM ended Setup (C-9: only the GM's account)"
        self.end_phase(gm)
        self.tick()
        assert "Наступил день 1" in self.game_text(gm)
        assert any("Роли подтверждены всеми игроками" in m.text for m in gm.pms_from(bot))

    def end_phase_killed_after_first_post(self, gm: Member) -> None:
        """The GM closes the phase; the tick that resolves it dies (as by SIGKILL) right after its first post
        went out, and the next tick delivers the rest without sending that post again."""
        self.end_phase(gm)
        before = self.bot_posts(gm)
        assert self.tick_killed_at("after_send") == 137, "the crash point was never reached"
        assert len(self.bot_posts(gm)) == len(before) + 1, "the killed tick should have sent exactly one post"
        self.tick()

    def assert_town_won(self, reader: Member) -> None:
        """The end post: the town's win, every player's role and the seed."""
        text = self.game_text(reader)
        assert "Игра окончена: победа города!" in text and "Роли:" in text and "Зерно жеребьёвки" in text, \
            text[-1500:]
        ending = text.split("Игра окончена", 1)[1]
        assert all(name in ending for name in self.players), "the end post does not list every role"

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

    @property
    def db(self) -> Path:
        """The game's SQLite store (the config's default: forumbot.db beside it), read in this process."""
        return self.tmp / "forumbot.db"

    def stored_status(self, name: str | None = None) -> str | None:
        """This game's (or `name`'s) stored status, None before it is stored: read from the store, not through
        a `game status` process (~0.6 s of CPU each, issue 28 item 2)."""
        return stored_status(self.db, name or self.name)

    def assert_outbox_drained(self) -> None:
        """Every message the game queued was sent: its outbox holds rows, all of them sent (what `game status`
        shows as «очередь сообщений: отправлено N» and nothing else), read from the store."""
        counts = outbox_counts(self.db, self.name)
        assert counts and set(counts) == {"sent"}, f"{self.name}'s outbox is not drained: {counts}"

    # --- how the board shows the bot's posts (issue 11, "Done means") ---------------------------------------

    def assert_no_literal_markup(self, reader: Member) -> int:
        """The bot's posts as the board rendered them: no markup shown as text, and the bold it asked for
        rendered as bold. Returns how many posts were read."""
        posts = [p for t in (self.game_topic, self.vote_topic) for p in reader.posts_by(t, self.board.bot)]
        literal = [(p.id, m.group(0), p.text[max(0, m.start() - 60):m.end() + 60])
                   for p in posts for m in LITERAL_MARKUP.finditer(p.text)]
        assert not literal, "markup shown as text in the bot's posts:\n" + "\n".join(map(repr, literal))
        assert any(RENDERED_BOLD.search(p.html) for p in posts), "no bot post rendered any bold: markup not applied"
        return len(posts)

    def screenshot_posts(self, reader: Member, opening: str, closing: str, name: str) -> list[Path]:
        """PNGs of the game thread's pages from the bot's post holding `opening` to the one holding `closing`
        (one day's posts), beside ticks.log, for a person to look at. The boards let guests read, so Chromium
        needs no session. A screenshot that cannot be taken fails the test under FORUMBOT_REQUIRE_LIVE (CI), and
        is otherwise skipped with a line saying why (`screenshot`)."""
        posts = reader.posts(self.game_topic)
        bot = [(n, p) for n, p in enumerate(posts) if p.author == self.board.bot]
        first = next(n for n, p in bot if opening in p.text)
        last = next(n for n, p in bot if n >= first and closing in p.text)
        per = int(self.board.env.get("PER_PAGE", "10"))
        shots = []
        for page in range(first // per, last // per + 1):
            url = reader.url(reader.page_path(self.game_topic, page))
            shot = screenshot(url, self.tmp / f"{name}-page{page + 1}.png", self.tmp / "chromium-profile")
            if shot is not None:
                print(f"\nscreenshot of {name} (page {page + 1}): {shot}")
                shots.append(shot)
        return shots

    # --- the dispute tool on this very game (issue 11 item 10) ------------------------------------------------

    def assert_export_replays(self, exported: Path | None = None) -> int:
        """`game export` then `replay --json` gives, byte for byte and at the same times, every message the
        bot's fold produced in this game (its outbox rows of origin core), all of them sent. Returns how many.
        `exported`: the game's export the test has just made (no tick since), replayed instead of a second one."""
        if exported is None:
            exported = self.tmp / f"{self.name}-export.json"
            done = self.cli("game", "export", self.name, "-o", str(exported))
            assert done.returncode == 0, done.stdout + done.stderr
        done = self.run([sys.executable, "-m", "forumbot.cli.main", "replay", "--json", str(exported)])
        assert done.returncode == 0, done.stderr[-3000:]
        replayed = [(datetime.fromisoformat(m["at"]), m["where"], m["to"], m["text"])
                    for m in json.loads(done.stdout)["messages"]]
        with contextlib.closing(sqlite3.connect(self.tmp / "forumbot.db")) as db:
            rows = db.execute('SELECT due_at, "where", "to", text, status FROM outbox WHERE origin = ? AND game_id = '
                              "(SELECT id FROM games WHERE name = ?) ORDER BY due_at, id", ("core", self.name)).fetchall()
        assert rows and all(status == "sent" for *_, status in rows), [r for r in rows if r[4] != "sent"]
        sent = [(datetime.fromisoformat(at).replace(tzinfo=timezone.utc), where, to, text)
                for at, where, to, text, _ in rows]
        # messages due at one instant may be enqueued by different ticks: compare in time order, then by content
        sent.sort(key=_message_order)
        replayed.sort(key=_message_order)
        for n, (mine, theirs) in enumerate(zip(sent, replayed)):
            assert mine == theirs, f"message {n}: sent {mine!r}\nreplayed {theirs!r}\n(transcript: {exported})"
        assert len(sent) == len(replayed), f"sent {len(sent)} messages, the replay {len(replayed)} ({exported})"
        return len(sent)



def _message_order(m: tuple) -> tuple:
    at, where, to, text = m
    return at, where, to or "", text
