"""vBulletin 3.8 and 4.2 as a WSGI app (issue 18 item 3).

Sources: the two real thread pages in fixtures/vbulletin/ (3.8.11 postbit tables, dates, quick reply form; 4.2.3
`li.postcontainer`, friendly `showthread.php/ID-slug/pageN` links, `span.date`), and ENGINES.md §8/§12: login
with `vb_login_md5password`, the `bbuserid`/`bbsessionhash` cookies, `securitytoken` "TIMESTAMP-sha1" on every
form (expired after 3 hours), form errors through construct_errors (3.8 `table.tborder td.alt1 ol li`, 4.2
`div.blockbody.errorblock ul.blockrow.error li`) but a bad token as a standard_error page (vB 3.8's global.php and
vB 4's vB_Bootstrap::check_state() turn CSRF_ERROR into standard_error(security_token_missing / _invalid /
_timeout) before any form is built: the sources over §12, which lists the token with the form errors), vB 4's
friendlyurl addresses (basic `showthread.php?ID-slug`, advanced `showthread.php/ID-slug`, rewrite
`threads/ID-slug`: class_friendly_url.php), verify_strike_status() (5 failed logins from one address lock every
login for 15 minutes), print_no_permission() on private.php for a group whose pmquota is 0,
`floodchecktime` 30 s and `pmfloodtime` 60 s with the stock phrases, a reply answered by a redirect page with
a meta refresh (3.8) or a 302 (4.2, `useheaderredirect`) to `showthread.php?p=N#postN`, a moderated reply
redirected to `forumdisplay.php?f=`, PMs through private.php (`recipients` split on ';', "The following users
were not found", "...has exceeded their private message quota...", `pm_messagesent` back to private.php). The
PM pages (private.php folders and showpm) follow vB's templates as §12 names them; no served one was saved.
vBulletin has no two-step login. Rendering lives in vbulletin_pm.py (PMs) and here (threads).

R-13, closing a thread: §12 is silent; built from vB's own moderation: the thread tools' `threadadminform` posting to
`postings.php` with `do=openclosethread` (which toggles: open → closed, closed → open), `securitytoken` checked, a
member without `canopenclose` told the no-permission phrase, then the standard redirect to the thread; a closed
thread refuses a reply from a member who is no moderator. *Unverified* (the emulator's own choice): the tools
form's markup (one radio per action, as 3.8's threadadmin popup), the closed thread's mark (the
`threadclosed.gif` reply button shown to everyone), the redirect's wording and the closed-thread phrase.
"""

from __future__ import annotations

import hashlib
import html
import re
from datetime import datetime
from urllib.parse import unquote
from zoneinfo import ZoneInfo

from board import Emulator, Post, Request, Response

MSK = ZoneInfo("Europe/Moscow")
TOKEN_LIFE = 3 * 3600

FLOOD_POST = ("This forum requires that you wait {0} seconds between posts. Please try again in {1} seconds.")
FLOOD_PM = ("This forum requires that you wait {0} seconds between sending private messages. "
            "Please try again in {1} seconds.")
# The security token's phrases (security_token_missing / _invalid / _timeout) as vB's language file has them, the
# <br /><br /> read as a space; a bad token is a standard_error page, never construct_errors (see check_token).
TOKEN_MISSING = ("Your submission could not be processed because a security token was missing. If this occurred "
                 "unexpectedly, please inform the administrator and describe the action you performed before you "
                 "received this error.")
TOKEN_INVALID = ("Your submission could not be processed because a security token was invalid. If this occurred "
                 "unexpectedly, please inform the administrator and describe the action you performed before you "
                 "received this error.")
TOKEN_EXPIRED = ("Your submission could not be processed because the token has expired. Please push the back button "
                 "and reload the previous window.")
# verify_strike_status(): 5 strikes from one IP address (any name) within 900 s refuse every login, the right
# password too, and each refused try strikes again; strikes older than an hour are deleted. Phrase `strikes`.
STRIKES, STRIKE_WINDOW, STRIKE_FORGET = 5, 900, 3600
STRIKES_TEXT = ("You have used up your failed login quota! Please wait 15 minutes before trying again. Don't forget "
                "that the password is case sensitive.")
BAD_LOGIN = ("You have entered an invalid username or password. Please press the back button, enter the correct "
             "details and try again. Don't forget that the password is case sensitive.")
NO_PERMISSION = "You are not logged in or you do not have permission to access this page."


def bbcode(text: str) -> str:
    """The message as vB's parser prints it: escaped, line breaks as <br />, and [list] / [list=1] with [*] bullets
    as handle_bbcode_list() builds them (includes/class_bbcode.php 1774-1838 in 3.8.11): `<ol style="list-style-type:
    decimal">` (or `<ul>`) of `<li>bullet</li>\\n`, leading breaks trimmed; the other list types are not emulated."""
    def listing(m: re.Match) -> str:
        bullets = [b for b in re.split(r"\s*\[\*\]", re.sub(r"^(\s|<br />)+", "", m.group(2))) if b]
        items = "".join(f"<li>{b}</li>\n" for b in bullets)
        return f'<ol style="list-style-type: decimal">{items}</ol>' if m.group(1) else f"<ul>{items}</ul>"

    out = html.escape(text, quote=False).replace("\n", "<br />\n")
    return re.sub(r"\[list(=1)?\](.*?)\[/list\]", listing, out, flags=re.S | re.I)


