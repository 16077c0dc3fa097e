"""Cost of building a game's public pages: run `python bench/pages.py [--png]`.

A 30-player Moscow game with a house cast (R-10) over 10 days: every alive player votes, changes his vote,
and the day ends with no lynch; the mafia kill one a night. Prints the fold's CPU time and the build's (the
SVG pictures, pages, game.json and votes.csv; the PNGs too with --png). Issue 20 asks under 0.5 s CPU
without PNG."""

from __future__ import annotations

import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from forumbot.engine import draw_seats  # noqa: E402
from forumbot.engine.results import GameRun  # noqa: E402
from forumbot.game import run
from forumbot.model import GameSetup, Input, PlayerSpec, Role, Schedule, Where  # noqa: E402
from forumbot.pages.site import GamePages, build_game  # noqa: E402

START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone(timedelta(hours=3)))
DAY, NIGHT = timedelta(hours=24), timedelta(hours=12)
DAYS = 10


def game(nicks: list[str] | None = None) -> tuple[GameSetup, list[Input]]:
    """The game; `nicks` (30) replace the plain ones (tests/gamepages: hostile nicknames over 10 days)."""
    nicks = nicks or [f"Игрок {n:02d}" for n in range(1, 31)]
    setup = GameSetup("moscow", 5, Schedule(START, DAY, NIGHT, NIGHT, "Europe/Moscow"),
                      tuple(PlayerSpec(n) for n in nicks), "Бот", ("ГМ",), {"cast": {"mafia": 6}})
    roles = {sid: seat.role for sid, seat in draw_seats(setup).items()}
    mafia = [n for n in nicks if roles[n] in (Role.MAFIA, Role.DON)]
    town = [n for n in nicks if n not in mafia]
    inputs: list[Input] = []
    alive = list(nicks)
    for d in range(DAYS):
        opens = START + d * (DAY + NIGHT)
        for k, voter in enumerate(alive):
            first = alive[(k + 1) % len(alive)]
            inputs.append(Input(opens + timedelta(minutes=10 + k), Where.VOTE, voter, first, id=f"d{d}a{k}"))
            inputs.append(Input(opens + timedelta(hours=5, minutes=k), Where.VOTE, voter, "ннв", id=f"d{d}b{k}"))
        victim = next(n for n in town if n in alive)
        for m in mafia:
            inputs.append(Input(opens + DAY + timedelta(hours=1), Where.PM, m, f"убить {victim}", id=f"n{d}{m}"))
        alive.remove(victim)
    return setup, inputs


def main() -> None:
    png = "--png" in sys.argv
    setup, inputs = game()
    t0 = time.process_time()
    result: GameRun = run(setup, inputs, START + DAYS * (DAY + NIGHT) - timedelta(hours=1))
    fold = time.process_time() - t0
    days = sum(1 for r in result.history if r.closed is not None)
    t0 = time.process_time()
    files = build_game(GamePages("bench", setup, result, png=png))
    build = time.process_time() - t0
    size = sum(len(b) for b in files.values())
    print(f"30 players, {days} days resolved, {sum(len(r.posts) for r in result.history)} vote posts")
    print(f"fold: {fold:.3f} s CPU; build{' with PNG' if png else ''}: {build:.3f} s CPU, "
          f"{len(files)} files, {size // 1024} KiB")


if __name__ == "__main__":
    main()
