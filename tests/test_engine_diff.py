"""The differential harness of issue 19 item 6: today's engine, copied aside (tests/difftest/old_engine, main at
08d156f), and the live `forumbot.game.run` fold the same games; the whole GameRun must agree.

Compared: every message (time, where, to, text, key), the result, the log, the phase, its opening and deadline,
the phases resolved (C-13), the late inputs (C-13), the GM commands with the game before and after (C-9) and the
day history. Games: every bundled transcript (forumbot/examples, fixtures/transcripts) at its own `until` and at
cut-offs inside it; and seeded random games of both variants (tests/test_properties.py's builder) with a GM mix
on top: `отмена` (C-9), `пауза`/`продолжить`, `продлить`, `голос`, `замена`, `модкилл` (C-10), and inputs read
after their phase was resolved (C-13).

Allowed differences, each with its clause: none. The new engine is to say and decide exactly what the old one did.
Delete this file and tests/difftest/ when the old engine is gone (issue 19 item 6).
"""

from __future__ import annotations

import dataclasses
import enum
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from difftest.old_engine import Engine as OldEngine
from forumbot import replay as replay_mod
from forumbot.game import run as new_run
from forumbot.model import GameSetup, Input, Where

from gamekit import START
from randomgames import random_game

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTS = sorted([*(ROOT / "forumbot" / "examples").glob("*.json"),
                      *(ROOT / "fixtures" / "transcripts").glob("*.json"),
                      *(ROOT / "fixtures" / "transcripts" / "real").glob("*.json")])
ALLOWED: dict[str, str] = {}  # field -> clause id that allows the two engines to differ there (none so far)


def plain(value: Any) -> Any:
    """A GameRun as nested tuples of plain values, so the old copy's DayRecord and the new one compare."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple((f.name, plain(getattr(value, f.name)))
                                               for f in dataclasses.fields(value))
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return tuple((plain(k), plain(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(plain(v) for v in value))
    return value


def compare(setup: GameSetup, inputs: list[Input], until: datetime | None) -> None:
    try:
        old = OldEngine(setup).run(list(inputs), until)
    except Exception as e:  # a setup the old engine refused: the new one refuses it with the same words
        with pytest.raises(type(e)) as new_error:
            new_run(setup, list(inputs), until)
        assert str(new_error.value) == str(e)
        return
    new = new_run(setup, list(inputs), until)
    for f in dataclasses.fields(old):
        if f.name in ALLOWED:
            continue
        a, b = plain(getattr(old, f.name)), plain(getattr(new, f.name))
        if a != b:
            if f.name == "messages":
                for n, (x, y) in enumerate(zip(a, b)):
                    assert x == y, f"message {n} differs"
            assert a == b, f"GameRun.{f.name} differs"


# --- every bundled transcript, as replay folds it ----------------------------------------------------------------

def _transcript_fold(path: Path) -> tuple[GameSetup, list[Input], datetime | None]:
    seen: list = []

    def capture(setup, inputs, until):  # type: ignore[no-untyped-def]
        seen.append((setup, list(inputs), until))
        return new_run(setup, inputs, until)

    kept = replay_mod.run
    replay_mod.run = capture  # type: ignore[assignment]
    try:
        replay_mod.replay(replay_mod.load(path))
    finally:
        replay_mod.run = kept  # type: ignore[assignment]
    return seen[0]


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_issue19_every_transcript_folds_alike_in_the_old_and_the_new_engine(path: Path) -> None:
    setup, inputs, until = _transcript_fold(path)
    compare(setup, inputs, until)
    times = sorted({i.at for i in inputs})
    for cut in times[:: max(1, len(times) // 4)]:  # cut-offs inside the game: the open phase, its counts
        compare(setup, inputs, cut + timedelta(minutes=7))


# --- seeded random games with a GM mix ---------------------------------------------------------------------------

RANDOM_GAMES = 120


@pytest.mark.parametrize("chunk", range(6))
def test_issue19_random_games_with_gm_commands_fold_alike(chunk: int) -> None:
    for n in range(chunk, RANDOM_GAMES, 6):
        setup, inputs, until = random_game(n)
        compare(setup, inputs, until)
        if n % 3 == 0:
            compare(setup, inputs, START + (until - START) / 2)


def test_issue19_the_harness_sees_a_difference() -> None:
    """The harness can fail: a game with one more vote is a different game."""
    setup, inputs, until = random_game(1)
    extra = Input(START + timedelta(hours=2), Where.VOTE, "М1", "М2", id="extra")
    with pytest.raises(AssertionError):
        old = OldEngine(setup).run(inputs, until)
        new = new_run(setup, inputs + [extra], until)
        assert plain(old.messages) == plain(new.messages)

