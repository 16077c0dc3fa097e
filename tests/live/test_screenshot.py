"""Issue 17 item 3: the live games save screenshots of what the players saw, for a person to look at; Chromium is
installed by .ci/provision, and under FORUMBOT_REQUIRE_LIVE=1 (CI) a screenshot that cannot be taken fails the
test instead of passing it with a line nobody reads. A page served on 127.0.0.1 by the test itself."""

from __future__ import annotations

import http.server
import shutil
import threading
from pathlib import Path

import pytest

from livegame import screenshot

pytestmark = pytest.mark.live

PAGE = "<!DOCTYPE html><html lang='ru'><head><meta charset='utf-8'></head><body><h1>Наступил день 1</h1></body></html>"


@pytest.fixture
def page_url(tmp_path):
    (tmp_path / "www").mkdir()
    (tmp_path / "www" / "index.html").write_text(PAGE, encoding="utf-8")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            super().__init__(*args, directory=str(tmp_path / "www"), **kwargs)

        def log_message(self, *args):  # type: ignore[no-untyped-def]
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()
    server.server_close()


def test_a_screenshot_of_a_page_is_a_png(page_url, tmp_path, monkeypatch):
    monkeypatch.setenv("FORUMBOT_REQUIRE_LIVE", "1")  # Chromium is provisioned: a failure here fails
    shot = screenshot(page_url, tmp_path / "day1.png", tmp_path / "profile", size="800,600")
    assert shot == tmp_path / "day1.png"
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000  # a rendered page, not an empty canvas
    assert shutil.which("chromium") is not None


@pytest.mark.parametrize("chromium", ["forumbot-no-such-chromium", "false"], ids=["missing", "failing"])
def test_a_screenshot_that_cannot_be_taken_fails_under_require_live(page_url, tmp_path, monkeypatch, capsys,
                                                                     chromium):
    monkeypatch.setenv("FORUMBOT_REQUIRE_LIVE", "1")
    with pytest.raises(pytest.fail.Exception, match="no screenshot of http://127.0.0.1:"):
        screenshot(page_url, tmp_path / "x.png", tmp_path / "profile", chromium=chromium)
    monkeypatch.setenv("FORUMBOT_REQUIRE_LIVE", "0")
    assert screenshot(page_url, tmp_path / "x.png", tmp_path / "profile", chromium=chromium) is None
    assert "no screenshot of" in capsys.readouterr().out
    assert not Path(tmp_path / "x.png").exists()
