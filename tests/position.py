"""A game position from one line, like a chess FEN, so a clause is tested as one step on a prepared position
(issue 19 item 5) instead of a replay from Setup:

    p = Position.parse("moscow night 3 | Шериф=sheriff Дон=don Маф1=mafia Маф2=mafia М1 М2 ~М3 | misfires 2")
    p.advance()                    # to the open phase's deadline: one resolution
    assert p.state.winner == "town"

Sections are separated by " | ":
- first: the variant and the open phase (`moscow day 2`, `free_hunt night 1`, `moscow runoff 1`);
- second: the seats in order, `NICK=ROLE` (civilian when no role is given), `~NICK` for a seat already out;
- then any of: `votes A>B C>D` (vote-thread posts of the open day, in order, as the players wrote them), `pms
  A:убить М1, Шериф:проверка Дон` (PMs of the open phase, comma-separated), `misfires N` (M-6's streak),
  `agitations NICK=N ...` (H-4's count this game), `leaders A,B` (a runoff's), `options k=v ...` (house rules,
  values as JSON: `final_word="окончательно"`).

The position is a `Table` and a `Game` (forumbot/engine), the Game built by the engine's own functions: the
Setup opened, the seats confirmed (and those listed out, dead), the phase opened at its place in the plain
schedule; the listed posts and PMs are then `step`s through the engine's own parsers, so what is tested is the
rule, not a stub. `step(input)` is `forumbot.engine.step` on the position's Game; `advance()` is
`forumbot.engine.advance` to the open phase's deadline; both keep the new Game and return the messages sent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from gamekit import DAY, NIGHT, RUNOFF, START

from forumbot.engine import Game, Table, advance, make_table, step
from forumbot.engine.fold import new_game
from forumbot.engine.phases import open_phase, open_setup
from forumbot.engine.state import Phase, freeze
from forumbot.engine.work import Work
from forumbot.model import GameSetup, Input, Message, PlayerSpec, Role, Schedule, Where


@dataclass
class Position:
    table: Table
    game: Game
    opens: datetime
    _n: int = field(default=0)

    @property
    def state(self) -> Game:
        return self.game

    @classmethod
    def parse(cls, line: str) -> "Position":
        head, seats, *rest = [part.strip() for part in line.split(" | ")]
        variant, kind, number = head.split()
        n = int(number)
        sections = {part.split(" ", 1)[0]: (part.split(" ", 1) + [""])[1] for part in rest}
        cast, out = [], set()
        for word in seats.split():
            dead = word.startswith("~")
            nick, _, role = word.lstrip("~").partition("=")
            cast.append(PlayerSpec(nick, Role(role) if role else Role.CIVILIAN))
            if dead:
                out.add(nick)
        options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in sections.get("options", "").split())}
        setup = GameSetup(variant=variant, seed=1, schedule=Schedule(START, DAY, NIGHT, RUNOFF, "Europe/Moscow"),
                          players=tuple(cast), bot="Бот", gms=("ГМ",), options=options)
        table = make_table(setup)
        w = Work(table, new_game(table))
        open_setup(w, START)
        opens = START + (n - 1) * (DAY + NIGHT) + (DAY if kind in ("night", "runoff") else timedelta())
        g = w.g
        g.phase = Phase("setup", 0, START, START)
        for seat in g.seats.values():
            seat.confirmed = True
            if seat.nick in out:
                seat.alive = False
        g.clock = opens
        open_phase(w, kind, n, opens)
        g.misfires = int(sections.get("misfires", "0") or 0)
        for pair in sections.get("agitations", "").split():
            nick, count = pair.split("=")
            g.agitations[nick] = int(count)
        if sections.get("leaders"):
            g.leaders = tuple(sections["leaders"].split(","))
            g.hang_all = table.variant.runoff_is_hang_all(len([s for s in g.seats.values() if s.alive]))
        p = cls(table, freeze(g), opens)
        for vote in sections.get("votes", "").split():
            voter, target = vote.split(">")
            p.step(p.input(Where.VOTE, voter, target))
        for pm in filter(None, (x.strip() for x in sections.get("pms", "").split(","))):
            author, text = pm.split(":", 1)
            p.step(p.input(Where.PM, author, text))
        return p

    def input(self, where: Where, author: str, text: str, minutes: int | None = None) -> Input:
        """An input one minute after the previous one (or `minutes` after the phase opened)."""
        self._n += 1
        at = self.opens + timedelta(minutes=self._n if minutes is None else minutes)
        return Input(at, where, author, text, id=f"p{self._n}")

    def step(self, inp: Input) -> list[Message]:
        self.game, sent, _ = step(self.table, self.game, inp)
        return list(sent)

    def advance(self) -> list[Message]:
        """Resolve the open phase at its deadline."""
        self.game, sent, _ = advance(self.table, self.game, self.game.phase.deadline)
        return list(sent)
