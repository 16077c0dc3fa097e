"""What the XenForo emulator tests share: the bot's account, a clock the adapter's sleeps move, a board."""

from __future__ import annotations

from xfemu import Board

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


def make_board(clock: Clock, version: str = "2.2", friendly: bool = True) -> Board:
    board = Board(clock=clock, version=version, friendly=friendly)
    board.member(BOT, PASSWORD)
    for name in ("ГМ", "Дон", "Шериф", "Маф1", "Кот Баюн"):
        board.member(name)
    board.thread("Мафия 1: игра", "mafiya-1-igra", "ГМ", "Тема открыта.", at=START - 3600)
    return board