def slug(title: str) -> str:
    return re.sub(r"[^\w]+", "-", title, flags=re.UNICODE).strip("-") or "thread"


class VBulletin(Emulator):
    flood = {"post": 30.0, "pm": 60.0}

    def __init__(self, *args, version: str = "3.8", friendly: bool | str | None = None, per_page: int | None = None,
                 pm_quota: int = 50, seconds: bool = False, quick_reply: bool = True, **kw) -> None:
        super().__init__(*args, **kw)
        self.version = version
        self.charset = "windows-1251" if version == "3.8" else "utf-8"
        # vB 4's option friendlyurl (class_friendly_url.php): off `showthread.php?t=ID&page=N`, "basic"
        # `showthread.php?ID-slug/pageN`, "advanced" `showthread.php/ID-slug/pageN` (the saved 4.2 page's, the
        # default here for 4.2), "rewrite" `threads/ID-slug/pageN`; each answers the others' addresses too and
        # redirects them to its own (the canonical check, friendlyurl_canonical)
        if friendly is None or friendly is True:
            friendly = "advanced" if version == "4.2" and friendly is None or friendly is True else False
        self.friendly: str | bool = friendly
        self.per_page = per_page or (20 if version == "3.8" else 10)  # as the two saved pages show
        self.pm_quota = pm_quota
        self.strikes: list[tuple[float, str]] = []  # the strikes table (time, name): all from 127.0.0.1, one IP
        self.seconds = seconds  # timeformat "H:i:s" (a board setting; stock shows minutes)
        # 3.8's PM page (vbulletin_pm.show) shows the time to the minute whatever the time format
        self.pm_time_to_the_minute = version == "3.8" or not seconds
        self.moderators: set[str] = set()  # members with canopenclose in the game's forum
        self.closed: set[int] = set()  # threads closed now
        self.no_pms: set[str] = set()  # members whose usergroup's pmquota is 0: no private messaging
        # the option `quickreply` (showthread.php 800-826 in 3.8.11): off, thread pages carry no quick reply form
        # and a reply goes through newreply.php's full form
        self.quick_reply = quick_reply

    # --- frame -------------------------------------------------------------------------------------------------

    def token(self, who: str | None) -> str:
        if who is None:
            return "guest"
        ts = int(self.clock())
        return f"{ts}-{self._sign(ts, who)}"

    def _sign(self, ts: int, who: str) -> str:
        return hashlib.sha1(f"{ts}{self.uid(who)}salt".encode()).hexdigest()

    def check_token(self, req: Request, who: str) -> str | None:
        """verify_security_token(): a hash that does not match is "invalid", one older than 3 hours "timeout".
        vB 3.8's global.php and vB 4's vB_Bootstrap::check_state() answer CSRF_ERROR with standard_error() and exit,
        before any form is built: a bad token is an error page, not construct_errors on the form (§12 says the
        latter; the sources say this)."""
        value = req.form.get("securitytoken", "")
        if not value:
            return TOKEN_MISSING
        ts, _, sig = value.partition("-")
        if not ts.isdigit() or sig != self._sign(int(ts), who):
            return TOKEN_INVALID
        if int(ts) + TOKEN_LIFE < self.clock():
            return TOKEN_EXPIRED
        return None

    def page(self, who: str | None, main: str, title: str = "Форум") -> str:
        token = self.token(who)
        if who:
            nav = (f'<td class="alt2">Здравствуйте, <strong>{html.escape(who)}</strong>. '
                   f'<a href="private.php">Личные сообщения</a> '
                   f'<a href="login.php?do=logout&amp;logouthash={token}">Выход</a></td>')
        else:
            nav = ('<td><form id="navbar_loginform" action="login.php?do=login" method="post" '
                   'onsubmit="md5hash(vb_login_password, vb_login_md5password, vb_login_md5password_utf, 0)">'
                   '<input type="text" class="textbox default-value" name="vb_login_username" value="" />'
                   '<input type="password" class="textbox" name="vb_login_password" />'
                   '<input type="checkbox" name="cookieuser" value="1" />'
                   '<input type="submit" class="loginbutton" value="Вход" />'
                   '<input type="hidden" name="s" value="" /><input type="hidden" name="securitytoken" value="guest" />'
                   '<input type="hidden" name="do" value="login" /><input type="hidden" name="vb_login_md5password" />'
                   '<input type="hidden" name="vb_login_md5password_utf" /></form></td>')
        gen = "vBulletin 3.8.11" if self.version == "3.8" else "vBulletin 4.2.3"
        return (f'<html dir="ltr" lang="ru"><head><meta http-equiv="Content-Type" content="text/html; '
                f'charset={self.charset}" /><meta name="generator" content="{gen}" /><title>{html.escape(title)}'
                f'</title><script type="text/javascript">var SECURITYTOKEN = "{token}";</script></head><body>'
                f'<table class="tborder"><tr>{nav}</tr></table>{main}'
                f'<div id="footer"><div class="smallfont" align="center">Powered by {gen}</div></div></body></html>')

    def standard_error(self, who: str | None, text: str) -> Response:
        """standard_error(): 3.8's STANDARD_ERROR template (install/vbulletin-style.xml 27629-27743 in vB 3.8.11,
        hanson-tapatalk/dbdvb388): a 70% table.tborder, td.tcat "$vbphrase[vbulletin_message]", then
        td.panelsurround > div.panel > div[align] holding the message between the `main error message` comments in
        `<div style="margin: 10px">` (lines 27706-27712); the commented-out Go Back button left out. The
        permission_error branch (a login form, for guests) is not emulated: a guest is sent NO_PERMISSION as text."""
        if self.version == "3.8":
            main = (f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="70%" align="center">'
                    f'<tr><td class="tcat">Сообщение</td></tr><tr><td class="panelsurround" align="center">'
                    f'<div class="panel"><div align="left">\n<!-- main error message -->\n'
                    f'<div style="margin: 10px">{html.escape(text)}</div>\n<!-- / main error message -->\n'
                    f'</div></div></td></tr></table>')
        else:
            main = (f'<div class="standard_error"><h2 class="blockhead">Сообщение</h2><div class="blockbody '
                    f'formcontrols"><div class="blockrow restore">{html.escape(text)}</div></div></div>')
        return self.html(self.page(who, main))

    def token_error(self, who: str, text: str) -> Response:
        """A bad security token. 3.8: global.php (lines 369-385 in 3.8.11) defines VB_ERROR_LITE before calling
        standard_error() for CSRF_ERROR, so the page is STANDARD_ERROR_LITE (vbulletin-style.xml 27744-27831): no
        header, navbar or footer, and the message in `<blockquote><p>` between the same `main error message`
        comments (27815-27821). 4.2's vB_Bootstrap::check_state(): its template unread, shown as standard_error."""
        if self.version != "3.8":
            return self.standard_error(who, text)
        gen = "vBulletin 3.8.11"
        return self.html(
            f'<html dir="ltr" lang="ru"><head><meta name="robots" content="noindex,follow" />'
            f'<meta http-equiv="Content-Type" content="text/html; charset={self.charset}" /><meta name="generator" '
            f'content="{gen}" /><title>Форум</title></head><body>'
            f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="70%" align="center">'
            f'<tr><td class="tcat">Сообщение</td></tr><tr><td class="panelsurround" align="center">'
            f'<div class="panel"><div align="left">\n<!-- main error message -->\n<blockquote><p>{html.escape(text)}'
            f'</p></blockquote>\n<!-- / main error message -->\n</div></div></td></tr></table></body></html>')

    def form_errors(self, errors: list[str]) -> str:
        """construct_errors() on a form page: the list vB puts above the form it shows again."""
        items = "".join(f"<li>{html.escape(e)}</li>" for e in errors)
        if self.version == "3.8":  # the newpost_preview template with $show['errors'] (see preview_table)
            return (f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center">'
                    f'<tr><td class="tcat">При обработке вашего сообщения возникли следующие ошибки</td></tr>'
                    f'<tr><td class="alt1"><!--POSTERROR do not remove this comment--><ol>{items}</ol>'
                    f'<!--/POSTERROR do not remove this comment--></td></tr></table>')
        return (f'<div class="blockhead">При обработке вашего сообщения возникли следующие ошибки</div>'
                f'<div class="blockbody errorblock"><ul class="blockrow error">{items}</ul></div>')

    def redirect_done(self, who: str, text: str, target: str) -> Response:
        """vB's redirect: a 302 where `useheaderredirect` is on (4.2 here), else (3.8 here) the STANDARD_REDIRECT
        template (vbulletin-style.xml 27921-28040 in 3.8.11): form postvarform > a 70% table.tborder, td.tcat
        "$vbphrase[redirecting]", td.panelsurround > div.panel > blockquote (no div between) with the message in
        `<p><strong>` and the "click here" link; its meta refresh, in the template's <noscript> (line 28007), is put
        in the head here."""
        if self.version == "4.2":
            return self.redirect(target)
        meta = f'<meta http-equiv="Refresh" content="2; URL={html.escape(target)}" />'
        page = self.page(who, f'<form action="{html.escape(target)}" method="post" name="postvarform">'
                              f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="70%" '
                              f'align="center"><tr><td class="tcat">Перенаправление</td></tr><tr><td '
                              f'class="panelsurround" align="center"><div class="panel"><blockquote><p>&nbsp;</p>'
                              f'<p><strong>{html.escape(text)}</strong></p><p class="smallfont"><a href="'
                              f'{html.escape(target)}">Нажмите здесь, если ваш браузер не перенаправил вас '
                              f'автоматически</a></p><div>&nbsp;</div></blockquote></div></td></tr></table></form>')
        return self.html(page.replace("</head>", meta + "</head>", 1))

    def date(self, at: float) -> str:
        d = datetime.fromtimestamp(at, MSK)
        sec = ":%S" if self.seconds else ""
        if self.version == "3.8":
            return f"{d:%d.%m.%Y}, " + d.strftime(f"%H:%M{sec}")
        return f'{d:%m-%d-%Y},&nbsp;<span class="time">' + d.strftime(f"%I:%M{sec} %p") + "</span>"

    # --- threads -----------------------------------------------------------------------------------------------

    def thread_url(self, tid: int, page: int = 1, script: str = "showthread.php") -> str:
        if self.friendly and script == "showthread.php":
            ref = f"{tid}-{slug(self.threads[tid])}" + (f"/page{page}" if page > 1 else "")
            return {"basic": "showthread.php?", "advanced": "showthread.php/", "rewrite": "threads/"}[
                str(self.friendly)] + ref
        return f"{script}?t={tid}" + (f"&amp;page={page}" if page > 1 else "")

    def post_html(self, p: Post, n: int) -> str:
        uid, author, body = self.uid(p.author), html.escape(p.author), bbcode(p.text)
        edit = ""
        if p.edited_at:
            d = datetime.fromtimestamp(p.edited_at, MSK)
            if self.version == "3.8":
                edit = (f'<div class="smallfont"><hr size="1" style="color:#D1D1E1" /><em>Последний раз '
                        f'редактировалось {html.escape(p.edited_by)}; {d:%d.%m.%Y} в <span class="time">{d:%H:%M}'
                        f'</span>.</em></div>')
            else:
                edit = (f'<blockquote class="postcontent lastedited">Last edited by {html.escape(p.edited_by)}; '
                        f'{d:%m-%d-%Y} at <span class="time">{d:%I:%M %p}</span>.</blockquote>')
        if self.version == "3.8":
            return f"""<div id="edit{p.id}" style="padding:0px 0px 6px 0px">
<table id="post{p.id}" class="tborder" cellpadding="6" cellspacing="0" border="0" width="100%" align="center">
<tr><td class="thead" style="font-weight:normal"><a name="post{p.id}"><img class="inlineimg" src="images/statusicon/post_old.gif" alt="" border="0" /></a>
{self.date(p.at)}</td><td class="thead" style="font-weight:normal" align="right">#<a href="showpost.php?p={p.id}&amp;postcount={n}" target="new" rel="nofollow" id="postcount{p.id}" name="{n}"><strong>{n}</strong></a></td></tr>
<tr valign="top"><td class="alt2" width="175"><div id="postmenu_{p.id}"><a class="bigusername" href="member.php?u={uid}">{author}</a></div></td>
<td class="alt1" id="td_post_{p.id}"><!-- message --><div id="post_message_{p.id}">{body}</div><!-- / message -->
<div style="margin-top: 10px" align="right">{edit}</div></td></tr></table></div>
"""
        member = f"member.php/{uid}-{slug(p.author)}" if self.friendly else f"member.php?u={uid}"
        return f"""<li class="postbitlegacy postbitim postcontainer old" id="post_{p.id}">
<div class="posthead"><span class="postdate old"><span class="date">{self.date(p.at)}</span></span>
<span class="nodecontrols"><a name="post{p.id}" href="showthread.php?p={p.id}#post{p.id}" class="postcounter">#{n}</a><a id="postcount{p.id}" name="{n}"></a></span></div>
<div class="postdetails"><div class="userinfo"><div class="username_container"><div class="popupmenu memberaction">
<a class="username offline popupctrl" href="{member}"><strong>{author}</strong></a></div></div></div>
<div class="postbody"><div class="postrow"><div class="content"><div id="post_message_{p.id}"><blockquote class="postcontent restore ">{body}</blockquote></div></div></div>{edit}</div></div>
<hr /></li>
"""

    def pagenav(self, tid: int, number: int, pages: int, script: str = "showthread.php") -> str:
        if pages < 2:
            return ""
        url = (lambda k: self.thread_url(tid, k, script))
        if self.version == "3.8":
            links = "".join(f'<td class="alt2"><span class="smallfont" title="">'
                            f'<strong>{k}</strong></span></td>' if k == number else
                            f'<td class="alt1"><a class="smallfont" href="{url(k)}" title="">{k}</a></td>'
                            for k in range(1, pages + 1))
            prev = f'<td class="alt1"><a rel="prev" class="smallfont" href="{url(number - 1)}">&lt;</a></td>' \
                if number > 1 else ""
            nxt = f'<td class="alt1"><a rel="next" class="smallfont" href="{url(number + 1)}">&gt;</a></td>' \
                if number < pages else ""
            return (f'<div class="pagenav" align="right"><table class="tborder" cellpadding="3" cellspacing="1" '
                    f'border="0"><tr><td class="vbmenu_control" style="font-weight:normal">Страница {number} из '
                    f'{pages}</td>{prev}{links}{nxt}</tr></table></div>')
        links = "".join(f'<span class="selected"><a href="javascript://">{k}</a></span>' if k == number else
                        f'<span><a href="{url(k)}">{k}</a></span>' for k in range(1, pages + 1))
        prev = f'<span class="prev_next"><a rel="prev" href="{url(number - 1)}">Prev</a></span>' if number > 1 else ""
        nxt = f'<span class="prev_next"><a rel="next" href="{url(number + 1)}">Next</a></span>' if number < pages else ""
        return (f'<div id="pagination_top" class="pagination_top"><form action="{url(number)}" method="get" '
                f'class="pagination popupmenu nohovermenu"><input type="hidden" name="t" value="{tid}" />'
                f'<span><a href="javascript://" class="popupctrl">Page {number} of {pages}</a></span>'
                f'{prev}{links}{nxt}</form></div>')

    def quick_reply_form(self, who: str, tid: int) -> str:
        return (f'<form action="newreply.php?do=postreply&amp;t={tid}" method="post" name="vbform" id="qrform">'
                f'<textarea name="message" id="vB_Editor_QR_textarea" rows="10" cols="60"></textarea>'
                f'<input type="hidden" name="wysiwyg" value="0" /><input type="hidden" name="fromquickreply" value="1" />'
                f'<input type="hidden" name="s" value="" /><input type="hidden" name="securitytoken" '
                f'value="{self.token(who)}" /><input type="hidden" name="do" value="postreply" />'
                f'<input type="hidden" name="t" value="{tid}" /><input type="hidden" name="p" value="who cares" />'
                f'<input type="hidden" name="parseurl" value="1" /><input type="hidden" name="loggedinuser" '
                f'value="{self.uid(who)}" /><input type="submit" class="button" value="Ответить" name="sbutton" />'
                f'</form>')

    def thread_page(self, who: str | None, tid: int, number: int) -> Response:
        posts = self.thread_posts(tid)
        pages = max(1, -(-len(posts) // self.per_page))
        number = min(max(number, 1), pages)
        shown = posts[(number - 1) * self.per_page: number * self.per_page]
        start = (number - 1) * self.per_page
        items = "".join(self.post_html(p, start + i + 1) for i, p in enumerate(shown))
        nav = self.pagenav(tid, number, pages)
        posts_html = f'<div id="posts">{items}<div id="lastpost"></div></div>' if self.version == "3.8" else \
            f'<div id="postlist" class="postlist restrain"><ol id="posts" class="posts">{items}</ol></div>'
        qr = self.quick_reply_form(who, tid) if self.quick_reply and who and number == pages and \
            self.may_reply(who, tid) else ""
        closed = ('<img src="images/buttons/threadclosed.gif" alt="Тема закрыта" border="0" />'
                  if tid in self.closed else '<img src="images/buttons/reply.gif" alt="Ответ" border="0" />')
        tools = self.thread_tools(who, tid) if who in self.moderators else ""
        return self.html(self.page(who, f'{closed}{tools}{nav}{posts_html}{nav}{qr}', self.threads[tid]))

    def may_reply(self, who: str, tid: int) -> bool:
        return tid not in self.closed or who in self.moderators

    def thread_tools(self, who: str, tid: int) -> str:
        return (f'<div id="threadtools_menu"><form action="postings.php?t={tid}&amp;pollid=" method="post" '
                f'name="threadadminform"><input type="radio" name="do" id="ao_oct" value="openclosethread" />'
                f'<label for="ao_oct">{"Открыть тему" if tid in self.closed else "Закрыть тему"}</label>'
                f'<input type="radio" name="do" id="ao_dlt" value="deletethread" /><label for="ao_dlt">Удалить тему'
                f'</label><input type="hidden" name="s" value="" /><input type="hidden" name="securitytoken" '
                f'value="{self.token(who)}" /><input type="hidden" name="t" value="{tid}" /><input type="submit" '
                f'class="button" value="Выполнить" /></form></div>')

    def postings(self, req: Request, who: str | None) -> Response:
        """postings.php: `openclosethread` (the only action emulated) toggles the thread after the token and
        canopenclose checks, then the standard redirect to the thread."""
        tid = int(req.form.get("t") or req.query.get("t", "0") or 0)
        if who is None or req.method != "POST":
            return self.standard_error(who, NO_PERMISSION)
        bad = self.check_token(req, who)
        if bad:
            return self.token_error(who, bad)
        if tid not in self.threads:
            return self.standard_error(who, "Неверно указана тема.")
        if req.form.get("do") != "openclosethread" or who not in self.moderators:
            return self.standard_error(who, NO_PERMISSION)
        if tid in self.closed:
            self.closed.discard(tid)
            said = "Тема открыта. Сейчас вы будете перемещены к ней."
        else:
            self.closed.add(tid)
            said = "Тема закрыта. Сейчас вы будете перемещены к ней."
        return self.redirect_done(who, said, f"showthread.php?t={tid}")

    def print_page(self, who: str | None, tid: int, number: int, pp: int) -> Response:
        """printthread.php: 4.2's printthreadbit (`li.postbit#post_N`); 3.8's carries no post ids."""
        posts = self.thread_posts(tid)
        pp = min(max(pp, 1), 200)
        pages = max(1, -(-len(posts) // pp))
        number = min(max(number, 1), pages)
        shown = posts[(number - 1) * pp: number * pp]
        if self.version == "3.8":
            items = "".join(f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%"><tr>'
                            f'<td class="page"><table cellpadding="0" cellspacing="0" border="0" width="100%"><tr>'
                            f'<td style="font-size:14pt">{html.escape(p.author)}</td><td class="smallfont" '
                            f'align="right">{self.date(p.at)}</td></tr></table><hr /><div>{bbcode(p.text)}</div>'
                            f'</td></tr></table><br />' for p in shown)
        else:
            items = "".join(f'<li class="postbit" id="post_{p.id}"><div class="posthead"><span class="datetime">'
                            f'{self.date(p.at)}</span> <span class="username">{html.escape(p.author)}</span></div>'
                            f'<div class="postbody"><div class="content"><blockquote class="postcontent restore">'
                            f'{bbcode(p.text)}</blockquote></div></div></li>' for p in shown)
            items = f'<ol id="posts">{items}</ol>'
        nav = ""
        if pages > 1:
            nav = "".join(f'<a href="printthread.php?t={tid}&amp;pp={pp}&amp;page={k}">{k}</a> '
                          for k in range(1, pages + 1))
            if number < pages:
                nav += f'<a rel="next" href="printthread.php?t={tid}&amp;pp={pp}&amp;page={number + 1}">&gt;</a>'
            nav = f'<div class="pagenav">{nav}</div>'
        return self.html(self.page(who, nav + items + nav))

    def preview_table(self, message: str) -> str:
        """3.8's newpost_preview template without errors (install/vbulletin-style.xml 11741-11838 in vB 3.8.11,
        hanson-tapatalk/dbdvb388): table.tborder, a td.tcat "$vbphrase[preview]" row, then td.alt1 holding the
        parsed message itself, no wrapper (no title, icon, attachments or signature here). 4.2's template is in
        no source read: not emulated."""
        return (f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center">'
                f'<tr><td class="tcat">Предварительный просмотр</td></tr><tr><td class="alt1">{bbcode(message)}'
                f'</td></tr></table><br />')

    def reply_form(self, who: str, tid: int, errors: list[str], message: str = "", preview: str = "") -> Response:
        """newreply.php?do=newreply: $postpreview (the preview or construct_errors' table) above the form, as the
        newreply template has it (vbulletin-style.xml 11868-12088 in 3.8.11), whose Preview Post button is
        `name="preview"` (line 11952). 4.2's form markup is unread: a bare form, no preview button there."""
        err = self.form_errors(errors) if errors else preview
        if self.version != "3.8":
            form = (f'<form action="newreply.php?do=postreply&amp;t={tid}" method="post" name="vbform">'
                    f'<textarea name="message" rows="20" cols="60">{html.escape(message)}</textarea>'
                    f'<input type="hidden" name="wysiwyg" value="0" /><input type="hidden" name="s" value="" />'
                    f'<input type="hidden" name="securitytoken" value="{self.token(who)}" />'
                    f'<input type="hidden" name="do" value="postreply" /><input type="hidden" name="t" value="{tid}" />'
                    f'<input type="submit" class="button" name="sbutton" value="Ответить" /></form>')
            return self.html(self.page(who, err + form))
        return self.html(self.page(who, err + self.newreply_form(who, tid, message) + self.thread_review(tid)))

    def newreply_form(self, who: str, tid: int, message: str) -> str:
        """3.8's newreply form (vbulletin-style.xml 11880-12043): a table.tborder whose td.tcat names the thread,
        then td.panelsurround > div.panel > div (the form's own words: the title field, "Сообщение:", the message
        area; lines 11890-11939), the hidden fields and buttons after the panel (11942-11953), and the Additional
        Options table with its own panel (11958-12040; parseurl only here, its repeated buttons left out). The
        message area is a plain textarea (the editor's toolbar is not emulated)."""
        title = html.escape(self.threads[tid])
        return (f'<form action="newreply.php?do=postreply&amp;t={tid}" name="vbform" method="post">'
                f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center">'
                f'<tr><td class="tcat"><span class="smallfont" style="float:right"><strong>Тема</strong>: '
                f'<a href="showthread.php?t={tid}">{title}</a></span>Ответ в теме</td></tr>'
                f'<tr><td class="panelsurround" align="center"><div class="panel">'
                f'<div style="width:640px" align="left">'
                f'<!-- subject field --><table cellpadding="0" cellspacing="0" border="0" class="fieldset"><tr>'
                f'<td class="smallfont" colspan="3">Заголовок:</td></tr><tr><td><input type="text" class="bginput" '
                f'name="title" value="" size="50" maxlength="85" tabindex="1" title="Необязательно" /></td>'
                f'<td>&nbsp;&nbsp;</td><td><img id="display_posticon" src="clear.gif" alt="" /></td></tr></table>'
                f'<!-- / subject field --><!-- message area --><div class="smallfont">Сообщение:</div>'
                f'<textarea name="message" id="vB_Editor_001_textarea" rows="20" cols="60" tabindex="1">'
                f'{html.escape(message)}</textarea><!-- / message area --></div></div>'
                f'<div style="margin-top:6px"><input type="hidden" name="s" value="" />'
                f'<input type="hidden" name="securitytoken" value="{self.token(who)}" />'
                f'<input type="hidden" name="do" value="postreply" /><input type="hidden" name="t" value="{tid}" />'
                f'<input type="hidden" name="p" value="" /><input type="hidden" name="wysiwyg" value="0" />'
                f'<input type="hidden" name="loggedinuser" value="{self.uid(who)}" />'
                f'<input type="submit" class="button" name="sbutton" id="vB_Editor_001_save" value="Ответить" />'
                f'<input type="submit" class="button" name="preview" value="Предварительный просмотр сообщения" />'
                f'</div></td></tr></table><br /><table class="tborder" cellpadding="6" cellspacing="1" border="0" '
                f'width="100%" align="center"><thead><tr><td class="tcat">Дополнительные опции</td></tr></thead>'
                f'<tbody id="collapseobj_newpost_options"><tr valign="top"><td class="panelsurround" align="center">'
                f'<div class="panel"><div style="width:640px" align="left"><fieldset class="fieldset">'
                f'<legend>Разные опции</legend><div style="padding:3px"><div><label for="cb_parseurl"><input '
                f'type="checkbox" name="parseurl" value="1" id="cb_parseurl" tabindex="1" checked="checked" />'
                f'Автоматически вставлять ссылки в текст</label></div></div></fieldset></div></div></td></tr></tbody>'
                f'</table></form>')

    def thread_review(self, tid: int) -> str:
        """Below 3.8's newreply form, the thread review (vbulletin-style.xml 12045-12076; newreply.php 955-1030):
        the thread's last `maxposts` posts, newest first, each a newreply_reviewbit (12089-12097): td.thead with
        the date, td.alt2 the name, td.alt1 the parsed message, bare (no post_message_ div)."""
        rows = "".join(f'<tr><td class="thead" colspan="2">{self.date(p.at)}</td></tr><tr title="Сообщение {p.id}" '
                       f'valign="top"><td class="alt2" width="125" align="center">{html.escape(p.author)}</td>'
                       f'<td class="alt1">{bbcode(p.text)}</td></tr>'
                       for p in list(reversed(self.thread_posts(tid)))[:self.per_page])
        return (f'<br /><table class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center">'
                f'<tr><td class="tcat">Обзор темы (новые сообщения вверху)</td></tr></table>'
                f'<div id="collapseobj_threadreview" style=""><table class="tborder" cellpadding="6" cellspacing="1" '
                f'border="0" width="100%" align="center" style="border-top-width:0px">{rows}</table></div>')

    # --- requests ----------------------------------------------------------------------------------------------

    def handle(self, req: Request) -> Response:
        from vbulletin_pm import handle_private

        who = self.logged_in(req)
        path = req.path
        if path == "login.php" and req.method == "POST":
            return self.login(req)
        if path == "login.php" and req.query.get("do") == "logout":
            return self.redirect_done(who or "", "Выход выполнен.", "index.php")
        if path in ("", "index.php", "forumdisplay.php"):
            return self.html(self.page(who, '<div id="forums">Форум</div>'))
        m = re.fullmatch(r"showthread\.php(?:/(\d+)-[^/]*(?:/page(\d+))?)?", path) or \
            re.fullmatch(r"threads/(\d+)-[^/]*(?:/page(\d+))?", path)
        if m and path == "showthread.php":  # basic: the address is the query's first item, without a value
            m = re.match(r"(\d+)-[^/&]*(?:/page(\d+))?", unquote(req.raw_query)) or m
        if m:
            return self.showthread(req, who, m)
        if path == "printthread.php":
            tid = int(req.query.get("t", "0") or 0)
            if tid not in self.threads:
                return self.standard_error(who, "Неверно указана тема.")
            return self.print_page(who, tid, int(req.query.get("page", "1") or 1), int(req.query.get("pp", "0") or 0)
                                   or self.per_page)
        if path == "newreply.php":
            return self.newreply(req, who)
        if path == "postings.php":
            return self.postings(req, who)
        if path == "private.php":
            if who is None:
                return self.standard_error(None, NO_PERMISSION)
            return handle_private(self, req, who)
        return self.html(self.page(who, "Страница не найдена"), 404)

    def logged_in(self, req: Request) -> str | None:
        who = self.sessions.get(req.cookies.get("bbsessionhash", ""))
        return who if who and req.cookies.get("bbuserid") == str(self.uid(who)) else None

    def login(self, req: Request) -> Response:
        now = self.clock()
        typed = req.form.get("vb_login_username", "")
        self.strikes = [s for s in self.strikes if s[0] >= now - STRIKE_FORGET]
        if len(self.strikes) >= STRIKES and self.strikes[-1][0] > now - STRIKE_WINDOW:
            self.strikes.append((now, typed))  # "the user is still not giving up so lets keep increasing this marker"
            return self.standard_error(None, STRIKES_TEXT)
        name = self.member(typed)
        password = req.form.get("vb_login_password", "").strip()  # the browser trims it (§12)
        md5 = req.form.get("vb_login_md5password", "")
        if name is not None:
            stored = self.users[name][1]
            ok = (md5 == hashlib.md5(stored.encode("utf-8")).hexdigest()
                  or req.form.get("vb_login_md5password_utf", "") == hashlib.md5(stored.encode("utf-8")).hexdigest()
                  or (password and password == stored))
        else:
            ok = False
        if not ok:
            self.strikes.append((now, typed))
            return self.standard_error(None, BAD_LOGIN + f" You have used {len(self.strikes)} out of 5 login "
                                                         "attempts. After all 5 have been used, you will be unable to "
                                                         "login for 15 minutes.")
        self.strikes = [s for s in self.strikes if s[1] != typed]  # exec_unstrike_user()
        sid = self.new_session(name)
        cookies = [("Set-Cookie", f"bbuserid={self.uid(name)}; path=/"),
                   ("Set-Cookie", f"bbsessionhash={sid}; path=/; HttpOnly")]
        if req.form.get("cookieuser") == "1":
            cookies.append(("Set-Cookie", f"bbpassword={md5 or 'x'}; path=/"))
        meta = '<meta http-equiv="Refresh" content="2; URL=index.php" />'
        page = self.page(name, f'<div class="panel">Спасибо, что зашли, {html.escape(name)}.</div>')
        return self.html(page.replace("</head>", meta + "</head>", 1), headers=cookies)

    def showthread(self, req: Request, who: str | None, m: re.Match) -> Response:
        if "p" in req.query:
            pid = int(req.query["p"]) if req.query["p"].isdigit() else 0
            post = next((p for p in self.posts if p.id == pid), None)
            if post is None:
                return self.standard_error(who, "Неверно указано сообщение.")
            index = self.thread_posts(post.tid).index(post)
            return self.thread_page(who, post.tid, index // self.per_page + 1)
        tid = int(m.group(1) or req.query.get("t", "0") or 0)
        if tid not in self.threads:
            return self.standard_error(who, "Неверно указана тема.")
        number = int(m.group(2) or req.query.get("page", "1") or 1)
        asked = req.path + (f"?{unquote(req.raw_query)}" if req.raw_query else "")
        canonical = self.thread_url(tid, number).replace("&amp;", "&")
        if self.friendly and req.query.get("goto") != "lastpost" and not asked.startswith(canonical):
            # friendly URLs on: any other address of the thread is sent to the canonical one
            return self.redirect(canonical, 301)
        if req.query.get("goto") == "lastpost":
            return self.thread_page(who, tid, 10 ** 6)
        return self.thread_page(who, tid, int(m.group(2) or req.query.get("page", "1") or 1))

    def newreply(self, req: Request, who: str | None) -> Response:
        tid = int(req.form.get("t") or req.query.get("t", "0") or 0)
        if who is None:
            return self.standard_error(None, NO_PERMISSION)
        if tid not in self.threads:
            return self.standard_error(who, "Неверно указана тема.")
        if not self.may_reply(who, tid):
            return self.standard_error(who, "Эта тема закрыта. Отвечать в ней нельзя.")
        if req.method == "GET":
            return self.reply_form(who, tid, [])
        bad = self.check_token(req, who)
        if bad:
            return self.token_error(who, bad)
        message = req.form.get("message", "")
        if "preview" in req.form and self.version == "3.8":
            return self.preview(who, tid, req, message)
        left = self.flood_left(who, "post")
        if left:
            return self.reply_form(who, tid, [FLOOD_POST.format(int(self.flood["post"]), left)], message)
        if len(message.strip()) < 2:
            return self.reply_form(who, tid, ["The message you have entered is too short. Please lengthen your "
                                              "message to at least 2 characters."], message)
        self.acted(who, "post")
        if who in self.moderated:
            return self.redirect_done(who, "Спасибо за сообщение. Оно появится после проверки модератором.",
                                      "forumdisplay.php?f=2")
        post = self.add_post(tid, who, message)
        return self.redirect_done(who, "Спасибо за сообщение! Сейчас вы будете перемещены к нему.",
                                  f"showthread.php?p={post.id}#post{post.id}")

    def preview(self, who: str, tid: int, req: Request, message: str) -> Response:
        """do=postreply with `preview` set (vB 3.8.11's newreply.php and includes/functions_newpost.php): from the
        quick reply form build_new_post returns at once (functions_newpost.php 424-428): the full editor with the
        message, no checks, no preview. Else pre_save's checks run (the message's length: class_dm_threadpost.php
        167-169, `tooshort`) but not the flood check, skipped while info['preview'] is set (class_dm_threadpost.php
        440), and build_new_post returns before the duplicate check and the save (functions_newpost.php 471-474);
        newreply.php then shows the form again under construct_errors' table (newreply.php 399) or under
        process_post_preview's (newreply.php 448). Nothing is posted, no flood timer starts."""
        if req.form.get("fromquickreply"):
            return self.reply_form(who, tid, [], message)
        if len(message.strip()) < 2:
            return self.reply_form(who, tid, ["The message you have entered is too short. Please lengthen your "
                                              "message to at least 2 characters."], message)
        return self.reply_form(who, tid, [], message, preview=self.preview_table(message))

