"""Which unit test modules can see the clock at all, from the import graph of the project's and the tests' own
code: a module needs the run a year ahead only if it, a conftest above it, or anything of the project or the
tests it imports (at the top or inside a function, by name or by an adapter's entry point) reads the clock or
starts a process (which may read it). Read from the sources, not imported: the computation costs no imports.

Those modules run once in a whole run, a year ahead (test_clock_ahead.py): `year_ahead_modules`, in `SHARDS`
parts. The suite is bound by the CPU (issue 28: under 15 minutes while a second job loads the machine), and
running them twice, today and a year ahead, was about 40 % of its CPU; a year ahead is the run that finds a test
which depends on the day it runs (a date written in the test that the real clock passes). A run of some modules
(`pytest tests/engine`) runs them at today's clock."""

from __future__ import annotations

import ast
import fcntl
import hashlib
import json
import os
import re
import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT_DIRS = ("forumbot", "adapters", "tests")

# A line that reads the clock, or starts a process that may
CLOCK_CALL = re.compile(r"\.now\(|\btoday\(|\btime\.time\(|utcnow|\blocaltime\(|\bgmtime\(|\bdate\.fromtimestamp\(")
PROCESS_START = re.compile(r"\bimport subprocess\b|\bsubprocess\.|\bsys\.executable\b|\bos\.(system|exec\w*|spawn\w*|fork)\(")
# A library that reads it: requests' cookie jar drops a cookie whose expiry has passed (a saved page's
# Set-Cookie a year on), and the test double `responses` runs through it
CLOCK_LIBRARY = re.compile(r"^\s*(import|from) (requests|responses|http\.cookiejar)\b")
# ...except these lines, each with why it cannot reach the clock from the tests that load its module
NOT_REACHING = {
    # MemoryForum's default clock stamps what the bot posts or PMs through it; tests that post give their own
    # clock or stamp at the times they fold, and those that do not post never call it
    "adapters/memory/forum.py": ("clock: Callable[[], datetime] = field(default=lambda: datetime.now",),
    # the process lists the modules an import loads
    "tests/engine/test_engine_checkpoints.py": ("import subprocess", "subprocess.run([sys.executable, \"-c\", code]",
                                         '("subprocess", "Popen")'),
    # the process is mypy over the sources: a static check, whose result the clock cannot change (run twice, it
    # also raced the main run's mypy on one cache)
    "tests/test_types.py": ("import subprocess", "subprocess.CompletedProcess",
                            "return subprocess.run([sys.executable, \"-m\", \"mypy\""),
    # the process collects the run's tests once before its workers start (their bytecode written once): a collection
    # runs no test, and each module's own run still reads the clock it reads
    "tests/conftest.py": ("import subprocess", 'subprocess.run([sys.executable, "-m", "pytest", "--collect-only"',
                          "except subprocess.TimeoutExpired"),
    # the process runs pytest on a probe file that reads no clock, against a database URL that refuses
    "tests/daemon/test_daemon_pg_required.py": ("import subprocess", "subprocess.CompletedProcess",
                                                "return subprocess.run([sys.executable, \"-m\", \"pytest\""),
}
NAMED_MODULE = re.compile(r"(forumbot|adapters)(\.\w+)+(:\w+)?")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _files() -> dict[str, Path]:
    return {_module_name(p): p for top in PROJECT_DIRS for p in (ROOT / top).rglob("*.py")
            if "live" not in p.relative_to(ROOT).parts}


def _known(name: str) -> list[str]:
    """The project's modules importing `name` runs: the packages on its way and the module itself."""
    parts = name.split(".")
    return [m for m in (".".join(parts[:i]) for i in range(1, len(parts) + 1)) if m in _files()]


