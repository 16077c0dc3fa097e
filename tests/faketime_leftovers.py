"""libfaketime's shared objects left behind by processes that did not exit cleanly, removed before a run.

libfaketime 0.9.10 (Debian's) gives every process it starts in, and the `faketime` wrapper, a semaphore and a shared
memory object named by its pid (/dev/shm/sem.faketime_sem_PID, /dev/shm/faketime_shm_PID) and removes them at a
clean exit. A process killed by a signal leaves them (a live board's PHP server on a shared clock when the board
stops, a tick killed by a test): ~58 pairs a run. Once the machine's pids wrap, a new process given such a pid
finds its name taken and stops at once ("faketime: sem_open: File exists"; PHP exits from its
`ft_shm_create`): a failure that depends on what ran on the machine before. libfaketime's README asks to delete
them "occasionally (or properly automated)"; 0.9.11's FAKETIME_DISABLE_SHM is not in Debian 12's package.

Only the objects of a pid that no longer runs are removed: those of a live process are in use (and a process
that inherited its parent's objects keeps them open, so removing a dead parent's pair takes nothing from it)."""

from __future__ import annotations

import re
from pathlib import Path

SHARED_MEMORY = Path("/dev/shm")
NAMES = re.compile(r"^(?:sem\.faketime_sem_|faketime_shm_)([0-9]+)$")


def remove_leftovers(folder: Path = SHARED_MEMORY, processes: Path = Path("/proc")) -> int:
    """Remove the faketime objects in `folder` whose pid has no entry in `processes`; how many it removed."""
    removed = 0
    try:
        names = [entry.name for entry in folder.iterdir()]
    except OSError:  # no /dev/shm: nothing of libfaketime's to clear
        return 0
    for name in names:
        found = NAMES.match(name)
        if found and not (processes / found.group(1)).exists():
            try:
                (folder / name).unlink()
                removed += 1
            except FileNotFoundError:  # another process of the run removed it first
                pass
    return removed
