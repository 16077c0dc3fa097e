"""The REST API (`/api/`, XF 2.1+) as xenforo.com/docs/dev/rest-api documents it (ENGINES.md §12): a key in
`XF-Api-Key` acting as its user, scopes per endpoint, JSON with ids and unix times, no CSRF, no flood check on
posts and conversation messages. Errors: `{"errors": [{"code", "message", "params"}]}`; the codes and wording of
a bad key and a missing scope are this emulator's guess (unverified), so the adapter must match them loosely."""

from __future__ import annotations

import json
import re
from typing import Any

from xfemu.state import PER_PAGE, Board, fold


def handle(board: Board, method: str, route: str, query: dict[str, str], form: list[tuple[str, str]],
           key: str | None) -> tuple[str, dict[str, Any]]:
    if key not in board.api_keys:
        return "401 Unauthorized", _error("api_key_not_found", "API key provided in request was not found.")
    user, scopes = board.api_keys[key]
    path = route[len("api/"):]
    for pattern, scope, fn in _ROUTES:
        m = re.fullmatch(pattern, f"{method} {path}")
        if m:
            if scope and scope not in scopes:
                return "403 Forbidden", _error("api_key_scope_missing",
                                               f"The API key does not have the scope {scope} this request needs.",
                                               scope=scope)
            return fn(board, user, m, query, form)
    return "404 Not Found", _error("endpoint_not_found", "The requested API endpoint could not be found.")


def _error(code: str, message: str, **params: Any) -> dict[str, Any]:
    return {"errors": [{"code": code, "message": message, "params": params}]}


