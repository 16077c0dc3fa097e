"""`forumbot serve`: the site's folder read-only over HTTP (a WSGI app for waitress, the `serve` extra), on
127.0.0.1 by default. `/_dashboard` (a page in the GMs' language; `/_dashboard.json` the same as data) exists only with a token configured (FORUMBOT_DASHBOARD_TOKEN) and answers only
a request that presents it (`Authorization: Bearer TOKEN`); without it, it is a missing file like any other. The
client's address is never trusted: behind a reverse proxy every client is 127.0.0.1, and waitress strips the
proxy's headers before the app could tell (issue 26 item 1)."""

from __future__ import annotations

import hmac
import json
import mimetypes
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import unquote

from forumbot.pages.dashboard import to_html

TYPES = {".html": "text/html; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
         ".json": "application/json; charset=utf-8", ".csv": "text/csv; charset=utf-8",
         ".txt": "text/plain; charset=utf-8"}


def app(folder: Path, dashboard: Callable[[], dict[str, Any]] | None = None, token: str = ""):
    root = folder.resolve()

    def wsgi(environ: dict, start_response) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "GET")
        if method not in ("GET", "HEAD"):
            return _answer(start_response, "405 Method Not Allowed", b"read-only\n", extra=[("Allow", "GET, HEAD")])
        path = unquote(environ.get("PATH_INFO", "/"))
        if path.rstrip("/") in ("/_dashboard", "/_dashboard.json"):
            if dashboard is None or not _shows_token(environ, token):
                return _not_found(start_response, method)
            if path.rstrip("/").endswith(".json"):  # for a script; a GM's browser gets the page in his language
                body, kind = json.dumps(dashboard(), ensure_ascii=False, indent=1).encode(), TYPES[".json"]
            else:
                body, kind = to_html(dashboard()), TYPES[".html"]
            return _answer(start_response, "200 OK", body, kind, method, extra=[("Cache-Control", "no-store")])
        target = (root / path.lstrip("/")).resolve()
        if target != root and root not in target.parents:
            return _not_found(start_response, method)
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file() or any(part.startswith(".") for part in target.relative_to(root).parts[:-1]):
            return _not_found(start_response, method)
        kind = TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        return _answer(start_response, "200 OK", target.read_bytes(), kind, method)

    return wsgi


def _shows_token(environ: dict, token: str) -> bool:
    """Whether the request carries `Authorization: Bearer TOKEN` (the scheme's case is free, RFC 7235); no token
    configured lets no one in. Compared in constant time."""
    if not token:
        return False
    scheme, _, given = environ.get("HTTP_AUTHORIZATION", "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


def _not_found(start_response, method: str) -> list[bytes]:
    """Every missing file, and the dashboard to anyone without the token, get the same answer."""
    return _answer(start_response, "404 Not Found", b"not found\n", method=method,
                   extra=[("Cache-Control", "no-store")])


def _answer(start_response, status: str, body: bytes, kind: str = "text/plain; charset=utf-8",
            method: str = "GET", extra: list[tuple[str, str]] | None = None) -> list[bytes]:
    headers = [("Content-Type", kind), ("Content-Length", str(len(body))), ("X-Content-Type-Options", "nosniff"),
               ("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:")]
    start_response(status, headers + (extra or []))
    return [] if method == "HEAD" else [body]
