"""Cost of a daemon cycle over the memory forum and a SQLite file: run `python bench/daemon_tick.py [GAMES]`.

Prints, for GAMES running Moscow games (default 20):
1. the first cycle, which sends every game's player list and ten role PMs;
2. a cycle with one new PM for one game;
3. a quiet cycle (nothing new): its wall and CPU time and its SQL statements. No game is loaded or folded
   (forumbot/cycle/quiet.py): one query a game (its status and cursors, under its lock), one per forum for every
   game's fingerprint, and the only write, one UPDATE extending the quiet games' read spans (C-14's record of every
   tick's reads). Issue 27 item 7 asks at most 3 statements a game, 20 games under 40 ms on a quiet machine.
Forum requests are in-process, so this is the daemon's own cost: storing, folding, the outbox.
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "daemon"))

from sqlalchemy import event  # noqa: E402

from daemon_world import STARTED, World, game_toml  # noqa: E402


def timed(label: str, world: World) -> None:
    statements: list[str] = []
    listener = lambda conn, cursor, statement, *rest: statements.append(statement)  # noqa: E731
    event.listen(world.daemon.engine, "before_cursor_execute", listener)
    start, cpu = time.perf_counter(), time.process_time()
    report = world.tick()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    event.remove(world.daemon.engine, "before_cursor_execute", listener)
    writes = sum(s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")) for s in statements)
    sent = sum(g.delivery.sent for g in report.games if g.delivery)
    games = len(report.games)
    print(f"{label:<40} {elapsed * 1000:6.0f} ms  {cpu * 1000:6.0f} ms CPU  {len(statements):5d} statements "
          f"({len(statements) / games:4.1f} a game)  {writes:4d} writes  {sent:4d} sent")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    names = [f"g{i:03d}" for i in range(games)]
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp), games="".join(game_toml(n, prefix=f"{n}_") for n in names))
        for name in names:
            world.start(name)
        world.now = STARTED + timedelta(minutes=1)
        timed(f"first cycle, {games} games", world)
        world.forum.add_pm(f"{names[0]}_М1", "подтверждаю", world.now)
        world.now += timedelta(minutes=5)
        timed("next cycle: own posts read back, 1 PM", world)
        world.now += timedelta(minutes=5)
        timed("quiet cycle", world)
        world.close()


if __name__ == "__main__":
    main()
