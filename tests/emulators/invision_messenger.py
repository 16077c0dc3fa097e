"""Invision 4's Messenger for the emulator (sources and what is unverified: invision.py's docstring)."""

from __future__ import annotations

import html
import re

from board import Request, Response
from invision import INBOX_FULL, Invision, body_html, conversations, iso, parse_bbcode

MEMBER_NOT_FOUND = "{0}: участник не найден"
# core/modules/front/messaging/messenger.php, execute(): a member whose messenger an administrator switched off
# (members_disable_pm = 2) meets error('messenger_disabled', '2C137/9', 403) on every Messenger page; the
# language string's wording is unverified (the emulator's, Russian as the board's other words here)
MESSENGER_DISABLED = "Вам запрещено пользоваться личными сообщениями."


def messenger(board: Invision, req: Request, who: str, route: str) -> Response:
    if who in board.no_pms:
        return board.error(req, who, MESSENGER_DISABLED, 403, "2C137/9")
    if route == "messenger/compose/":
        return compose(board, req, who)
    m = re.fullmatch(r"messenger/(\d+)/", route)
    if m:
        return conversation(board, req, who, int(m.group(1)))
    if route == "messenger/":
        return board.html(board.page(req, who, listing(board, who)))
    return board.error(req, who, "Запрошенная страница не найдена.", 404, "2C137/1")


def listing(board: Invision, who: str) -> str:
    rows = []
    convs = conversations(board, who)
    for cid in sorted(convs, key=lambda c: -convs[c][-1].at):
        msgs = convs[cid]
        people = sorted({msgs[0].author, *msgs[0].to})
        latest = msgs[-1]
        unread = " ipsDataItem_unread" if any(who not in x.read_by and x.author != who for x in msgs) else ""
        rows.append(f'<li class="ipsDataItem{unread}" data-messageid="{cid}"><div class="ipsDataItem_main">'
                    f'<h4 class="ipsDataItem_title ipsContained_container"><span class="ipsType_break ipsContained">'
                    f'<a href="{board.link(f"messenger/{cid}/")}" class="cMessageTitle">{html.escape(msgs[0].title)}'
                    f'</a></span></h4><p class="ipsType_reset ipsType_light ipsType_blendLinks">'
                    f'{html.escape(", ".join(people))}</p><time datetime="{iso(latest.at)}">.</time>'
                    f'</div></li>')
    return (f'<p class="ipsType_light">{len(convs)} / {board.max_conversations}</p>'
            f'<ol class="ipsDataList cMessageList" data-role="messageList">{"".join(rows)}</ol>')


def compose_form(board: Invision, req: Request, errors: dict[str, str] | None = None) -> str:
    errors = errors or {}
    err = (lambda k: f'<span class="ipsType_warning">{html.escape(errors[k])}</span>' if k in errors else "")
    value = (lambda k: html.escape(req.form.get(k, "")))
    return (f'<form accept-charset="utf-8" method="post" action="{board.link("messenger/compose/")}">'
            f'<input type="hidden" name="form_submitted" value="1"><input type="hidden" name="csrfKey" '
            f'value="{board.csrf(req)}"><textarea name="messenger_to" data-ipsautocomplete>{value("messenger_to")}'
            f'</textarea>{err("messenger_to")}<input type="text" name="messenger_title" value="{value("messenger_title")}">'
            f'<textarea name="messenger_content">{value("messenger_content")}</textarea>'
            f'<button type="submit" class="ipsButton">Отправить</button></form>')


def compose(board: Invision, req: Request, who: str) -> Response:
    if req.method == "GET":
        return board.html(board.page(req, who, compose_form(board, req)))
    if req.form.get("csrfKey") != board.csrf(req):
        return board.error(req, who, "The security key was missing or invalid (csrf). Please go back and try again.",
                           403, "2S119/1")
    if len(conversations(board, who)) >= board.max_conversations:
        return board.error(req, who, INBOX_FULL, 403, "2C137/4")
    left = board.flood_left(who, "pm")
    if left:
        return Response(429, board.page(req, who, "Please wait").encode(), [
            ("Content-Type", "text/html; charset=utf-8"), ("Retry-After", str(left))])
    typed = [n.strip() for n in req.form.get("messenger_to", "").split("\n") if n.strip()]
    found = [board.member(n) for n in typed]
    missing = [t for t, f in zip(typed, found) if f is None]
    if missing or not typed:
        msg = MEMBER_NOT_FOUND.format(", ".join(missing)) if missing else "Это поле обязательно для заполнения"
        return board.html(board.page(req, who, compose_form(board, req, {"messenger_to": msg})))
    board.acted(who, "pm")
    cid = board.next_id("conv")
    board.add_pm(who, [f for f in found if f], req.form.get("messenger_title", ""),
                 parse_bbcode(req.form.get("messenger_content", "")), cid)
    return board.redirect(board.link(f"messenger/{cid}/"), 301)


def conversation(board: Invision, req: Request, who: str, cid: int) -> Response:
    convs = conversations(board, who)
    if cid not in convs:
        return board.error(req, who, "Запрошенная страница не найдена.", 404, "2C137/2")
    if req.query.get("do") == "leaveConversation":
        if req.query.get("csrfKey") != board.csrf(req):
            return board.error(req, who, "The security key was missing or invalid (csrf).", 403, "2S119/1")
        board.left.add((cid, who))
        return board.redirect(board.link("messenger/"), 301)
    msgs = convs[cid]
    for x in msgs:
        x.read_by.add(who)
    items = "".join(board.comment(x.id, x.author, x.at, body_html(x.text), "core", cid) for x in msgs)
    return board.html(board.page(req, who, f'<h1 class="ipsType_pageTitle">{html.escape(msgs[0].title)}</h1>'
                                           f'<div data-role="commentFeed">{items}</div>', msgs[0].title))
