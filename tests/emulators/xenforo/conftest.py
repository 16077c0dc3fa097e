"""Fixtures of the XenForo emulator tests: a board served on 127.0.0.1 (port 0) per test, in each mode."""

from __future__ import annotations

import pytest

from xfemu import Emulator
from xfsupport import MODES, Clock, make_board


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=MODES, ids=[f"xf{v}-{'friendly' if f else 'plain'}" for v, f in MODES])
def xf(request, clock):
    version, friendly = request.param
    with Emulator(make_board(clock, version, friendly)) as emulator:
        yield emulator


@pytest.fixture
def xf22(clock):
    with Emulator(make_board(clock)) as emulator:
        yield emulator
