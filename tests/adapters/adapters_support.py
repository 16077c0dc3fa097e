"""Helpers for adapter tests: saved pages, a fake clock, form bodies."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl

from responses import matchers


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
PHPBB_URL = "http://127.0.0.1:8081/"
MYBB_URL = "http://127.0.0.1:8082/"
HTML = "text/html; charset=UTF-8"


def page(engine: str, name: str) -> bytes:
    return (FIXTURES / engine / name).read_bytes()


class FakeClock:
    """Wall-clock seconds that only move when someone sleeps: tests never wait."""

    def __init__(self, start: float = 1795953851.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds



def add_page(http, method: str, url, engine: str, name: str, status: int = 200, **kw) -> None:
    """Serve a saved page. A plain URL matches its query exactly (responses would otherwise let
    "private.php" answer "private.php?action=read" too)."""
    if isinstance(url, str):
        base, _, query = url.partition("?")
        kw.setdefault("match", [matchers.query_param_matcher(dict(parse_qsl(query)), strict_match=True)])
        url = base
    http.add(method, url, body=page(engine, name), status=status, content_type=HTML, **kw)


def form_body(call) -> dict[str, list[str]]:
    from urllib.parse import parse_qs

    body = call.request.body
    return parse_qs(body.decode() if isinstance(body, bytes) else body, keep_blank_values=True)
