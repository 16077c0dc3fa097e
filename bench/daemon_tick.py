"""Cost of a daemon cycle over the memory forum and a SQLite file: run `python bench/daemon_tick.py [GAMES]`.

Prints, for GAMES running Moscow games (default 20):
1. the first cycle, which sends every game's player list and ten role PMs;
2. a cycle with one new PM for one game;
3. a quiet cycle (nothing new): its time and its SQL statements (reads only; writes must be 0).
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
    start = time.perf_counter()
    report = world.tick()
    elapsed = time.perf_counter() - start
    event.remove(world.daemon.engine, "before_cursor_execute", listener)
    writes = sum(s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")) for s in statements)
    sent = sum(g.delivery.sent for g in report.games if g.delivery)
    print(f"{label:<34} {elapsed * 1000:8.0f} ms  {len(statements):5d} statements  {writes:5d} writes  {sent:4d} sent")


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
