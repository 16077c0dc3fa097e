"""Requests per `forumbot tick` on live phpBB and MyBB boards (issue 8 item 5): run `python bench/live_requests.py`.

Builds the boards with tests/live/boards.py (or reuses those in --board-dir/<engine>, started again if stopped),
plays a game that stays in Setup (it starts in two hours, so the bot posts and sends only in its first tick)
through real `forumbot tick` processes, and counts the requests of each tick in the board's own server log.
Prints, per engine:
1. an idle tick (mean of --idle ticks), and what it was before issue 8 (the inbox read every tick: one more);
2. a tick after new posts that fill the last page and open the next one;
3. a tick after N PMs (N = 1, 5, 10) from a member in no game, split into reading (threads, inbox, each PM) and
   deleting the PMs the previous inbox read stored (phpBB 2 requests, MyBB 3, whatever their number);
4. the same for a naive reader that reads both threads whole every tick, and the inbox and each new PM: its
   thread requests are counted on the board (the bot's own adapter reading from page 1), its inbox and PM
   requests added (1 + N: reading them would mark them read under the bot's feet).
The game thread is padded first with --pad posts, so the naive reader has pages to read.

Ports: the engines' defaults moved by FORUMBOT_BOARD_PORT_OFFSET and --port-shift (as the live tests move them).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "live")]

from boards import Board, BoardBuild, boards_folder, load_env, ports  # noqa: E402
from livegame import LiveGame  # noqa: E402

KNOBS = {"phpbb": {"FLOOD": "1"}, "mybb": {"POST_FLOOD": "2", "PM_FLOOD": "2", "MIN_MSG": "1"}}
GAMES = {  # MyBB's board seats 12 players, more than a Moscow game
    "phpbb": ("moscow", {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia", "Шарик": "mafia"},
              {"post": 1.2, "pm": 1.2}),
    "mybb": ("free_hunt", {"Lucky_Strike": "mafia", "Kolya_95": "mafia", "Мурзик": "mafia", "Наташа": "doctor",
                           "Старый Мельник": "maniac"}, {"post": 3, "pm": 3}),
}
DELETING = {"phpbb": ("POST /ucp.php",), "mybb": ("POST /private.php", "GET /private.php?fid=4")}


def board_for(engine: str, folder: Path, shift: int) -> tuple[Board, bool]:
    """The board in `folder` (started if stopped), else a fresh one built there; and whether we started it."""
    env_file = folder / "board" / "board.env"
    if env_file.exists():
        script_env = {**os.environ, **ports(engine, shift), **KNOBS[engine], "BOARD_DIR": str(folder / "board")}
        board = Board(engine, folder / "board", script_env, 0.0)
        status = subprocess.run([str(boards_folder() / f"{engine}.sh"), "status"], env=script_env,
                                capture_output=True)
        if status.returncode == 0:
            return board, False
        board.script("start")
        return board, True
    build = BoardBuild(engine, folder, KNOBS[engine], shift)
    return build.wait(), True


def tick(board: Board, game: LiveGame) -> list[str]:
    mark = board.requests_logged()
    game.tick()
    return board.requests_served(mark)


def naive_threads(board: Board, game: LiveGame, reader) -> int:  # type: ignore[no-untyped-def]
    """Requests to read both threads whole, from page 1, as a reader keeping no cursor does every tick."""
    mark = board.requests_logged()
    for topic in (game.game_topic, game.vote_topic):
        reader.fetch_posts(topic, None)
    return board.requests_logged() - mark


def fill_past_page(board: Board, game: LiveGame, extra: int = 0) -> None:
    """Post in the game thread until its last page is full and the next one opened (plus `extra` posts first)."""
    gm = board.member(board.gm)
    posts = gm.posts(game.game_topic)
    per_page = int(board.env.get("PER_PAGE", "10"))
    total = len(posts) + extra
    new = extra + (per_page - total % per_page + 1 if total % per_page else 1)
    writers = [board.member(n) for n in board.players[4:7] if n != posts[-1].author][:2]
    for i in range(new):  # two writers in turn: MyBB merges a member's post into his own just before it
        writers[i % 2].reply(game.game_topic, f"болтовня {i} {uuid.uuid4().hex[:6]}")


def bench(engine: str, folder: Path, shift: int, idle_ticks: int, pad: int) -> None:
    from adapters.mybb.forum import MybbForum
    from adapters.phpbb.forum import PhpbbForum

    board, started = board_for(engine, folder, shift)
    try:
        variant, roles, intervals = GAMES[engine]
        tmp = Path(tempfile.mkdtemp(prefix=f"forumbot-bench-{engine}-"))
        game = LiveGame(board, tmp, "bench", variant, roles, intervals)
        reader = (PhpbbForum if engine == "phpbb" else MybbForum)(
            board.base_url, board.bot, board.password, timezone_name="Europe/Moscow")
        reader.login()
        fill_past_page(board, game, extra=pad)
        first = tick(board, game)
        tick(board, game)  # its own first post may have opened a page
        idle = [len(tick(board, game)) for _ in range(idle_ticks)]
        naive_idle = naive_threads(board, game, reader) + 1
        print(f"{engine} {board.base_url}: game thread {len(board.member(board.gm).posts(game.game_topic))} posts")
        print(f"  first tick (login, threads whole, inbox, player list, role PMs): {len(first)} requests, "
              f"{sum(r.startswith('POST') for r in first)} of them POSTs")
        print(f"  idle tick: {sum(idle) / len(idle):.1f} requests (each: {idle}); before issue 8: "
              f"{sum(idle) / len(idle) + 1:.1f}; naive whole-thread reader: {naive_idle}")
        fill_past_page(board, game)
        crossing = len(tick(board, game))
        print(f"  tick after new posts across a page boundary: {crossing} requests; naive: "
              f"{naive_threads(board, game, reader) + 1}")
        admin = board.member(board.admin)
        for n in (1, 5, 10):
            for i in range(n):
                admin.pm(board.bot, f"письмо {n}.{i}", f"просто письмо {uuid.uuid4().hex[:8]}")
            got = tick(board, game)
            deleting = [r for r in got if r.startswith(DELETING[engine])]
            after = len(tick(board, game))
            print(f"  tick with {n} PM(s): {len(got)} requests = {len(got) - len(deleting)} reading + "
                  f"{len(deleting)} deleting the PMs stored before; the tick after: {after}; "
                  f"naive: {naive_threads(board, game, reader) + 1 + n} + the same deleting")
    finally:
        if started:
            board.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engines", default="phpbb,mybb")
    parser.add_argument("--board-dir", type=Path, help="reuse (or build) the boards in DIR/<engine>")
    parser.add_argument("--port-shift", type=int, default=0)
    parser.add_argument("--idle", type=int, default=5, help="idle ticks to average")
    parser.add_argument("--pad", type=int, default=20, help="posts added to the game thread first")
    args = parser.parse_args()
    root = args.board_dir or Path(tempfile.mkdtemp(prefix="forumbot-bench-boards-"))
    for engine in args.engines.split(","):
        t = time.monotonic()
        bench(engine, root / engine, args.port_shift, args.idle, args.pad)
        print(f"  ({time.monotonic() - t:.0f} s)")


if __name__ == "__main__":
    main()
