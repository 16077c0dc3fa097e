"""Whole games against an emulator through real `forumbot tick` processes (issue 18 item 3).

`EmuBoard` gives tests/live/livegame.py's LiveGame the board it expects (threads, the bot's account, members
who post, edit and send PMs), backed by an emulator running in this process: players act on the emulator's
state directly, as members on a real board would through its forms; the bot acts only over HTTP.
`EmuGame` is LiveGame without its waits for the minute's end: the emulators show times to the second.
"""

from __future__ import annotations

import html
import math
import os
import re
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))

from forked_cli import Forked  # noqa: E402
from livegame import HANG_GUARD, LiveGame  # noqa: E402
from tick_summary import IDLE_SUMMARY  # noqa: E402

from board import Emulator, Request, Response  # noqa: E402

MOSCOW_PLAYERS = ["Маша", "Кот Баюн", "Дядя Фёдор", "Lucky_Strike", "ёжик", "Печкин 2000", "Незнайка",
                  "Kapitan Vrungel", "Алёна_77", "Шарик"]
GAME_TOPIC, VOTE_TOPIC = 41, 42


def plain(text: str) -> str:
    """What a reader sees of a stored text: Invision keeps HTML paragraphs, the others BBCode (rendered: the
    simple codes' text stays)."""
    if not text.startswith("<"):
        return re.sub(r"\[/?(?:b|i|u|s)\]", "", text)
    text = re.sub(r"</p>\s*", "\n", text)
    text = re.sub(r"<br\s*/?>", "\n", text)
    return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()


@dataclass
class Said:
    id: str
    author: str
    text: str


class EmuMember:
    def __init__(self, board: "EmuBoard", name: str) -> None:
        self.board, self.name = board, name
        self.emu = board.emu

    def after_the_bot(self) -> None:
        """A member answers in a later second than the bot's last message (no person is quicker); Invision's
        conversation list shows the latest message's time to the second."""
        bot = self.emu.bot
        last = max([p.at for p in self.emu.posts if p.author == bot] + [m.at for m in self.emu.pms if m.author == bot],
                   default=0.0)
        time.sleep(max(0.0, math.floor(last) + 1.05 - time.time()))

    def reply(self, topic: str, text: str) -> str:
        self.after_the_bot()
        return str(self.emu.add_post(int(topic), self.name, text).id)

    def quote(self, topic: str, post_id: str, text: str) -> str:
        quoted = next(p for p in self.emu.posts if str(p.id) == post_id)
        return self.reply(topic, f'[quote="{quoted.author}"]{quoted.text}[/quote]\n{text}')

    def edit(self, post_id: str, text: str) -> None:
        self.emu.edit_post(int(post_id), text, self.name)

    def pm(self, to: str, subject: str, text: str) -> None:
        """Into the newest conversation with `to` where the engine has conversations (Invision), else a PM."""
        self.after_the_bot()
        conv = 0
        if hasattr(self.emu, "max_conversations"):
            shared = [m.conv for m in self.emu.pms if {m.author, *m.to} == {self.name, to}]
            conv = shared[-1] if shared else self.emu.next_id("conv")
        self.emu.add_pm(self.name, [to], subject, text, conv)

    def posts_by(self, topic: str, author: str) -> list[Said]:
        return [Said(str(p.id), p.author, plain(p.text)) for p in self.emu.posts_by(author, int(topic))]

    def pms_from(self, author: str) -> list[Said]:
        return [Said(str(m.id), m.author, plain(m.text)) for m in self.emu.pms if m.author == author and self.name in m.to]


class EmuBoard:
    """What LiveGame reads of a board."""

    def __init__(self, emu: Emulator, engine: str, topic_path: str, password: str, pm_send: str = "") -> None:
        self.emu, self.engine, self.password = emu, engine, password
        self.pm_send = pm_send  # what the path of a POST that sends a PM holds
        self.base_url = emu.base
        self.bot, self.gm = emu.bot, "Ведущий"
        self.players = list(MOSCOW_PLAYERS)
        for name in (self.gm, *self.players):
            emu.add_user(name)
        emu.thread(GAME_TOPIC, "Мафия: игра", first_post_by=self.gm, text="Игра здесь")
        emu.thread(VOTE_TOPIC, "Мафия: голосование", first_post_by=self.gm, text="Голосуем здесь")
        self.env = {"GAME_TOPIC": str(GAME_TOPIC), "VOTE_TOPIC": str(VOTE_TOPIC)}
        self._topic_path = topic_path
        self._members: dict[str, EmuMember] = {}

    def member(self, name: str) -> EmuMember:
        return self._members.setdefault(name, EmuMember(self, name))

    def topic(self, key: str) -> str:
        return self.env[key]

    def topic_url(self, topic: str) -> str:
        return self.base_url + self._topic_path.format(topic)


