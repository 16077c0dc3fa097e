"""Fake vBulletin and Invision boards behind `responses`, for whole games through the daemon.

Each board keeps threads, posts, PMs and the bot's session, and serves pages in the markup of the real saved
pages (fixtures/vbulletin/, fixtures/invision/: vB3 postbit tables, the vB4 navbar login form, IPS comment
wrappers with data-quotedata) inside a small page skeleton; pages no real page shows (PM folders, printthread,
Messenger, answers to POSTs) follow the engines' documented templates, as the profiles' `unverified` say.
The vB board serves windows-1251, as Russian vB 3.8 boards do. The idea (a board object that is also
daemon_world.World's "other side": add_post, add_pm, posts_by, pms) follows tests/daemon/xenforo_board.py on
branch h-xenforo; the code is this module's own.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Callable
from urllib.parse import parse_qsl, urlparse

import responses

MSK = timezone(timedelta(hours=3))


@dataclass
class Post:
    id: int
    topic: str  # as the game names the thread
    author: str
    text: str
    posted_at: datetime
    edited_at: datetime | None = None


@dataclass
class PM:
    id: int
    author: str
    to: str  # recipients, ", "-joined
    title: str
    text: str
    sent_at: datetime
    conversation: int = 0


@dataclass
class _Sent:  # what daemon_world.World.bot_pms reads
    to: str
    pm: PM


@dataclass
class Board:
    """What both fakes share: state, the World-facing side, request bookkeeping."""

    bot: str
    password: str
    clock: Callable[[], datetime]
    base: str = ""
    threads: dict[int, str] = field(default_factory=dict)  # id -> the game's name for the thread
    posts: dict[int, list[Post]] = field(default_factory=dict)
    messages: list[PM] = field(default_factory=list)
    users: dict[str, int] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    refuse_next: list[str] = field(default_factory=list)  # error texts for the next POSTs (a flood, a token)
    _ids: dict[str, int] = field(default_factory=lambda: {"post": 5000, "pm": 900, "conv": 300})

    def thread(self, tid: int, topic: str) -> None:
        self.threads[tid] = topic
        self.posts.setdefault(tid, [])

    def uid(self, name: str) -> int:
        return self.users.setdefault(name, len(self.users) + 10)

    def next_id(self, kind: str) -> int:
        self._ids[kind] += 1
        return self._ids[kind]

    def now(self) -> datetime:
        return self.clock().astimezone(timezone.utc).replace(microsecond=0)

    def tid_of(self, topic: str) -> int:
        for tid, name in self.threads.items():
            if topic in (name, str(tid)):
                return tid
        raise KeyError(topic)

    # --- the other side (daemon_world.World) -----------------------------------------------------------

    def add_post(self, topic: str, author: str, text: str, at: datetime) -> Post:
        tid = self.tid_of(topic)
        post = Post(self.next_id("post"), self.threads[tid], author, text, at.astimezone(timezone.utc))
        self.posts[tid].append(post)
        return post

    def add_pm(self, author: str, text: str, at: datetime, subject: str = "") -> PM:
        pm = PM(self.next_id("pm"), author, self.bot, subject or "Ход", text, at.astimezone(timezone.utc))
        self.messages.append(pm)
        return pm

    def posts_by(self, author: str, topic: str | None = None) -> list[Post]:
        return [p for tid in sorted(self.posts) for p in self.posts[tid]
                if p.author == author and (topic is None or p.topic == topic)]

    @property
    def pms(self) -> list[_Sent]:
        return [_Sent(m.to, m) for m in self.messages if m.author == self.bot]

    # --- HTTP -----------------------------------------------------------------------------------------------

    def install(self, mock: responses.RequestsMock) -> None:
        pattern = re.compile(re.escape(self.base) + ".*")
        for method in ("GET", "POST"):
            mock.add_callback(method, pattern, callback=self._handle)

    def _handle(self, request):
        url = urlparse(request.url)
        path = url.path[len(urlparse(self.base).path):]
        query = dict(parse_qsl(url.query))
        self.requests.append((request.method, path + ("?" + url.query if url.query else "")))
        cookies = dict(c.split("=", 1) for c in (request.headers.get("Cookie") or "").split("; ") if "=" in c)
        body = request.body or b""
        if isinstance(body, bytes):
            body = body.decode("ascii")
        form = dict(parse_qsl(body, encoding=self.charset)) if request.method == "POST" else {}
        return self.handle(request.method, path, query, form, cookies)

    charset = "utf-8"

    def handle(self, method: str, path: str, query: dict, form: dict, cookies: dict):
        raise NotImplementedError


def bbcode(text: str) -> str:
    out = html.escape(text, quote=False)
    return out.replace("\n", "<br />\n")


# --- vBulletin ---------------------------------------------------------------------------------------------

VB_PER_PAGE = 20

_VB_POST = """<div id="edit{id}" style="padding:0px 0px 6px 0px">
<table id="post{id}" class="tborder" cellpadding="6" cellspacing="0" border="0" width="100%" align="center">
<tr>
		<td class="thead" style="font-weight:normal" >
			<a name="post{id}"><img class="inlineimg" src="images/statusicon/post_old.gif" alt="Старое" border="0" /></a>
			{date}
		</td>
		<td class="thead" style="font-weight:normal" align="right">
			#<a href="showpost.php?p={id}&amp;postcount={n}" target="new" rel="nofollow" id="postcount{id}" name="{n}"><strong>{n}</strong></a>
		</td>
