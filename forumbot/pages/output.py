"""Writing the site: only files whose bytes changed (a quiet tick writes nothing), each atomically, and a game's
pictures no longer referenced removed (their names carry their content's hash)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

STALE = (".svg", ".png", ".html")


def write_files(root: Path, files: dict[str, bytes], games: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """Write `files` (paths relative to `root`) that differ from what is there; remove the stale pictures and
    pages in each of `games`' folders. Returns the paths written or removed, sorted."""
    changed: list[str] = []
    for rel, data in sorted(files.items()):
        path = root / rel
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
    for game in games:
        folder = root / game
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            rel = f"{game}/{path.name}"
            if path.suffix in STALE and rel not in files and path.is_file():
                path.unlink()
                changed.append(rel)
    return sorted(changed)