def _pagination(items: list, query: dict[str, str]) -> tuple[list, dict[str, int]]:
    page = max(1, int(query.get("page", "1") or 1))
    last = max(1, -(-len(items) // PER_PAGE))
    return items[(page - 1) * PER_PAGE: page * PER_PAGE], {"current_page": page, "last_page": last,
                                                           "per_page": PER_PAGE, "shown": 0, "total": len(items)}


def _user(board: Board, name: str) -> dict[str, Any]:
    m = board.member(name)
    return {"user_id": m.id, "username": m.name}


def _post(board: Board, p, position: int) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return {"post_id": p.id, "thread_id": p.thread, "user_id": board.member(p.author).id, "username": p.author,
            "post_date": int(p.at), "message": p.text, "message_state": "visible" if p.approved else "moderated",
            "position": position, "last_edit_date": int(p.edited) if p.edited else 0}


def _me(board, user, m, query, form):  # type: ignore[no-untyped-def]
    return "200 OK", {"me": _user(board, user)}


def _thread_posts(board, user, m, query, form):  # type: ignore[no-untyped-def]
    tid = int(m.group(1))
    if tid not in board.threads:
        return "404 Not Found", _error("requested_thread_not_found", "The requested thread could not be found.")
    posts = board.visible_posts(tid)
    shown, pagination = _pagination(posts, query)
    start = (pagination["current_page"] - 1) * PER_PAGE
    return "200 OK", {"posts": [_post(board, p, start + i) for i, p in enumerate(shown)], "pagination": pagination}


def _one_post(board, user, m, query, form):  # type: ignore[no-untyped-def]
    p = board.posts.get(int(m.group(1)))
    if p is None:
        return "404 Not Found", _error("requested_post_not_found", "The requested post could not be found.")
    if p.deleted:  # canView false: noPermission (unverified: the API error's code and wording were not read)
        return "403 Forbidden", _error("no_permission", "You do not have permission to view this page or perform "
                                       "this action.")
    return "200 OK", {"post": _post(board, p, [x.id for x in board.visible_posts(p.thread)].index(p.id))}


def _add_post(board, user, m, query, form):  # type: ignore[no-untyped-def]
    data = dict(form)
    tid = int(data.get("thread_id", "0") or 0)
    if tid not in board.threads or not data.get("message", "").strip():
        return "400 Bad Request", _error("invalid_input", "Please enter a valid message.")
    queued = board.member(user).moderated or tid in board.moderated_threads
    p = board.add_post(tid, user, data["message"], approved=not queued)
    return "200 OK", {"success": True, "post": _post(board, p, len(board.threads[tid].posts) - 1)}


def _conversation(board: Board, c, user: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    last = board.messages[c.messages[-1]]
    return {"conversation_id": c.id, "title": c.title, "username": c.starter, "reply_count": len(c.messages) - 1,
            "recipients": {str(board.member(n).id): n for n in c.members}, "last_message_date": int(last.at),
            "is_unread": board.unread(c, user)}


def _conversations(board, user, m, query, form):  # type: ignore[no-untyped-def]
    shown, pagination = _pagination(board.conversations_of(user), query)
    return "200 OK", {"conversations": [_conversation(board, c, user) for c in shown], "pagination": pagination}


def _messages(board, user, m, query, form):  # type: ignore[no-untyped-def]
    c = board.conversations.get(int(m.group(1)))
    if c is None or not any(fold(n) == fold(user) for n in c.members):
        return "404 Not Found", _error("requested_conversation_not_found", "The requested conversation could not be found.")
    shown, pagination = _pagination([board.messages[i] for i in c.messages], query)
    return "200 OK", {"messages": [{"message_id": x.id, "conversation_id": c.id, "user_id": board.member(x.author).id,
                                    "username": x.author, "message_date": int(x.at), "message": x.text}
                                   for x in shown], "pagination": pagination}


def _mark_read(board, user, m, query, form):  # type: ignore[no-untyped-def]
    c = board.conversations[int(m.group(1))]
    c.last_read[user] = c.messages[-1]
    return "200 OK", {"success": True}


def _start(board, user, m, query, form):  # type: ignore[no-untyped-def]
    ids = {str(v) for k, v in form if k == "recipient_ids[]"}
    names = [x.name for x in board.members.values() if str(x.id) in ids]
    data = dict(form)
    if not names or len(names) != len(ids):
        return "400 Bad Request", _error("invalid_recipients", "Please enter at least one valid recipient.")
    c = board.start_conversation(user, names, data.get("title", ""), data.get("message", ""))
    return "200 OK", {"success": True, "conversation": _conversation(board, c, user)}


def _reply(board, user, m, query, form):  # type: ignore[no-untyped-def]
    data = dict(form)
    c = board.conversations.get(int(data.get("conversation_id", "0") or 0))
    if c is None or not any(fold(n) == fold(user) for n in c.members):
        return "404 Not Found", _error("requested_conversation_not_found", "The requested conversation could not be found.")
    if not c.conversation_open:  # ConversationMaster::canReply, checked for a user key as on the site
        return "403 Forbidden", _error("no_permission", "You do not have permission to view this page or perform "
                                                        "this action.")
    x = board.add_message(c.id, user, data.get("message", ""))
    return "200 OK", {"success": True, "message": {"message_id": x.id, "conversation_id": c.id}}


def _edit(board, user, m, query, form):  # type: ignore[no-untyped-def]
    """Api\\Controller\\Conversation::actionPost: the starter only (canEdit, a user key checks permissions);
    `title`, `open_invite`, `conversation_open` each changed only when sent."""
    c = board.conversations.get(int(m.group(1)))
    if c is None or not any(fold(n) == fold(user) for n in c.members):
        return "404 Not Found", _error("requested_conversation_not_found", "The requested conversation could not be found.")
    if fold(c.starter) != fold(user):
        return "403 Forbidden", _error("no_permission", "You do not have permission to view this page or perform "
                                                        "this action.")
    data = dict(form)
    if "conversation_open" in data:
        c.conversation_open = data["conversation_open"] not in ("", "0")
    if data.get("title", "").strip():
        c.title = data["title"].strip()
    return "200 OK", {"success": True, "conversation": _conversation(board, c, user)}


def _find_name(board, user, m, query, form):  # type: ignore[no-untyped-def]
    found = board.members.get(fold(query.get("username", "")))
    return "200 OK", {"exact": _user(board, found.name) if found else None, "recommendations": []}


_ROUTES = [
    (r"GET me/?", None, _me),
    (r"GET threads/(\d+)/posts/?", "thread:read", _thread_posts),
    (r"GET posts/(\d+)/?", "thread:read", _one_post),
    (r"POST posts/?", "thread:write", _add_post),
    (r"GET conversations/?", "conversation:read", _conversations),
    (r"GET conversations/(\d+)/messages/?", "conversation:read", _messages),
    (r"POST conversations/(\d+)/mark-read/?", "conversation:write", _mark_read),
    (r"POST conversations/?", "conversation:write", _start),
    (r"POST conversations/(\d+)/?", "conversation:write", _edit),
    (r"POST conversation-messages/?", "conversation:write", _reply),
    (r"GET users/find-name/?", "user:read", _find_name),
]


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")
