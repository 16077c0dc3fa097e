"""What the engine emulators share: a board's state (members, threads, posts, PMs, sessions, flood timers) and a
small WSGI server on 127.0.0.1, port 0, in a thread of the test process.

Each engine module (vbulletin.py, invision.py, mybbru.py) answers requests as ../shared/reference/ENGINES.md §12
and the saved pages in fixtures/ say that engine answers; nothing here is read from the adapters. Tests and
whole games drive the "other side" (players posting, editing, sending PMs) through `add_post`, `edit_post` and
`add_pm`, and read what the bot did through `posts_by` and `pms_from`.
"""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Callable, Iterable
from urllib.parse import parse_qsl, quote
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server
from socketserver import ThreadingMixIn

# How often the server's loop looks for a stop: socketserver's default, 0.5 s, was waited out by each stop() (the
# unit suite stops ~220 emulators: ~110 s of its wall time); a look costs microseconds.
STOP_POLL = 0.02


@dataclass
class Post:
    id: int
    tid: int
    author: str
    text: str
    at: float
    edited_at: float | None = None
    edited_by: str = ""


@dataclass
class PM:
    id: int
    author: str
    to: list[str]
    title: str
    text: str
    at: float
    conv: int = 0  # Invision: the conversation it belongs to
    read_by: set[str] = field(default_factory=set)
    deleted_by: set[str] = field(default_factory=set)


@dataclass
class Request:
    method: str
    path: str  # below the board's base, no leading slash
    query: dict[str, str]
    form: dict[str, str]
    cookies: dict[str, str]
    headers: dict[str, str]
    raw_query: str = ""


@dataclass
class Response:
    status: int
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)


