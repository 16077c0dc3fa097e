"""The live FlaskBB forum for tests marked `live`: started once per session, stopped at the end.

It skips (one line saying why) where the forum cannot run: no Python >= 3.12, pip cannot install FlaskBB,
or the server does not come up; under FORUMBOT_REQUIRE_LIVE=1 (CI) that fails the run instead.
FORUMBOT_SKIP_LIVE=1 skips it on purpose.
The real phpBB and MyBB boards (boards.py) are built once per session, at once, by `board_builds`.
"""

from __future__ import annotations

import os
import shutil
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


# --- real boards (issue 8 item 1) ----------------------------------------------------------------------------

from boards import built_board, unavailable  # noqa: E402
from shared_clock import SharedClock, libfaketime  # noqa: E402
from clock_reach import YEAR_AHEAD, year_ahead_modules  # noqa: E402

# A board a test asks for by fixture name: (engine, knobs, port shift). Each is built once per session, when the
# first test asking for it runs; its tests share one xdist worker (`pytest_collection_modifyitems`), so two
# workers never build the same board on the same ports, and different boards build at once in their workers.
# Whole games lower the flood limits (phpBB FLOOD=1; MyBB POST_FLOOD=PM_FLOOD=2) to fit the time budget, and
# MyBB MIN_MSG=1 (stock 5 refuses a vote such as "Маша"); MyBB keeps its stock post merging (MERGE_MINS=60).
# FluxBB: POST_FLOOD=2 (stock 30 s for posts and, through New PMS, for PMs: a game would wait half an hour),
# PER_PAGE=10 (stock 25: the game's threads then cross pages), no seeded conversation, the Moscow ten players
# (names with a space, Cyrillic, ё, digits).
MOSCOW_PLAYERS = "\n".join(("Маша", "Кот Баюн", "Дядя Фёдор", "Lucky_Strike", "ёжик", "Печкин 2000", "Незнайка",
                             "Kapitan Vrungel", "Алёна_77", "Шарик"))
