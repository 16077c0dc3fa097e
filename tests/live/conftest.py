"""The live FlaskBB forum for tests marked `live`: started once per session, stopped at the end.

It skips (one line saying why) where the forum cannot run: no Python >= 3.12, pip cannot install FlaskBB,
or the server does not come up; under FORUMBOT_REQUIRE_LIVE=1 (CI) that fails the run instead.
FORUMBOT_SKIP_LIVE=1 skips it on purpose.
The real phpBB and MyBB boards (boards.py) are built once per session, at once, by `board_builds`.
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
        unavailable(f"live FlaskBB forum unavailable: {e}")
    print(f"\nFlaskBB up at {server.base_url} in {time.monotonic() - t:.1f} s")
    yield server
    server.stop()


# --- real phpBB and MyBB boards (issue 8 item 1) ---------------------------------------------------------------

from boards import BoardBuild, Unavailable as BoardUnavailable, live_required  # noqa: E402

# Whole games lower the flood limits (phpBB FLOOD=1; MyBB POST_FLOOD=PM_FLOOD=2) to fit the time budget, and
# MyBB MIN_MSG=1 (stock 5 refuses a vote such as "Маша");
# MyBB keeps its stock post merging (MERGE_MINS=60).
GAME_KNOBS = {"phpbb": {"FLOOD": "1"}, "mybb": {"POST_FLOOD": "2", "PM_FLOOD": "2", "MIN_MSG": "1"}}
BOARD_FIXTURES = {"phpbb_board": "phpbb", "mybb_board": "mybb"}


def unavailable(reason: str) -> None:
    """Skip with the reason on a user's machine; under FORUMBOT_REQUIRE_LIVE=1 (CI) fail instead."""
    if live_required():
        pytest.fail(f"FORUMBOT_REQUIRE_LIVE is set and {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def board_builds(request, tmp_path_factory):
    """Starts, all at once, the builds of every board a collected test uses; each board fixture waits for its own."""
    if os.environ.get("FORUMBOT_SKIP_LIVE"):
        pytest.skip("live forum tests: FORUMBOT_SKIP_LIVE is set")
    wanted = {BOARD_FIXTURES[f] for item in request.session.items for f in getattr(item, "fixturenames", ())
              if f in BOARD_FIXTURES}
    root = tmp_path_factory.mktemp("boards")
    builds: dict[str, BoardBuild | str] = {}
    for engine in sorted(wanted):
        try:
            build = builds[engine] = BoardBuild(engine, root / engine, GAME_KNOBS[engine])
        except BoardUnavailable as e:
            builds[engine] = str(e)
            continue
        if build.installs_packages:  # two apt-get runs at once would fight over dpkg's lock
            build.proc.wait()
    boards: dict = {}
    yield builds, boards
    for board in boards.values():
        board.stop()
    for build in builds.values():
        if isinstance(build, BoardBuild) and build.proc.poll() is None:
            os.killpg(build.proc.pid, 15)


def _board(board_builds, engine: str):  # type: ignore[no-untyped-def]
    builds, boards = board_builds
    if engine not in boards:
        build = builds.get(engine)
        if isinstance(build, str) or build is None:
            unavailable(f"live {engine} board unavailable: {build or 'not built'}")
        try:
            boards[engine] = build.wait()
        except BoardUnavailable as e:
            builds[engine] = str(e)
            unavailable(f"live {engine} board unavailable: {e}")
        print(f"\n{engine} board up at {boards[engine].base_url} in {boards[engine].build_seconds:.0f} s")
    return boards[engine]


@pytest.fixture(scope="session")
def phpbb_board(board_builds):
    return _board(board_builds, "phpbb")


@pytest.fixture(scope="session")
def mybb_board(board_builds):
    return _board(board_builds, "mybb")
