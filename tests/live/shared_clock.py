"""A clock the test drives, shared by a live board's PHP server and the bot's tick processes (libfaketime, Debian
package `faketime`, installed by .ci/provision): both read their time as the wall clock plus one offset kept in a
file, so a test moves the board's post times and the bot's "now" ahead together instead of waiting for a deadline.

One offset for both keeps every comparison the bot makes sound: its fold orders the board's stamps against the
deadlines it computed from them, and its reads (C-14) against both. The monotonic clock moves with the offset
(libfaketime's default; Python's sleeps fail with it left real), so it is moved only while no tick runs."""

from __future__ import annotations

import glob
from datetime import datetime, timedelta, timezone
from pathlib import Path

# PHP for a board's script (its PHP knob): the preload only there, not in the script's other programs
PHP_ON_THE_CLOCK = Path(__file__).resolve().parent / "php_on_shared_clock"


def libfaketime() -> str | None:
    found = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1") + glob.glob("/usr/lib/faketime/libfaketime.so.1"))
    return found[0] if found else None


class SharedClock:
    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def started(cls, path: Path) -> "SharedClock":
        """A clock at the wall clock's time."""
        clock = cls(path)
        clock.path.write_text("+0\n")
        return clock

    def board_knobs(self, library: str) -> dict[str, str]:
        return {"PHP": str(PHP_ON_THE_CLOCK), "FORUMBOT_LIBFAKETIME": library,
                "FAKETIME_TIMESTAMP_FILE": str(self.path)}

    def process_env(self, library: str) -> dict[str, str]:
        """A process's environment entries that put it on this clock (re-read at each call: FAKETIME_NO_CACHE)."""
        return {"LD_PRELOAD": library, "FAKETIME_TIMESTAMP_FILE": str(self.path), "FAKETIME_NO_CACHE": "1"}

    def ahead(self) -> timedelta:
        return timedelta(seconds=int(self.path.read_text().strip()))

    def now(self) -> datetime:
        return datetime.now(timezone.utc) + self.ahead()

    def move_past(self, at: datetime) -> None:
        """Forward, so that `at` is a whole second or more in the past (never back: the board's stamps keep order)."""
        needed = int((at - datetime.now(timezone.utc)).total_seconds()) + 2
        self.path.write_text(f"+{max(needed, int(self.ahead().total_seconds()))}\n")