BOARD_SPECS: dict[str, tuple[str, dict[str, str], int]] = {
    "phpbb_board": ("phpbb", {"FLOOD": "1"}, 0),
    "phpbb_season_board": ("phpbb", {"FLOOD": "1"}, 2000),  # two games in a row, beside the whole-game test
    "mybb_board": ("mybb", {"POST_FLOOD": "2", "PM_FLOOD": "2", "MIN_MSG": "1"}, 0),
    # MyBB's season (test_mybb_season.py), on a clock of its own as phpbb_season_board is; floods of 1 s (the bot
    # paces 2 s a send): its ~40 PMs sat out 4 s each at 2 s, most of the test's time
    "mybb_season_board": ("mybb", {"POST_FLOOD": "1", "PM_FLOOD": "1", "MIN_MSG": "1"}, 2000),
    # the same boards again for the short checks (idle requests, an inbox past one page), beside the whole games:
    # on the game's board they queued behind it, and that worker ran 14 minutes
    "phpbb_side_board": ("phpbb", {"FLOOD": "1"}, 3000),
    "mybb_side_board": ("mybb", {"POST_FLOOD": "2", "PM_FLOOD": "2", "MIN_MSG": "1"}, 3000),
    # the game pages' live games (test_pages_live.py), beside the side boards' checks: with them on the side
    # boards, those were the suite's two longest groups (850 and 775 s in .ci/run under load, 15.75 min in all)
    "phpbb_pages_board": ("phpbb", {"FLOOD": "1"}, 4000),
    "mybb_pages_board": ("mybb", {"POST_FLOOD": "2", "PM_FLOOD": "2", "MIN_MSG": "1"}, 4000),
    # the deleted-first-vote-and-restore game (test_phpbb_restore.py, issue 26): on phpbb_pages_board it made that
    # the longest group (~880 s, over the budget); alone, it is a late group, built and played once a worker's
    # short first group is done (LONGEST_FIRST)
    "phpbb_restore_board": ("phpbb", {"FLOOD": "1"}, 5000),
    # issue 30's "Done means" game (R-11, R-12, R-13, C-14 in one Free Hunt game), on a board of its own
    "phpbb_activity_board": ("phpbb", {"FLOOD": "1"}, 6300),
    # SMF: the Moscow game's 10 players (a nick with a space, Cyrillic, a Latin one), no seeded conversation;
    # SPAM_WAIT=2 (stock 5, per IP: every member and the bot share one timer); EDIT_WAIT=0 (stock 90: an
    # author's edit within it leaves no edit notice, so the edited vote could not be voided, C-11).
    "smf_board": ("smf", {"SEED_POSTS": "0", "SPAM_WAIT": "2", "EDIT_WAIT": "0", "PLAYERS": MOSCOW_PLAYERS}, 0),
    # SMF with its stock limits (spamWaitTime 5 s per IP, 20 PMs an hour): what the bot does on a real SMF forum
    "smf_stock_board": ("smf", {"SEED_POSTS": "0", "PLAYERS": MOSCOW_PLAYERS}, 1000),
    # stock knobs (test_stock_limits.py): phpBB FLOOD=15; MyBB POST_FLOOD=PM_FLOOD=60, MERGE_MINS=60, MIN_MSG=5
    "phpbb_stock_board": ("phpbb", {}, 1000),
    # stock limits, but 7 players (R-10 cast) instead of Free Hunt's 12: at MyBB's stock 60 s between PMs,
    # Setup's role PMs alone took 12 minutes and the scenario 15, the whole suite's budget
    "mybb_stock_board": ("mybb", {"PLAYERS": "\n".join(("Lucky_Strike", "Kolya_95", "Наташа", "Старый Мельник",
                                                        "Дядя Фёдор", "Кот Баюн", "Мурзик"))}, 1000),
    # MyBB's stock post merging, post flood and minimum length, with a short PM timer: the merging half of
    # test_stock_limits.py's MyBB scenario, beside its stock-PM-timer half (together they were the suite's floor,
    # 680 s); the players as on mybb_stock_board
    "mybb_merge_board": ("mybb", {"PM_FLOOD": "2", "PLAYERS": "\n".join(("Lucky_Strike", "Kolya_95", "Наташа",
                                                                          "Старый Мельник", "Дядя Фёдор", "Кот Баюн",
                                                                          "Мурзик"))}, 1500),
    "fluxbb_board": ("fluxbb", {"SEED_POSTS": "0", "PLAYERS": MOSCOW_PLAYERS, "POST_FLOOD": "2", "PER_PAGE": "10"}, 0),
    # stock limits (POST_FLOOD 30 for posts and, on their own timer, PMs): a 7-player cast keeps Setup's role PMs
    # within one tick
    "fluxbb_stock_board": ("fluxbb", {"SEED_POSTS": "0", "PLAYERS": "\n".join(
        ("Маша", "Кот Баюн", "Дядя Фёдор", "Lucky_Strike", "ёжик", "Печкин 2000", "Шарик"))}, 1000),
}


# The boards whose bot account shows times to the second (boards.Board.SECONDS_FORMATS): each GM PM of a game there
# is folded by the next tick instead of after its minute (phpBB, SMF, FluxBB: 30 s on average, MyBB 61-120 s), the
# suite's largest wait. The stock boards of phpBB, MyBB and SMF keep the minute formats, so rounded times stay covered
# live; FluxBB's stock board shows seconds, as FluxBB itself does out of the box (install.php's o_time_format H:i:s;
# fluxbb.sh sets H:i, as Russian boards do).
EXACT_TIMES = {"phpbb_board", "phpbb_season_board", "phpbb_side_board", "phpbb_pages_board", "phpbb_restore_board",
               "phpbb_activity_board", "mybb_board", "mybb_season_board", "mybb_side_board", "mybb_pages_board",
               "mybb_merge_board", "smf_board", "fluxbb_board", "fluxbb_stock_board"}


# The boards whose PHP runs on a clock the test drives together with the bot's ticks' (shared_clock.py): a deadline
# passes when the test moves the clock, not after a wait the machine's speed could outrun.
ON_A_SHARED_CLOCK = {"phpbb_activity_board", "phpbb_season_board", "mybb_season_board"}