STATUS = {200: "200 OK", 301: "301 Moved Permanently", 302: "302 Found", 303: "303 See Other",
          403: "403 Forbidden", 404: "404 Not Found", 429: "429 Too Many Requests"}


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args) -> None:  # no access log on the test's stderr
        pass


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # a client killed while its answer was on the way (a game's SIGKILLed tick) is no server error
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class Emulator:
    """One board. Subclasses set `charset`, `flood` (the engine's stock timers, seconds) and `handle`."""

    charset = "utf-8"
    flood: dict[str, float] = {}
    # whether the page the bot reads a PM's time from shows it only to the minute (an input then counts from the
    # minute's end, C-1)
    pm_time_to_the_minute = False

    def __init__(self, bot: str = "GM_Bot", password: str = "bot-pass-1", *,
                 clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.clock = clock
        self.users: dict[str, tuple[int, str]] = {}
        self.add_user(bot, password)
        self.threads: dict[int, str] = {}
        self.posts: list[Post] = []
        self.pms: list[PM] = []
        self.sessions: dict[str, str] = {}  # session cookie value -> member name
        self.last: dict[tuple[str, str], float] = {}  # (member, action) -> when the flood timer started
        self.moderated: set[str] = set()  # members whose replies wait for a moderator
        self.requests: list[tuple[str, str]] = []
        # called with each request and its answer once the board has acted on it, before the answer leaves
        # (emugame.EmuGame.tick_killed_on kills the tick process there)
        self.after_request: Callable[[Request, Response], None] | None = None
        self.flood = dict(type(self).flood)
        self._ids = {"post": 1000, "pm": 500, "conv": 200}
        self._lock = threading.RLock()
        self._server: _Server | None = None
        self.base = ""

    # --- state -------------------------------------------------------------------------------------------------

    def add_user(self, name: str, password: str = "pw") -> int:
        if name not in self.users:
            self.users[name] = (len(self.users) + 1, password)
        return self.users[name][0]

    def uid(self, name: str) -> int:
        return self.add_user(name)

    def member(self, name: str) -> str | None:
        """The member's name as stored, for a name as typed (engines compare case-insensitively)."""
        return next((n for n in self.users if n.casefold() == " ".join(name.split()).casefold()), None)

    def next_id(self, kind: str) -> int:
        self._ids[kind] += 1
        return self._ids[kind]

    def thread(self, tid: int, title: str, first_post_by: str | None = None, text: str = "") -> int:
        self.threads[tid] = title
        if first_post_by:
            self.add_post(tid, first_post_by, text or title)
        return tid

    def add_post(self, tid: int, author: str, text: str, at: float | None = None) -> Post:
        with self._lock:
            self.add_user(author)
            post = Post(self.next_id("post"), tid, author, text, self.clock() if at is None else at)
            self.posts.append(post)
            return post

    def edit_post(self, pid: int, text: str, by: str | None = None) -> Post:
        with self._lock:
            post = next(p for p in self.posts if p.id == pid)
            post.text, post.edited_at, post.edited_by = text, self.clock(), by or post.author
            return post

    def add_pm(self, author: str, to: Iterable[str], title: str, text: str, conv: int = 0) -> PM:
        with self._lock:
            self.add_user(author)
            pm = PM(self.next_id("pm"), author, list(to), title, text, self.clock(), conv)
            self.pms.append(pm)
            return pm

    def thread_posts(self, tid: int) -> list[Post]:
        return [p for p in self.posts if p.tid == tid]

    def posts_by(self, author: str, tid: int | None = None) -> list[Post]:
        return [p for p in self.posts if p.author == author and (tid is None or p.tid == tid)]

    def pms_from(self, author: str) -> list[PM]:
        return [m for m in self.pms if m.author == author]

    def inbox_of(self, name: str) -> list[PM]:
        return [m for m in self.pms if name in m.to and name not in m.deleted_by]

    # --- flood timers ----------------------------------------------------------------------------------------

    def flood_left(self, who: str, action: str) -> int:
        """Seconds `who` must still wait before `action` (0: allowed), by the engine's timer for it."""
        limit = self.flood.get(action, 0)
        since = self.last.get((who, action))
        if not limit or since is None:
            return 0
        left = since + limit - self.clock()
        return int(left) + 1 if left > 0 else 0

    def acted(self, who: str, action: str) -> None:
        self.last[(who, action)] = self.clock()

    # --- sessions ---------------------------------------------------------------------------------------------

    def new_session(self, name: str) -> str:
        sid = hashlib.sha1(f"{name}:{len(self.sessions)}:{self.clock()}".encode()).hexdigest()
        self.sessions[sid] = name
        return sid

    def who(self, req: Request, cookie: str) -> str | None:
        return self.sessions.get(req.cookies.get(cookie, ""))

    # --- HTTP -------------------------------------------------------------------------------------------------

    def serve(self) -> str:
        """Start on 127.0.0.1, an ephemeral port; the board's base URL."""
        self._server = make_server("127.0.0.1", 0, self, server_class=_Server, handler_class=_Quiet)
        threading.Thread(target=self._server.serve_forever, args=(STOP_POLL,), daemon=True).start()
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}/"
        return self.base

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> "Emulator":
        self.serve()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def __call__(self, environ, start_response):
        method = environ["REQUEST_METHOD"]
        path = environ.get("PATH_INFO", "").lstrip("/")
        # PATH_INFO is Latin-1 decoded bytes in WSGI
        path = path.encode("latin-1").decode("utf-8", "replace")
        raw = environ.get("QUERY_STRING", "")
        query = dict(parse_qsl(raw, keep_blank_values=True, encoding=self.charset))
        form: dict[str, str] = {}
        if method == "POST":
            size = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(size).decode("ascii", "replace")
            form = dict(parse_qsl(body, keep_blank_values=True, encoding=self.charset))
        jar = SimpleCookie()
        jar.load(environ.get("HTTP_COOKIE", ""))
        cookies = {k: v.value for k, v in jar.items()}
        headers = {k[5:].replace("_", "-").lower(): v for k, v in environ.items() if k.startswith("HTTP_")}
        req = Request(method, path, query, form, cookies, headers, raw)
        with self._lock:
            self.requests.append((method, path + ("?" + raw if raw else "")))
            resp = self.handle(req)
            if self.after_request is not None:
                self.after_request(req, resp)
        start_response(STATUS.get(resp.status, f"{resp.status} X"), [
            ("Content-Length", str(len(resp.body))), *resp.headers])
        return [resp.body]

    def handle(self, req: Request) -> Response:
        raise NotImplementedError

    # --- answers ----------------------------------------------------------------------------------------------

    def html(self, text: str, status: int = 200, headers: Iterable[tuple[str, str]] = ()) -> Response:
        return Response(status, text.encode(self.charset, "xmlcharrefreplace"),
                        [("Content-Type", f"text/html; charset={self.charset}"), *headers])

    def redirect(self, target: str, status: int = 302, headers: Iterable[tuple[str, str]] = ()) -> Response:
        target = target if "://" in target else self.base + target
        # a header is Latin-1: a slug's Cyrillic goes percent-encoded, as browsers send it
        return Response(status, b"", [("Location", quote(target, safe=":/?#&=%.-_~+;,")), *headers])

    def idle_requests_since(self, mark: int) -> list[tuple[str, str]]:
        return self.requests[mark:]
