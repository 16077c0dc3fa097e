"""No test may depend on the day it runs (issue 17 item 0): the unit suite, run once more with the whole
process's clock a year ahead (libfaketime, Debian package `faketime`, installed by .ci/provision), passes too.

The live boards are left out of the inner run: their PHP servers and databases would see the moved clock as
well, and they play against their own real clock by design."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("clock_ahead")]

# Left out of the inner run, to keep it within the suite's budget (it took longer than any live game and, queued
# on one worker, held the whole suite at 20 minutes). Pure: functions over times the tests give, no clock read by
# the tests or by the code they call (checked below); their whole time was ~40 % of the unit suite's.
PURE = ("tests/test_properties.py", "tests/test_parse_expansion.py", "tests/test_parse_normalize.py",
        "tests/test_parse_linear.py", "tests/test_gm_command_limits.py", "tests/daemon/test_daemon_pg_required.py",
        # folds over random games and transcripts at the times they give (~10 % of the unit suite's time)
        "tests/test_engine_tip.py", "tests/test_engine_checkpoints.py", "tests/test_engine_undo_cost.py")
# Whole games against the emulators: like the live boards, servers of their own on the real clock, stamping
# posts in real seconds (the emulators' adapter-level tests stay in).
WHOLE_GAMES = ("tests/emulators/test_emulator_games.py", "tests/emulators/xenforo/test_xenforo_games.py",
               # tick processes under faketime at the test's own clock (C-14): the year ahead is its own to set
               "tests/daemon/test_daemon_downtime_processes.py")
CLOCK_READS = ("now(", "today(", "time.time", "utcnow", "import daemon", "forumbot.cycle.tick", "forumbot.cycle.daemon",
               "forumbot.cli.main")


# A line of the project's code that reads the clock, anywhere in a module a pure test module loads
CLOCK_CALL = re.compile(r"\.now\(|\btoday\(|\btime\.time\(|utcnow|\blocaltime\(|\bgmtime\(|\bdate\.fromtimestamp\(")
# ...except these, each read only by what the pure modules never call: MemoryForum's default clock stamps what the
# bot posts or PMs through it, and the pure modules use `replay.load` and folds, never the forum
CLOCK_CALLS_NOT_REACHED = {"adapters/memory/forum.py": "clock: Callable[[], datetime] = field(default=lambda: datetime.now"}


def _loaded_project_files(paths: tuple[str, ...]) -> list[str]:
    """The project's files the test modules load, imported together in one fresh interpreter (one, not one each:
    under the suite's load, nine took a minute)."""
    code = ("import importlib, sys; root = sys.argv[1]; sys.path[:0] = [root, root + '/tests'] + "
            "sorted({root + '/' + p.rsplit('/', 1)[0] for p in sys.argv[2:]}); "
            "[importlib.import_module(p.rsplit('/', 1)[-1].removesuffix('.py')) for p in sys.argv[2:]]; "
            "print('\\n'.join(sorted({getattr(m, '__file__', None) or '' for m in list(sys.modules.values())})))")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT), *paths], capture_output=True, text=True, check=True)
    return [f for f in done.stdout.splitlines() if f.startswith(str(ROOT))]


def test_the_modules_left_out_as_pure_read_no_clock():
    """A module may be left out of the year-ahead run as pure only while neither it nor anything of the
    project it imports reads the clock; the PostgreSQL check runs pytest on a probe file that reads none either."""
    for path in PURE:
        text = (ROOT / path).read_text(encoding="utf-8")
        found = [word for word in CLOCK_READS if word in text]
        assert not found, f"{path} reads the clock ({found}): run it a year ahead too (remove it from PURE)"
    for file in _loaded_project_files(PURE):
        rel = Path(file).relative_to(ROOT).as_posix()
        for n, line in enumerate(Path(file).read_text(encoding="utf-8").splitlines(), 1):
            if CLOCK_CALL.search(line) and CLOCK_CALLS_NOT_REACHED.get(rel, "\0") not in line:
                raise AssertionError(f"a module of PURE loads {rel}, which reads the clock at line {n} "
                                     f"({line.strip()}): run the one that loads it a year ahead too")
    for path in (*PURE, *WHOLE_GAMES):
        assert (ROOT / path).exists(), f"{path} is gone: take it out of the list"


def test_the_unit_suite_passes_with_the_clock_a_year_ahead(tmp_path):
    faketime = shutil.which("faketime")
    if faketime is None:
        if os.environ.get("FORUMBOT_REQUIRE_LIVE") == "1":
            pytest.fail("faketime is not installed (Debian package faketime; .ci/provision installs it)")
        pytest.skip("faketime is not installed (Debian package faketime)")
    probe = subprocess.run([faketime, "-f", "+365d", sys.executable, "-c",
                            "import datetime; print(datetime.date.today().isoformat())"],
                           capture_output=True, text=True, check=True)
    import datetime

    assert probe.stdout.strip() > (datetime.date.today() + datetime.timedelta(days=300)).isoformat(), probe.stdout
    # the inner run is a suite of its own, not a worker of this one
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "XDIST_"))}
    ignored = [f"--ignore={path}" for path in (*PURE, *WHOLE_GAMES)]
    done = subprocess.run(
        [faketime, "-f", "+365d", sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2",
         "--ignore=tests/live", *ignored, f"--basetemp={tmp_path / 'ahead'}"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    tail = "\n".join(done.stdout.splitlines()[-40:])
    assert done.returncode == 0, f"the unit suite a year ahead (exit {done.returncode}):\n{tail}\n{done.stderr[-2000:]}"
