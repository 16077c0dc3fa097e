"""`forumbot serve` keeps the dashboard private by construction (issue 26 item 1): it exists only with
FORUMBOT_DASHBOARD_TOKEN set, and only a request that presents the token sees it, whatever address or proxy headers
the request carries. Each test starts the real command (a real waitress server on 127.0.0.1, a free port) and asks
it with real HTTP requests: behind Caddy or nginx every client is 127.0.0.1 and waitress strips X-Forwarded-For
before the app sees it, so a test that calls the WSGI app directly cannot show this."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
import requests

sys.path.insert(0, str(Path(__file__).parents[1] / "daemon"))
from daemon_world import config_toml, fresh_sqlite, game_toml  # noqa: E402

HANG_GUARD = 900  # seconds: catches a hung process or socket, never measures the machine (issue 28 item 1)

TOKEN = "k3Zq-7pD_x0aLr9T2mWvYs4e"
PROXY_HEADERS = [{"X-Forwarded-For": "203.0.113.5"}, {"Forwarded": "for=203.0.113.5;proto=https"},
                 {"X-Real-IP": "203.0.113.5"},
                 {"X-Forwarded-For": "127.0.0.1", "Forwarded": "for=127.0.0.1", "X-Real-IP": "127.0.0.1"}]
DASHBOARD_WORDS = b'"games"'  # what the dashboard's JSON always holds


class Served:
    def __init__(self, proc: subprocess.Popen[str], base: str, first_line: str) -> None:
        self.proc, self.base, self.first_line = proc, base, first_line

    def stop(self) -> str:
        """Ends the server and gives everything it printed."""
        return self.first_line + _stop(self.proc)

    def get(self, path: str, **headers: str) -> requests.Response:
        return requests.get(self.base + path, headers=headers, timeout=HANG_GUARD, allow_redirects=False)

    def raw(self, target: str) -> bytes:
        """A request line sent as written (requests would normalise the dots away before sending)."""
        host, port = self.base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=HANG_GUARD) as s:
            s.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            chunks = []
            while chunk := s.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks)


def _stop(proc: subprocess.Popen[str]) -> str:
    if proc.poll() is None:
        proc.terminate()
    proc.wait(timeout=HANG_GUARD)
    # read through the pipes' own buffers (communicate() would skip what readline() already buffered)
    return "".join(stream.read() for stream in (proc.stdout, proc.stderr) if stream)


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "g1").mkdir(parents=True)
    (site / "g1" / "index.html").write_text("<p>g1</p>", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret outside the folder", encoding="utf-8")
    fresh_sqlite(tmp_path / "forumbot.db")
    extra = '[pages]\nfolder = "site"\nurl = "https://mafia.example.org/"\n'
    (tmp_path / "forumbot.toml").write_text(
        config_toml(game_toml("g1"), database=f"sqlite:///{tmp_path / 'forumbot.db'}", extra=extra), encoding="utf-8")
    return site


def _serve(tmp_path: Path, token: str | None) -> Iterator[Served]:
    env = {k: v for k, v in os.environ.items() if k != "FORUMBOT_DASHBOARD_TOKEN"}
    if token is not None:
        env["FORUMBOT_DASHBOARD_TOKEN"] = token
    proc = subprocess.Popen([sys.executable, "-m", "forumbot", "serve", "-c", str(tmp_path / "forumbot.toml"),
                             "--port", "0"], env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        first = proc.stdout.readline() if proc.stdout else ""  # printed once the socket listens
        assert first.startswith("serving "), (first, proc.stderr.read() if proc.stderr else "")
        base = first.rsplit(" on ", 1)[1].strip().rstrip("/")
        host, port = base.removeprefix("http://").split(":")
        socket.create_connection((host, int(port)), timeout=HANG_GUARD).close()  # it accepts connections
        served = Served(proc, base, first)
        yield served
    finally:
        _stop(proc)


@pytest.fixture
def without_token(tmp_path: Path) -> Iterator[Served]:
    _site(tmp_path)
    yield from _serve(tmp_path, None)


@pytest.fixture
def with_token(tmp_path: Path) -> Iterator[Served]:
    _site(tmp_path)
    yield from _serve(tmp_path, TOKEN)


def _missing(r: requests.Response) -> None:
    assert r.status_code == 404 and DASHBOARD_WORDS not in r.content, (r.status_code, r.content[:200])
    assert r.headers["Cache-Control"] == "no-store"


def test_without_a_token_the_dashboard_does_not_exist(without_token: Served) -> None:
    """Today a loopback client, and so every client behind a proxy, gets the JSON; now no one does."""
    served = without_token
    missing_file = served.get("/no-such-file.html")
    for headers in [{}, *PROXY_HEADERS, {"Authorization": "Bearer "}, {"Authorization": "Bearer anything"}]:
        r = served.get("/_dashboard", **headers)
        _missing(r)
        assert (r.status_code, r.content) == (missing_file.status_code, missing_file.content)
        _missing(served.get("/_dashboard/", **headers))
    assert served.get("/g1/").content == b"<p>g1</p>"  # the public pages are served as before
    assert "dashboard: off" in served.stop()


def test_with_a_token_only_a_request_presenting_it_sees_the_dashboard(with_token: Served) -> None:
    served = with_token
    for headers in [{}, *PROXY_HEADERS]:
        _missing(served.get("/_dashboard", **headers))
    for wrong in [f"Bearer {TOKEN[:-1]}", f"Bearer {TOKEN}x", f"Basic {TOKEN}", TOKEN, "Bearer",
                  f"Bearer  {TOKEN[1:]}"]:
        _missing(served.get("/_dashboard", Authorization=wrong))
    # a token in the query string is not one: it would be written into access logs and browser history
    _missing(served.get(f"/_dashboard?token={TOKEN}"))
    for headers in [{}, *PROXY_HEADERS]:
        r = served.get("/_dashboard", Authorization=f"Bearer {TOKEN}", **headers)
        assert r.status_code == 200 and "<h1>Панель ведущего</h1>" in r.text and "Игр нет." in r.text  # issue 28 item 14
        assert r.headers["Cache-Control"] == "no-store" and r.headers["Content-Type"].startswith("text/html")
        r = served.get("/_dashboard.json", Authorization=f"Bearer {TOKEN}", **headers)  # the same as data
        assert r.status_code == 200 and r.json()["games"] == [] and r.headers["Cache-Control"] == "no-store"
    _missing(served.get("/_dashboard.json"))
    assert served.get("/_dashboard", Authorization=f"bearer {TOKEN}").status_code == 200
    printed = served.stop()
    assert "dashboard: /_dashboard" in printed and TOKEN not in printed  # the token is never printed


def test_the_static_files_stay_inside_the_folder(with_token: Served) -> None:
    served = with_token
    assert served.get("/g1/").content == b"<p>g1</p>"
    for target in ["/../secret.txt", "/%2e%2e/secret.txt", "/g1/../../secret.txt", "/g1/%2e%2e/%2e%2e/secret.txt",
                   "/%2e%2e%2fsecret.txt", "/..%2f..%2fsecret.txt", "//etc/passwd", "/_dashboard/../../secret.txt"]:
        answer = served.raw(target)
        assert answer.startswith(b"HTTP/1.1 404") and b"secret outside" not in answer, (target, answer[:100])
    _missing(served.get("/%2e%2e/secret.txt", Authorization=f"Bearer {TOKEN}"))


def test_a_short_token_is_refused_at_start(tmp_path: Path) -> None:
    _site(tmp_path)
    env = {**os.environ, "FORUMBOT_DASHBOARD_TOKEN": "hunter2"}
    done = subprocess.run([sys.executable, "-m", "forumbot", "serve", "-c", str(tmp_path / "forumbot.toml"),
                           "--port", "0"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 2 and done.stdout == ""
    assert "FORUMBOT_DASHBOARD_TOKEN is shorter than 16 characters" in done.stderr
    assert "hunter2" not in done.stderr and "Traceback" not in done.stderr