</tr>
<tr valign="top">
	<td class="alt2" width="175">
			<div id="postmenu_{id}">
				<a class="bigusername" href="member.php?u={uid}">{author}</a>
			</div>
			<div class="smallfont">Пользователь</div>
	</td>
	<td class="alt1" id="td_post_{id}">
		<!-- message -->
		<div id="post_message_{id}">{body}</div>
		<!-- / message -->
		{sig}
		<div style="clear:both;">
		{edit}
		</div>
	</td>
</tr>
</table>
</div>
"""

_VB_PRINT_POST = """<li class="postbit" id="post_{id}">
	<div class="posthead"><span class="datetime">{date}</span> <span class="username">{author}</span></div>
	<div class="postbody"><div class="content"><div id="post_message_{id}"><blockquote class="postcontent restore">{body}</blockquote></div></div></div>
</li>
"""


def vb_date(at: datetime) -> str:
    return at.astimezone(MSK).strftime("%d.%m.%Y, %H:%M")


@dataclass
class VbBoard(Board):
    """vBulletin 3.8 as a Russian board serves it: windows-1251, dates d.m.Y in the bot's zone (Moscow)."""

    base: str = "https://vb.test/forum/"
    printable: bool = True  # printthread.php allowed (and its posts carry ids)
    charset = "windows-1251"
    token: str = ""

    def page(self, main: str, logged: bool, title: str = "Форум") -> str:
        token = self.token if logged else "guest"
        if logged:
            nav = (f'<td class="alt2">Здравствуйте, <strong>{html.escape(self.bot)}</strong>. '
                   f'<a href="private.php">Личные сообщения</a> '
                   f'<a href="login.php?do=logout&amp;logouthash={token}">Выход</a></td>')
        else:
            nav = ('<form id="navbar_loginform" action="login.php?do=login" method="post" '
                   'onsubmit="md5hash(vb_login_password, vb_login_md5password, vb_login_md5password_utf, 0)">'
                   '<input type="text" class="textbox default-value" name="vb_login_username" value="Имя" />'
                   '<input type="password" class="textbox" name="vb_login_password" />'
                   '<input type="checkbox" name="cookieuser" value="1" />'
                   '<input type="submit" class="loginbutton" value="Вход" />'
                   '<input type="hidden" name="s" value="" /><input type="hidden" name="securitytoken" value="guest" />'
                   '<input type="hidden" name="do" value="login" /><input type="hidden" name="vb_login_md5password" />'
                   '<input type="hidden" name="vb_login_md5password_utf" /></form>')
        return (f'<html dir="ltr" lang="ru"><head><meta http-equiv="Content-Type" content="text/html; '
                f'charset=windows-1251" /><meta name="generator" content="vBulletin 3.8.11" /><title>{title}</title>'
                f'<script type="text/javascript">var SECURITYTOKEN = "{token}";</script></head><body>'
                f'<table class="tborder"><tr>{nav}</tr></table>{main}'
                f'<div id="footer"><div class="smallfont" align="center">Powered by vBulletin</div></div>'
                f'</body></html>')

    def answer(self, status: int, body: str, headers: dict | None = None):
        return status, {"Content-Type": "text/html; charset=windows-1251", **(headers or {})}, \
            body.encode("cp1251", "xmlcharrefreplace")

    def redirect_page(self, text: str, target: str, logged: bool):
        """vB 3.8.11's STANDARD_REDIRECT (install/vbulletin-style.xml 27921-28040, hanson-tapatalk/dbdvb388): the
        message in `div.panel > blockquote` (no div between), its meta refresh put in the head here."""
        meta = f'<meta http-equiv="Refresh" content="2; URL={html.escape(target)}" />'
        page = self.page(f'<form action="{html.escape(target)}" method="post" name="postvarform"><table '
                         f'class="tborder" width="70%"><tr><td class="tcat">Перенаправление</td></tr><tr><td '
                         f'class="panelsurround" align="center"><div class="panel"><blockquote><p>&nbsp;</p><p><strong>'
                         f'{text}</strong></p></blockquote></div></td></tr></table></form>', logged)
        return self.answer(200, page.replace("</head>", meta + "</head>", 1))

    def error_page(self, text: str, logged: bool):
        """vB 3.8.11's STANDARD_ERROR (vbulletin-style.xml 27629-27743): the message between the `main error
        message` comments in `<div style="margin: 10px">` (27706-27712)."""
        return self.answer(200, self.page(
            f'<table class="tborder" width="70%"><tr><td class="tcat">Сообщение</td></tr><tr><td class="panelsurround" '
            f'align="center"><div class="panel"><div align="left"><!-- main error message --><div style="margin: '
            f'10px">{text}</div><!-- / main error message --></div></div></td></tr></table>', logged))

    def post_html(self, p: Post, n: int) -> str:
        sig = self.signatures.get(p.author)
        sig_html = f'<div style="clear:both;">__________________<br />{bbcode(sig)}</div>' if sig else ""
        edit = ""
        if p.edited_at:
            at = p.edited_at.astimezone(MSK)
            edit = (f'<div class="smallfont" style="clear:both;"><hr size="1" /><em>Последний раз редактировалось '
                    f'{html.escape(p.author)}; {at:%d.%m.%Y} в <span class="time">{at:%H:%M}</span>.</em></div>')
        return _VB_POST.format(id=p.id, n=n, date=vb_date(p.posted_at), uid=self.uid(p.author),
                               author=html.escape(p.author), body=bbcode(p.text), sig=sig_html, edit=edit)

    def thread_page(self, tid: int, number: int, logged: bool, printable: bool = False, per_page: int = VB_PER_PAGE):
        posts = self.posts[tid]
        pages = max(1, -(-len(posts) // per_page))
        number = min(max(number, 1), pages)
        shown = posts[(number - 1) * per_page: number * per_page]
        script = "printthread.php" if printable else "showthread.php"
        extra = f"&amp;pp={per_page}" if printable else ""
        nav = ""
        if pages > 1:
            links = "".join(
                f'<td class="alt2"><span class="smallfont"><strong>{k}</strong></span></td>' if k == number else
                f'<td class="alt1"><a class="smallfont" href="{script}?t={tid}{extra}&amp;page={k}">{k}</a></td>'
                for k in range(1, pages + 1))
            nxt = (f'<td class="alt1"><a rel="next" class="smallfont" href="{script}?t={tid}{extra}&amp;page='
                   f'{number + 1}">&gt;</a></td>' if number < pages else "")
            nav = (f'<div class="pagenav" align="right"><table class="tborder"><tr><td class="vbmenu_control">'
                   f'Страница {number} из {pages}</td>{links}{nxt}</tr></table></div>')
        if printable:
            items = "".join(_VB_PRINT_POST.format(id=p.id, date=vb_date(p.posted_at), author=html.escape(p.author),
                                                  body=bbcode(p.text)) for p in shown)
            return self.page(f'{nav}<ol id="posts">{items}</ol>{nav}', logged)
        start = (number - 1) * per_page
        items = "".join(self.post_html(p, start + i + 1) for i, p in enumerate(shown))
        qr = ""
        if logged:
            qr = (f'<form action="newreply.php?do=postreply&amp;t={tid}" method="post" name="vbform" id="qrform">'
                  f'<textarea name="message" id="vB_Editor_QR_textarea"></textarea>'
                  f'<input type="hidden" name="wysiwyg" value="0" /><input type="hidden" name="fromquickreply" value="1" />'
                  f'<input type="hidden" name="s" value="" /><input type="hidden" name="securitytoken" value="{self.token}" />'
                  f'<input type="hidden" name="do" value="postreply" /><input type="hidden" name="t" value="{tid}" />'
                  f'<input type="hidden" name="p" value="who cares" /><input type="hidden" name="parseurl" value="1" />'
                  f'<input type="hidden" name="loggedinuser" value="{self.uid(self.bot)}" />'
                  f'<input type="submit" class="button" value="Ответить" name="sbutton" /></form>')
        return self.page(f'{nav}<div id="posts">{items}<div id="lastpost"></div></div>{nav}{qr}', logged)

    def pm_rows(self, folder: str) -> str:
        mine = [m for m in self.messages if (m.author == self.bot) == (folder == "-1")
                and (folder == "-1" or self.bot in m.to.split(", "))]
        rows = []
        for m in sorted(mine, key=lambda m: -m.id):
            who = m.to if folder == "-1" else m.author
            people = "; ".join(f'<a href="member.php?u={self.uid(n)}">{html.escape(n)}</a>' for n in who.split(", "))
            rows.append(f'<tr><td class="alt1"><input type="checkbox" name="pm[{m.id}]" value="true" /></td>'
                        f'<td class="alt1"><a href="private.php?do=showpm&amp;pmid={m.id}">{html.escape(m.title)}</a>'
                        f'<div class="smallfont">{people}</div></td></tr>')
        # form#pmform round the folder's rows (ENGINES.md §12)
        return (f'<form action="private.php?do=managepm&amp;folderid={folder}" method="post" name="pmform" '
                f'id="pmform">'
                f'<input type="hidden" name="securitytoken" value="{self.token}" /><table class="tborder">{"".join(rows)}'
                f'</table><select name="dowhat"><option value="move">Переместить</option>'
                f'<option value="delete">Удалить</option></select><input type="submit" value="Ок" /></form>')

    def handle(self, method, path, query, form, cookies):
        logged = cookies.get("bbuserid") == str(self.uid(self.bot)) and cookies.get("bbsessionhash") == "vbsess"
        if method == "POST":
            return self.post(path, query, form, logged)
        if path == "index.php":
            return self.answer(200, self.page("<div>Форум</div>", logged))
        if path in ("showthread.php", "printthread.php"):
            if "p" in query:
                for tid, posts in self.posts.items():
                    for i, p in enumerate(posts):
                        if str(p.id) == query["p"]:
                            return self.answer(200, self.thread_page(tid, i // VB_PER_PAGE + 1, logged))
                return self.error_page("Неверно указано сообщение.", logged)
            tid = int(query.get("t", 0))
            if tid not in self.threads:
                return self.error_page("Неверно указана тема.", logged)
            if path == "printthread.php":
                if not self.printable:
                    return self.error_page("Вы не зарегистрированы либо у вас нет доступа к этой странице.", logged)
                per = min(int(query.get("pp", VB_PER_PAGE)), 200)
                return self.answer(200, self.thread_page(tid, int(query.get("page", 1)), logged, True, per))
            number = 10 ** 6 if query.get("goto") == "lastpost" else int(query.get("page", 1))
            return self.answer(200, self.thread_page(tid, number, logged))
        if path == "private.php":
            if not logged:
                return self.error_page("Вы не зарегистрированы либо у вас нет доступа к этой странице.", False)
            if query.get("do") == "showpm":
                m = next((m for m in self.messages if str(m.id) == query.get("pmid")), None)
                if m is None:
                    return self.error_page("Неверно указано личное сообщение.", True)
                post = Post(m.id, "", m.author, m.text, m.sent_at)
                view = self.post_html(post, 1).replace(f'id="post{m.id}"', 'id="post"', 1)
                return self.answer(200, self.page(f'<div class="title">{html.escape(m.title)}</div>{view}', True))
            if query.get("do") == "newpm":
                return self.answer(200, self.page(
                    f'<form action="private.php?do=insertpm&amp;pmid=" method="post" name="vbform">'
                    f'<input type="text" name="recipients" value="" /><input type="text" name="bccrecipients" value="" />'
                    f'<input type="text" name="title" value="" /><textarea name="message"></textarea>'
                    f'<input type="hidden" name="wysiwyg" value="0" /><input type="hidden" name="s" value="" />'
                    f'<input type="hidden" name="securitytoken" value="{self.token}" />'
                    f'<input type="hidden" name="do" value="insertpm" /><input type="hidden" name="pmid" value="" />'
                    f'<input type="checkbox" name="savecopy" value="1" checked="checked" />'
                    f'<input type="submit" name="sbutton" value="Отправить" /></form>', True))
            return self.answer(200, self.page(self.pm_rows(query.get("folderid", "0")), True))
        return self.answer(404, self.page("Not found", logged))

    def post(self, path, query, form, logged):
        if path == "login.php":
            md5 = hashlib.md5(self.password.encode("utf-8")).hexdigest()
            if form.get("vb_login_username") != self.bot or form.get("vb_login_md5password_utf") != md5 \
                    or form.get("securitytoken") != "guest":
                return self.error_page("Вы ввели неправильное имя или пароль.", False)
            self.token = f"{int(self.clock().timestamp())}-{hashlib.sha1(b'x').hexdigest()}"
            uid = self.uid(self.bot)
            status, headers, body = self.redirect_page(f"Спасибо, что зашли, {html.escape(self.bot)}.", "index.php", True)
            headers = [("Content-Type", headers["Content-Type"]), ("Set-Cookie", f"bbuserid={uid}; path=/"),
                       ("Set-Cookie", "bbsessionhash=vbsess; path=/")]
            return status, headers, body
        if not logged:
            return self.error_page("Вы не зарегистрированы либо у вас нет доступа к этой странице.", False)
        if form.get("securitytoken") != self.token:
            return self.error_page("Ваш запрос не может быть обработан, так как маркер безопасности отсутствует "
                                   "или устарел.", True)
        if self.refuse_next:
            return self.error_page(self.refuse_next.pop(0), True)
        if path == "newreply.php":
            tid = int(form.get("t") or query.get("t", 0))
            post = Post(self.next_id("post"), self.threads[tid], self.bot, form["message"], self.now())
            self.posts[tid].append(post)
            return 302, {"Location": f"{self.base}showthread.php?p={post.id}#post{post.id}"}, b""
        if path == "private.php" and query.get("do") == "insertpm":
            names = [n.strip() for n in form.get("recipients", "").split(";") if n.strip()]
            pm = PM(self.next_id("pm"), self.bot, ", ".join(names), form.get("title", ""), form["message"], self.now())
            self.messages.append(pm)
            return self.redirect_page("Спасибо за отправку личного сообщения.", "private.php", True)
        if path == "private.php" and query.get("do") == "managepm":
            gone = {int(k[3:-1]) for k in form if k.startswith("pm[")}
            if form.get("dowhat") == "delete":
                self.deleted = getattr(self, "deleted", set()) | gone
                self.messages = [m for m in self.messages if m.id not in gone or m.author == self.bot]
            return self.redirect_page("Сообщения удалены.", "private.php", True)
        return self.error_page("Неверный запрос.", True)


# --- Invision ------------------------------------------------------------------------------------------------

IPS_PER_PAGE = 25


def ips_comment(cid: int, author: str, uid: int, at: datetime, body: str, topic: int, base: str,
                edited: datetime | None = None) -> str:
    quotedata = html.escape(json.dumps({"userid": uid, "username": author, "timestamp": int(at.timestamp()),
                                        "contentapp": "forums", "contenttype": "forums", "contentid": topic,
                                        "contentclass": "forums_Topic", "contentcommentid": cid}))
    iso = at.strftime("%Y-%m-%dT%H:%M:%SZ")
    edit = ""
    if edited is not None:
        edit = (f"<span class='ipsType_reset ipsType_medium ipsType_light' data-excludequote><strong>Изменено "
                f"<time datetime='{edited:%Y-%m-%dT%H:%M:%SZ}'>{edited:%d.%m.%Y}</time> пользователем "
                f"{html.escape(author)}</strong></span>")
    return f"""<a id="comment-{cid}"></a>
<article id="elComment_{cid}" class="cPost ipsBox ipsComment ipsComment_parent ipsClearfix ipsColumns">
	<aside class="ipsComment_author cAuthorPane ipsColumn ipsColumn_medium">
		<h3 class="ipsType_sectionHead cAuthorPane_author"><strong><a href="{base}profile/{uid}-u/" class="ipsType_break">{html.escape(author)}</a></strong></h3>
	</aside>
	<div class="ipsColumn ipsColumn_fluid">
<div id="comment-{cid}_wrap" data-controller="core.front.core.comment" data-commentapp="forums" data-commenttype="forums" data-commentid="{cid}" data-quotedata="{quotedata}" class="ipsComment_content ipsType_medium">
	<div class="ipsComment_meta ipsType_light"><a href="{base}topic/{topic}-t/?do=findComment&amp;comment={cid}">Опубликовано <time datetime='{iso}' title='{at:%d.%m.%Y %H:%M}'>{at:%d.%m.%Y}</time></a></div>
	<div class="cPost_contentWrap">
		<div data-role="commentContent" class="ipsType_normal ipsType_richText ipsContained">{body}{edit}</div>
	</div>
</div>
	</div>
</article>
"""


def ips_body(text: str) -> str:
    """A player's BBCode-ish text as IPS stores it (HTML); the bot's HTML as sent."""
    if text.startswith("<p>"):
        return text
    return "".join(f"<p>{html.escape(line)}</p>" for line in text.split("\n"))


@dataclass
class IpsBoard(Board):
    base: str = "https://ips.test/"
    csrf: str = "0123456789abcdef0123456789abcdef"

    def page(self, main: str, logged: bool, title: str = "Форум") -> str:
        nav = (f'<a href="{self.base}profile/{self.uid(self.bot)}-bot/" id="elUserLink">{html.escape(self.bot)}</a>'
               f'<a href="{self.base}logout/?csrfKey={self.csrf}&amp;do=logout">Выход</a>') if logged else \
            f'<a href="{self.base}login/" id="elSignInLink">Войти</a>'
        return (f'<!DOCTYPE html><html lang="ru-RU"><head><meta charset="utf-8"><title>{title}</title></head><body>'
                f'<div id="ipsLayout_header">{nav}</div><main id="ipsLayout_body">{main}</main>'
                f'<footer id="ipsLayout_footer" class="ipsClearfix"><p>Powered by Invision Community</p></footer>'
                f'</body></html>')

    def answer(self, status: int, body: str, headers: dict | None = None):
        return status, {"Content-Type": "text/html;charset=UTF-8", **(headers or {})}, body

    def error_page(self, text: str, logged: bool, status: int = 403):
        return self.answer(status, self.page(f'<div id="elError"><div class="ipsType_normal">{text}</div></div>', logged))

    def topic_page(self, tid: int, number: int, logged: bool) -> str:
        posts = self.posts[tid]
        pages = max(1, -(-len(posts) // IPS_PER_PAGE))
        number = min(max(number, 1), pages)
        shown = posts[(number - 1) * IPS_PER_PAGE: number * IPS_PER_PAGE]
        link = (lambda k: f"{self.base}topic/{tid}-t/" + ("" if k == 1 else f"page/{k}/"))
        nav = ""
        if pages > 1:
            items = "".join(f'<li class="ipsPagination_page {"ipsPagination_active" if k == number else ""}">'
                            f'<a href="{link(k)}" data-page="{k}">{k}</a></li>' for k in range(1, pages + 1))
            inactive = "" if number < pages else " ipsPagination_inactive"
            nav = (f'<ul class="ipsPagination" data-pages="{pages}">{items}<li class="ipsPagination_next{inactive}">'
                   f'<a href="{link(min(number + 1, pages))}" rel="next" data-page="{min(number + 1, pages)}">Далее</a>'
                   f'</li><li class="ipsPagination_last"><a href="{link(pages)}" data-page="{pages}">Последняя</a>'
                   f'</li></ul>')
        items = "".join(ips_comment(p.id, p.author, self.uid(p.author), p.posted_at, ips_body(p.text), tid,
                                    self.base, p.edited_at) for p in shown)
        form = ""
        if logged:
            form = (f'<form accept-charset="utf-8" class="ipsForm" action="{self.base}topic/{tid}-t/" method="post">'
                    f'<input type="hidden" name="commentform_{tid}_submitted" value="1">'
                    f'<input type="hidden" name="csrfKey" value="{self.csrf}">'
                    f'<input type="hidden" name="_contentReply" value="1">'
                    f'<textarea name="topic_comment_{tid}" data-role="contentEditor"></textarea>'
                    f'<button type="submit" class="ipsButton">Отправить</button></form>')
        return self.page(f'{nav}<div data-role="commentFeed">{items}</div>{nav}{form}', logged)

    def conversations(self) -> dict[int, list[PM]]:
        out: dict[int, list[PM]] = {}
        for m in self.messages:
            out.setdefault(m.conversation, []).append(m)
        return out

    def add_pm(self, author: str, text: str, at: datetime, subject: str = "") -> PM:
        pm = super().add_pm(author, text, at, subject)
        convs = self.conversations()
        for cid in sorted(convs, reverse=True):
            first = convs[cid][0]
            if first.author == self.bot and author in first.to.split(", ") and not subject and cid:
                pm.conversation = cid
                pm.to = self.bot
                return pm
        pm.conversation = self.next_id("conv")
        return pm

    def handle(self, method, path, query, form, cookies):
        logged = cookies.get("ips4_member_id") == str(self.uid(self.bot))
        if method == "POST":
            return self.post(path, query, form, logged)
        if path == "login/":
            return self.answer(200, self.page(
                f'<form accept-charset="utf-8" method="post" action="{self.base}login/">'
                f'<input type="hidden" name="csrfKey" value="{self.csrf}">'
                f'<input type="hidden" name="ref" value="">'
                f'<input type="text" name="auth" id="auth"><input type="password" name="password" id="password">'
                f'<input type="checkbox" name="remember_me" value="1" checked>'
                f'<button type="submit" name="_processLogin" value="usernamepassword">Войти</button></form>', logged))
        m = re.fullmatch(r"topic/(\d+)(?:-[^/]*)?/(?:page/(\d+)/)?", path)
        if m and int(m.group(1)) in self.threads:
            tid = int(m.group(1))
            if query.get("do") == "findComment":
                for i, p in enumerate(self.posts[tid]):
                    if str(p.id) == query.get("comment"):
                        n = i // IPS_PER_PAGE + 1
                        return self.answer(301, "", {"Location": f"{self.base}topic/{tid}-t/" +
                                                     (f"page/{n}/" if n > 1 else "") + f"#comment-{p.id}"})
                return self.error_page("Запрошенная страница не найдена.", logged, 404)
            if not path.startswith(f"topic/{tid}-"):
                return self.answer(301, "", {"Location": f"{self.base}topic/{tid}-t/" + path.split("/", 2)[2]})
            return self.answer(200, self.topic_page(tid, int(m.group(2) or 1), logged))
        if path.startswith("messenger/"):
            if not logged:
                return self.answer(200, self.page(f'<form method="post" action="{self.base}login/">'
                                                  f'<input type="hidden" name="csrfKey" value="{self.csrf}">'
                                                  f'<input name="auth"><input type="password" name="password"></form>',
                                                  False))
            return self.messenger(path)
        return self.error_page("Запрошенная страница не найдена.", logged, 404)

    def messenger(self, path: str):
        convs = self.conversations()
        if path == "messenger/":
            rows = []
            for cid in sorted(convs, reverse=True):
                msgs = convs[cid]
                members = sorted({msgs[0].author, *msgs[0].to.split(", ")})
                if self.bot not in members:
                    continue
                # participants as plain text, rows li[data-messageid], title a.cMessageTitle (ENGINES.md §12)
                people = html.escape(", ".join(members))
                rows.append(f'<li class="ipsDataItem" data-messageid="{cid}"><div class="ipsDataItem_main">'
                            f'<h4 class="ipsDataItem_title"><a href="{self.base}messenger/{cid}/" class="cMessageTitle">'
                            f'{html.escape(msgs[0].title)}</a></h4><p class="ipsType_light">{people}</p>'
                            f'<time datetime="{msgs[-1].sent_at:%Y-%m-%dT%H:%M:%SZ}">.</time></div></li>')
            return self.answer(200, self.page(f'<ol class="ipsDataList" data-role="messageList">{"".join(rows)}</ol>',
                                              True))
        if path == "messenger/compose/":
            return self.answer(200, self.page(
                f'<form accept-charset="utf-8" method="post" action="{self.base}messenger/compose/">'
                f'<input type="hidden" name="form_submitted" value="1"><input type="hidden" name="csrfKey" '
                f'value="{self.csrf}"><input type="text" name="messenger_to"><input type="text" name="messenger_title">'
                f'<textarea name="messenger_content"></textarea><button type="submit">Отправить</button></form>', True))
        m = re.fullmatch(r"messenger/(\d+)/", path)
        if m and int(m.group(1)) in convs:
            msgs = convs[int(m.group(1))]
            items = "".join(ips_comment(x.id, x.author, self.uid(x.author), x.sent_at, ips_body(x.text), 0, self.base)
                            .replace('data-commentapp="forums"', 'data-commentapp="core"') for x in msgs)
            return self.answer(200, self.page(f'<h1 class="ipsType_pageTitle">{html.escape(msgs[0].title)}</h1>'
                                              f'{items}', True))
        return self.error_page("Запрошенная страница не найдена.", True, 404)

    def post(self, path, query, form, logged):
        if form.get("csrfKey") != self.csrf:
            return self.error_page("Ключ безопасности устарел (csrf). Обновите страницу.", logged)
        if path == "login/":
            if form.get("auth") != self.bot or form.get("password") != self.password:
                return self.answer(200, self.page('<div class="ipsMessage ipsMessage_error">Неверный пароль.</div>',
                                                  False))
            return 301, [("Location", self.base), ("Set-Cookie", f"ips4_member_id={self.uid(self.bot)}; path=/"),
                         ("Set-Cookie", "ips4_IPSSessionFront=s1; path=/")], ""
        if not logged:
            return self.error_page("Извините, у вас нет разрешения на это.", False)
        if self.refuse_next:
            return self.answer(200, self.page(f'<div class="ipsMessage ipsMessage_error">{self.refuse_next.pop(0)}'
                                              f'</div>', True))
        m = re.fullmatch(r"topic/(\d+)(?:-[^/]*)?/", path)
        if m and int(m.group(1)) in self.threads:
            tid = int(m.group(1))
            content = form.get(f"topic_comment_{tid}", "")
            post = Post(self.next_id("post"), self.threads[tid], self.bot, content, self.now())
            self.posts[tid].append(post)
            # a posted reply redirects to the last page with the comment's fragment (ENGINES.md §12)
            n = (len(self.posts[tid]) - 1) // IPS_PER_PAGE + 1
            return self.answer(301, "", {"Location": f"{self.base}topic/{tid}-t/" + (f"page/{n}/" if n > 1 else "")
                                                     + f"#comment-{post.id}"})
        if path == "messenger/compose/":
            # one member per line (ENGINES.md §12)
            names = [n.strip() for n in form.get("messenger_to", "").split("\n") if n.strip()]
            pm = PM(self.next_id("pm"), self.bot, ", ".join(names), form.get("messenger_title", ""),
                    form.get("messenger_content", ""), self.now(), self.next_id("conv"))
            self.messages.append(pm)
            return self.answer(301, "", {"Location": f"{self.base}messenger/{pm.conversation}/"})
        return self.error_page("Запрошенная страница не найдена.", True, 404)
