"""The emulator served on 127.0.0.1, port 0 (an ephemeral port), from a thread of the test process."""

from __future__ import annotations

import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from xfemu.app import BASE, App
from xfemu.state import Board

# how often the server's loop looks for a stop (tests/emulators/board.py's STOP_POLL says why: not the default 0.5 s)
STOP_POLL = 0.02


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class Emulator:
    """`with Emulator(board) as xf:` serves `board` at `xf.base_url` (friendly or `index.php?` as the board is)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.server = make_server("127.0.0.1", 0, App(board), server_class=_Server, handler_class=_Quiet)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(STOP_POLL,), daemon=True)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}{BASE}"

    @property
    def base_url(self) -> str:
        return self.root if self.board.friendly else self.root + "index.php?"

    def __enter__(self) -> "Emulator":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
