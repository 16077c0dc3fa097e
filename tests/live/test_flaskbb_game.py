"""A short Moscow game played by `forumbot tick` against a real FlaskBB forum on 127.0.0.1 (issue 4, item 6).

The schedule is long (Setup 2 h, days 48 h, nights 24 h), so no deadline is ever reached by the clock: the GM's
`end-phase` PMs advance the game, and the test waits on conditions (the bot's post is on the forum, the forum's
clock has moved past the last input's second) instead of a wall-clock schedule (issue 7 item 26: the old
25/22/20-second phases failed on a loaded machine). Each `forumbot tick` is a separate process, as under cron.
Roles are given in the config, so the game is the same every run:
  Setup: role PMs reach every player's inbox; players confirm (half inside the role PM, half in a new PM);
         the GM ends Setup by PM.
  Day 1: seven vote carol, three vote erin; the GM ends the day; carol is hanged.
         The tick that resolves the day is killed right after its first post went out and before it was
         recorded; the next tick finds that post on the forum and posts nothing twice.
  Night 1: the Don and the mafioso shoot frank by PM, the sheriff checks bob; the GM ends the night; frank
         dies, the sheriff learns "mafia".
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from adapters.flaskbb.forum import FlaskbbForum
from flaskbb_client import Member
from flaskbb_server import BOT, GM, PLAYERS, WELCOME_FORUM
from forked_cli import run_python
from livegame import HANG_GUARD  # the hang guard of every live game's commands (issue 28 item 1)
from stored_game import outbox_counts

pytestmark = pytest.mark.live

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SETUP_HOURS, DAY_HOURS, NIGHT_HOURS = 2, 48, 24  # never reached: GM end-phase PMs advance the game
ROLES = {"alice": "sheriff", "bob": "don", "carol": "mafia", "dave": "mafia"}
PASSWORD_ENV = "FORUMBOT_LIVE_BOT_PASSWORD"
MARKER = re.compile(r"#fb:[0-9a-f]{8}")


def config_text(base: str, game: str, vote: str, day1: datetime) -> str:
    players = ",\n    ".join(f'{{ nick = "{p.name}", role = "{ROLES.get(p.name, "civilian")}" }}' for p in PLAYERS)
    return f"""poll_seconds = 60
grace_seconds = 0
retries = 1
backoff_seconds = 0.5

[forums.live]
engine = "flaskbb"
base_url = "{base}"
login = "{BOT.name}"
password_env = "{PASSWORD_ENV}"
markup = "markdown"

