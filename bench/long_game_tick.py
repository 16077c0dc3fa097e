"""Cost of one daemon tick as a game grows: `python bench/long_game_tick.py [INPUTS_PER_DAY]`.

One Moscow game over the memory forum and a SQLite file, played to Day 6 with about 170 inputs a day (votes
`ннв`, chatter in the game thread, night PMs; the mafia misfire twice and then kill, so the game lasts), the
daemon ticking at every phase. Prints, on Day 1 and on Day 6: a quiet tick, a tick with one new vote and one
with a GM command, each with its median time (5 runs) and how many folds it ran (issue 19: one per tick), and
the fold alone, and the fold from the latest checkpoint (issue 19 item 3: forumbot/engine/checkpoint.py; the tick
does not call it yet, so the ticks above still fold the whole game).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "daemon"))

from daemon_world import CAST, GM, STARTED, T0, World  # noqa: E402

from forumbot.engine.fold import run_from  # noqa: E402
from forumbot.tick import default_fold, load_game  # noqa: E402

DAY, NIGHT = timedelta(hours=24), timedelta(hours=12)


class CountingFold:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, setup, inputs, until):  # type: ignore[no-untyped-def]
        self.calls += 1
        return default_fold(setup, inputs, until)


def play_day(w: World, day: int, per_day: int, alive: list[str]) -> None:
    opens = T0 + (day - 1) * (DAY + NIGHT)
    for i in range(per_day - len(alive)):
        w.now = opens + timedelta(minutes=30 + i * 5)
        w.post("game", alive[i % len(alive)], "обсуждение " * (1 + i % 20))
        if i % 25 == 0:
            w.tick()
    for nick in alive:
        w.post("vote", nick, "ннв")
    w.now = opens + DAY + timedelta(minutes=1)
    w.tick()  # Day resolves
    if day % 3 == 0:  # a kill every third night; two misfires in between keep M-6 away
        victim = next(n for n in alive if n.startswith("М"))
        for mafioso in ("Дон", "Маф1", "Маф2"):
            w.pm(mafioso, f"убить {victim}")
        alive.remove(victim)
    w.now = opens + DAY + NIGHT + timedelta(minutes=1)
    w.tick()  # Night resolves


def measure(w: World, fold: CountingFold, label: str) -> None:
    rows = []
    for what in ("quiet tick", "tick with one new vote", "tick with a GM command"):
        times, folds = [], []
        for _ in range(5):
            w.now += timedelta(minutes=2)
            if what == "tick with one new vote":
                w.post("vote", "Шериф", "ннв")
            elif what == "tick with a GM command":
                w.pm(GM, "статус")
            before = fold.calls
            start = time.perf_counter()
            w.tick()
            times.append(time.perf_counter() - start)
            folds.append(fold.calls - before)
        rows.append((what, statistics.median(times), max(folds)))
    with w.daemon.sessions.begin() as session:
        setup, inputs, _ = load_game(session, w.config, 1)
    start = time.perf_counter()
    for _ in range(5):
        default_fold(setup, inputs, w.now)
    alone = (time.perf_counter() - start) / 5
    _, made = run_from(setup, inputs, w.now, ())
    start = time.perf_counter()
    for _ in range(5):
        run_from(setup, inputs, w.now, made)
    resumed = (time.perf_counter() - start) / 5
    phase = default_fold(setup, inputs, w.now).phase
    for what, median, folds in rows:
        print(f"{label} ({phase}, {len(inputs):4d} inputs) {what:<24} {median * 1000:7.1f} ms  {folds} fold(s)")
    print(f"{label} ({phase}, {len(inputs):4d} inputs) {'the fold alone':<24} {alone * 1000:7.1f} ms")
    print(f"{label} ({phase}, {len(inputs):4d} inputs) {'the fold from checkpoint':<24} {resumed * 1000:7.1f} ms")


def main() -> None:
    per_day = int(sys.argv[1]) if len(sys.argv) > 1 else 170
    with tempfile.TemporaryDirectory() as tmp:
        fold = CountingFold()
        w = World(Path(tmp), fold=fold)
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        for nick, _ in CAST:
            w.pm(nick, "подтверждаю")
        w.tick()
        w.now = T0 + timedelta(minutes=10)
        w.tick()
        measure(w, fold, "Day 1")
        alive = [n for n, _ in CAST]
        for day in range(1, 6):
            play_day(w, day, per_day, alive)
        w.now = T0 + 5 * (DAY + NIGHT) + timedelta(hours=1)
        w.tick()
        measure(w, fold, "Day 6")
        w.close()


if __name__ == "__main__":
    main()