# The live groups, longest first (measured: `--junitxml`, each group's tests summed, `.ci/run` on 2 cores under a
# helper's load: 721 s for SMF down to 41 s for the Invision emulator, the pages boards estimated from their tests).
# xdist's loadgroup hands each worker one unit (a group, or a module of unit tests) in collection order, then,
# while a worker has at most 2 tests pending, one more. A live group of one or two tests therefore takes the next
# unit at once, queued behind it: with more long groups than workers, the 15th went behind the 1st and the two
# ran one after the other (stop 22: 1225 s). So the first `workers` groups go first, one to a worker, then one
# filler module of fast unit tests each (>= 3 tests, so the worker asks for nothing more until its group is done),
# then the remaining long groups, taken by the workers whose first group ended soonest, then the rest.
# With .ci/run's 18 workers every group of more than ~5 minutes starts at once, in the order of their times in
# .ci/run on 2026-12-04 (pytest 919 s; each group's setup and tests summed): the year-ahead rerun's two shards,
# then the season (670 s) down to the phpBB pages game (362 s) and the vBulletin emulator games (386 s); the
# groups under ~5 minutes follow on the workers that end first (MyBB's season: ~290 s alone under a load of 50),
# then the unit modules.
LONGEST_FIRST = ("clock_ahead_0", "clock_ahead_1", "phpbb_season_board", "phpbb_side_board", "phpbb_stock_board",
                 "mybb_side_board", "smf_board", "fluxbb_stock_board", "smf_stock_board", "phpbb_board",
                 "phpbb_activity_board", "mybb_stock_board", "phpbb_restore_board", "fluxbb_board", "mybb_board",
                 "emulator_vbulletin", "phpbb_pages_board", "mybb_pages_board", "mybb_season_board", "flaskbb",
                 "mybb_merge_board", "xenforo_games", "emulator_invision", "emulator_mybbru")
# Fast modules of pure unit tests (under a second each), the fillers above; a module gone from this list is
# replaced by another unit module of >= 3 tests.
FILLERS = ("tests/adapters/test_profile_names.py", "tests/adapters/test_board_zone.py", "tests/adapters/test_discourse.py",
           "tests/test_texts.py", "tests/adapters/test_pm_header.py", "tests/adapters/test_transport_pacing.py",
           "tests/adapters/test_charset_refusal.py", "tests/engine/test_gm_status_roles.py", "tests/test_gm_help.py",
           "tests/adapters/test_rough_times.py", "tests/adapters/test_transport.py", "tests/engine/test_positions.py",
           "tests/engine/test_rules_c13_late.py", "tests/adapters/test_flood_flows.py", "tests/adapters/test_escaping.py",
           "tests/test_authors.py", "tests/adapters/test_detect.py", "tests/adapters/test_capabilities.py",
           "tests/adapters/test_mybbru_flows.py", "tests/test_parse_inflected.py", "tests/adapters/test_flaskbb.py")


def _workers(config) -> int:  # type: ignore[no-untyped-def]
    count = os.environ.get("PYTEST_XDIST_WORKER_COUNT") or getattr(config.option, "numprocesses", None)
    try:
        return max(1, int(count))
    except (TypeError, ValueError):
        return os.cpu_count() or 1


