"""mybb.ru / rusff (QuadroSystems, PunBB 1.2 derived) as a WSGI app (issue 18 item 3), windows-1251.

Served from the saved pages in fixtures/mybbru/: the REAL login form and login answer (the "Переадресация" page,
body.redirect-page / #pun-redirect / `#pun-main div.info div.container`, meta refresh), the REAL reply form with its
anti-bot `process_form()` (its whole line: elements of mixed tags and random ids, junk pieces, the getter, a real
and a decoy chain and both fields drawn anew on every form served, as the saved page builds them: mybbru_antibot.py;
a POST without one served form's two fields is refused), topic pages in the RECONSTRUCTED markup (div.post#pN, h3 a.permalink, .pa-author a, div.post-content,
p.lastedit, div.pagelink), the read API `api.php?method=post.get` as documented (ENGINES.md §3). ENGINES.md §12:
a reply answers with a redirect page and a meta refresh to `viewtopic.php?pid=N#pN`; errors in `#posterror li`;
"At least N seconds have to pass between posts" (PunBB 1.2; 30 s here); messages.php folders `box=0`/`box=1`,
links `messages.php?id=N`, unread rows `.inew`, a message in `#pun-messages .post` with `.post-author`, its
subject in `#pun-main h1`.

No source shows how mybb.ru answers a reply held for premoderation or a PM to a full message box (§12 is silent,
no page was saved, PunBB 1.2 has neither): the emulator's own choice, said here, is the engine's own frames for
both, a redirect page (the info frame and a meta refresh, as every done form) that leads to the topic
(`viewtopic.php?id=N`, no post to point at) for a queued reply, and `#posterror li` on the compose form for a full
box (the recipient's, or the sender's own), in words of its own.

Unverified, the emulator's own choice: the PM compose form (`messages.php?action=new`, `req_username`,
`req_subject`, `req_message`, one recipient) and its answer (a redirect page to the message), a PM flood (the
post flood's words, its own 30 s timer), a login error shown in the info frame ("Неверное имя пользователя или
пароль"), the Russian wording of any error. mybb.ru has no two-step login.

R-13, closing a topic: §12 is silent; built from PunBB 1.2's own moderate.php and viewtopic.php: a moderator of the
forum sees the links `moderate.php?fid=F&close=T` / `&open=T` (which one as the topic is open or closed), the GET
is checked by confirm_referrer('viewtopic.php') (the HTTP Referer must be a viewtopic.php page of the board, else
"Bad HTTP_REFERER"), the topic is set and the redirect page leads back to it; a member who moderates nothing gets
"У вас нет прав для доступа к этой странице."; a closed topic refuses a member's reply. *Unverified*: whether mybb.ru
kept these links, their place on the page (here a `div.modlinks` under the posts), and the Russian wordings.
"""

from __future__ import annotations

import html
import json
import random
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from board import PM, Emulator, Post, Request, Response
from mybbru_antibot import Issued, draw, passes

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "mybbru"
MSK = ZoneInfo("Europe/Moscow")
FLOOD = "At least {0} seconds have to pass between posts. Please wait a while and try posting again."
PER_PAGE = 25
# unverified: how mybb.ru answers a reply held for premoderation (no page was saved, §12 is silent, PunBB 1.2 has
# none); the emulator's own choice: a redirect page to the topic, no post to point at, saying why
QUEUED = "Сообщение отправлено и будет опубликовано после проверки модератором. Переадресация …"
BOX_FULL = "Ящик личных сообщений пользователя {0} заполнен."
OWN_BOX_FULL = "Ваш ящик личных сообщений заполнен. Удалите старые сообщения."


