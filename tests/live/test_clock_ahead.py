"""No test may depend on the day it runs (issue 17 item 0): the unit suite, run once more with the whole
process's clock a year ahead (libfaketime, Debian package `faketime`, installed by .ci/provision), passes too.

The live boards are left out of the inner run: their PHP servers and databases would see the moved clock as
well, and they play against their own real clock by design."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.live, pytest.mark.xdist_group("clock_ahead")]


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
    done = subprocess.run(
        [faketime, "-f", "+365d", sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2",
         "--ignore=tests/live", f"--basetemp={tmp_path / 'ahead'}"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    tail = "\n".join(done.stdout.splitlines()[-40:])
    assert done.returncode == 0, f"the unit suite a year ahead (exit {done.returncode}):\n{tail}\n{done.stderr[-2000:]}"
