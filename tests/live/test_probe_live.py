"""`forumbot probe` against a real FluxBB 1.5 board (../shared/boards/fluxbb.sh): logged in as the bot, with an
unread PM from the GM, it reads the game thread and the inbox and reports every selector matched, no problem,
exit 0 (issue 9 item 4). Selectors only an error, a captcha or a post's redirect page shows are not on those
pages; they are proven by tests/live/test_punbb_adapter.py. On the same board: its PHP serves the engine from
opcache (boards.let_opcache_cache).

Built on HTTP_PORT 18545 (+ FORUMBOT_BOARD_PORT_OFFSET) under a temporary folder; skips saying why when
../shared/boards or php is missing, and fails instead under FORUMBOT_REQUIRE_LIVE=1.
"""

from __future__ import annotations

import json
import os

import pytest
import requests

from adapters.punbb.forum import PunbbForum
from forumbot.cli.main import main
from forumbot.probe.board import probe
from boards import HANG_GUARD, own_board

pytestmark = pytest.mark.live

SHIFT = 400  # ports 18545 (+ FORUMBOT_BOARD_PORT_OFFSET)
# shown only by an error page, a captcha, a post's redirect page, the member list (an account looked up before a
# replacement): none is on a thread page or the inbox
# selectors of pages the probe does not open: an error, a captcha, a redirect, the members' search, and a reply
# preview's answer (only the handshake's reply step asks the board for one)
SITUATIONAL = {"selectors.error", "selectors.captcha", "selectors.redirect", "selectors.member_row",
               "selectors.member_search", "selectors.preview"}


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    with own_board("fluxbb", tmp_path_factory.mktemp("fluxbb-probe"), {"POST_FLOOD": "1"}, SHIFT) as built:
        yield built.env


def _adapter(board, name: str) -> PunbbForum:
    return PunbbForum(board["BASE_URL"], name, board["PASSWORD"], timezone_name="Europe/Moscow",
                      intervals={"post": 1.0, "pm": 1.0})


def test_probe_reports_every_selector_matched_on_the_live_board(board, tmp_path, capsys, monkeypatch):
    gm = _adapter(board, board["GM_NAME"])
    gm.login()
    gm.send_pm(board["BOT_NAME"], "Проба", "Бот, ты тут? [m:probe-1]")  # an unread dialogue in the bot's inbox

    report = probe(_adapter(board, board["BOT_NAME"]), board["GAME_TOPIC"], forum="main")
    assert report.problems == []
    assert report.detected == "punbb"
    missed = sorted(name for name, ok in report.selectors.items() if not ok)
    assert set(missed) <= SITUATIONAL, missed
    assert len(report.posts) == 25 and report.posts[0]["id"] == board["FIRST_POST"]
    assert report.posts[0]["author"] == board["GM_NAME"]
    assert any(p["edited_at"] for p in report.posts) and any(p["quote_stripped"] for p in report.posts)
    assert report.pagination["has_next"] is True and report.pagination["pages"] == 2
    assert report.inbox["unread"] >= 1

    config = tmp_path / "forumbot.toml"
    config.write_text(f'''
[forums.main]
engine = "adapters.punbb.forum:PunbbForum"
base_url = "{board["BASE_URL"]}"
login = "{board["BOT_NAME"]}"
password_env = "FORUMBOT_PROBE_PASSWORD"
timezone_name = "Europe/Moscow"

[games]
''', encoding="utf-8")
    monkeypatch.setenv("FORUMBOT_PROBE_PASSWORD", board["PASSWORD"])
    capsys.readouterr()
    code = main(["probe", "-c", str(config), "--json", board["GAME_TOPIC"]])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["problems"] == [] and out["engine_detected"] == "punbb"
    assert {n for n, ok in out["selectors"].items() if not ok} <= SITUATIONAL


def test_the_built_boards_scripts_are_served_from_phps_opcache(board):
    """The board's PHP is served from opcache once its sources have a real mtime (boards.SOURCES_MTIME): left at
    the tarball's 0, no page of it was ever cached and every request compiled the engine again (on phpBB 8 times the
    CPU). Asked of the board's own PHP server, through a probe script placed beside its index."""
    www = os.path.join(board["BOARD_DIR"], "www")
    with open(os.path.join(www, "forumbot_opcache_probe.php"), "w") as f:
        f.write("<?php header('Content-Type: text/plain'); "
                "echo json_encode(opcache_is_script_cached(__DIR__ . '/index.php'));\n")
    base = board["BASE_URL"].rstrip("/")
    for _ in range(2):  # the first request compiles and caches, the probe then asks
        assert requests.get(f"{base}/index.php", timeout=HANG_GUARD).status_code == 200
    assert requests.get(f"{base}/forumbot_opcache_probe.php", timeout=HANG_GUARD).json() is True
