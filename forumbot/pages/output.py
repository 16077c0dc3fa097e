"""Writing the site: only files whose bytes changed (a quiet tick writes nothing), each atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from forumbot.names import within
from forumbot.pages.site import build_index

STANDINGS = "standings.json"  # S-6: the season's standings, written by `forumbot season standings --pages`


def write_site(root: Path, files: dict[str, bytes], language: str = "ru", timezone: str = "Europe/Moscow") -> list[str]:
    """A game's files, then the season index from every game.json the folder holds and its standings (S-6).
    Returns what changed."""
    changed = write_files(root, files)
    docs = []
    for path in sorted(root.glob("*/game.json")):
        try:
            docs.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue  # not ours, or half-written by hand: the index lists the games it can read
    try:
        standings = json.loads((root / STANDINGS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        standings = None  # no season ranked yet (or not ours): the index lists the games alone
    index = build_index(docs, language, timezone, standings)
    return sorted(changed + write_files(root, {"index.html": index}))


def write_files(root: Path, files: dict[str, bytes]) -> list[str]:
    """Write `files` (paths relative to `root`) whose bytes differ from what is there. Nothing is removed: a
    picture's name carries its hash, and a post that showed it keeps pointing at it."""
    changed: list[str] = []
    for rel, data in sorted(files.items()):
        path = within(root, rel)
        try:
            if path.read_bytes() == data:
                continue
        except OSError:
            pass
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, 0o644)  # the public site is world-readable; the dashboard is written elsewhere, 0600
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        changed.append(rel)
    return sorted(changed)
