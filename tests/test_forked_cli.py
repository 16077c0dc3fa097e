"""The games' commands run in processes forked from a server that imported forumbot (forked_cli.py): what a test
reads of such a child must be what it would read of `subprocess.run` (issue 28: the games' CPU), or the live games
would pass on something a real cron process does not do."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from forked_cli import Forked, run_module, run_script  # noqa: E402

SCRIPT = """
import atexit, os, sys
atexit.register(lambda: print("atexit ran"))
print("cwd", os.getcwd())
print("argv", sys.argv[1:])
print("env", os.environ.get("FORKED_CLI_TEST"))
print("main", __name__)
print("to stderr", file=sys.stderr)
if sys.argv[1:] == ["fail"]:
    raise SystemExit(3)
if sys.argv[1:] == ["raise"]:
    raise ValueError("boom")
if sys.argv[1:] == ["sleep"]:
    import time
    print("asleep", flush=True)
    time.sleep(600)
"""


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "script.py"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


def _env(value: str) -> dict[str, str]:
    return {**os.environ, "FORKED_CLI_TEST": value}


@pytest.mark.parametrize("args", [["a", "б"], ["fail"]])
def test_a_forked_script_reads_and_ends_as_a_started_one(script: Path, tmp_path: Path, args: list[str]) -> None:
    forked, _ = run_script(script, args, _env("x"), tmp_path, timeout=120)
    started = subprocess.run([sys.executable, str(script), *args], cwd=tmp_path, env=_env("x"),
                             capture_output=True, text=True, timeout=120)
    assert (forked.returncode, forked.stdout, forked.stderr) == (started.returncode, started.stdout, started.stderr)
    assert "atexit ran" in forked.stdout and f"cwd {tmp_path}" in forked.stdout


def test_an_error_in_a_forked_script_is_a_traceback_and_exit_1(script: Path, tmp_path: Path) -> None:
    forked, _ = run_script(script, ["raise"], _env("x"), tmp_path, timeout=120)
    assert forked.returncode == 1 and forked.stderr.rstrip().endswith("ValueError: boom")


def test_each_environment_has_its_own_server(script: Path, tmp_path: Path) -> None:
    """What a process reads at its start (a sitecustomize on PYTHONPATH, libfaketime's clock file) must be the
    command's own: a server is never shared by two environments."""
    first, _ = run_script(script, [], _env("one"), tmp_path, timeout=120)
    second, _ = run_script(script, [], _env("two"), tmp_path, timeout=120)
    assert "env one" in first.stdout and "env two" in second.stdout


def test_a_forked_child_killed_by_sigkill_ends_as_a_killed_process(script: Path, tmp_path: Path) -> None:
    child = Forked([str(script), "sleep"], _env("x"), tmp_path, script=str(script))
    os.kill(child.pid, signal.SIGKILL)
    child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL


def test_a_forked_child_past_its_timeout_is_killed_and_said_so(script: Path, tmp_path: Path) -> None:
    with pytest.raises(subprocess.TimeoutExpired):
        run_script(script, ["sleep"], _env("x"), tmp_path, timeout=0.5)
    done, _ = run_script(script, ["fail"], _env("x"), tmp_path, timeout=120)  # the server serves on
    assert done.returncode == 3


def test_the_cli_module_runs_as_main_as_python_m_runs_it(tmp_path: Path) -> None:
    forked, cpu = run_module("forumbot.cli.main", ["--version"], os.environ, tmp_path, timeout=120)
    started = subprocess.run([sys.executable, "-m", "forumbot.cli.main", "--version"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
    assert (forked.returncode, forked.stdout, forked.stderr) == (started.returncode, started.stdout, started.stderr)
    assert forked.args == [sys.executable, "-m", "forumbot.cli.main", "--version"] and cpu >= 0
