"""Seeded random games of both variants with a GM mix (issue 19 items 3 and 6): tests/test_properties.py's builder, and on
top `отмена` (C-9), `пауза`/`продолжить`, `продлить`, `голос`, `замена`, `модкилл` (C-10), `конец фазы`, and
inputs read after their phase was resolved (C-13)."""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime, timedelta

from gamekit import DAY, NIGHT, START, Game
from test_properties import build_game

from forumbot.model import GameSetup, Input

GM_MIX = ["отмена", "отмена", "пауза", "продолжить", "продлить 2ч", "продлить 30м", "голос {a} {b}", "голос {a} ннв",
          "замена {a} Новичок{n}", "модкилл {a}", "модкилл {a} флуд", "статус", "конец фазы", "псевдоним Кузя {a}",
          "сказать всем {a}"]


def random_game(n: int) -> tuple[GameSetup, list[Input], datetime]:
    rnd = random.Random(n)
    variant = "moscow" if n % 2 else "free_hunt"
    g, until = build_game(
        variant, seed=rnd.randrange(2**16), language=rnd.choice(["ru", "en"]),
        edited=rnd.choice([None, "void", "first_seen"]), count_every=rnd.choice([60, 360, 720]),
        days=rnd.randint(2, 4), tail=rnd.random() < 0.5,
        ballots=[rnd.randrange(2**32) for _ in range(6)], nights=[rnd.randrange(2**32) for _ in range(6)],
        events=[(rnd.randrange(13), rnd.randrange(2000), rnd.randrange(2**32)) for _ in range(rnd.randrange(12))],
        house=rnd.randrange(2**32),
    )
    nicks = [nick for nick, _ in g.cast]
    _gm_mix(g, rnd, nicks, until)
    setup = g.setup()
    inputs = list(g.events)
    if rnd.random() < 0.3:  # C-13: some phases resolved at their deadline, a few inputs read after that
        resolved = tuple((f"{kind} {k}", g.at(f"{kind} {k}", "+24h" if kind == "day" else "+12h"))
                         for k in range(1, 4) for kind in ("day", "night") if rnd.random() < 0.5)
        setup = dataclasses.replace(setup, schedule=dataclasses.replace(setup.schedule, resolved=resolved))
        inputs = [dataclasses.replace(i, read_at=i.at + timedelta(minutes=rnd.choice([1, 90, 800])))
                  if rnd.random() < 0.1 else i for i in inputs]
    return setup, inputs, until


def _gm_mix(g: Game, rnd: random.Random, nicks: list[str], until: datetime) -> None:
    span = int((until - START) / timedelta(minutes=1))
    for k in range(rnd.randrange(3, 12)):
        at = START + timedelta(minutes=rnd.randrange(-300, span), seconds=rnd.randrange(1, 59))
        if rnd.random() < 0.2:  # right at a deadline, where an undo is refused or not (C-9)
            day = rnd.randrange(3)
            at = START + day * (DAY + NIGHT) + rnd.choice([DAY, DAY + NIGHT]) + timedelta(seconds=rnd.choice([-1, 0]))
        text = rnd.choice(GM_MIX).format(a=rnd.choice(nicks), b=rnd.choice(nicks), n=k)
        g.gm(at, "", text)
        if rnd.random() < 0.4:  # an undo shortly after, before or after the next count
            g.gm(at + timedelta(minutes=rnd.choice([1, 30, 61, 200])), "", "отмена")