def frame(body_class: str, section: str, main: str, who: str | None, uid: int, head: str = "") -> str:
    nav = (f'<li id="navpm"><a href="messages.php"><span>Сообщения</span></a></li>'
           f'<li id="navlogout"><a href="login.php?action=out&amp;id={uid}"><span>Выход</span></a></li>') if who else \
        '<li id="navlogin"><a href="login.php"><span>Войти</span></a></li>'
    return (f'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">'
            f'<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ru" lang="ru" dir="ltr"><head>'
            f'<meta http-equiv="Content-Type" content="text/html; charset=windows-1251" />{head}<title>Форум</title>'
            f'<script type="text/javascript">var UserID = {uid if who else 1}; var UserLogin = '
            f'\'{html.escape(who or "")}\'; var GroupID = {4 if who else 3};</script></head>'
            f'<body class="{body_class}"><div id="pun_wrap"><div id="pun" class="ru"><div id="{section}" class="punbb">'
            f'<div id="pun-navlinks" class="section"><ul class="container"><li id="navindex"><a href="index.php">'
            f'<span>Форум</span></a></li>{nav}</ul></div>{main}'
            f'<div id="pun-about" class="section"><p class="container">Powered by <a href="https://mybb.ru/">MyBB.ru'
            f'</a></p></div></div></div></div></body></html>')


def stamp(at: float) -> str:
    return datetime.fromtimestamp(at, MSK).strftime("%Y-%m-%d %H:%M:%S")


