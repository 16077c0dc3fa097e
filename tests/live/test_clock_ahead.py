"""No test may depend on the day it runs (issue 17 item 0): the unit test modules that can see the clock
(clock_reach.py) run with the whole process's clock a year ahead (libfaketime, Debian package `faketime`, installed
by .ci/provision). In a run that holds these shards they run only here (tests/live/conftest.py takes them out of the
run itself: issue 28's CPU budget); a run of some modules runs them at today's clock.

The live boards are left out of the inner run: their PHP servers and databases would see the moved clock as
well, and they play against their own real clock by design."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clock_reach import (SHARDS, WHOLE_GAMES, YEAR_AHEAD, blind_test_modules, clock_readers, reads_clock, shard,
                         year_ahead_modules)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.live

def _loaded_project_files(paths: list[str]) -> list[str]:
    """The project's files the test modules load, imported together in one fresh interpreter (one, not one each:
    under the suite's load, nine took a minute)."""
    code = ("import importlib, sys; root = sys.argv[1]; sys.path[:0] = [root, root + '/tests'] + "
            "sorted({root + '/' + p.rsplit('/', 1)[0] for p in sys.argv[2:]}); "
            "[importlib.import_module(p.rsplit('/', 1)[-1].removesuffix('.py')) for p in sys.argv[2:]]; "
            "print('\\n'.join(sorted({getattr(m, '__file__', None) or '' for m in list(sys.modules.values())})))")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT), *paths], capture_output=True, text=True, check=True)
    return [f for f in done.stdout.splitlines() if f.startswith(str(ROOT))]


def test_the_modules_left_out_are_those_the_import_graph_keeps_from_the_clock():
    """Left out of the year-ahead run: the modules that cannot see the clock (clock_reach, from the sources).
    What they load when imported is checked too, so that an import the sources hide (a name built at run
    time) cannot take a clock-reading module past the graph."""
    blind = blind_test_modules()
    assert "tests/test_parse_votes.py" in blind and "tests/test_cli.py" not in blind, blind
    assert clock_readers(ROOT / "tests/test_cli.py"), "the CLI reads the clock: the graph lost its way"
    for file in _loaded_project_files(blind):
        path = Path(file)
        if path.suffix == ".py" and "live" not in path.relative_to(ROOT).parts:
            name = path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".").removesuffix(".__init__")
            assert not reads_clock(name), f"a module left out loads {name}, which reads the clock: the graph missed it"
    for path in WHOLE_GAMES:
        assert (ROOT / path).exists(), f"{path} is gone: take it out of the list"


def test_the_shards_take_every_module_once():
    modules = year_ahead_modules()
    shards = [shard(modules, k) for k in range(SHARDS)]
    assert sorted(m for part in shards for m in part) == sorted(modules) and all(shards)


@pytest.mark.parametrize("k", [pytest.param(k, marks=pytest.mark.xdist_group(f"clock_ahead_{k}"))
                               for k in range(SHARDS)])
def test_the_unit_suite_passes_with_the_clock_a_year_ahead(tmp_path, k):
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
    done = subprocess.run(
        [faketime, "-f", "+365d", sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfE", "-n", "2",
         *shard(year_ahead_modules(), k), f"--basetemp={tmp_path / 'ahead'}"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    tail = "\n".join(done.stdout.splitlines()[-40:])
    assert done.returncode == 0, f"the unit suite a year ahead (exit {done.returncode}):\n{tail}\n{done.stderr[-2000:]}"


def test_the_year_ahead_name_is_this_tests_node_id(request):
    """tests/live/conftest.py leaves the unit modules to the shards only in a run holding a test whose node id
    starts with clock_reach.YEAR_AHEAD: a name that drifted from the test (renamed, moved) would match none, and
    every such module would run twice, today and a year ahead (issue 28's CPU budget)."""
    module = request.node.nodeid.split("::", 1)[0]
    assert YEAR_AHEAD == f"{module}::{test_the_unit_suite_passes_with_the_clock_a_year_ahead.__name__}"
