"""faketime_leftovers: a stale libfaketime object, one whose pid no longer runs, is removed before a run; those of
running processes and every other file of /dev/shm stay."""

from __future__ import annotations

import os
from pathlib import Path

from faketime_leftovers import remove_leftovers


def test_the_objects_of_a_pid_gone_are_removed_and_the_rest_stays(tmp_path: Path) -> None:
    shm, proc = tmp_path / "shm", tmp_path / "proc"
    shm.mkdir()
    proc.mkdir()
    (proc / "4242").mkdir()  # a running process
    names = ["sem.faketime_sem_4242", "faketime_shm_4242",  # running: in use
             "sem.faketime_sem_31337", "faketime_shm_31337",  # gone: stale
             "faketime_shm_12x", "PostgreSQL.3848592414", "sem.other_31337"]  # not libfaketime's pid-named objects
    for name in names:
        (shm / name).write_bytes(b"")
    assert remove_leftovers(shm, proc) == 2
    assert sorted(p.name for p in shm.iterdir()) == sorted(set(names) - {"sem.faketime_sem_31337", "faketime_shm_31337"})


def test_the_objects_of_this_process_are_kept_on_the_real_proc(tmp_path: Path) -> None:
    mine = tmp_path / f"faketime_shm_{os.getpid()}"
    mine.write_bytes(b"")
    assert remove_leftovers(tmp_path) == 0 and mine.exists()


def test_a_machine_without_the_folder_has_nothing_to_clear(tmp_path: Path) -> None:
    assert remove_leftovers(tmp_path / "absent") == 0
