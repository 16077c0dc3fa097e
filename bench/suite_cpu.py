"""Where the suite's CPU goes (issue 28: the suite is bound by the CPU, so its time under load is its CPU).

A pytest plugin and its report. Each test process (the xdist controller and every worker) records, per test, its
own CPU and the CPU of the processes it waited for (RUSAGE_SELF and RUSAGE_CHILDREN around the test's protocol:
a live game's commands, a board's build, the year-ahead shards' inner runs), its own CPU when its collection is
done (start-up and collection), and at its end its whole totals (taken before the conftest's closing collection):

    SUITE_CPU_DIR=/tmp/cpu PYTHONPATH=bench PYTEST_ADDOPTS="-p suite_cpu" bash .ci/run
    python3 bench/suite_cpu.py /tmp/cpu

The report: the workers' own CPU outside any test (start-up, collection: what each of the 18 workers costs), the
tests' own and their children's, the modules by CPU, and each worker's sequence of long modules with their wall
time (which groups ran one after the other), and the CPU of each live board's servers (PHP, MariaDB), which no
test process waits for: tests/live/boards.py reads it from /proc as the board stops and writes it here
(`board-*.txt`). Not counted: PostgreSQL, the system's MariaDB, the FlaskBB server; /proc/stat's busy time over
the run minus the totals here is those.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path

import pytest

_rows: list[tuple[str, float, float, float]] = []


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, waited.ru_utime + waited.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    before, started = _cpu(), time.monotonic()
    yield
    after = _cpu()
    _rows.append((item.nodeid, after[0] - before[0], after[1] - before[1], time.monotonic() - started))


_collected: list[float] = []


def pytest_collection_finish(session: pytest.Session) -> None:
    _collected.append(_cpu()[0])


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get("SUITE_CPU_DIR")
    if folder:
        own, waited = _cpu()
        name = f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}.json"
        (Path(folder) / name).write_text(json.dumps({"rows": _rows, "own": own, "waited": waited,
                                                     "collected": _collected[0] if _collected else None}))


def report(folder: Path) -> None:
    workers = {p.name.split("-")[0]: json.loads(p.read_text()) for p in folder.glob("gw*.json")}
    rows = [row for data in workers.values() for row in data["rows"]]
    own = sum(d["own"] for d in workers.values())
    tests_own, tests_waited = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print(f"{len(workers)} workers: {own:.0f} s of their own CPU, {own - tests_own:.0f} s of it outside any test; "
          f"tests {tests_own:.0f} s own + {tests_waited:.0f} s in the processes they waited for")
    collected = [d["collected"] for d in workers.values() if d.get("collected") is not None]
    if collected:
        print(f"  of which start-up and collection: {sum(collected):.0f} s ({max(collected):.1f} s at most a worker)")
    modules: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for nodeid, mine, waited, _ in rows:
        module = modules[nodeid.split("::")[0]]
        module[0] += mine
        module[1] += waited
    print("\n  own  waited  module")
    for name, (mine, waited) in sorted(modules.items(), key=lambda m: -sum(m[1]))[:25]:
        print(f"{mine:5.0f} {waited:7.0f}  {name}")
    print("\nworker  wall  modules over 20 s of wall, in the order they ran")
    for worker, data in sorted(workers.items(), key=lambda w: int(w[0][2:])):
        runs: list[list] = []
        for nodeid, _, _, wall in data["rows"]:
            module = nodeid.split("::")[0].rsplit("/", 1)[-1]
            if runs and runs[-1][0] == module:
                runs[-1][1] += wall
            else:
                runs.append([module, wall])
        print(f"{worker:>6} {sum(r[1] for r in runs):5.0f}  " + " ".join(f"{m}:{w:.0f}" for m, w in runs if w > 20))
    boards = sorted((line.split() for p in folder.glob("board-*.txt") for line in p.read_text().splitlines()),
                    key=lambda b: -float(b[2]))
    print(f"\nthe boards' servers: {sum(float(b[2]) for b in boards):.0f} s of CPU")
    for engine, url, seconds in boards:
        print(f"{float(seconds):6.1f}  {engine} {url}")


if __name__ == "__main__":
    report(Path(sys.argv[1]))
