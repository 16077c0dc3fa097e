"""Issue 10, "Done means" 2 for XenForo 2: a whole Moscow game through the daemon's cycle (what `forumbot tick`
runs) against a fake XenForo board behind `responses` (xenforo_board.py: pages built from the real saved thread
page, JSON answers as XenForo's renderer gives them): login, reading both threads, replies, role PMs as
conversations, players answering inside them or starting their own. A process killed mid-delivery or after
reading conversations (which marks them read on the board) and started again leaves the board as an
uninterrupted run does: every message exactly once, no move lost."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
import responses
from daemon_world import BOT, CAST, GM, STARTED, STEPS, Crash, World, crash_at, game_toml

from adapters.xenforo import XenforoForum
from forumbot.daemon import Daemon
from xenforo_board import BASE, Board

GAME_URL = BASE + "threads/mafiya-1-igra.101/"
VOTE_URL = BASE + "threads/mafiya-1-golosovanie.102/"
THREADS = {"game": GAME_URL, "vote": VOTE_URL}
PASSWORD = "пароль-бота"


@dataclass
class XfWorld(World):
    """World over the fake board: every process builds its own XenforoForum; the board keeps the state."""

    offset: list = field(default_factory=lambda: [0.0])  # seconds the adapters slept (flood waits)
    http: responses.RequestsMock | None = None
    recovered: object = None  # the report of the tick after a restart

    def __post_init__(self) -> None:
        self.board = Board(BOT, PASSWORD, self.unix, flood_seconds=30)
        self.board.thread(101, "mafiya-1-igra", GAME_URL)
        self.board.thread(102, "mafiya-1-golosovanie", VOTE_URL)
        for url in (GAME_URL, VOTE_URL):  # a XenForo thread is never empty: the GM opened both
            self.board.add_post(url, GM, "Тема открыта.", STARTED - timedelta(hours=1))
        self.forum = self.board  # World's posts/PMs helpers talk to it
        self.games = (game_toml("g1").replace('"g1/game"', f'"{GAME_URL}"').replace('"g1/vote"', f'"{VOTE_URL}"'))
        self.http = responses.RequestsMock(assert_all_requests_are_fired=False)
        self.http.start()
        self.board.install(self.http)
        super().__post_init__()

    def unix(self) -> float:
        return self.now.timestamp() + self.offset[0]

    def nap(self, seconds: float) -> None:
        self.offset[0] += seconds

    def adapter(self, forum, env) -> XenforoForum:
        return XenforoForum(BASE, BOT, PASSWORD, timezone_name="Europe/Moscow", clock=self.unix, sleep=self.nap)

    def new_daemon(self) -> Daemon:
        daemon = Daemon(self.config, environ={}, fold=self.fold, clock=lambda: self.now, sleep=lambda s: None,
                        factory=self.adapter)
        self.daemons.append(daemon)
        return daemon

    def post(self, thread: str, author: str, text: str, game: str = "g1", ago: timedelta = timedelta(seconds=30)):
        return self.board.add_post(THREADS[thread], author, text, self.now - ago)

    def texts(self) -> tuple[list, list]:
        """What the bot wrote, without times (flood waits shift them between runs)."""
        return ([(p.topic, p.text) for p in self.board.posts_by(BOT)],
                [(p.to, p.pm.text) for p in self.board.pms])

    def close(self) -> None:
        super().close()
        self.http.stop()
        self.http.reset()


def play(w: XfWorld, crash: tuple[int, object] | None = None, upto: int | None = None) -> None:
    w.start()
    for i, (at, act) in enumerate(STEPS[: None if upto is None else upto + 1]):
        w.now = at
        act(w)
        if crash is not None and crash[0] == i:
            with pytest.raises(Crash):
                w.tick(crash[1])
            w.restart()
            w.recovered = w.tick()
            continue
        w.tick()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    w = XfWorld(tmp_path_factory.mktemp("xf-reference"))
    states = {}
    w.start()
    for i, (at, act) in enumerate(STEPS):
        w.now = at
        act(w)
        w.tick()
        states[i] = w.texts()
    states["requests"] = list(w.board.requests)
    w.close()
    return states


def test_the_whole_game_happens_on_the_xenforo_board(reference):
    posts, pms = reference[len(STEPS) - 1]
    game = "\n".join(t for topic, t in posts if topic == GAME_URL)
    assert "Маф1" in game and "М2" in game  # the lynch and the kill both resolved
    assert {to for to, _ in pms} >= {nick for nick, _ in CAST}  # every player had his role conversation
    logins = [r for r in reference["requests"] if r == ("POST", "login/login")]
    assert len(logins) == 1  # the session is kept between ticks
    # The confirmations were answered inside the role conversations, the night moves too: all were read
    confirmed = {to for to, t in pms if t.startswith("Роль подтверждена")}
    assert confirmed == {nick for nick, _ in CAST}
    assert ("Шериф", "Принято: проверка. Цель — Дон.") in [(to, t.replace("[b]", "").replace("[/b]", "").split("\n")[0]) for to, t in pms]
    assert any(to == GM and t.startswith("Фаза: день 2") for to, t in pms)  # the GM's статус, started by him


def _once(state) -> None:
    posts, pms = state
    markers = Counter(line for _, t in [*posts, *pms] for line in t.splitlines() if line.startswith("#fb:"))
    assert markers and max(markers.values()) == 1, [m for m, n in markers.items() if n > 1]


@pytest.mark.parametrize("step,point,occurrence", [
    (0, "after_send", 1),  # the player-list post is on the board, not yet recorded
    (0, "after_send", 2),  # the first role conversation started
    (0, "after_send", 6),  # in the middle of the role PMs
    (0, "after_attempt", 4),  # about to start a conversation
    (3, "after_send", 1),  # the day's result posted
    (4, "after_fetch", 1),  # the night moves read (their conversations now read on the board), not stored
    (4, "after_store", 1),
])
def test_kill_mid_delivery_then_restart_every_message_exactly_once(tmp_path, reference, step, point, occurrence):
    w = XfWorld(tmp_path)
    play(w, crash=(step, crash_at(point, occurrence)), upto=step + 1)
    if point == "after_send":  # the restarted process found on the board what it had sent, and did not resend it
        assert w.recovered.games[0].delivery.recovered == 1
    assert w.texts() == reference[step + 1]
    _once(w.texts())
    w.close()
