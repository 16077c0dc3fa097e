"""Cost of one daemon tick as a game grows: `python bench/long_game_tick.py [INPUTS_PER_DAY]`.

One Moscow game over the memory forum and a SQLite file, played to Day 6 with about 170 inputs a day (votes
`ннв`, chatter in the game thread, night PMs; the mafia misfire twice and then kill, so the game lasts), the
daemon ticking at every phase, as it runs (its fold starts at the stored tip or checkpoints, issue 19). Prints,
on Day 1 and on Day 6: a quiet tick, a tick with one new vote and one with a GM command, each with its CPU time
(best of RUNS: the machine is shared, the best is the least disturbed) and what its fold did (how many inputs
it stepped, and whether it started from the tip or folded from a checkpoint or Setup); then the whole fold alone
(`game.run`) and the fold from the latest checkpoint (`fold.run_from`) of the same inputs.
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

from forumbot.engine import fold as engine_fold  # noqa: E402
from forumbot.engine import tip as engine_tip  # noqa: E402
from forumbot.engine.fold import run_from  # noqa: E402
from forumbot.store.game import default_fold, load_game  # noqa: E402

DAY, NIGHT = timedelta(hours=24), timedelta(hours=12)
RUNS = 7


class Counting:
    """How many inputs the folds stepped and how many folds did not start at the tip (patched into the engine)."""

    def __init__(self) -> None:
        self.steps = self.whole = 0
        handle, folded = engine_fold.handle, engine_tip.folded

        def counted_handle(w, inp):  # type: ignore[no-untyped-def]
            self.steps += 1
            return handle(w, inp)

        def counted_fold(*args, **kwargs):  # type: ignore[no-untyped-def]
            self.whole += 1
            return folded(*args, **kwargs)

        engine_fold.handle, engine_tip.folded = counted_handle, counted_fold


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


def cpu(call) -> float:  # type: ignore[no-untyped-def]
    start = time.process_time()
    call()
    return time.process_time() - start


def measure(w: World, count: Counting, label: str) -> None:
    # the bot's own posts of the last tick are read back first: the world's grace is 0, so they are stamped by
    # that tick's `until` and the next tick folds from a checkpoint (with the default grace of 60 s they are not)
    w.now += timedelta(minutes=2)
    w.tick()
    rows = []
    for what in ("quiet tick", "tick with one new vote", "tick with a GM command"):
        times, steps, whole = [], [], []
        for _ in range(RUNS):
            w.now += timedelta(minutes=2)
            if what == "tick with one new vote":
                w.post("vote", "Шериф", "ннв")
            elif what == "tick with a GM command":
                w.pm(GM, "статус")
            before = (count.steps, count.whole)
            times.append(cpu(w.tick))
            steps.append(count.steps - before[0])
            whole.append(count.whole - before[1])
        rows.append((what, min(times), statistics.median(times), max(steps), max(whole)))
    with w.daemon.sessions.begin() as session:
        setup, inputs, _ = load_game(session, w.config, 1)
    alone = min(cpu(lambda: default_fold(setup, inputs, w.now)) for _ in range(RUNS))
    _, made = run_from(setup, inputs, w.now, ())
    resumed = min(cpu(lambda: run_from(setup, inputs, w.now, made)) for _ in range(RUNS))
    phase = default_fold(setup, inputs, w.now).phase
    head = f"{label} ({phase}, {len(inputs):4d} inputs)"
    for what, best, median, steps, whole in rows:
        start = "from the tip" if not whole else f"{whole} fold(s) not from the tip"
        print(f"{head} {what:<24} {best * 1000:7.1f} ms (median {median * 1000:5.1f})  {steps} step(s), {start}")
    print(f"{head} {'the whole fold alone':<24} {alone * 1000:7.1f} ms")
    print(f"{head} {'the fold from checkpoint':<24} {resumed * 1000:7.1f} ms")


def main() -> None:
    per_day = int(sys.argv[1]) if len(sys.argv) > 1 else 170
    with tempfile.TemporaryDirectory() as tmp:
        count = Counting()
        w = World(Path(tmp))
        w.start()
        w.now = STARTED + timedelta(minutes=1)
        for nick, _ in CAST:
            w.pm(nick, "подтверждаю")
        w.tick()
        w.now = T0 + timedelta(minutes=10)
        w.tick()
        measure(w, count, "Day 1")
        alive = [n for n, _ in CAST]
        for day in range(1, 6):
            play_day(w, day, per_day, alive)
        w.now = T0 + 5 * (DAY + NIGHT) + timedelta(hours=1)
        w.tick()
        measure(w, count, "Day 6")
        w.close()


if __name__ == "__main__":
    main()
