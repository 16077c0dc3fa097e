"""mybb.ru's messages.php for the emulator (what is §12 and what unverified: mybbru.py's docstring)."""

from __future__ import annotations

import html

from board import Request, Response
from mybbru import BOX_FULL, FLOOD, OWN_BOX_FULL, Mybbru, frame, stamp

PER_PAGE = 20
# unverified (the emulator's choice: no mybb.ru page shows it, PunBB 1.2 has no PMs): a member whose group may not
# send private messages gets PunBB's no-permission message frame on the compose form, in PunBB's Russian words
NO_PM_PERMISSION = "У вас нет прав для доступа к этой странице."


def messages(board: Mybbru, req: Request, who: str) -> Response:
    if req.query.get("action") == "new":
        return compose(board, req, who)
    if "id" in req.query:
        m = next((m for m in board.pms if str(m.id) == req.query["id"] and (who in m.to or m.author == who)), None)
        if m is None:
            return board.info(who, "Неверная ссылка.")
        m.read_by.add(who)
        main = (f'<div id="pun-main" class="main"><h1><span>{html.escape(m.title)}</span></h1>'
                f'<div class="topic">{board.pm_html(m)}</div></div>')
        return board.html(frame("", "pun-messages", main, who, board.uid(who)))
    sent = req.query.get("box") == "1"
    mine = sorted((m for m in board.pms if (m.author == who if sent else who in m.to)), key=lambda m: -m.id)
    number = max(int(req.query.get("p", "1") or 1), 1)
    pages = max(1, -(-len(mine) // PER_PAGE))
    rows = []
    for m in mine[(number - 1) * PER_PAGE: number * PER_PAGE]:
        cls = ' class="inew"' if not sent and who not in m.read_by else ""
        people = ", ".join(m.to) if sent else m.author
        rows.append(f'<tr{cls}><td class="tcl"><a href="messages.php?id={m.id}">{html.escape(m.title)}</a></td>'
                    f'<td class="tc2">{html.escape(people)}</td><td class="tcr">{stamp(m.at)}</td></tr>')
    nav = ""
    if pages > 1:
        nav = " ".join(f"<strong>{k}</strong>" if k == number else
                       f'<a href="messages.php?box={int(sent)}&amp;p={k}">{k}</a>' for k in range(1, pages + 1))
        if number < pages:
            nav += f' <a class="next" href="messages.php?box={int(sent)}&amp;p={number + 1}">Следующая</a>'
        nav = f'<div class="pagelink">{nav}</div>'
    main = (f'<div id="pun-main" class="main"><h1><span>Личные сообщения</span></h1>{nav}<div class="container">'
            f'<table cellspacing="0"><tbody>{"".join(rows)}</tbody></table></div></div>')
    return board.html(frame("", "pun-messages", main, who, board.uid(who)))


def compose(board: Mybbru, req: Request, who: str) -> Response:
    def form(errors: list[str]) -> Response:
        err = ""
        if errors:
            err = (f'<div id="posterror" class="section"><div class="container"><ul>'
                   f'{"".join(f"<li><strong>{html.escape(e)}</strong></li>" for e in errors)}</ul></div></div>')
        main = (f'<div id="pun-main" class="main">{err}<form id="post" method="post" action="messages.php?action=new">'
                f'<input type="hidden" name="form_sent" value="1" /><input type="text" name="req_username" '
                f'value="{html.escape(req.form.get("req_username", ""))}" /><input type="text" name="req_subject" />'
                f'<textarea name="req_message"></textarea><input type="submit" name="submit" value="Отправить" />'
                f'</form></div>')
        return board.html(frame("", "pun-messages", main, who, board.uid(who)))

    if who in board.no_pms:
        return board.info(who, NO_PM_PERMISSION)
    if req.method == "GET":
        return form([])
    name = board.member(req.form.get("req_username", ""))
    if name is None:
        return form(["Получатель не найден."])
    left = board.flood_left(who, "pm")
    if left:
        return form([FLOOD.format(int(board.flood["pm"]))])
    if board.pm_quota is not None and board.box_size(who) >= board.pm_quota:
        return form([OWN_BOX_FULL])
    if board.pm_quota is not None and board.box_size(name) >= board.pm_quota:
        return form([BOX_FULL.format(name)])
    board.acted(who, "pm")
    m = board.add_pm(who, [name], req.form.get("req_subject", ""), req.form.get("req_message", ""))
    return board.info(who, "Сообщение отправлено. Переадресация …", f"messages.php?id={m.id}")
