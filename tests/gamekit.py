"""A small kit to write rule tests as stories: who posts what, when; then what the bot said and who died.

    g = Game.moscow()                       # 10 players A..J with a fixed cast, start 2026-12-01 10:00 MSK
    g.vote("day 1", "+2h", "Маша", "Петя")   # a vote-thread post 2 h after Day 1 opens
    g.pm("night 1", "+1h", "Петя", "убить Маша")
    r = g.run()                             # folds everything up to `until` (default: the last phase's deadline)
    assert r.died("Маша") == ("night 1", "mafia")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from forumbot.engine.results import GameRun
from forumbot.game import run
from forumbot.model import GameSetup, Input, PlayerSpec, Role, Schedule, Where

MSK = timezone(timedelta(hours=3))
START = datetime(2026, 12, 1, 10, 0, tzinfo=MSK)
DAY, NIGHT, RUNOFF = timedelta(hours=24), timedelta(hours=12), timedelta(hours=12)

# Moscow: 10 players. Sheriff Шериф; Don Дон; mafia Маф1, Маф2; civilians М1..М6.
MOSCOW_CAST = [("Шериф", Role.SHERIFF), ("Дон", Role.DON), ("Маф1", Role.MAFIA), ("Маф2", Role.MAFIA)] + [
    (f"М{i}", Role.CIVILIAN) for i in range(1, 7)
]
# Free Hunt: 12 players. Mafia Ф1..Ф3, Doctor Док, Maniac Ман, civilians Г1..Г7.
HUNT_CAST = [("Ф1", Role.MAFIA), ("Ф2", Role.MAFIA), ("Ф3", Role.MAFIA), ("Док", Role.DOCTOR), ("Ман", Role.MANIAC)] + [
    (f"Г{i}", Role.CIVILIAN) for i in range(1, 8)
]


def _offset(text: str) -> timedelta:
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    total = timedelta()
    num = ""
    for ch in body:
        if ch.isdigit():
            num += ch
        else:
            total += {"h": timedelta(hours=int(num)), "m": timedelta(minutes=int(num)), "s": timedelta(seconds=int(num))}[ch]
            num = ""
    return sign * total


def plain(text: str) -> str:
    """A bot text without the bot's own bold tags: rule tests read what it says; tests/test_texts*.py check
    how it is formatted (issue 11 item 1)."""
    return text.replace("[b]", "").replace("[/b]", "")


# Issue 11 item 6: a phase opening at a deadline is announced in the post with that deadline's results.
OPENINGS = {"day": ("Наступил день {n}", "Day {n} begins"), "night": ("Наступила ночь {n}", "Night {n} falls")}


def opening(r, label: str):  # type: ignore[no-untyped-def]
    """The game-thread post that announces phase `label` ("night 1"), alone or after the results."""
    kind, n = label.split()
    heads = [h.format(n=n) for h in OPENINGS[kind]]
    return next((m for m in r.run.messages if m.where == "game" and any(h in plain(m.text) for h in heads)), None)


@dataclass
class Result:
    run: GameRun

    @property
    def winner(self) -> str | None:
        return self.run.result.winner

    def player(self, nick: str):  # type: ignore[no-untyped-def]
        return next(p for p in self.run.result.players if p.nick == nick)

    def alive(self, nick: str) -> bool:
        return self.player(nick).alive

    def died(self, nick: str) -> tuple[str, str] | None:
        d = self.player(nick).died
        return (d.phase, d.cause) if d else None

    def posts(self, where: str = "game") -> list[str]:
        return [plain(m.text) for m in self.run.messages if m.where == where]

    def pms(self, to: str) -> list[str]:
        return [plain(m.text) for m in self.run.messages if m.where == "pm" and m.to == to]

    def text(self) -> str:
        return "\n".join(plain(m.text) for m in self.run.messages)

    def keys(self) -> list[str]:
        return [m.key for m in self.run.messages]


@dataclass
class Game:
    variant: str
    cast: list[tuple[str, Role | None]]
    options: dict = field(default_factory=dict)
    gms: tuple[str, ...] = ("ГМ",)
    seed: int = 1
    language: str = "ru"
    events: list[Input] = field(default_factory=list)
    day: timedelta = DAY
    night: timedelta = NIGHT
    runoff: timedelta = RUNOFF

    @classmethod
    def moscow(cls, **kw) -> "Game":  # type: ignore[no-untyped-def]
        return cls("moscow", list(MOSCOW_CAST), **kw)

    @classmethod
    def free_hunt(cls, **kw) -> "Game":  # type: ignore[no-untyped-def]
        return cls("free_hunt", list(HUNT_CAST), **kw)

    def setup(self) -> GameSetup:
        return GameSetup(
            variant=self.variant, seed=self.seed,
            schedule=Schedule(START, self.day, self.night, self.runoff, "Europe/Moscow"),
            players=tuple(PlayerSpec(n, r) for n, r in self.cast), bot="Бот", gms=self.gms,
            options=dict(self.options), language=self.language,
        )

    def at(self, phase: str, offset: str = "+1h") -> datetime:
        """A time inside a phase of the plain schedule (no runoffs): 'setup', 'day N', 'night N'."""
        if phase == "setup":
            base = START
        else:
            kind, n = phase.split()
            k = int(n) - 1
            base = START + k * (DAY + NIGHT) + (DAY if kind == "night" else timedelta())
        return base + _offset(offset)

    def _add(self, where: Where, phase: str | datetime, offset: str, who: str, text: str, **kw) -> Input:  # type: ignore[no-untyped-def]
        at = phase if isinstance(phase, datetime) else self.at(phase, offset)
        inp = Input(at, where, who, text, id=f"t{len(self.events) + 1}", **kw)
        self.events.append(inp)
        return inp

    def vote(self, phase, offset, who, text, **kw) -> Input:  # type: ignore[no-untyped-def]
        return self._add(Where.VOTE, phase, offset, who, text, **kw)

    def post(self, phase, offset, who, text, **kw) -> Input:  # type: ignore[no-untyped-def]
        return self._add(Where.GAME, phase, offset, who, text, **kw)

    def pm(self, phase, offset, who, text, **kw) -> Input:  # type: ignore[no-untyped-def]
        return self._add(Where.PM, phase, offset, who, text, **kw)

    def cc(self, phase, offset, who, text, **kw) -> Input:  # type: ignore[no-untyped-def]
        """A PM written to the bot and others at once (M-15's conversation, a CC)."""
        return self._add(Where.SHARED, phase, offset, who, text, **kw)

    def gm(self, phase, offset, text) -> Input:  # type: ignore[no-untyped-def]
        return self._add(Where.PM, phase, offset, self.gms[0], text)

    def votes(self, phase: str, ballots: dict[str, str], offset: str = "+1h") -> None:
        for who, target in ballots.items():
            self.vote(phase, offset, who, target)

    def run(self, until: str | datetime | None = None, offset: str = "+0h") -> Result:
        if isinstance(until, str):
            until = self.at(until, offset)
        return Result(run(self.setup(), self.events, until))
