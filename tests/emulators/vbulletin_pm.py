"""vBulletin's private.php for the emulator (ENGINES.md §12, vB 3.8/4.2 templates; no served page was saved):
folders `folderid=0` (inbox) and `-1` (sent items), rows linking `private.php?do=showpm&pmid=N`, the folder form
`form#pmform` (`private.php?do=managepm&folderid=`, `dowhat=delete`, `pm[ID]`), compose `do=newpm`, send
`do=insertpm` with `recipients` split on ';' (unknown names: "The following users were not found"; a recipient
whose folders hold `pmquota` messages: "...has exceeded their private message quota"), `pmfloodtime` 60 s, and
the `pm_messagesent` redirect back to private.php. 3.8 names a row's sender in a span opening member.php (no
link); 4.2 in `a.username`."""

from __future__ import annotations

import html
from datetime import datetime

from board import PM, Request, Response
from vbulletin import FLOOD_PM, MSK, VBulletin, bbcode

NOT_FOUND = "The following users were not found:"
# print_no_permission() for a member: the phrase nopermission_loggedin; its first sentence as vB's language file has
# it, the reasons listed after it shortened here (unverified)
NO_PM_PERMISSION = ("{0}, you do not have permission to access this page. This could be due to one of several "
                    "reasons: Your user account may not have sufficient privileges to access this page.")
QUOTA = "{0} has exceeded their private message quota and cannot receive any new messages."


def handle_private(board: VBulletin, req: Request, who: str) -> Response:
    """private.php; its start as vB 3.8/4.2 have it: a member whose group's pmquota is below 1 (`board.no_pms`)
    gets print_no_permission() for newpm and insertpm, and for every page while his folders are empty."""
    do = req.query.get("do") or req.form.get("do", "")
    if who in board.no_pms and (do in ("newpm", "insertpm") or not any(
            who in m.to or m.author == who for m in board.pms)):
        return board.standard_error(who, NO_PM_PERMISSION.format(who))
    if req.method == "POST" and do == "insertpm":
        return insert(board, req, who)
    if req.method == "POST" and do == "managepm":
        bad = board.check_token(req, who)
        if bad:
            return board.token_error(who, bad)
        ids = {int(k[3:-1]) for k in req.form if k.startswith("pm[") and k[3:-1].isdigit()}
        if req.form.get("dowhat") == "delete":
            for m in board.pms:
                if m.id in ids:
                    m.deleted_by.add(who)
        return board.redirect_done(who, "Сообщения удалены.", "private.php")
    if do == "showpm":
        pid = int(req.query.get("pmid", "0") or 0)
        m = next((m for m in board.pms if m.id == pid and (who in m.to or m.author == who)), None)
        if m is None:
            return board.standard_error(who, "Неверно указано личное сообщение.")
        m.read_by.add(who)
        return board.html(board.page(who, show(board, m), m.title))
    if do == "newpm":
        return compose(board, who, [])
    folder = req.query.get("folderid", "0")
    return board.html(board.page(who, folder_page(board, who, folder)))


def show(board: VBulletin, m: PM) -> str:
    d = datetime.fromtimestamp(m.at, MSK)
    uid = board.uid(m.author)
    if board.version == "3.8":
        return (f'<table class="tborder" id="post{m.id}" cellpadding="6" cellspacing="0" border="0" width="100%">'
                f'<tr><td class="thead">{d:%d.%m.%Y}, {d:%H:%M}</td></tr><tr valign="top"><td class="alt2">'
                f'<a class="bigusername" href="member.php?u={uid}">{html.escape(m.author)}</a></td>'
                f'<td class="alt1" id="td_post_{m.id}"><div class="smallfont"><strong>{html.escape(m.title)}</strong>'
                f'</div><hr size="1" /><div id="post_message_{m.id}">{bbcode(m.text)}</div></td></tr></table>')
    return (f'<li class="postbitlegacy postbitim postcontainer" id="post_{m.id}"><div class="posthead">'
            f'<span class="postdate"><span class="date">{board.date(m.at)}</span></span></div>'
            f'<div class="userinfo"><a class="username" href="member.php?u={uid}"><strong>{html.escape(m.author)}'
            f'</strong></a></div><div class="postbody"><h2 class="title icon">{html.escape(m.title)}</h2>'
            f'<div class="content"><div id="post_message_{m.id}"><blockquote class="postcontent restore">'
            f'{bbcode(m.text)}</blockquote></div></div></div></li>')


