"""The games' command-line runs (`forumbot tick`, `game start`, …), each a process of its own, forked from a process
that has already imported forumbot (issue 28: the suite is bound by the CPU, and a `python -m forumbot.cli.main`
spent ~0.45 s of its ~0.6 s of CPU importing; the live and emulator games run hundreds).

What a test sees is what `subprocess.run([python, "-m", "forumbot.cli.main", …])` gives: a new process (its own pid,
killed by SIGKILL like any other), the module run as `__main__` with the argv, environment and working directory
given, stdout and stderr captured, its exit code (a negative signal number when killed), and the exit of a real
interpreter (atexit, flushes: the child ends by leaving the server's loop with SystemExit). What it shares with its
siblings is only what importing left behind: each environment has a server of its own, started with it. A command
that must be a fresh interpreter (the CLI's own start-up) is tested with real processes elsewhere (tests/test_cli.py,
tests/daemon/test_daemon_processes.py).

The server (`serve`) reads one JSON request a line on stdin and answers two lines on stdout: the child's pid, then
its exit code and CPU seconds once it has ended.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import json
import locale
import os
import pkgutil
import runpy
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from typing import Any
from pathlib import Path

import adapters
import forumbot

# servers kept at once by a test process, the last used: a game's commands share one environment, so each game
# has its server, and the one before it is closed (an idle server holds ~60 MB)
KEPT = 3


class _Server:
    def __init__(self, env: Mapping[str, str]) -> None:
        self.lock = threading.Lock()
        self.folder = Path(tempfile.mkdtemp(prefix="forked-cli-"))
        # this file run by its path, not imported: tests/ stays off the server's path (its adapters/ folder would
        # stand in for the package), which is then the path a `python -m` started here would have
        start = f"import runpy; runpy.run_path({__file__!r}, run_name='forked_cli')['serve']()"
        self.proc = subprocess.Popen([sys.executable, "-c", start], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=dict(env), cwd=self.folder)
        self.count = 0

    def start(self, request: dict[str, object]) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request).encode() + b"\n")
        self.proc.stdin.flush()
        return int(self._line(None))

    def _line(self, deadline: float | None) -> str:
        """One line of the server's answer, waiting at most until `deadline` (time.monotonic)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        line = b""
        while not line.endswith(b"\n"):
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([fd], [], [], wait)[0]:
                raise TimeoutError
            got = os.read(fd, 1)
            if not got:
                raise RuntimeError(f"the forked-CLI server ended (exit {self.proc.wait()})")
            line += got
        return line.decode().strip()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.folder.exists():  # the server removes it as it ends; a server that was killed did not
            shutil.rmtree(self.folder)


_servers: dict[tuple[tuple[str, str], ...], _Server] = {}
_servers_lock = threading.Lock()


def _server(env: Mapping[str, str]) -> _Server:
    """The server started with exactly this environment: what a process reads when it starts (the dynamic
    loader's preload, libfaketime's clock file, PYTHONPATH's sitecustomize and what it reads, the locale) is then
    what a process started with it would read."""
    key = tuple(sorted(env.items()))
    with _servers_lock:
        server = _servers.pop(key, None)
        if server is None or server.proc.poll() is not None:
            server = _Server(env)
        _servers[key] = server  # last used, last
        while len(_servers) > KEPT:
            oldest = next(iter(_servers))
            with _servers[oldest].lock:
                _servers.pop(oldest).close()
        return server


@atexit.register
def _close_servers() -> None:
    for server in _servers.values():
        server.close()


class Forked:
    """A command started in a forked child: `pid` for a test that kills it, `communicate` as Popen's."""

    def __init__(self, argv: list[str], env: Mapping[str, str], cwd: Path | str, module: str | None = None,
                 script: str | None = None) -> None:
        self.args = argv
        self.server = _server(env)
        self.server.lock.acquire()
        self.server.count += 1
        self.out = self.server.folder / f"{self.server.count}.out"
        self.err = self.server.folder / f"{self.server.count}.err"
        self.returncode: int | None = None
        self.cpu = 0.0
        try:
            self.pid = self.server.start({"argv": argv, "cwd": str(cwd), "module": module,
                                          "script": script, "stdout": str(self.out), "stderr": str(self.err)})
        except BaseException:
            self.server.lock.release()
            raise

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """Wait for the child's end (killed with SIGKILL after `timeout` seconds, then TimeoutExpired, as
        subprocess.run does) and give its stdout and stderr, decoded as subprocess's text mode decodes them."""
        if self.returncode is None:
            try:
                try:
                    answer = self.server._line(None if timeout is None else time.monotonic() + timeout)
                except TimeoutError:
                    os.kill(self.pid, signal.SIGKILL)
                    self.server._line(None)
                    raise subprocess.TimeoutExpired(self.args, timeout or 0.0, self._read(self.out),
                                                    self._read(self.err)) from None
                code, cpu = answer.split()
                self.returncode, self.cpu = int(code), float(cpu)
            finally:
                self.server.lock.release()
        return self._read(self.out), self._read(self.err)

    @staticmethod
    def _read(path: Path) -> str:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return ""
        path.unlink()
        return data.decode(locale.getpreferredencoding(False))