def _run_year_ahead_once(config, items) -> None:  # type: ignore[no-untyped-def]
    """A run holding the year-ahead shards where faketime can move their clock leaves to them the modules they
    run (clock_reach.year_ahead_modules): each test runs once, a year ahead, instead of twice (issue 28: the
    suite is bound by the CPU). Anywhere else (some modules asked for, no faketime) the modules run here, today;
    also in a run filtered by `-k` or `-m`, which this hook runs before (it must: the groups below) and which
    may leave the shards out."""
    if shutil.which("faketime") is None or config.option.keyword or config.option.markexpr \
            or not any(i.nodeid.startswith(YEAR_AHEAD) for i in items):
        return
    ahead = set(year_ahead_modules())
    gone = [i for i in items if i.nodeid.split("::", 1)[0] in ahead]
    if gone:
        config.hook.pytest_deselected(items=gone)
        items[:] = [i for i in items if i.nodeid.split("::", 1)[0] not in ahead]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """Keep each live board's (or live module's) tests on one xdist worker, where the board is built once, and
    hand the live groups out first, longest first, each with a filler behind it (see LONGEST_FIRST). First of
    the hooks: xdist's own (registered on a worker before this conftest is loaded, so called after it
    otherwise) turns the `xdist_group` marks into the node-id suffix `--dist loadgroup` schedules by; marks
    added after it were ignored, each module was its own group, and two modules on one board built it twice on
    the same ports when they ran at once."""
    _run_year_ahead_once(config, items)
    groups: dict[int, str] = {}
    for item in items:
        marker = item.get_closest_marker("xdist_group")
        if item.get_closest_marker("live") is None and (marker is None or marker.args[0] not in LONGEST_FIRST):
            continue  # a unit test; the emulator games (tests/emulators) are handed out among the long ones
        if marker is not None:
            groups[id(item)] = marker.args[0] if marker.args else marker.kwargs.get("name", "")
            continue
        wanted = [f for f in getattr(item, "fixturenames", ()) if f in BOARD_SPECS or f == "flaskbb"]
        groups[id(item)] = wanted[0] if wanted else item.module.__name__
        item.add_marker(pytest.mark.xdist_group(groups[id(item)]))

    workers = _workers(config)
    present = [g for g in LONGEST_FIRST if g in set(groups.values())]
    first, later = present[:workers], present[workers:]
    modules: dict[str, int] = {}
    for item in items:
        if id(item) not in groups:
            path = item.nodeid.split("::", 1)[0]
            modules[path] = modules.get(path, 0) + 1
    fillers = [m for m in FILLERS if modules.get(m, 0) >= 3]
    fillers += [m for m, n in modules.items() if n >= 3 and m not in fillers]
    fillers = fillers[:len(first)] if later else []

    def rank(item) -> tuple[int, int, bool]:  # type: ignore[no-untyped-def]
        group = groups.get(id(item))
        if group is None:
            path = item.nodeid.split("::", 1)[0]
            return (1, fillers.index(path), False) if path in fillers else (3, 0, False)
        # `group_last`: after the group's other tests (a handshake leaves PMs a game starting after it would read)
        last = item.get_closest_marker("group_last") is not None
        if group in first:
            return 0, first.index(group), last
        if group in later:
            return 2, later.index(group), last
        return 4, 0, last  # the short live modules, after the unit tests

    items.sort(key=rank)  # stable: each group's and module's tests keep their order


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):  # type: ignore[no-untyped-def]
    """On an xdist worker, fail a live test before its board is built if the groups did not take: pytest 9.2
    keeps node ids where xdist 3.8's `item._nodeid` suffix no longer reaches, so `--dist loadgroup` hands out
    each test alone, two workers build one board on the same ports, and the tests fail as races ("port ... is
    taken") instead of saying this."""
    if getattr(item.config.option, "loadgroup", False) and item.get_closest_marker("live") is not None \
            and "@" not in item.nodeid:
        pytest.fail(f"pytest-xdist's --dist loadgroup did not group the live tests: pytest {pytest.__version__} "
                    "with this pytest-xdist drops the groups; install the versions pyproject.toml names "
                    "(python3 -m pip install -e '.[test]'), or run them with -n 0", pytrace=False)


def _start_board(name: str, tmp_path_factory):  # type: ignore[no-untyped-def]
    if os.environ.get("FORUMBOT_SKIP_LIVE"):
        pytest.skip("live forum tests: FORUMBOT_SKIP_LIVE is set")
    engine, knobs, shift = BOARD_SPECS[name]
    folder = tmp_path_factory.mktemp(name)
    if name in ON_A_SHARED_CLOCK:
        library = libfaketime()
        if library is None:
            unavailable("libfaketime is not installed (Debian package libfaketime; .ci/provision installs faketime)")
        knobs = {**knobs, **SharedClock.started(folder / "clock").board_knobs(library)}
    board = built_board(engine, folder, knobs, shift)
    if name in EXACT_TIMES:
        board.show_the_bot_seconds()
    print(f"\n{name} up at {board.base_url} in {board.build_seconds:.0f} s")
    return board


def _board_fixture(name: str):  # type: ignore[no-untyped-def]
    @pytest.fixture(scope="session", name=name)
    def fixture(tmp_path_factory):  # type: ignore[no-untyped-def]
        board = _start_board(name, tmp_path_factory)
        yield board
        board.stop()
    return fixture


for _name in BOARD_SPECS:
    globals()[f"_{_name}"] = _board_fixture(_name)
