"""`forumbot serve`: the site's folder read-only over HTTP (a WSGI app for waitress, the `serve` extra), on
127.0.0.1 by default; `/_dashboard` answers only a loopback client, or one that shows the token."""

from __future__ import annotations

import hmac
import ipaddress
import json
import mimetypes
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import parse_qs, unquote

TYPES = {".html": "text/html; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
         ".json": "application/json; charset=utf-8", ".csv": "text/csv; charset=utf-8",
         ".txt": "text/plain; charset=utf-8"}


def app(folder: Path, dashboard: Callable[[], dict[str, Any]] | None = None, token: str = ""):  # type: ignore[no-untyped-def]
    root = folder.resolve()

    def wsgi(environ: dict, start_response) -> Iterable[bytes]:  # type: ignore[no-untyped-def]
        method = environ.get("REQUEST_METHOD", "GET")
        if method not in ("GET", "HEAD"):
            return _answer(start_response, "405 Method Not Allowed", b"read-only\n", extra=[("Allow", "GET, HEAD")])
        path = unquote(environ.get("PATH_INFO", "/"))
        if path.rstrip("/") == "/_dashboard":
            if dashboard is None or not _may_see_dashboard(environ, token):
                return _answer(start_response, "403 Forbidden", b"the dashboard is for the GM's own machine\n")
            body = json.dumps(dashboard(), ensure_ascii=False, indent=1).encode()
            return _answer(start_response, "200 OK", body, "application/json; charset=utf-8", method,
                           extra=[("Cache-Control", "no-store")])
        target = (root / path.lstrip("/")).resolve()
        if target != root and root not in target.parents:
            return _answer(start_response, "404 Not Found", b"not found\n")
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file() or any(part.startswith(".") for part in target.relative_to(root).parts[:-1]):
            return _answer(start_response, "404 Not Found", b"not found\n")
        kind = TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        return _answer(start_response, "200 OK", target.read_bytes(), kind, method)

    return wsgi


def _may_see_dashboard(environ: dict, token: str) -> bool:
    try:
        loopback = ipaddress.ip_address(environ.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        loopback = False
    if environ.get("HTTP_X_FORWARDED_FOR"):
        loopback = False  # behind a proxy every client looks local: only the token lets one in
    if not token:
        return loopback
    given = environ.get("HTTP_AUTHORIZATION", "").removeprefix("Bearer ").strip() or \
        (parse_qs(environ.get("QUERY_STRING", "")).get("token") or [""])[0]
    return loopback or hmac.compare_digest(given.encode(), token.encode())


def _answer(start_response, status: str, body: bytes, kind: str = "text/plain; charset=utf-8",  # type: ignore[no-untyped-def]
            method: str = "GET", extra: list[tuple[str, str]] | None = None) -> list[bytes]:
    headers = [("Content-Type", kind), ("Content-Length", str(len(body))), ("X-Content-Type-Options", "nosniff"),
               ("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:")]
    start_response(status, headers + (extra or []))
    return [] if method == "HEAD" else [body]