def run_module(module: str, args: list[str], env: Mapping[str, str], cwd: Path | str,
               timeout: float | None = None) -> tuple[subprocess.CompletedProcess[str], float]:
    """`python -m module *args` as subprocess.run(…, capture_output=True, text=True) runs it, in a forked child;
    with the child's CPU seconds (user and system)."""
    return _completed(Forked([module, *args], env, cwd, module=module), ["-m", module, *args], timeout)


def run_script(script: Path | str, args: list[str], env: Mapping[str, str], cwd: Path | str,
               timeout: float | None = None) -> tuple[subprocess.CompletedProcess[str], float]:
    """`python script *args`, as run_module."""
    return _completed(Forked([str(script), *args], env, cwd, script=str(script)), [str(script), *args], timeout)


def run_python(cmd: list[str], env: Mapping[str, str], cwd: Path | str,
               timeout: float | None = None) -> tuple[subprocess.CompletedProcess[str], float]:
    """`[sys.executable, "-m", module, *args]` or `[sys.executable, script, *args]`, as subprocess.run(cmd, …,
    capture_output=True, text=True) runs it, in a forked child; with the child's CPU seconds."""
    python, *rest = cmd
    if python != sys.executable:
        raise ValueError(f"not this interpreter's command: {cmd}")
    if rest[0] == "-m":
        return run_module(rest[1], rest[2:], env, cwd, timeout)
    return run_script(rest[0], rest[1:], env, cwd, timeout)


def _completed(child: Forked, args: list[str], timeout: float | None) -> tuple[subprocess.CompletedProcess[str], float]:
    out, err = child.communicate(timeout)
    assert child.returncode is not None
    return subprocess.CompletedProcess([sys.executable, *args], child.returncode, out, err), child.cpu


# --- the server ------------------------------------------------------------------------------------------------

def _become(request: dict[str, Any]) -> None:
    """In the child: the process a `python -m module` (or `python script`) started with this request would be."""
    null = os.open(os.devnull, os.O_RDONLY)
    out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for source, target in ((null, 0), (out, 1), (err, 2)):
        os.dup2(source, target)
        os.close(source)
    os.chdir(request["cwd"])
    sys.argv = list(request["argv"])
    if request["module"]:
        sys.path[0] = os.getcwd()  # as `python -m` puts it
        # run as `__main__` only, as `python -m` runs it: the server's import of it is not the child's
        parent, _, name = request["module"].rpartition(".")
        sys.modules.pop(request["module"], None)
        if parent in sys.modules and hasattr(sys.modules[parent], name):
            delattr(sys.modules[parent], name)
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
    else:
        sys.path[0] = str(Path(request["script"]).resolve().parent)
        runpy.run_path(request["script"], run_name="__main__")


def serve() -> None:
    # what the commands import, once: the reason this process exists. Every module of forumbot and the adapters
    # (what a tick loads of them is most of them; importing is all they do: the engines are found by name,
    # forumbot/forum/registry.py, so one imported here cannot stand in for an import a command lacks), but not
    # `__main__` modules (importing runs them) nor the migrations (alembic's env.py runs on import)
    for package in (forumbot, adapters):
        for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not found.name.endswith(".__main__") and not found.name.startswith("forumbot.migrations"):
                importlib.import_module(found.name)
    importlib.import_module("sqlalchemy.dialects.sqlite.pysqlite")
    gc.freeze()  # what importing made is never collected again: each child's exit skips walking it (~0.06 s)
    requests = sys.stdin.buffer
    while line := requests.readline():
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _become(request)
            sys.exit(0)  # a script that ran to its end; SystemExit and errors leave as a real interpreter's do
        os.write(1, f"{pid}\n".encode())
        _, status, usage = os.wait4(pid, 0)
        os.write(1, f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime:.3f}\n".encode())
    with contextlib.suppress(OSError):  # the folder of its children's output, emptied unless the test process died
        os.rmdir(os.getcwd())