@cache
def _imports(module: str) -> frozenset[str]:
    files = _files()
    path = files[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    # test directories are on sys.path (pytest's rootdir-relative insertion): helpers are imported by bare name
    roots = ["", package + ".", *sorted({m.rpartition(".")[0] + "." for m in files if m.startswith("tests.")})]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
                roots_here = [""]
            else:
                stem, roots_here = node.module or "", roots
            for root in roots_here:
                found.update(_known(root + stem))
                found.update(m for alias in node.names for m in _known(f"{root}{stem}.{alias.name}"))
            continue
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and NAMED_MODULE.fullmatch(node.value):
            names = [node.value.split(":")[0]]  # importlib.import_module("forumbot.parse.votes"), entry points
        found.update(m for name in names for root in roots for m in _known(root + name))
    if module == "forumbot.forum.registry":  # adapters are loaded by their entry points' names
        found.update(m for m in files if m.startswith("adapters."))
    return frozenset(found - {module})


@cache
def reads_clock(module: str) -> bool:
    path = _files()[module]
    allowed = NOT_REACHING.get(path.relative_to(ROOT).as_posix(), ())
    return any((CLOCK_CALL.search(line) or PROCESS_START.search(line) or CLOCK_LIBRARY.match(line)) and not any(a in line for a in allowed)
               for line in path.read_text(encoding="utf-8").splitlines())


def _conftests(path: Path) -> list[str]:
    here = path.parent
    found = []
    while here != ROOT.parent and here.is_relative_to(ROOT / "tests"):
        if (here / "conftest.py").exists():
            found.append(_module_name(here / "conftest.py"))
        here = here.parent
    return found


def clock_readers(test_module: Path) -> list[str]:
    """The modules through which `test_module` can see the clock (empty: it cannot)."""
    start = _module_name(test_module)
    seen: set[str] = set()
    todo = [start, *_conftests(test_module)]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(_imports(module))
    return sorted(m for m in seen if reads_clock(m))


def blind_test_modules() -> list[str]:
    """The unit suite's test modules (relative paths) that cannot see the clock."""
    modules = sorted(p for p in (ROOT / "tests").rglob("test_*.py") if "live" not in p.relative_to(ROOT).parts)
    return [p.relative_to(ROOT).as_posix() for p in modules if not clock_readers(p)]


# The year-ahead run in shards, each a test of its own on a worker of its own (xdist groups `clock_ahead_N`): one
# whole run was the suite's longest test (800-1,080 s in .ci/run) while the machine had CPU to spare (1.5 of 2
# cores on average), so the suite waited for it alone.
SHARDS = 2
# The shards' test, by the node id prefix tests/live/conftest.py looks for among a run's items to leave the
# modules to it (test_clock_ahead.py checks it names the test)
YEAR_AHEAD = "tests/live/test_clock_ahead.py::test_the_unit_suite_passes_with_the_clock_a_year_ahead"

# Whole games against the emulators: like the live boards, servers of their own on the real clock, stamping
# posts in real seconds (the emulators' adapter-level tests stay in).
WHOLE_GAMES = ("tests/emulators/test_emulator_games.py", "tests/emulators/xenforo/test_xenforo_games.py",
               # tick processes under faketime at the test's own clock (C-14): the year ahead is its own to set
               "tests/daemon/test_daemon_downtime_processes.py")


def shard(modules: list[str], k: int) -> list[str]:
    """The `k`th of SHARDS parts of the unit test modules, balanced by their size in bytes (largest first, each to
    the lightest part so far), so the shards end about together."""
    parts: list[list[str]] = [[] for _ in range(SHARDS)]
    weights = [0] * SHARDS
    for module in sorted(modules, key=lambda m: (-(ROOT / m).stat().st_size, m)):
        lightest = weights.index(min(weights))
        parts[lightest].append(module)
        weights[lightest] += (ROOT / module).stat().st_size
    return sorted(parts[k])


def year_ahead_modules() -> list[str]:
    """The unit test modules the year-ahead run takes: all but the live ones, the blind ones and the whole games.
    Relative paths, in a stable order. Every worker of a run asks (tests/live/conftest.py), and reading the import
    graph costs seconds of CPU: the first computes it, under a lock, for the sources as they are (a digest of
    every project file), and the others read its answer."""
    digest = hashlib.sha256()
    for path in sorted(p for top in PROJECT_DIRS for p in (ROOT / top).rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    folder = Path(tempfile.gettempdir()) / f"forumbot-clock-reach-{os.getuid()}"
    folder.mkdir(exist_ok=True)
    answer = folder / f"{digest.hexdigest()}.json"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not answer.exists():
            left_out = {*blind_test_modules(), *WHOLE_GAMES}
            modules = [m for m in (p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "tests").rglob("test_*.py")))
                       if "live" not in m.split("/") and m not in left_out]
            partial = answer.with_suffix(".part")
            partial.write_text(json.dumps(modules))
            partial.replace(answer)
    return list(json.loads(answer.read_text()))
