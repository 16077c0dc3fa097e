"""The live FlaskBB forum for tests marked `live`: started once per session, stopped at the end.

It skips (one line saying why) where the forum cannot run: no Python >= 3.12, pip cannot install FlaskBB,
or the server does not come up. FORUMBOT_SKIP_LIVE=1 skips it on purpose.
"""

from __future__ import annotations

import os
import time

import pytest

from flaskbb_server import FlaskBBServer, Unavailable


@pytest.fixture(scope="session")
def flaskbb(tmp_path_factory):
    if os.environ.get("FORUMBOT_SKIP_LIVE"):
        pytest.skip("live forum tests: FORUMBOT_SKIP_LIVE is set")
    t = time.monotonic()
    server = FlaskBBServer(tmp_path_factory.mktemp("flaskbb"))
    try:
        server.start()
    except Unavailable as e:
        pytest.skip(f"live FlaskBB forum unavailable: {e}")
    print(f"\nFlaskBB up at {server.base_url} in {time.monotonic() - t:.1f} s")
    yield server
    server.stop()
