"""Issue 7 item 4: a Cyrillic bot login must not crash every online command.

The User-Agent is built from the login; http.client sends headers as latin-1, so a Cyrillic login raised
UnicodeEncodeError before any byte left. `responses` replaces the socket layer and would hide that, so these
tests send real requests to a small server on 127.0.0.1.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

import pytest

from adapters.phpbb.forum import PhpbbForum
from forumbot.forum.transport import Transport
from forumbot.forum.transport_settings import header_value, user_agent_for

LOGIN = "МафБот"  # the example login of the config template is Cyrillic too


class _Recorder(BaseHTTPRequestHandler):
    seen: list[dict[str, str]] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._answer()

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._answer()

    def _answer(self) -> None:
        # raw header bytes as sent: http.server decodes them as latin-1
        type(self).seen.append({k: v for k, v in self.headers.items()} | {"_path": self.path})
        body = b"<html><body>ok</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server():
    _Recorder.seen = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/", _Recorder.seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_cyrillic_login_reaches_the_forum_with_an_ascii_user_agent(server):
    """issue 7 item 4: the request goes out; the UA names the login percent-encoded, in ASCII."""
    url, seen = server
    Transport(url, bot=LOGIN, retries=0).get("index.php")
    agent = seen[0]["User-Agent"]
    assert agent.isascii() and unquote(agent).endswith(f"account {LOGIN})")


def test_user_agent_is_the_same_in_every_process(server):
    """issue 7 item 4: phpBB ties a session to the browser string, so the UA of the next cron tick (a new
    Transport) must be the one the session was opened with."""
    url, seen = server
    Transport(url, bot=LOGIN, retries=0).get("a")
    Transport(url, bot=LOGIN, retries=0).get("a")
    assert seen[0]["User-Agent"] == seen[1]["User-Agent"] == user_agent_for(LOGIN)


def test_phpbb_adapter_with_a_cyrillic_login_makes_requests(server):
    """issue 7 item 4: what crashed every online command: the adapter's first request."""
    url, seen = server
    forum = PhpbbForum(url, LOGIN, "pw", retries=0)
    page = forum.transport.get(forum.url("login"))
    assert page.status == 200 and seen[0]["User-Agent"].isascii()


def test_a_header_set_after_construction_cannot_crash_a_request(server):
    """issue 7 item 4: Discourse sets Api-Username (the login) on the session itself; it goes out as the
    name's UTF-8 bytes, as a browser would send them, instead of raising UnicodeEncodeError."""
    url, seen = server
    t = Transport(url, bot="gm_bot", retries=0)
    t.session.headers["Api-Username"] = LOGIN
    t.get("a", headers={"X-Name": LOGIN})
    assert seen[0]["Api-Username"].encode("latin-1").decode("utf-8") == LOGIN
    assert seen[0]["X-Name"].encode("latin-1").decode("utf-8") == LOGIN


def test_a_configured_user_agent_is_made_sendable_too(server):
    url, seen = server
    Transport(url, user_agent=f"Бот {LOGIN}", retries=0).get("a")
    assert seen[0]["User-Agent"].encode("latin-1").decode("utf-8") == f"Бот {LOGIN}"


def test_cyrillic_login_in_a_windows_1251_form_is_sent_in_the_page_charset(server):
    """issue 7 item 4: the login reaches the forum in a form body, encoded as the page declares."""
    url, seen = server
    t = Transport(url, bot=LOGIN, retries=0)
    t.post_form("ucp.php?mode=login", [("username", LOGIN)], charset="windows-1251")
    assert seen[0]["Content-Type"] == "application/x-www-form-urlencoded; charset=windows-1251"


def test_header_value_keeps_latin1_text_and_comment_delimiters_are_escaped_in_the_ua():
    assert header_value("gm_bot") == "gm_bot" and header_value("José") == "José"
    assert "(" not in user_agent_for("a(b)c").split("account ")[1].rstrip(")")
    assert user_agent_for("gm_bot").endswith("account gm_bot)")
