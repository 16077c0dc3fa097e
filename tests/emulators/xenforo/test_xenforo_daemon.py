"""Issue 10 "Done means" 2, moved onto the XenForo emulator by issue 18 (the fake board it ran on, invented
tests/daemon/xenforo_board.py, agreed with the adapter and with no real board): a whole Moscow game through the
daemon's cycle (what `forumbot tick` runs) against xfemu in 2.2 mode: login, both threads, replies, role PMs as
conversations (180 s apart, on the test's clock), players answering inside them or starting their own. A
process killed mid-delivery or after reading conversations (which marks them read on the board) and started
again leaves the board as an uninterrupted run does: every message exactly once, no move lost."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "daemon"))
from daemon_world import BOT, CAST, GM, STARTED, STEPS, Crash, World, crash_at, game_toml  # noqa: E402

from adapters.xenforo.forum import XenforoForum  # noqa: E402
from forumbot.cycle.daemon import Daemon  # noqa: E402
from xfemu import Board, Emulator  # noqa: E402
from xfemu.state import fold  # noqa: E402

PASSWORD = "пароль-бота"


@dataclass
class XfWorld(World):
    """World over the emulator: every process builds its own XenforoForum; the board keeps the state."""

    offset: list = field(default_factory=lambda: [0.0])  # seconds the adapters slept (flood waits)
    recovered: object = None  # the report of the tick after a restart

    def __post_init__(self) -> None:
        self.board = Board(clock=self.unix)
        self.board.member(BOT, PASSWORD)
        for nick in (GM, *(n for n, _ in CAST)):
            self.board.member(nick)
        opened = (STARTED - timedelta(hours=1)).timestamp()
        self.board.thread("Мафия 1: игра", "mafiya-1-igra", GM, "Тема открыта.", at=opened)
        self.board.thread("Мафия 1: голосование", "mafiya-1-golosovanie", GM, "Тема открыта.", at=opened)
        self.emulator = Emulator(self.board).__enter__()
        base = self.emulator.base_url
        self.urls = {"game": base + "threads/mafiya-1-igra.101/", "vote": base + "threads/mafiya-1-golosovanie.102/"}
        self.games = game_toml("g1").replace('"g1/game"', f'"{self.urls["game"]}"').replace(
            '"g1/vote"', f'"{self.urls["vote"]}"')
        super().__post_init__()

    def unix(self) -> float:
        return self.now.timestamp() + self.offset[0]

    def nap(self, seconds: float) -> None:
        self.offset[0] += seconds

    def adapter(self, forum, env) -> XenforoForum:
        return XenforoForum(self.emulator.base_url, BOT, PASSWORD, timezone_name="Europe/Moscow", clock=self.unix,
                            sleep=self.nap, max_wait=None)

    def new_daemon(self) -> Daemon:
        daemon = Daemon(self.config, environ={}, fold=self.fold, clock=lambda: self.now, sleep=lambda s: None,
                        factory=self.adapter)
        self.daemons.append(daemon)
        return daemon

    def post(self, thread: str, author: str, text: str, game: str = "g1", ago: timedelta = timedelta(seconds=30)):
        return self.board.add_post(101 if thread == "game" else 102, author, text, at=(self.now - ago).timestamp())

    def pm(self, author: str, text: str, subject: str = "", ago: timedelta = timedelta(seconds=30)):
        """A player answers inside the newest conversation the bot started with him, else starts one."""
        at = (self.now - ago).timestamp()
        mine = [c for c in self.board.conversations_of(author) if c.starter == BOT]
        if mine and not subject:
            return self.board.add_message(mine[0].id, author, text, at)
        return self.board.start_conversation(author, [BOT], subject or "Ход", text, at)

    def texts(self) -> tuple[list, list]:
        """What the bot wrote, without times (flood waits shift them between runs) and with the emulator's address
        (an ephemeral port, another in each run) as BASE/: the opening post links the vote thread."""
        base = self.emulator.base_url.rstrip("/") + "/"
        posts = [(p.thread, p.text.replace(base, "BASE/")) for p in self.board.posts.values() if p.author == BOT]
        pms = [(next(n for n in self.board.conversations[m.conversation].members if fold(n) != fold(BOT)),
                m.text.replace(base, "BASE/")) for m in self.board.messages.values() if m.author == BOT]
        return posts, pms

    def close(self) -> None:
        super().close()
        self.emulator.__exit__(None, None, None)


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
    states["conversations"] = {c.id: (c.title, c.members) for c in w.board.conversations.values()}
    w.close()
    return states


def _plain(text: str) -> str:
    return text.replace("[b]", "").replace("[/b]", "")


def test_the_whole_game_happens_on_the_xenforo_board(reference):
    posts, pms = reference[len(STEPS) - 1]
    game = "\n".join(t for thread, t in posts if thread == 101)
    assert "Маф1" in game and "М2" in game  # the lynch and the kill both resolved
    assert {to for to, _ in pms} >= {nick for nick, _ in CAST}  # every player had his role conversation
    logins = [r for r in reference["requests"] if r == ("POST", "login/login")]
    assert len(logins) == 1  # the session is kept between ticks
    confirmed = {to for to, t in pms if t.startswith("Роль подтверждена")}
    assert confirmed == {nick for nick, _ in CAST}  # answered inside the role conversations: all read
    assert ("Шериф", "Принято: проверка. Цель — Дон.") in [(to, _plain(t).split("\n")[0]) for to, t in pms]
    assert any(to == GM and t.startswith("Фаза: день 2") for to, t in pms)  # the GM's статус, started by him
    # one conversation per player for the game: the confirmations and the night's answers are replies in it
    started = Counter(m for _, members in reference["conversations"].values() for m in members if m != BOT)
    assert all(started[nick] <= 1 for nick, _ in CAST), started


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
