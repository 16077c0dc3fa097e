"""What many GM commands in one phase cost (issue 26 item 7, issue 27 item 4): `python3 bench/gm_commands.py`.

A Moscow game (tests/gamekit.py's) whose GM sends N `голос` on Day 1. Prints, for N = 400 and 2,000: the size
of the Game as plain JSON (engine/plain.py: the fold's, and the tip's, which leaves out the inputs no undo
reaches) and of the tip as the store keeps it (`checkpoint.dumps`: that JSON, zlib level 1), on Day 1 before its deadline and on Night 1
after it; then a later quiet tick from that stored tip (its CPU time, best of RUNS: the tip read back and the fold
that finds nothing to do, as a daemon's tick does). Then the CPU time of the fold of 500 and 2,000 `алиас` in one
day (each a new alias), best of RUNS.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gamekit import Game  # noqa: E402

from forumbot.engine.checkpoint import Tip, dumps, loads  # noqa: E402
from forumbot.engine.plain import to_plain  # noqa: E402
from forumbot.engine.fold import play, run  # noqa: E402
from forumbot.engine.tip import run_tipped  # noqa: E402

VOTERS = ["М1", "М2", "М3", "М4", "М5", "М6"]
RUNS = 3


def setvotes(n: int) -> Game:
    g = Game.moscow()
    for k in range(n):
        g.gm("day 1", f"+{3600 + k * 60000 // n}s", f"голос {VOTERS[k % 6]} {VOTERS[(k + 1 + k // 6) % 6]}")
    return g


def aliases(n: int) -> Game:
    g = Game.moscow()
    for k in range(n):
        g.gm("day 1", f"+{3600 + k * 60000 // n}s", f"алиас Кличка{k:04d} {VOTERS[k % 6]}")
    return g


def kb(value: object) -> str:
    return f"{len(json.dumps(to_plain(value), ensure_ascii=False, separators=(',', ':')).encode()) / 1000:,.1f} KB"


def best(call: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return min(times)


def tip_at(g: Game, until: datetime) -> Tip:
    tip = run_tipped(g.setup(), g.events, until, None, lambda: ())[2]
    assert tip is not None
    return tip


def quiet_tick(g: Game, stored: bytes, until: datetime) -> None:
    tip = loads(stored, Tip)
    assert tip is not None
    run_tipped(g.setup(), g.events, until, tip, lambda: (), checked=True)


def sizes(n: int) -> None:
    g = setvotes(n)
    for label, until in (("Day 1, before its deadline", g.at("day 1", "+23h")),
                         ("Night 1, after Day 1's resolution", g.at("night 1", "+1h"))):
        game, _ = play(g.setup(), g.events, until)
        tip = tip_at(g, until)
        print(f"{n:5} голос, {label}: Game {kb(game)} as JSON (the tip's, without the inputs no undo reaches: "
              f"{kb(tip.state.game)}); tip {len(dumps(tip)) / 1000:,.1f} KB stored")
    after = dumps(tip_at(g, g.at("night 1", "+1h")))
    print(f"{n:5} голос: a quiet tick on Night 1 from the stored tip "
          f"{best(lambda: quiet_tick(g, after, g.at('night 1', '+2h'))) * 1000:,.1f} ms")


def alias_fold(n: int) -> None:
    g = aliases(n)
    until = g.at("day 1", "+23h")
    print(f"{n:5} алиас: the fold {best(lambda: run(g.setup(), g.events, until)):,.2f} s")


if __name__ == "__main__":
    for n in (400, 2000):
        sizes(n)
    for n in (500, 2000):
        alias_fold(n)
