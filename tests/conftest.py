"""Settings for the whole suite.

Hypothesis's per-example deadline (200 ms) measures the machine, not the code: on a loaded 2-core machine a
parse example took 300 ms once and failed the run. Linear time is checked by counting work (tests/test_parse_linear.py
and bench/parse_worst.py), so the deadline is off everywhere.

The processes the tests start (every `forumbot tick` of a live game, the year-ahead run) keep their compiled
bytecode in one cache outside the tree: with PYTHONDONTWRITEBYTECODE each of them compiled forumbot afresh
(~0.1 s of CPU a process, ~13 % of its start-up), and the tree stays as clean as that setting kept it."""

import os
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile("forumbot", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("forumbot")

PYCACHE = os.environ.get("PYTHONPYCACHEPREFIX") or str(Path(tempfile.gettempdir()) / f"forumbot-pycache-{os.getuid()}")
os.environ["PYTHONPYCACHEPREFIX"] = PYCACHE
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.pycache_prefix, sys.dont_write_bytecode = PYCACHE, False
