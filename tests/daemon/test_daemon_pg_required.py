"""Issue 17 item 2: the PostgreSQL tests run where a PostgreSQL is named (FORUMBOT_TEST_PG_URL) and, under
FORUMBOT_REQUIRE_LIVE=1 (what `.ci/run` sets), fail instead of skipping when it is not named or does not answer:
a PostgreSQL that is down must not pass CI as skipped tests. `.ci/run` always names one; the README says how.

Checked by running pytest in a subprocess on a test that takes the `pg_database` fixture, with a URL that nothing
answers (port 1 of 127.0.0.1: nothing listens there, and nothing leaves the machine)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DOWN = "postgresql+psycopg2://postgres@127.0.0.1:1/test"
# seconds the inner pytest may take: a hang guard only; it took 15 s on 2 cores shared with other jobs, and the 120 s
# this was is within a slower machine's reach (issue 28 item 1)
PYTEST_HANG = 900
PROBE = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
from daemon_world import pg_database  # noqa: F401


def test_needs_postgresql(pg_database):
    pass
"""


def _pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_probe.py").write_text(PROBE, encoding="utf-8")
    # the probe run is a pytest of its own: the outer run's PYTEST_ADDOPTS (a --basetemp above this folder) is not its
    environ = {k: v for k, v in os.environ.items()
               if k not in ("FORUMBOT_TEST_PG_URL", "FORUMBOT_REQUIRE_LIVE", "PYTEST_ADDOPTS")}
    environ.update(env)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "-c", os.devnull, "--rootdir", str(tmp_path), str(tmp_path / "test_probe.py")],
                          cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=PYTEST_HANG)


@pytest.mark.parametrize("url", [DOWN, None], ids=["down", "not named"])
def test_pg_tests_fail_not_skip_under_require_live(tmp_path, url):
    env = {"FORUMBOT_REQUIRE_LIVE": "1", **({"FORUMBOT_TEST_PG_URL": url} if url else {})}
    run = _pytest(tmp_path, **env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 error" in run.stdout and "skipped" not in run.stdout, run.stdout
    assert "PostgreSQL is required" in run.stdout
    assert ("does not answer" if url else "FORUMBOT_TEST_PG_URL is not set") in run.stdout


def test_pg_tests_skip_saying_why_elsewhere(tmp_path):
    run = _pytest(tmp_path, FORUMBOT_TEST_PG_URL=DOWN)
    assert run.returncode == 0 and "1 skipped" in run.stdout, run.stdout + run.stderr
    assert "PostgreSQL at FORUMBOT_TEST_PG_URL does not answer" in run.stdout


def test_ci_always_names_a_postgresql_and_the_readme_says_how():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    # at the top level of the script (not indented inside an `if` that a PostgreSQL that is down skips)
    assert "\nexport FORUMBOT_TEST_PG_URL=" in ci
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "FORUMBOT_TEST_PG_URL=postgresql+psycopg2://" in readme
