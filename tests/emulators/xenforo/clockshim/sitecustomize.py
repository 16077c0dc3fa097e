"""Loaded by the `forumbot` processes the XenForo game tests start (this folder on their PYTHONPATH): their clock
is the file XFEMU_CLOCK names (unix seconds), the emulator's clock too, and a sleep (a flood wait) moves it on.
So game time passes as the test says, and a 180 s flood wait costs no wall-clock time."""

import datetime as _dt
import os
import time as _time

_PATH = os.environ.get("XFEMU_CLOCK")

if _PATH:
    _Real = _dt.datetime

    def _read() -> float:
        with open(_PATH, encoding="ascii") as f:
            return float(f.read().strip())

    def _sleep(seconds: float) -> None:
        tmp = f"{_PATH}.{os.getpid()}"
        with open(tmp, "w", encoding="ascii") as f:
            f.write(repr(_read() + max(0.0, seconds)))
        os.replace(tmp, _PATH)

    class _Any(type):  # a datetime made anywhere (C code, a parser) still counts as one
        def __instancecheck__(cls, obj: object) -> bool:
            return isinstance(obj, _Real)

        def __subclasscheck__(cls, sub: type) -> bool:
            return issubclass(sub, _Real)

    class _Now(_Real, metaclass=_Any):
        @classmethod
        def now(cls, tz=None):  # type: ignore[no-untyped-def, override]
            return _Real.fromtimestamp(_read(), tz)

        @classmethod
        def utcnow(cls):  # type: ignore[no-untyped-def, override]
            return _Real.fromtimestamp(_read(), _dt.timezone.utc).replace(tzinfo=None)

    _time.time = _read
    _time.sleep = _sleep
    _dt.datetime = _Now  # type: ignore[misc]
