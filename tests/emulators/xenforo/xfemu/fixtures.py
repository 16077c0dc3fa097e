"""The conversation pages in fixtures/xenforo/ (E-*.html), as this emulator serves them: built to
conversation_list_macros / conversation_message_macros as ENGINES.md §12 reads them, on the real thread page's
skeleton. `python -m xfemu.fixtures` (from tests/emulators/xenforo) writes them again; a test checks the saved
ones are what the emulator serves."""

from __future__ import annotations

from pathlib import Path

import requests

from xfemu.server import Emulator
from xfemu.state import Board

FIXTURES = Path(__file__).resolve().parents[4] / "fixtures" / "xenforo"
AT = 1_796_119_200.0  # 2026-12-01 10:00 UTC
BOT = "МафБот"


def _board(version: str) -> Board:
    clock = [AT]
    board = Board(clock=lambda: clock[0], version=version)
    board.member(BOT)
    for name in ("Дон", "Шериф", "Кот Баюн"):
        board.member(name)
    role = board.start_conversation(BOT, ["Дон"], "Мафия: g1", "Ваша роль: дон мафии.\n\n#fb:1a2b3c4d", at=AT - 600)
    board.add_message(role.id, "Дон", "подтверждаю", at=AT - 300)
    board.add_message(role.id, "Дон", "[quote=МафБот]Ваша роль[/quote]убить Шериф", at=AT - 120)
    board.start_conversation("Шериф", [BOT], "Ход", "проверка Дон", at=AT - 60)
    board.start_conversation(BOT, ["Кот Баюн"], "Мафия: g1", "Ваша роль: мирный житель.\n\n#fb:5e6f7a8b", at=AT - 590)
    board.secret = "fixtures"
    return board


def render() -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for version, tag in (("2.2", "xf22"), ("2.3", "xf23")):
        board = _board(version)
        board.sessions["fixed"] = BOT
        with Emulator(board) as xf:
            s = requests.Session()
            s.cookies.set("xf_session", "fixed")
            s.cookies.set("xf_csrf", "fixedcsrf")
            route = "direct-messages" if version == "2.3" else "conversations"
            out[f"E-conversations-list-{tag}.html"] = s.get(f"{xf.root}{route}/").content
            out[f"E-conversation-view-{tag}.html"] = s.get(f"{xf.root}{route}/g1.301/").content
    return {k: v.replace(b"127.0.0.1", b"xf.test") for k, v in out.items()}


if __name__ == "__main__":
    for name, body in render().items():
        (FIXTURES / name).write_bytes(body)
        print(f"wrote {FIXTURES / name}")
