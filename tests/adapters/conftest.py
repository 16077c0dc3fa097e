"""pytest fixtures for adapter tests: a fake clock and `responses` for HTTP (nothing reaches the network)."""

from __future__ import annotations

import pytest
import responses

from adapters_support import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def http():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield mock