class EmuGame(LiveGame):
    def tick(self) -> str:
        """A tick once the second of the last thing a member did is over: vBulletin and mybb.ru show times to the
        second, and an input counts from the end of the second it shows (C-1), as on a board shown to the minute."""
        self._after_the_last_second()
        return super().tick()

    def _after_the_last_second(self) -> None:
        emu = self.board.emu
        last = max([p.at for p in emu.posts] + [m.at for m in emu.pms], default=0.0)
        time.sleep(max(0.0, math.floor(last) + 1.05 - time.time()))

    def tick_killed_on(self, sends: str, occurrence: int) -> None:
        """`forumbot tick`, the real CLI process, killed with SIGKILL by the board the moment it has taken the
        `occurrence`-th POST whose path holds `sends`, before its answer leaves: the message is on the board and
        the process never learns it was sent (the outbox row stays "attempted": the next tick must find it there,
        not send it again). Delivery is cut in the middle: what came before went out, the rest did not."""
        emu = self.board.emu
        self._after_the_last_second()
        seen = 0
        proc = Forked(["forumbot.cli.main", "tick", "-c", str(self.config)], self.env, self.tmp,
                      module="forumbot.cli.main")

        def kill(req: Request, resp: Response) -> None:
            nonlocal seen
            if req.method == "POST" and sends in f"{req.path}?{req.raw_query}":
                seen += 1
                if seen == occurrence:
                    os.kill(proc.pid, signal.SIGKILL)

        emu.after_request = kill
        try:
            out, err = proc.communicate(timeout=HANG_GUARD)
        finally:
            emu.after_request = None
        with open(self.log, "a") as f:
            f.write(f"$ forumbot tick (SIGKILL at POST {sends!r} #{occurrence})\n-> {proc.returncode}\n{out}{err}\n")
        assert proc.returncode == -signal.SIGKILL, f"the kill point was never reached ({seen} such POSTs)"

    def end_phase(self, gm: EmuMember) -> None:  # type: ignore[override]
        """The GM closes the phase by PM. Where the board shows a PM's time only to the minute (vBulletin 3.8's
        PM page), the PM counts from the minute's end (C-1), so the next tick waits the minute out: in .ci/run
        vBulletin 3.8's game stored the GM's PM and did not close Day 1 on that tick. Elsewhere it shows seconds
        and the tick's own wait for the last second is enough."""
        from boards import wait_past_the_minute

        self.end_phases = getattr(self, "end_phases", 0) + 1
        gm.pm(self.board.bot, f"{self.name}: {self.end_phases}", "конец-фазы")
        if self.board.emu.pm_time_to_the_minute:
            wait_past_the_minute()

    def settle(self, engine: str = "", most: int = 5) -> None:
        for _ in range(most):
            if IDLE_SUMMARY.search(self.tick()):
                return
        raise AssertionError(f"{most} ticks in a row still sent something; log: {self.log}")


def play_moscow(board: EmuBoard, game: EmuGame) -> dict[str, int]:
    """A lean Moscow game: Setup; Day 1 lynches a civilian by majority; Night 1 the mafia shoot and the sheriff
    checks; Day 2 the GM modkills the mafia and the town wins. Returns what it measured."""
    emu = board.emu
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in board.players}
    roles = ROLES
    # Setup's delivery cut by a SIGKILL at the third PM the board takes; the next tick (play_setup's first) sends
    # the rest and finds the third on the board (assert_each_once below: every message once)
    game.tick_killed_on(board.pm_send, 3)
    sent = sum(1 for m in emu.pms if m.author == emu.bot)
    assert sent == 3, f"the killed tick should have sent exactly three PMs, not {sent}"
    game.play_setup(gm, p, roles, "Незнайка", f"{board.gm} пишет:\nконец-фазы")
    vote = game.vote_topic
    for name in ("Маша", "Кот Баюн", "Дядя Фёдор", "ёжик", "Печкин 2000", "Kapitan Vrungel"):
        p[name].reply(vote, "Незнайка")
    for name in ("Lucky_Strike", "Алёна_77", "Шарик"):
        p[name].reply(vote, "Маша")
    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    assert "Итоговый подсчёт голосов" in text and "Наступила ночь 1" in text, text[-1500:]
    p["Маша"].pm(board.bot, game.name, "проверка Lucky_Strike")
    for name in MAFIA:
        p[name].pm(board.bot, game.name, "убить Кот Баюн")
    game.tick()
    game.settle()
    mark = len(emu.requests)
    idle = game.tick()
    idle_requests = emu.requests[mark:]
    assert IDLE_SUMMARY.search(idle), idle
    # a path through index.php?/ (Invision without rewrite) names its route after it
    assert not any(path.removeprefix("index.php?/").startswith("login") for _, path in idle_requests), idle_requests
    game.end_phase(gm)
    game.tick()
    night = game.game_text(gm).split("Итоги ночи 1.", 1)[1]
    assert "Кот Баюн" in night and "Наступил день 2" in night, night[:500]
    sheriff = [m.text for m in p["Маша"].pms_from(board.bot) if "Результат проверки" in m.text]
    assert sheriff and "Lucky_Strike — мафия" in sheriff[-1], sheriff
    for name in MAFIA:
        gm.pm(board.bot, game.name, f"модкилл {name}")
    game.tick_until_ended()  # no idle tick after the end
    game.assert_town_won(gm)
    logins = [path for method, path in emu.requests
              if method == "POST" and path.removeprefix("index.php?/").startswith("login")]
    assert len(logins) == 1, logins  # one login: every later process, the killed one too, keeps the session
    posts, pms = game.assert_each_once(gm, [gm, *p.values()])
    game.assert_outbox_drained()
    return {"posts": posts, "pms": pms, "idle_requests": len(idle_requests)}


ROLES = {"Маша": "sheriff", "Lucky_Strike": "don", "Алёна_77": "mafia", "Шарик": "mafia"}
MAFIA = ("Lucky_Strike", "Алёна_77", "Шарик")