def names(board: VBulletin, people: list[str]) -> str:
    if board.version == "3.8":
        return "; ".join(f'<span style="cursor:pointer" onclick="window.open(\'member.php?u={board.uid(n)}\')">'
                         f'{html.escape(n)}</span>' for n in people)
    return ", ".join(f'<a href="member.php?u={board.uid(n)}" class="username">{html.escape(n)}</a>' for n in people)


def folder_page(board: VBulletin, who: str, folder: str) -> str:
    sent = folder == "-1"
    mine = [m for m in board.pms if who not in m.deleted_by and ((m.author == who) if sent else (who in m.to))]
    rows = []
    for m in sorted(mine, key=lambda m: -m.id):
        d = datetime.fromtimestamp(m.at, MSK)
        people = names(board, m.to if sent else [m.author])
        title = f"<strong>{html.escape(m.title)}</strong>" if who not in m.read_by and not sent else \
            html.escape(m.title)
        if board.version == "3.8":
            rows.append(f'<tr><td class="alt1Active" id="pm{m.id}"><div><span style="float:right" class="smallfont">'
                        f'{d:%d.%m.%Y}</span><a href="private.php?do=showpm&amp;pmid={m.id}" rel="nofollow">{title}</a>'
                        f'</div><div class="smallfont">{people}</div></td><td class="alt2" align="center">'
                        f'<input type="checkbox" name="pm[{m.id}]" value="true" /></td></tr>')
        else:
            rows.append(f'<li class="blockrow pmbit" id="pm{m.id}"><div class="title"><a class="title" '
                        f'href="private.php?do=showpm&amp;pmid={m.id}">{title}</a></div><div class="author">'
                        f'{people}</div><input type="checkbox" name="pm[{m.id}]" value="true" /></li>')
    body = "".join(rows) or ('<tr><td class="alt1">Нет сообщений.</td></tr>' if board.version == "3.8" else
                             '<li class="blockrow">Нет сообщений.</li>')
    box = f'<table class="tborder">{body}</table>' if board.version == "3.8" else f'<ol class="pmlist">{body}</ol>'
    total = len([m for m in board.pms if who not in m.deleted_by and (who in m.to or m.author == who)])
    return (f'<div class="smallfont">Сообщений: {total} из {board.pm_quota}</div>'
            f'<form action="private.php?do=managepm&amp;folderid={folder}" method="post" name="pmform" id="pmform">'
            f'<input type="hidden" name="securitytoken" value="{board.token(who)}" />'
            f'<input type="hidden" name="do" value="managepm" />{box}<select name="dowhat">'
            f'<option value="move">Переместить</option><option value="delete">Удалить</option></select>'
            f'<input type="submit" class="button" value="Ок" /></form>')


