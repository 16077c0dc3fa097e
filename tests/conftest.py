"""Settings for the whole suite.

Hypothesis's per-example deadline (200 ms) measures the machine, not the code: on a loaded 2-core machine a
parse example took 300 ms once and failed the run. Linear time is checked by counting work (tests/test_parse_linear.py
and bench/parse_worst.py), so the deadline is off everywhere.

The processes the tests start (every `forumbot tick` of a live game, the year-ahead run) keep their compiled
bytecode in one cache outside the tree: with PYTHONDONTWRITEBYTECODE each of them compiled forumbot afresh
(~0.1 s of CPU a process, ~13 % of its start-up), and the tree stays as clean as that setting kept it.

A session ends with one full garbage collection, and what survives it is frozen (`pytest_sessionfinish` below)."""

import gc
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("forumbot", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("forumbot")

PYCACHE = os.environ.get("PYTHONPYCACHEPREFIX") or str(Path(tempfile.gettempdir()) / f"forumbot-pycache-{os.getuid()}")
os.environ["PYTHONPYCACHEPREFIX"] = PYCACHE
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.pycache_prefix, sys.dont_write_bytecode = PYCACHE, False


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
