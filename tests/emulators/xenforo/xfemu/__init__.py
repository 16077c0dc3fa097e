"""A XenForo 2.2 / 2.3 emulator: a small WSGI application on 127.0.0.1 that answers as ENGINES.md §12 says XF
does (its templates and controllers), with pages built on the real saved thread page's skeleton. It never reads
the adapter's code or profile: where the two disagree, the tests fail. See ../README.md."""

from xfemu.server import Emulator
from xfemu.state import Board

__all__ = ["Board", "Emulator"]