def compose(board: VBulletin, who: str, errors: list[str], form: dict | None = None) -> Response:
    """private.php?do=newpm, and insertpm's errors. 3.8: the pm_newpm template (vbulletin-style.xml 13638-13801 in
    vB 3.8.11, hanson-tapatalk/dbdvb388): form vbform holding $postpreview (construct_errors' table, so the errors
    sit inside the form), then a table.tborder whose td.panelsurround > div.panel > div holds the form's own words
    (the recipients fieldset with its textareas, the title, "Сообщение:", the message area: lines 13647-13730),
    the hidden fields and buttons after the panel, and the Additional Options table with its own panel (savecopy;
    13748-13797). The user CP shell around it is not emulated. 4.2's newpm template is unread: a bare form."""
    form = form or {}
    field = (lambda k: html.escape(form.get(k, ""), quote=True))
    errs = board.form_errors(errors) if errors else ""
    if board.version != "3.8":
        page = errs + (
            f'<form action="private.php?do=insertpm&amp;pmid=" method="post" name="vbform">'
            f'<input type="text" class="bginput" name="recipients" value="{field("recipients")}" />'
            f'<input type="text" class="bginput" name="bccrecipients" value="" />'
            f'<input type="text" class="bginput" name="title" value="{field("title")}" />'
            f'<textarea name="message" rows="20" cols="60">{html.escape(form.get("message", ""))}</textarea>'
            f'<input type="hidden" name="wysiwyg" value="0" /><input type="hidden" name="s" value="" />'
            f'<input type="hidden" name="securitytoken" value="{board.token(who)}" />'
            f'<input type="hidden" name="do" value="insertpm" /><input type="hidden" name="pmid" value="" />'
            f'<input type="checkbox" name="savecopy" value="1" checked="checked" />'
            f'<input type="submit" class="button" name="sbutton" value="Отправить" /></form>')
        return board.html(board.page(who, page))
    text = (lambda k: html.escape(form.get(k, ""), quote=False))
    page = (
        f'<form action="private.php?do=insertpm&amp;pmid=" method="post" name="vbform">{errs}'
        f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center">'
        f'<tr><td class="tcat">Новое личное сообщение</td></tr><tr><td class="panelsurround" align="center">'
        f'<div class="panel"><div align="left" style="max-width:640px; width:auto !important; width:500px">'
        f'<!-- recipients field --><fieldset class="fieldset"><legend>Получатели</legend><table cellpadding="0" '
        f'cellspacing="3" border="0"><tr><td><div>Имена получателей</div><div id="pmrecips"><textarea '
        f'id="pmrecips_txt" name="recipients" rows="1" cols="50" tabindex="1">{text("recipients")}</textarea></div>'
        f'<span id="bccspan2">Скрытая копия: имена получателей<br /></span><div id="bccpmrecips"><textarea '
        f'id="bccpmrecips_txt" name="bccrecipients" rows="1" cols="50" tabindex="1"></textarea></div></td></tr>'
        f'<tr><td><div>Разделяйте имена точкой с запятой (;)</div></td></tr></table></fieldset>'
        f'<!-- / recipients field --><!-- subject field --><table cellpadding="0" cellspacing="0" border="0" '
        f'class="fieldset"><tr><td class="smallfont" colspan="3">Заголовок:</td></tr><tr><td><input type="text" '
        f'class="bginput" name="title" value="{field("title")}" size="50" maxlength="85" tabindex="1" /></td>'
        f'<td>&nbsp;&nbsp;</td><td><img id="display_posticon" src="clear.gif" alt="" /></td></tr></table>'
        f'<!-- / subject field --><!-- message area --><div class="smallfont">Сообщение:</div><textarea '
        f'name="message" id="vB_Editor_001_textarea" rows="20" cols="60" tabindex="1">{text("message")}</textarea>'
        f'<!-- / message area --></div></div><div style="margin-top:6px"><input type="hidden" name="s" value="" />'
        f'<input type="hidden" name="securitytoken" value="{board.token(who)}" />'
        f'<input type="hidden" name="do" value="insertpm" /><input type="hidden" name="pmid" value="" />'
        f'<input type="hidden" name="forward" value="" /><input type="hidden" name="wysiwyg" value="0" />'
        f'<input type="submit" class="button" name="sbutton" id="vB_Editor_001_save" value="Отправить сообщение" />'
        f'<input type="submit" class="button" value="Предварительный просмотр" name="preview" /></div></td></tr>'
        f'</table><br /><table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" '
        f'align="center"><thead><tr><td class="tcat">Дополнительные опции</td></tr></thead><tbody '
        f'id="collapseobj_newpost_options"><tr valign="top"><td class="panelsurround" align="center"><div '
        f'class="panel"><div align="left" style="max-width:640px; width:auto !important; width:500px"><fieldset '
        f'class="fieldset"><legend>Разные опции</legend><div style="padding:3px"><div><label for="cb_savecopy">'
        f'<input type="checkbox" name="savecopy" value="1" id="cb_savecopy" tabindex="1" checked="checked" />'
        f'Сохранить копию в папке <a href="private.php?folderid=-1">Отправленные</a></label></div></div></fieldset>'
        f'</div></div></td></tr></tbody></table></form>')
    return board.html(board.page(who, page))


def insert(board: VBulletin, req: Request, who: str) -> Response:
    bad = board.check_token(req, who)
    if bad:
        return board.token_error(who, bad)
    typed = [n.strip() for n in req.form.get("recipients", "").split(";") if n.strip()]
    found = [board.member(n) for n in typed]
    errors = []
    missing = [t for t, f in zip(typed, found) if f is None]
    if missing:
        errors.append(f"{NOT_FOUND} {', '.join(missing)}")
    for name in (f for f in found if f):
        if len(board.inbox_of(name)) >= board.pm_quota:
            errors.append(QUOTA.format(name))
    left = board.flood_left(who, "pm")
    if left:
        errors.append(FLOOD_PM.format(int(board.flood["pm"]), left))
    if not typed:
        errors.append("Please specify at least one recipient.")
    if errors:
        return compose(board, who, errors, req.form)
    board.acted(who, "pm")
    board.add_pm(who, [f for f in found if f], req.form.get("title", ""), req.form.get("message", ""))
    return board.redirect_done(who, "Ваше личное сообщение отправлено.", "private.php")
