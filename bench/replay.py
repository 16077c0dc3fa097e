"""Benchmark: replay time for a 1,000-event transcript, and random games folded per second.

    python3 bench/replay.py

Prints numbers; asserts nothing (targets live here, not in timed tests).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from gamekit import Game  # noqa: E402

from forumbot import replay  # noqa: E402
from forumbot.game import run  # noqa: E402

TRANSCRIPTS = Path(__file__).parent.parent / "fixtures" / "transcripts"
WORDS = ["ннв", "я думаю", "голосуйте за", "проверка", "убить", "лечу", "охота", "подтверждаю", "?"]


def thousand_event_game(seed: int) -> Game:
    """A Free Hunt game with 1,000 inputs: chatter, votes, re-votes, garbage, moves, over six days."""
    rng = random.Random(seed)
    g = Game.free_hunt(seed=seed)
    nicks = [n for n, _ in g.cast]
    for i in range(1000):
        day = 1 + i * 6 // 1000
        phase = f"{'day' if rng.random() < 0.7 else 'night'} {day}"
        who = rng.choice(nicks)
        offset = f"+{rng.randrange(11)}h{rng.randrange(60)}m"
        kind = rng.random()
        if kind < 0.4:
            g.vote(phase, offset, who, rng.choice(nicks))
        elif kind < 0.55:
            g.vote(phase, offset, who, f"{rng.choice(WORDS)} {rng.choice(nicks)}")
        elif kind < 0.8:
            g.post(phase, offset, who, "обсуждение " * rng.randrange(1, 30))
        else:
            g.pm(phase, offset, who, f"{rng.choice(WORDS)} {rng.choice(nicks)}")
    return g


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    g = thousand_event_game(1)
    setup, events = g.setup(), list(g.events)
    times = timed(lambda: run(setup, events, g.at("night 6", "+12h")), 5)
    print(f"fold of a 1,000-event Free Hunt game: median {statistics.median(times) * 1000:.1f} ms (5 runs)")

    path = TRANSCRIPTS / "moscow_town_win_runoff.json"
    times = timed(lambda: replay.replay(replay.load(path)), 20)
    print(f"forumbot replay of a 10-player Moscow transcript (load + memory forum + fold): "
          f"median {statistics.median(times) * 1000:.1f} ms (20 runs)")

    rng = random.Random(2)
    games = []
    for n in range(200):
        g = Game.moscow(seed=n) if n % 2 else Game.free_hunt(seed=n)
        nicks = [x for x, _ in g.cast]
        for d in range(1, 5):
            for who in nicks:
                g.vote(f"day {d}", f"+{rng.randrange(20)}h", who, rng.choice(nicks))
                g.pm(f"night {d}", f"+{rng.randrange(10)}h", who, f"{rng.choice(WORDS)} {rng.choice(nicks)}")
        games.append(g)
    t = time.perf_counter()
    for g in games:
        run(g.setup(), g.events, g.at("night 4", "+12h"))
    elapsed = time.perf_counter() - t
    print(f"random 4-day games: {len(games) / elapsed:.0f} games/s ({len(games)} games, both variants)")


if __name__ == "__main__":
    main()
