"""The memory forum kept in a file, so that several processes (concurrent ticks, a killed tick and its
successor) play against one forum. Each adapter call holds an flock on the file for its whole duration:
calls from different processes are atomic and totally ordered, as requests to one web server would be."""

from __future__ import annotations

import fcntl
import os
import pickle
import time
from contextlib import contextmanager
from pathlib import Path

from adapters.memory.forum import MemoryForum

_STATE = ("topics", "pms", "calls", "_next_id")
# seconds a process waits at the login barrier for the others: a hang guard only; under a loaded 2-core CI four
# processes importing forumbot can take over the 60 s this was, and then the race the test stages never happened
BARRIER_HANG_GUARD = 900


class FileForum(MemoryForum):
    """`barrier=N`: each process's login waits until N processes have logged in, so N ticks list the running
    games before any folds. `gate=True`: the first process to read the inbox keeps reading and writing, and
    every later one waits, inside fetch_pms, until that first process has exited: its cycle is then over (a
    slow inbox read racing a fast tick, as a condition rather than a sleep)."""

    def __init__(self, path: str, bot: str = "bot", delay: float = 0.0, barrier: int = 0, gate: bool = False,
                 **_ignored) -> None:
        super().__init__(bot=bot)
        self.path = Path(path)
        self.delay = delay  # seconds each write takes, to widen the windows a kill can land in
        self.barrier, self.gate = barrier, gate

    @contextmanager
    def _locked_state(self, load: bool = True, save: bool = True):
        with open(self.path.with_suffix(".lock"), "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if load and self.path.exists():
                for name, value in pickle.loads(self.path.read_bytes()).items():
                    setattr(self, name, value)
            yield
            if save:
                tmp = self.path.with_suffix(".tmp")
                tmp.write_bytes(pickle.dumps({name: getattr(self, name) for name in _STATE}))
                tmp.replace(self.path)

    def save(self) -> None:
        """Write this object's state to the file (the test side seeding the forum)."""
        with self._locked_state(load=False):
            pass

    def load(self) -> "FileForum":
        """Read the file's state into this object (the test side inspecting the forum)."""
        with self._locked_state(save=False):
            pass
        return self

    def _locked(name: str, slow: bool):  # noqa: N805 - a decorator factory used in the class body
        def method(self, *args, **kwargs):
            with self._locked_state():
                if slow and self.delay:
                    time.sleep(self.delay)
                return getattr(MemoryForum, name)(self, *args, **kwargs)

        method.__name__ = name
        return method

    _login = _locked("login", False)
    fetch_posts = _locked("fetch_posts", False)
    _fetch_pms = _locked("fetch_pms", False)
    reply = _locked("reply", True)
    send_pm = _locked("send_pm", True)
    find_own_post = _locked("find_own_post", False)
    find_own_pm = _locked("find_own_pm", False)
    del _locked

    def login(self) -> None:
        if self.barrier:
            arrived = self.path.with_suffix(".barrier")
            with open(arrived, "ab") as f:
                f.write(b"x")
            deadline = time.monotonic() + BARRIER_HANG_GUARD
            while arrived.stat().st_size < self.barrier and time.monotonic() < deadline:
                time.sleep(0.01)
        self._login()

    def fetch_pms(self, after=None):
        if self.gate:
            fd = os.open(self.path.with_suffix(".gate"), os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                _HELD.append(fd)  # the first reader: held until this process exits
            except BlockingIOError:
                fcntl.flock(fd, fcntl.LOCK_EX)  # the first reader has exited
                os.close(fd)
        return self._fetch_pms(after)


_HELD: list[int] = []
