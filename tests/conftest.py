"""Settings for the whole suite.

Hypothesis's per-example deadline (200 ms) measures the machine, not the code: on a loaded 2-core machine a
parse example took 300 ms once and failed the run. Linear time is checked by counting work (tests/test_parse_linear.py
and bench/parse_worst.py), so the deadline is off everywhere.

Compiled bytecode is kept, whatever PYTHONDONTWRITEBYTECODE says (this machine kind sets it), in the usual
`__pycache__` folders (git ignores them): without it every process the tests start (each `forumbot tick` of a live
game, the year-ahead run) compiled forumbot afresh, ~13 % of its start-up. Not in a cache of its own
(PYTHONPYCACHEPREFIX, as the suite did before): Python then ignores the bytecode pip wrote for the installed
libraries, and on a fresh machine each worker compiled SQLAlchemy and the rest again. Before xdist starts its
workers the controller collects the run once in a process of its own (`pytest_configure` below), so that the test
modules' assertion-rewritten bytecode and the project's are written once: on a fresh clone the 18 workers each
compiled them at the same moment, ~6 s of CPU a worker (125 s against 47 s for the 18 collections, measured on this
2-core machine kind), the largest single cost of a CI run's start.

A session ends with one full garbage collection, and what survives it is frozen (`pytest_sessionfinish` below)."""

import gc
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings

from faketime_leftovers import remove_leftovers

settings.register_profile("forumbot", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("forumbot")

os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# a collection that takes longer hangs: the run goes on without the warmed bytecode
WARM_UP_GUARD = 900
WARMED = "FORUMBOT_TESTS_BYTECODE_WRITTEN"


def pytest_configure(config: pytest.Config) -> None:
    """The controller of a run on xdist workers compiles what they will import, once (see the module's docstring).
    Before that, libfaketime's objects left by earlier runs' killed processes go (faketime_leftovers)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    remove_leftovers()
    if not getattr(config.option, "numprocesses", None) or config.option.collectonly or os.environ.get(WARMED):
        return
    os.environ[WARMED] = "1"  # the runs the tests start inside this one (the year-ahead shards) find it done
    # the collection is a suite of its own: none of this run's options (a --basetemp to clear, a plugin to load)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "XDIST_"))}
    try:
        subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
                        *config.args], cwd=config.invocation_params.dir, env=env, capture_output=True,
                       timeout=WARM_UP_GUARD)
    except subprocess.TimeoutExpired:
        pass


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """The session's garbage collected here, once, and the survivors frozen, so pytest's own closing passes (five
    full collections, looking for exceptions in finalizers) see only what is made after. An xdist worker reports
    itself finished when this hook returns; the controller then ends it, and execnet gives a worker 5 s to come down
    before it sends itself SIGINT. Five passes over a worker's whole heap took 3.1-3.7 s at a load of 8 on this
    2-core machine, and more in a full run: the KeyboardInterrupt landed in hypothesis's gc callback and came out
    as a PytestUnraisableExceptionWarning at the end of the run. Here, before the report, no clock runs; a
    finalizer's exception raised by this collection is still reported by pytest as before."""
    gc.collect()
    gc.freeze()
