"""Instructions of one tick with one new vote, on Day 1 or Day 6 of bench/long_game_tick.py's long game, counted by
callgrind (repeatable whatever else the machine runs, unlike CPU time):

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=_operator_call \\
        python bench/tick_instructions.py 6

Only the measured tick runs inside `operator.call` (a C function nothing else here calls), so callgrind counts
it alone; the game before it is played with collection off, and one vote tick warms the process first (as the
bench's best-of-7 runs are warm). The total is callgrind's "Collected" line (or `callgrind_annotate`'s).
"""

from __future__ import annotations

import operator
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from long_game_tick import DAY, NIGHT, play_day  # noqa: E402

from daemon_world import CAST, STARTED, T0, World  # noqa: E402


def main() -> None:
    day = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    per_day = int(sys.argv[2]) if len(sys.argv) > 2 else 170
    with tempfile.TemporaryDirectory() as tmp:
        w = World(Path(tmp))
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        for nick, _ in CAST:
            w.pm(nick, "подтверждаю")
        w.tick()
        w.now = T0 + timedelta(minutes=10)
        w.tick()
        alive = [n for n, _ in CAST]
        for d in range(1, day):
            play_day(w, d, per_day, alive)
        w.now = T0 + (day - 1) * (DAY + NIGHT) + timedelta(hours=1)
        w.tick()
        for _ in range(3):  # the bot's posts read back, then two warm one-vote ticks
            w.now += timedelta(minutes=2)
            w.post("vote", "Шериф", "ннв")
            w.tick()
        w.now += timedelta(minutes=2)
        w.post("vote", "Шериф", "ннв")
        report = operator.call(w.tick)
        print(f"day {day}: {report.games[0].phase}, measured one tick with one new vote", flush=True)
        w.close()


if __name__ == "__main__":
    main()