class Mybbru(Emulator):
    charset = "windows-1251"
    flood = {"post": 30.0, "pm": 30.0}

    def __init__(self, *args, pm_quota: int | None = None, **kw) -> None:
        super().__init__(*args, **kw)
        self.pm_quota = pm_quota  # messages a member's box holds, received and sent (None: no limit)
        self.queued: list[Post] = []  # replies held for a moderator (not in the topic)
        self.moderators: set[str] = set()  # members who moderate the game's forum
        self.closed: set[int] = set()  # topics closed now
        self.no_pms: set[str] = set()  # members whose group may not send private messages (unverified)
        self.antibot_rng = random.Random(28)  # the anti-bot step's names and values, new on every form served
        self.antibot: dict[str, list[Issued]] = {}  # member -> the anti-bot fields of the forms served to him

    def box_size(self, name: str) -> int:
        return sum(1 for m in self.pms if (name in m.to or m.author == name) and name not in m.deleted_by)

    def who(self, req: Request) -> str | None:
        return self.sessions.get(req.cookies.get("mybb_ru", ""))

    def info(self, who: str | None, text: str, target: str | None = None) -> Response:
        """The engine's message frame: a redirect page (meta refresh) when `target` is given."""
        head = f'<meta http-equiv="refresh" content="1;URL={html.escape(self.base + target)}" />' if target else ""
        main = (f'<div id="pun-main" class="main"><h1 class="main-title"><span>{"Переадресация" if target else "Информация"}'
                f'</span></h1><div class="info"><div class="container">{html.escape(text)}</div></div></div>')
        return self.html(frame("redirect-page" if target else "", "pun-redirect" if target else "pun-message", main,
                               who, self.uid(who) if who else 1, head))

    def saved(self, name: str, charset: str) -> str:
        text = (FIXTURES / name).read_bytes().decode(charset)
        return re.sub(r"https://gamestories\.clanboard\.ru/", self.base, text)

    # --- requests ----------------------------------------------------------------------------------------------

    def handle(self, req: Request) -> Response:
        from mybbru_messages import messages

        who = self.who(req)
        if req.path == "login.php":
            return self.login(req, who)
        if req.path == "api.php":
            return self.api(req)
        if req.path == "viewtopic.php":
            return self.viewtopic(req, who)
        if req.path == "post.php":
            return self.post(req, who)
        if req.path == "moderate.php":
            return self.moderate(req, who)
        if req.path == "messages.php":
            if who is None:
                return self.info(None, "Вы не зарегистрированы или не вошли.")
            return messages(self, req, who)
        return self.html(frame("", "pun-index", '<div id="pun-main">Форум</div>', who, self.uid(who) if who else 1))

    def login(self, req: Request, who: str | None) -> Response:
        if req.method == "GET":
            if req.query.get("action") == "out":
                return self.info(None, "Выход.", "index.php")
            return self.html(self.saved("b-login-form-ru.clanboard.REAL-TRIMMED.html", "utf-8"))
        name = self.member(req.form.get("req_username", ""))
        if name is None or self.users[name][1] != req.form.get("req_password"):
            return self.info(None, "Неверное имя пользователя или пароль.")
        sid = self.new_session(name)
        page = self.saved("b-login-answer-success-ru.clanboard.REAL.html", "utf-8")
        return Response(200, page.encode("cp1251", "xmlcharrefreplace"), [
            ("Content-Type", "text/html; charset=windows-1251"), ("Set-Cookie", f"mybb_ru={sid}; path=/")])

    def api(self, req: Request) -> Response:
        if req.query.get("method") != "post.get":
            body = {"error": {"code": 2, "message": "Unknown method"}}
        else:
            tid = int(req.query.get("topic_id", "0") or 0)
            posts = self.thread_posts(tid)
            skip, limit = int(req.query.get("skip", "0") or 0), min(int(req.query.get("limit", "50") or 50), 100)
            body = {"response": [{"id": str(p.id), "username": html.escape(p.author), "user_id": str(self.uid(p.author)),
                                  "message": html.escape(self.body(p.text)), "posted": str(int(p.at)),
                                  "edited": str(int(p.edited_at or 0)), "topic_id": str(tid)}
                                 for p in posts[skip:skip + limit]]}
        return Response(200, json.dumps(body).encode(), [("Content-Type", "application/json; charset=utf-8")])

    @staticmethod
    def body(text: str) -> str:
        return "<p>" + html.escape(text).replace("\n", "<br />") + "</p>"

    def post_html(self, p: Post, n: int) -> str:
        edit = f'<p class="lastedit">Отредактировано {html.escape(p.edited_by)} ({stamp(p.edited_at)})</p>' \
            if p.edited_at else ""
        return (f'<div id="p{p.id}" class="post" data-posted="{int(p.at)}" data-user-id="{self.uid(p.author)}" '
                f'data-group-id="4"><h3><span><strong>{n}</strong> <a class="permalink" rel="nofollow" '
                f'href="viewtopic.php?pid={p.id}#p{p.id}">{stamp(p.at)}</a></span></h3><div class="container">'
                f'<div class="post-author"><ul><li class="pa-author"><span class="acchide">Автор:&nbsp;</span>'
                f'<a href="profile.php?id={self.uid(p.author)}" rel="nofollow">{html.escape(p.author)}</a></li></ul>'
                f'</div><div class="post-body"><div class="post-box"><div id="p{p.id}-content" class="post-content">'
                f'{self.body(p.text)}{edit}</div></div></div></div></div>')

    def viewtopic(self, req: Request, who: str | None) -> Response:
        if "pid" in req.query:
            post = next((p for p in self.posts if str(p.id) == req.query["pid"]), None)
            if post is None:
                return self.info(who, "Неверная ссылка.")
            tid, number = post.tid, self.thread_posts(post.tid).index(post) // PER_PAGE + 1
        else:
            tid = int(req.query.get("id", "0") or 0)
            number = 10 ** 6 if req.query.get("action") == "last" else int(req.query.get("p", "1") or 1)
        if tid not in self.threads:
            return self.info(who, "Неверная ссылка.")
        posts = self.thread_posts(tid)
        pages = max(1, -(-len(posts) // PER_PAGE))
        number = min(max(number, 1), pages)
        shown = posts[(number - 1) * PER_PAGE: number * PER_PAGE]
        links = " ".join(f"<strong>{k}</strong>" if k == number else
                         f'<a href="viewtopic.php?id={tid}&amp;p={k}">{k}</a>' for k in range(1, pages + 1))
        if number < pages:
            links += f' <a class="next" href="viewtopic.php?id={tid}&amp;p={number + 1}">Следующая</a>'
        nav = f'<div class="linkst"><div class="pagelink">Страница: {links}</div></div>'
        items = "".join(self.post_html(p, (number - 1) * PER_PAGE + i + 1) for i, p in enumerate(shown))
        mod = ""
        if who in self.moderators:  # PunBB 1.2's moderator links (R-13)
            action, label = ("open", "Открыть тему") if tid in self.closed else ("close", "Закрыть тему")
            mod = (f'<div class="modlinks"><a href="moderate.php?fid=1&amp;{action}={tid}">{label}</a> '
                   f'<a href="moderate.php?fid=1&amp;move_topics={tid}">Перенести тему</a></div>')
        closed = '<p class="closedtext">Тема закрыта</p>' if tid in self.closed else ""
        main = (f'<div id="pun-main" class="main">{nav}{closed}<h1><span>{html.escape(self.threads[tid])}</span></h1>'
                f'<div id="topic_t{tid}" class="topic">{items}</div>{nav}{mod}</div>')
        return self.html(frame("", "pun-viewtopic", main, who, self.uid(who) if who else 1))

    def reply_form(self, who: str, tid: int, errors: list[str] = ()) -> Response:
        page, issued = draw(self.saved("c-reply-form-antibot-whole.clanboard.REAL-TRIMMED.html", "cp1251"),
                            self.antibot_rng)
        self.antibot.setdefault(who, []).append(issued)
        page = page.replace("post.php?action=post&amp;tid=22", f"post.php?action=post&amp;tid={tid}")
        if errors:
            items = "".join(f"<li><strong>{html.escape(e)}</strong></li>" for e in errors)
            block = (f'<div id="posterror" class="section"><h2><span>Ошибки при отправке</span></h2>'
                     f'<div class="container"><ul>{items}</ul></div></div>')
            page = page.replace('<form id="post"', block + '<form id="post"', 1)
        return self.html(page)

    def post(self, req: Request, who: str | None) -> Response:
        tid = int(req.query.get("tid", "0") or 0)
        if who is None:
            return self.info(None, "У вас нет прав для доступа к этой странице.")
        if tid not in self.threads:
            return self.info(who, "Неверная ссылка.")
        if tid in self.closed and who not in self.moderators:
            return self.info(who, "Тема закрыта, отвечать в ней нельзя.")
        if req.method == "GET":
            return self.reply_form(who, tid)
        if not passes(req.form, self.antibot.get(who, [])):
            return self.info(who, "Ошибка отправки формы. Включите JavaScript.")
        left = self.flood_left(who, "post")
        if left:
            return self.reply_form(who, tid, [FLOOD.format(int(self.flood["post"]))])
        self.acted(who, "post")
        if who in self.moderated:
            self.queued.append(Post(self.next_id("post"), tid, who, req.form.get("req_message", ""), self.clock()))
            return self.info(who, QUEUED, f"viewtopic.php?id={tid}")
        post = self.add_post(tid, who, req.form.get("req_message", ""))
        return self.info(who, "Сообщение отправлено. Переадресация …", f"viewtopic.php?pid={post.id}#p{post.id}")

    def moderate(self, req: Request, who: str | None) -> Response:
        """PunBB 1.2's moderate.php, one topic closed or opened by GET (R-13)."""
        if who is None or who not in self.moderators:
            return self.info(who, "У вас нет прав для доступа к этой странице.")
        action = "close" if "close" in req.query else "open" if "open" in req.query else ""
        tid = int(req.query.get(action, "0") or 0) if action else 0
        if not action or tid not in self.threads:
            return self.info(who, "Неверная ссылка.")
        referer = req.headers.get("referer", "")
        if not re.match(re.escape(self.base) + r"viewtopic\.php", referer):
            return self.info(who, "Bad HTTP_REFERER. You were referred to this page from an unauthorized source.")
        (self.closed.add if action == "close" else self.closed.discard)(tid)
        said = "Тема закрыта. Переадресация …" if action == "close" else "Тема открыта. Переадресация …"
        return self.info(who, said, f"viewtopic.php?id={tid}")

    def pm_html(self, m: PM) -> str:
        return self.post_html(Post(m.id, 0, m.author, m.text, m.at), 1).replace(
            f'viewtopic.php?pid={m.id}#p{m.id}', f'messages.php?id={m.id}')