[games.g1]
forum = "live"
variant = "moscow"
language = "en"
game_thread = "{game}"
vote_thread = "{vote}"
gms = ["{GM.name}"]
start = {day1.isoformat()}
timezone = "UTC"
day_hours = {DAY_HOURS}
night_hours = {NIGHT_HOURS}
runoff_hours = {NIGHT_HOURS}
remind_hours = 0
players = [
    {players}
]
"""


class Game:
    def __init__(self, server, tmp: Path) -> None:
        self.base = server.base_url
        self.tmp = tmp
        self.config = tmp / "forumbot.toml"
        self.env = {**os.environ, PASSWORD_ENV: BOT.password, "PYTHONPATH": str(ROOT)}
        self.log = tmp / "ticks.log"

    def cli(self, *args: str) -> subprocess.CompletedProcess:
        return self.run([sys.executable, "-m", "forumbot.cli.main", *args, "-c", str(self.config)])

    def run(self, cmd: list[str]) -> subprocess.CompletedProcess:
        """A process forked from one that imported forumbot (forked_cli.py), as LiveGame.run."""
        done, _ = run_python(cmd, self.env, self.tmp, timeout=HANG_GUARD)
        with open(self.log, "a") as f:
            f.write(f"$ {' '.join(cmd[2:])}\n-> {done.returncode}\n{done.stdout}{done.stderr}\n")
        return done

    def tick(self) -> None:
        done = self.cli("tick")
        assert done.returncode == 0, f"tick failed: {done.stderr[-2000:]}"

    def tick_killed_at(self, point: str) -> int:
        return self.run([sys.executable, str(HERE / "tick_and_die.py"), str(self.config), point, "1"]).returncode


def next_second() -> None:
    """Wait until the clock is in a later whole second than now, so the next input is stamped after every earlier
    one even where the forum shows whole seconds (an input stamped at a deadline is late: C-1)."""
    now = time.time()
    time.sleep(math.floor(now) + 1 - now + 0.01)


def end_phase(gm: Member) -> None:
    """The GM closes the open phase by PM (C-1, C-9), stamped after every input sent before it."""
    next_second()
    gm.pm(BOT.name, "g1", "end-phase")


def bot_posts(reader: FlaskbbForum, topic: str) -> list[str]:
    posts, _ = reader.fetch_posts(topic)
    return [p.text for p in posts if p.author == BOT.name]


def test_a_moscow_game_through_forumbot_tick(flaskbb, tmp_path):
    t_start = time.monotonic()
    gm = Member(flaskbb.base_url, GM)
    game_url = gm.new_topic(WELCOME_FORUM, "Mafia game 1", "The game thread. The bot runs this game.")
    vote_url = gm.new_topic(WELCOME_FORUM, "Mafia game 1 - votes", "Votes only: one post, one name.")
    players = {p.name: Member(flaskbb.base_url, p) for p in PLAYERS}
    reader = FlaskbbForum(flaskbb.base_url, GM.name, GM.password)
    reader.login()

    game = Game(flaskbb, tmp_path)
    day1 = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(hours=SETUP_HOURS)
    game.config.write_text(config_text(flaskbb.base_url, game_url, vote_url, day1), encoding="utf-8")
    assert game.cli("db", "upgrade").returncode == 0
    started = game.cli("game", "start", "g1")
    assert started.returncode == 0, started.stderr

    # --- Setup: role PMs, player list, confirmations ------------------------------------------------------
    game.tick()
    for name, member in players.items():
        from_bot = member.messages_from(BOT.name)
        role = ROLES.get(name, "civilian").replace("don", "mafia Don")
        assert any(f"Your role: {role}." in m for m in from_bot), f"{name} has no role PM: {from_bot}"
    assert any("The game begins" in t for t in bot_posts(reader, game_url))
    for i, (name, member) in enumerate(players.items()):
        if i % 2:
            member.answer(member.conversations()[0], "confirm")
        else:
            member.pm(BOT.name, "g1", "confirm")
    game.tick()
    assert all(any("Role confirmed" in m for m in member.messages_from(BOT.name)) for member in players.values())

    # --- Day 1: the GM opens it; votes in the vote thread; the GM ends it; a tick killed mid-delivery ------
    end_phase(gm)
    game.tick()
    assert any("Day 1 begins" in t for t in bot_posts(reader, game_url)), "the GM's end-phase did not open Day 1"
    to_gm = gm.messages_from(BOT.name)
    assert any(m.startswith("Done:") for m in to_gm) and any("Every player confirmed" in m for m in to_gm), to_gm
    next_second()
    players["erin"].reply(game_url, "Good morning, town. I am a civilian.")
    for name in ("alice", "erin", "frank", "grace", "heidi", "ivan", "judy"):
        players[name].reply(vote_url, "carol")
    for name in ("bob", "carol", "dave"):
        players[name].reply(vote_url, "erin")
    game.tick()

    end_phase(gm)
    before = bot_posts(reader, game_url) + bot_posts(reader, vote_url)
    assert game.tick_killed_at("after_send") == 137, "the crash point was never reached"
    after_crash = bot_posts(reader, game_url) + bot_posts(reader, vote_url)
    assert len(after_crash) == len(before) + 1, "the killed tick should have sent exactly one post"
    game.tick()
    posts = bot_posts(reader, game_url) + bot_posts(reader, vote_url)
    markers = [m for t in posts for m in MARKER.findall(t)]
    assert len(markers) == len(posts) and len(set(markers)) == len(markers), "a message was posted twice"
    assert after_crash[-1] in posts and posts.count(after_crash[-1]) == 1
    game_posts = "\n".join(bot_posts(reader, game_url))
    assert "vote count" in "\n".join(posts).lower()
    assert game_posts.count("Final vote count (day 1)") == 1
    assert "By vote, carol leaves the game." in game_posts

    # --- Night 1: moves by PM, the result ------------------------------------------------------------------
    players["bob"].pm(BOT.name, "g1", "kill frank")
    players["dave"].pm(BOT.name, "g1", "kill frank")
    players["alice"].pm(BOT.name, "g1", "check bob")
    game.tick()
    assert any("Accepted: shot. Target — frank." in m for m in players["dave"].messages_from(BOT.name))
    end_phase(gm)
    game.tick()
    game_posts = "\n".join(bot_posts(reader, game_url))
    assert "Night 1 results." in game_posts and "frank" in game_posts.split("Night 1 results.")[1]
    assert any("Check result: bob — mafia." in m for m in players["alice"].messages_from(BOT.name))

    posts = bot_posts(reader, game_url) + bot_posts(reader, vote_url)
    markers = [m for t in posts for m in MARKER.findall(t)]
    assert len(set(markers)) == len(markers) == len(posts)
    outbox = outbox_counts(tmp_path / "forumbot.db", "g1")  # every message sent: read from the store, no process
    assert outbox and set(outbox) == {"sent"}, outbox
    print(f"\nlive game: {time.monotonic() - t_start:.0f} s, {len(posts)} bot posts; log: {game.log}")


def test_escaped_text_shows_literally_on_the_real_forum(flaskbb):
    """Issue 4 item 7 against FlaskBB's own Markdown renderer: a nickname cannot format, link or mention."""
    gm = Member(flaskbb.base_url, GM)
    topic = gm.new_topic(WELCOME_FORUM, "Escaping check", "Names as the bot writes them.")
    bot = FlaskbbForum(flaskbb.base_url, BOT.name, BOT.password)
    bot.login()
    nasty = ["**bold**", "[link](http://example.com)", "<b>tag</b>", "@alice", "http://example.com", "_x_ `y` # z"]
    bot.reply(topic, "\n\n".join(bot.escape(n) for n in nasty))
    post = [p for p in bot.fetch_posts(topic)[0] if p.author == BOT.name][-1]
    for tag in ("<strong", "<em", "<a ", "<code", "<b>", "<h1"):
        assert tag not in post.html, f"{tag} rendered in {post.html}"
    shown = post.text.replace("\u200b", "")
    assert all(n in shown for n in nasty), shown
