"""boards.let_opcache_cache: a built board's files unpacked with mtime 0 get a real one (the PHP servers' opcache
skips a file whose timestamp reads 0); a file the build wrote keeps its own, a link is not followed."""

from __future__ import annotations

import os

from boards import SOURCES_MTIME, let_opcache_cache


def test_only_the_files_at_mtime_zero_get_the_sources_date(tmp_path):
    www = tmp_path / "www"
    (www / "includes").mkdir(parents=True)
    unpacked = [www / "index.php", www / "includes" / "functions.php"]
    for path in unpacked:
        path.write_text("<?php\n")
        os.utime(path, (0, 0))
    written = www / "config.php"
    written.write_text("<?php\n")
    os.utime(written, (1_700_000_000, 1_700_000_000))
    outside = tmp_path / "outside.php"
    outside.write_text("<?php\n")
    os.utime(outside, (0, 0))
    (www / "link.php").symlink_to(outside)

    assert let_opcache_cache(tmp_path) == 2
    assert [p.stat().st_mtime for p in unpacked] == [SOURCES_MTIME, SOURCES_MTIME]
    assert written.stat().st_mtime == 1_700_000_000
    assert outside.stat().st_mtime == 0
