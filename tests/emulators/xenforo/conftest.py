"""Fixtures of the XenForo emulator tests: a board served on 127.0.0.1 (port 0) per test, in each mode."""

from __future__ import annotations

import pytest

from xfemu import Board, Emulator

BOT, PASSWORD = "МафБот", "секрет-бота"
START = 1_800_000_000.0  # 2027-01-15: a fixed game clock, never the wall clock


class Clock:
    """Unix seconds shared by the board and the adapter; the adapter's sleeps move it (no wall-clock wait)."""

    def __init__(self) -> None:
        self.now = START
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


MODES = [("2.2", True), ("2.3", True), ("2.2", False), ("2.3", False)]


@pytest.fixture
def clock() -> Clock:
    return Clock()


def make_board(clock: Clock, version: str = "2.2", friendly: bool = True) -> Board:
    board = Board(clock=clock, version=version, friendly=friendly)
    board.member(BOT, PASSWORD)
    for name in ("ГМ", "Дон", "Шериф", "Маф1", "Кот Баюн"):
        board.member(name)
    board.thread("Мафия 1: игра", "mafiya-1-igra", "ГМ", "Тема открыта.", at=START - 3600)
    return board


@pytest.fixture(params=MODES, ids=[f"xf{v}-{'friendly' if f else 'plain'}" for v, f in MODES])
def xf(request, clock):
    version, friendly = request.param
    with Emulator(make_board(clock, version, friendly)) as emulator:
        yield emulator


@pytest.fixture
def xf22(clock):
    with Emulator(make_board(clock)) as emulator:
        yield emulator
