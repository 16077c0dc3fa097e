"""The daemon's tick killed at each of five points of a Moscow game on the closed-source engines (vBulletin,
Invision), against fake boards answering as ENGINES.md §12 states (closed_boards.py: IPS's reply redirect to
`#comment-ID`, `messenger_to` one name per line, the Messenger rows; vB's form errors and `form#pmform`):
every message on the board exactly once, as in the run without a kill (issue 10, "Done means" 2; the kill
points are tick.Context.hook's).

What stays here is the kill matrix alone, in-process and fast: Setup after the 2nd and 6th delivery, after an
attempt not yet recorded, Day 1's result post, the night's moves read but not stored. The whole game itself
(login once, reads, replies, PMs) is played through real `forumbot tick` processes against the vBulletin 3.8/4.2
and Invision emulators (tests/emulators/test_emulator_games.py, with a SIGKILL of the CLI mid-Setup there), so
the game this module used to assert on is gone; its uninterrupted run remains as the reference the killed runs
are compared with.

The adapter is built as `forumbot tick` builds it: from the config's engine ("module:attr"), base_url, login,
password_env and forum keys, by the daemon's default factory; only HTTP is faked (`responses`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
import responses
from closed_boards import IpsBoard, VbBoard
from daemon_world import BOT, GM, STARTED, STEPS, Crash, World, config_toml, crash_at, fresh_sqlite, game_toml

from forumbot.config.load import load_config
from forumbot.cycle.daemon import Daemon

PASSWORD = "тайный пароль"

ENGINES = {
    "vbulletin": (VbBoard, "adapters.vbulletin.forum:VbulletinForum", "showthread.php?t={}"),
    "invision": (IpsBoard, "adapters.invision.forum:InvisionForum", "topic/{}-igra/"),
}


@dataclass
class BoardWorld(World):
    engine: str = "vbulletin"

    def __post_init__(self) -> None:
        board_cls, adapter, topic = ENGINES[self.engine]
        self.board = board_cls(BOT, PASSWORD, lambda: self.now)
        self.forum = self.board
        self.urls = {"game": self.board.base + topic.format(101), "vote": self.board.base + topic.format(102)}
        self.board.thread(101, "g1/game")
        self.board.thread(102, "g1/vote")
        # a thread opens with its first post: the GM's
        self.board.add_post("g1/game", GM, "Игровая тема", STARTED - timedelta(hours=1))
        self.board.add_post("g1/vote", GM, "Голосование здесь", STARTED - timedelta(hours=1))
        self.root.mkdir(parents=True, exist_ok=True)
        games = (game_toml("g1").replace('"g1/game"', f'"{self.urls["game"]}"')
                 .replace('"g1/vote"', f'"{self.urls["vote"]}"'))
        forum_extra = (f'base_url = "{self.board.base}"\npassword_env = "FORUM_PASSWORD"\n'
                       f'timezone_name = "Europe/Moscow"\nintervals = {{ post = 0, pm = 0 }}\n')
        text = config_toml(games, engine=adapter, forum_extra=forum_extra)
        self.config_path = self.root / "forumbot.toml"
        self.config_path.write_text(text, encoding="utf-8")
        self.config = load_config(self.config_path)
        fresh_sqlite(self.root / "forumbot.db")
        self.daemon = self.new_daemon()

    def new_daemon(self) -> Daemon:
        # the default factory: the adapter as `forumbot tick` builds it from the config
        daemon = Daemon(self.config, environ={"FORUM_PASSWORD": PASSWORD}, fold=self.fold, clock=lambda: self.now,
                        sleep=lambda s: None)
        self.daemons.append(daemon)
        return daemon

    def post(self, thread, author, text, game="g1", ago=None):
        return self.board.add_post(f"{game}/{thread}", author, text, self.now - (ago or timedelta(seconds=30)))

    def bot_posts(self, topic=None):
        return [(p.topic, p.text, p.posted_at) for p in self.board.posts_by(BOT, topic)]


def run(tmp_path, engine: str, crash: tuple[int, str, int] | None = None) -> BoardWorld:
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        w = BoardWorld(tmp_path, engine=engine)
        w.board.install(mock)
        w.start()
        for i, (at, act) in enumerate(STEPS):
            w.now = at
            act(w)
            if crash is not None and crash[0] == i:
                with pytest.raises(Crash):
                    w.tick(crash_at(crash[1], crash[2]))
                w.restart()
            report = w.tick()
            assert not report.unreachable and all(g.error is None for g in report.games), report
        w.close()
    return w


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    runs = {e: run(tmp_path_factory.mktemp(e), e) for e in ENGINES}
    for w in runs.values():  # the run the killed ones must equal went the whole way: the lynch and the kill
        texts = "\n".join(t for _, t, _ in w.state()[0])
        assert "Маф1" in texts and "М2" in texts, texts[-1000:]
    return runs


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("step, point, occurrence", [
    (0, "after_send", 2),  # Setup: killed right after the second delivery (a role PM) went out
    (0, "after_send", 6),
    (0, "after_attempt", 1),  # the player-list post sent, not yet recorded
    (3, "after_send", 1),  # Day 1 resolves: the result post
    (4, "after_fetch", 1),  # night moves read, not stored
])
def test_killed_mid_delivery_every_message_once(tmp_path, reference, engine, step, point, occurrence):
    w = run(tmp_path, engine, crash=(step, point, occurrence))
    assert w.state() == reference[engine].state()
    posts, pms = w.state()
    assert len(posts) == len({t for _, t, _ in posts})  # no message twice
