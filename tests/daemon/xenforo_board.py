"""A fake XenForo 2 board behind `responses`: threads, conversations and the bot's session, served as pages built
from the real saved thread page (fixtures/xenforo/a-thread-xf20-en-guest.xenforo.com.REAL.html: its skeleton,
its post markup) and answering POSTs as XenForo's JSON renderer does ({"status": "ok", "redirect": ...} or
{"status": "error", "errors": [...]}). Markup no real page shows (conversations, quotes, pageNav) follows
XenForo's documented templates, as the adapter's `unverified` list says.

It also plays the other side for daemon_world.World: `add_post`, `add_pm`, `posts_by`, `pms`.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qsl, urlparse

import responses

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "xenforo"
REAL = FIXTURES / "a-thread-xf20-en-guest.xenforo.com.REAL.html"
BASE = "https://xf.test/community/"
TOKEN_COOKIE = "xf_csrf"
PER_PAGE = 20

_ARTICLE = """<article class="message message--{kind} js-post js-inlineModContainer  " data-author="{author}" \
data-content="{content}" id="js-{jsid}">
		<span class="u-anchorTarget" id="{anchor}"></span>
		<div class="message-inner">
			<div class="message-cell message-cell--user">
	<section itemscope="" itemtype="https://schema.org/Person" class="message-user">
		<div class="message-userDetails">
			<h4 class="message-name"><a href="/community/members/{slug}.{uid}/" class="username " dir="auto" \
data-user-id="{uid}" data-xf-init="member-tooltip" itemprop="name">{author}</a></h4>
			<h5 class="userTitle message-userTitle" dir="auto" itemprop="jobTitle">Участник</h5>
		</div>
		<span class="message-userArrow"></span>
	</section>
			</div>
			<div class="message-cell message-cell--main">
				<div class="message-main js-quickEditTarget">
					<header class="message-attribution message-attribution--split">
						<div class="message-attribution-main">
							<a href="/community/{permalink}" class="u-concealed" rel="nofollow">
								<time class="u-dt" dir="auto" datetime="{iso}" data-time="{unix}" \
data-date-string="{date}" data-time-string="{clock}" title="{date} в {clock}">{shown}</time>
							</a>
						</div>
						<ul class="message-attribution-opposite message-attribution-opposite--list">
							<li><a href="/community/{permalink}" rel="nofollow">#{number}</a></li>
						</ul>
					</header>
					<div class="message-content js-messageContent">
						<div class="message-userContent lbContainer js-lbContainer " data-lb-id="{content}">
							<article class="message-body js-selectToQuote">
								<div class="bbWrapper">{body}</div>
								<div class="js-selectToQuoteEnd">&nbsp;</div>
							</article>
							{edit}
						</div>
						{signature}
					</div>
				</div>
			</div>
		</div>
	</article>
"""


def bbcode(text: str) -> str:
    """What XF renders of the few BBCode tags the tests use; everything else escaped, lines as <br />."""
    out = html.escape(text, quote=False)
    out = re.sub(r'\[quote="?([^\]",]+?)(?:, post: (\d+))?"?\](.*?)\[/quote\]',
                 lambda m: ('<blockquote class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote" '
                            f'data-quote="{m.group(1)}" data-source="post: {m.group(2) or 0}">'
                            f'<div class="bbCodeBlock-title">{m.group(1)} сказал(а):</div>'
                            '<div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">'
                            f'{m.group(3)}</div></div></blockquote>'), out, flags=re.S)
    out = re.sub(r"\[quote\](.*?)\[/quote\]",
                 r'<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-content">'
                 r'<div class="bbCodeBlock-expandContent">\1</div></div></blockquote>', out, flags=re.S)
    out = re.sub(r"\[spoiler(?:=([^\]]*))?\](.*?)\[/spoiler\]",
                 r'<div class="bbCodeSpoiler"><button type="button" class="button bbCodeSpoiler-button">'
                 r'<span class="bbCodeSpoiler-button-title">\1</span></button>'
                 r'<div class="bbCodeSpoiler-content"><div class="bbCodeBlock bbCodeBlock--spoiler">'
                 r'<div class="bbCodeBlock-content">\2</div></div></div></div>', out, flags=re.S)
    out = re.sub(r"\[ispoiler\](.*?)\[/ispoiler\]", r'<span class="bbCodeInlineSpoiler">\1</span>', out, flags=re.S)
    out = re.sub(r"\[code\](.*?)\[/code\]", r'<div class="bbCodeBlock bbCodeBlock--code"><div '
                 r'class="bbCodeBlock-content"><pre class="bbCodeCode"><code>\1</code></pre></div></div>',
                 out, flags=re.S)
    out = re.sub(r"\[b\](.*?)\[/b\]", r"<b>\1</b>", out, flags=re.S)
    return out.replace("\n", "<br />\n")


def _stamp(at: datetime) -> dict[str, str]:
    msk = at.astimezone(timezone.utc)
    return {"iso": msk.strftime("%Y-%m-%dT%H:%M:%S+0000"), "unix": str(int(at.timestamp())),
            "date": msk.strftime("%d.%m.%Y"), "clock": msk.strftime("%H:%M"), "shown": "Сегодня в " + msk.strftime("%H:%M")}


def article(kind: str, content: str, jsid: str, anchor: str, author: str, uid: int, at: datetime, body: str,
            permalink: str, number: int, edited: datetime | None = None, signature: str = "") -> str:
    edit = ""
    if edited is not None:
        e = _stamp(edited)
        edit = (f'<div class="message-lastEdit">Последнее редактирование: <time class="u-dt" dir="auto" '
                f'datetime="{e["iso"]}" data-time="{e["unix"]}">{e["shown"]}</time></div>')
    sig = (f'<aside class="message-signature"><div class="bbWrapper">{bbcode(signature)}</div></aside>'
           if signature else "")
    return _ARTICLE.format(kind=kind, content=content, jsid=jsid, anchor=anchor, author=html.escape(author),
                           slug="u", uid=uid, permalink=permalink, number=number, body=body, edit=edit,
                           signature=sig, **_stamp(at))


def page_nav(base: str, current: int, pages: int) -> str:
    if pages <= 1:
        return ""
    link = (lambda n: f"/community/{base}" + ("" if n == 1 else f"page-{n}"))
    items = "".join(f'<li class="pageNav-page {"pageNav-page--current" if n == current else ""}">'
                    f'<a href="{link(n)}">{n}</a></li>' for n in range(1, pages + 1))
    prev = f'<a href="{link(current - 1)}" class="pageNav-jump pageNav-jump--prev">Назад</a>' if current > 1 else ""
    nxt = f'<a href="{link(current + 1)}" class="pageNav-jump pageNav-jump--next">Вперёд</a>' if current < pages else ""
    return (f'<nav class="pageNavWrapper pageNavWrapper--mixed "><div class="pageNav  ">{prev}'
            f'<ul class="pageNav-main">{items}</ul>{nxt}</div></nav>')


_SKELETON: dict[str, str] = {}


def skeleton() -> str:
    """The real page with its 8 posts, its title and its nav cut out, Russian and logged in."""
    if "page" not in _SKELETON:
        src = REAL.read_text(encoding="utf-8")
        start = src.index('<div class="block-body js-replyNewMessageContainer">')
        body_start = start + len('<div class="block-body js-replyNewMessageContainer">')
        # the posts end where their container closes: the last </article> of the thread
        last = src.rindex("</article>", body_start) + len("</article>")
        page = src[:body_start] + "{MAIN}" + src[last:]
        page = page.replace('<h1 class="p-title-value">a dark theme option</h1>', '<h1 class="p-title-value">{TITLE}</h1>')
        page = page.replace('data-logged-in="false"', 'data-logged-in="{LOGGED}"').replace('lang="en-US"', 'lang="ru-RU"')
        page = page.replace("conversations_unread: '0'", "conversations_unread: '{UNREAD}'")
        page = page.replace("1562130994,d8f3b3c32cbd2529ed60e8a76656f7c7", "{CSRF}")
        page = page.replace("{", "{{").replace("}", "}}")
        for key in ("MAIN", "TITLE", "LOGGED", "UNREAD", "CSRF", "NAV"):
            page = page.replace("{{" + key + "}}", "{" + key + "}")
        _SKELETON["page"] = page
    return _SKELETON["page"]


def render(main: str, title: str, logged_in: bool, unread: int, csrf: str, nav: str = "") -> str:
    return skeleton().format(MAIN=nav + main + nav, TITLE=html.escape(title), LOGGED="true" if logged_in else "false",
                             UNREAD=unread, CSRF=csrf, NAV="")


# --- the board's state --------------------------------------------------------------------------------------


@dataclass
class Post:
    id: int
    topic: str  # as the game names the thread (its URL)
    author: str
    text: str
    posted_at: datetime
    edited_at: datetime | None = None


@dataclass
class Message:
    id: int
    author: str
    text: str
    sent_at: datetime


@dataclass
class Conversation:
    id: int
    title: str
    starter: str
    members: list[str]
    messages: list[Message] = field(default_factory=list)
    read: dict[str, int] = field(default_factory=dict)  # user -> last message id read


@dataclass
class _SentPM:  # what daemon_world.World.bot_pms reads
    to: str
    pm: Message


@dataclass
class Board:
    bot: str
    password: str
    clock: Callable[[], float]  # unix seconds, shared with the adapter's transport
    threads: dict[int, tuple[str, str]] = field(default_factory=dict)  # id -> (slug, the game's URL for it)
    posts: dict[int, list[Post]] = field(default_factory=dict)
    conversations: dict[int, Conversation] = field(default_factory=dict)
    users: dict[str, int] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)  # user -> BBCode shown under his posts
    flood_seconds: int = 30
    last_action: dict[str, float] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    refuse_next: list[dict] = field(default_factory=list)  # JSON answers to give the next POSTs instead
    _ids: dict[str, int] = field(default_factory=lambda: {"post": 5000, "conv": 300, "msg": 9000})

    def thread(self, tid: int, slug: str, url: str) -> None:
        self.threads[tid] = (slug, url)
        self.posts.setdefault(tid, [])

    def uid(self, name: str) -> int:
        return self.users.setdefault(name, len(self.users) + 2)

    def _next(self, kind: str) -> int:
        self._ids[kind] += 1
        return self._ids[kind]

    def now(self) -> datetime:
        return datetime.fromtimestamp(int(self.clock()), timezone.utc)

    # --- the other side, as daemon_world.World drives MemoryForum ----------------------------------------

    def tid_of(self, topic: str) -> int:
        for tid, (_, url) in self.threads.items():
            if url == topic or str(tid) == topic:
                return tid
        raise KeyError(topic)

    def add_post(self, topic: str, author: str, text: str, at: datetime) -> Post:
        tid = self.tid_of(topic)
        post = Post(self._next("post"), self.threads[tid][1], author, text, at)
        self.posts[tid].append(post)
        return post

    def add_pm(self, author: str, text: str, at: datetime, subject: str = "") -> Message:
        """A player writes to the bot: inside the newest conversation the bot started with him, else a new one."""
        msg = Message(self._next("msg"), author, text, at)
        for conv in sorted(self.conversations.values(), key=lambda c: -c.id):
            if conv.starter == self.bot and author in conv.members and not subject:
                conv.messages.append(msg)
                return msg
        conv = Conversation(self._next("conv"), subject or "Ход", author, [author, self.bot])
        conv.messages.append(msg)
        self.conversations[conv.id] = conv
        return msg

    def posts_by(self, author: str, topic: str | None = None) -> list[Post]:
        return [p for tid in sorted(self.posts) for p in self.posts[tid]
                if p.author == author and (topic is None or p.topic == topic)]

    @property
    def pms(self) -> list[_SentPM]:
        out = []
        for conv in sorted(self.conversations.values(), key=lambda c: c.id):
            for m in conv.messages:
                if m.author == self.bot:
                    out.append(_SentPM(", ".join(n for n in conv.members if n != self.bot), m))
        return out

    # --- HTTP ------------------------------------------------------------------------------------------------

    def install(self, mock: responses.RequestsMock) -> None:
        pattern = re.compile(re.escape(BASE) + ".*")
        for method in ("GET", "POST"):
            mock.add_callback(method, pattern, callback=self.handle)

    def handle(self, request) -> tuple[int, dict[str, str], str]:
        url = urlparse(request.url)
        path = url.path[len(urlparse(BASE).path):]
        self.requests.append((request.method, path))
        cookies = dict(c.split("=", 1) for c in (request.headers.get("Cookie") or "").split("; ") if "=" in c)
        logged = cookies.get("xf_user") == "bot-session"
        headers = {"Content-Type": "text/html; charset=utf-8"}
        csrf = cookies.get(TOKEN_COOKIE)
        if not csrf:
            csrf = f"{int(self.clock())},t{len(self.requests)}"
            headers["Set-Cookie"] = f"{TOKEN_COOKIE}={csrf}; Path=/"
        if request.method == "POST":
            form = dict(parse_qsl(request.body if isinstance(request.body, str) else request.body.decode()))
            return self.post(path, form, logged, csrf, headers)
        return self.get(path, logged, csrf, headers)

    def page(self, main: str, title: str, logged: bool, csrf: str, nav: str = "") -> str:
        unread = 0
        if logged:
            unread = sum(1 for c in self.conversations.values()
                         if self.bot in c.members and c.messages and c.read.get(self.bot, 0) < c.messages[-1].id)
        return render(main, title, logged, unread, csrf, nav)

    def get(self, path: str, logged: bool, csrf: str, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
        if path == "login/":
            return 200, headers, self.page(_LOGIN_FORM, "Вход", logged, csrf)
        m = re.fullmatch(r"posts/(\d+)/", path)
        if m:
            for tid, posts in self.posts.items():
                for i, p in enumerate(posts):
                    if p.id == int(m.group(1)):
                        slug = self.threads[tid][0]
                        n = i // PER_PAGE + 1
                        target = f"{BASE}threads/{slug}.{tid}/" + (f"page-{n}" if n > 1 else "") + f"#post-{p.id}"
                        return 303, {**headers, "Location": target}, ""
            return 404, headers, self.page(_ERROR.format("Запрошенное сообщение не найдено."), "Ошибка", logged, csrf)
        m = re.fullmatch(r"threads/(?:[^/]*\.)?(\d+)/(?:page-(\d+))?", path)
        if m and int(m.group(1)) in self.threads:
            return 200, headers, self.thread_page(int(m.group(1)), int(m.group(2) or 1), logged, csrf)
        if not logged and path.startswith("conversations"):
            return 403, headers, self.page(_LOGIN_FORM, "Вход", False, csrf)
        if path in ("conversations/", "conversations/add"):
            return 200, headers, self.page(self.conversation_list() if path.endswith("/") else _COMPOSE_FORM,
                                           "Личные переписки", logged, csrf)
        m = re.fullmatch(r"conversations/(?:[^/]*\.)?(\d+)/(?:page-(\d+))?", path)
        if m and int(m.group(1)) in self.conversations:
            return 200, headers, self.conversation_page(int(m.group(1)), int(m.group(2) or 1), csrf)
        return 404, headers, self.page(_ERROR.format("Запрошенная страница не найдена."), "Ошибка", logged, csrf)

    def thread_page(self, tid: int, number: int, logged: bool, csrf: str) -> str:
        slug = self.threads[tid][0]
        posts = self.posts[tid]
        pages = max(1, -(-len(posts) // PER_PAGE))
        shown = posts[(number - 1) * PER_PAGE: number * PER_PAGE]
        main = "".join(article("post", f"post-{p.id}", f"post-{p.id}", f"post-{p.id}", p.author, self.uid(p.author),
                               p.posted_at, bbcode(p.text), f"threads/{slug}.{tid}/post-{p.id}",
                               (number - 1) * PER_PAGE + i + 1, p.edited_at, self.signatures.get(p.author, ""))
                       for i, p in enumerate(shown))
        return self.page(main, slug, logged, csrf, page_nav(f"threads/{slug}.{tid}/", number, pages))

    def conversation_list(self) -> str:
        rows = []
        for c in sorted(self.conversations.values(), key=lambda c: -c.messages[-1].id):
            if self.bot not in c.members:
                continue
            last = c.messages[-1]
            unread = "is-unread" if c.read.get(self.bot, 0) < last.id else ""
            people = "".join(f'<li><a href="/community/members/u.{self.uid(n)}/" class="username" '
                             f'data-user-id="{self.uid(n)}">{html.escape(n)}</a></li>' for n in c.members)
            s = _stamp(last.sent_at)
            rows.append(
                f'<div class="structItem structItem--conversation {unread} js-inlineModContainer" '
                f'data-author="{html.escape(c.starter)}">'
                f'<div class="structItem-cell structItem-cell--main"><div class="structItem-title">'
                f'<a href="/community/conversations/k.{c.id}/" class="" data-tp-primary="on">{html.escape(c.title)}</a>'
                f'</div><div class="structItem-minor"><ul class="structItem-parts">'
                f'<li><ul class="listInline listInline--comma listInline--selfInline">{people}</ul></li></ul></div></div>'
                f'<div class="structItem-cell structItem-cell--meta"><dl class="pairs pairs--justified">'
                f'<dt>Ответы</dt><dd>{len(c.messages) - 1}</dd></dl><dl class="pairs pairs--justified '
                f'structItem-minor"><dt>Участники</dt><dd>{len(c.members)}</dd></dl></div>'
                f'<div class="structItem-cell structItem-cell--latest"><time class="structItem-latestDate u-dt" '
                f'datetime="{s["iso"]}" data-time="{s["unix"]}">{s["shown"]}</time></div></div>')
        return '<div class="structItemContainer">' + "".join(rows) + "</div>"

    def conversation_page(self, cid: int, number: int, csrf: str) -> str:
        c = self.conversations[cid]
        pages = max(1, -(-len(c.messages) // PER_PAGE))
        shown = c.messages[(number - 1) * PER_PAGE: number * PER_PAGE]
        if shown:
            c.read[self.bot] = max(c.read.get(self.bot, 0), shown[-1].id)
        main = "".join(article("conversationMessage", f"conversation-message-{m.id}", f"message-{m.id}",
                               f"convMessage-{m.id}", m.author, self.uid(m.author), m.sent_at, bbcode(m.text),
                               f"conversations/messages/{m.id}/", (number - 1) * PER_PAGE + i + 1)
                       for i, m in enumerate(shown))
        return self.page(main, c.title, True, csrf, page_nav(f"conversations/k.{cid}/", number, pages))

    def post(self, path: str, form: dict[str, str], logged: bool, csrf: str,
             headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
        headers = {**headers, "Content-Type": "application/json; charset=utf-8"}

        def answer(body: dict, status: int = 200):
            return status, headers, json.dumps(body, ensure_ascii=False)

        if form.get("_xfToken") != csrf:
            return answer({"status": "error", "errors": [
                "Security error occurred. Please press back, refresh the page, and try again."]}, 400)
        if self.refuse_next:
            return answer(self.refuse_next.pop(0), 400)
        if path == "login/login":
            if form.get("login") != self.bot or form.get("password") != self.password:
                return answer({"status": "error", "errors": ["Неверный пароль. Пожалуйста, попробуйте ещё раз."]}, 400)
            headers["Set-Cookie"] = "xf_user=bot-session; Path=/; HttpOnly"
            return answer({"status": "ok", "message": "", "redirect": BASE})
        if not logged:
            return answer({"status": "error", "errors": ["Вы должны войти, чтобы выполнить это действие."]}, 403)
        kind = "conversation" if path == "conversations/add" else "post"
        wait = self.flood_seconds - (self.clock() - self.last_action.get(kind, -1e9))
        if wait > 0:
            return answer({"status": "error", "errors": [
                f"Вы должны подождать как минимум {int(wait) + 1} сек. перед выполнением этого действия."]}, 400)
        m = re.fullmatch(r"threads/(?:[^/]*\.)?(\d+)/add-reply", path)
        if m and int(m.group(1)) in self.threads and form.get("message"):
            self.last_action[kind] = self.clock()
            tid = int(m.group(1))
            post = Post(self._next("post"), self.threads[tid][1], self.bot, form["message"], self.now())
            self.posts[tid].append(post)
            return answer({"status": "ok", "message": "Ваше сообщение опубликовано.", "redirect": f"{BASE}posts/{post.id}/"})
        if kind == "conversation":
            names = [n.strip() for n in form.get("recipients", "").split(",") if n.strip()]
            if not names or not form.get("title") or not form.get("message"):
                return answer({"status": "error", "errors": {"title": "Пожалуйста, введите корректный заголовок."}}, 400)
            self.last_action[kind] = self.clock()
            conv = Conversation(self._next("conv"), form["title"], self.bot, [self.bot, *names])
            msg = Message(self._next("msg"), self.bot, form["message"], self.now())
            conv.messages.append(msg)
            conv.read[self.bot] = msg.id
            self.conversations[conv.id] = conv
            return answer({"status": "ok", "message": "", "redirect": f"{BASE}conversations/k.{conv.id}/"})
        return answer({"status": "error", "errors": ["Запрошенная страница не найдена."]}, 404)


_LOGIN_FORM = """<div class="block"><form action="/community/login/login" method="post" class="block">
<input type="text" name="login" /><input type="password" name="password" />
<input type="checkbox" name="remember" value="1" checked="checked" />
<input type="hidden" name="_xfRedirect" value="https://xf.test/community/" /></form></div>"""

_COMPOSE_FORM = """<form action="/community/conversations/add" method="post" class="block">
<input type="text" name="recipients" /><input type="text" name="title" />
<div class="bbWrapper"></div><textarea name="message_html"></textarea></form>"""

_ERROR = '<div class="blockMessage blockMessage--error blockMessage--iconic">{}</div>'


def synthesized_pages() -> dict[str, str]:
    """The S-*.html fixtures: pages of kinds no real saved page shows, as this board serves them
    (`python3 tests/daemon/xenforo_board.py` writes them). Their markup is XenForo's documented markup: unverified.
    "conversation-302" (the other conversation of the list) and "thread-page-3" are served by tests, not saved."""
    t = [1796119200.0]  # 2026-12-01 10:00 UTC
    b = Board("МафБот", "pw", lambda: t[0])
    url = BASE + "threads/mafiya-igra-1.101/"
    b.thread(101, "mafiya-igra-1", url)
    b.signatures["Шериф"] = "Играю честно. [b]Подпись[/b]: голосую Маф1"
    at = lambda minute: datetime.fromtimestamp(t[0] - 3600 + minute * 60, timezone.utc)  # noqa: E731
    for i in range(20):
        b.add_post(url, f"Игрок{i % 7}", f"Сообщение {i + 1}", at(i))
    b.add_post(url, "Шериф", "голосую Маф1", at(21))
    b.add_post(url, "Дон", '[quote="Шериф, post: 5021"]голосую Маф1[/quote]\nА я за Шериф', at(22))
    edited = b.add_post(url, "М1", "голос: Дон\n[spoiler=Мысли]Маф2[/spoiler] и [ispoiler]Маф1[/ispoiler]", at(23))
    edited.edited_at = at(26)
    b.add_post(url, "М2", "[code]голос Маф2[/code]\nМаф1", at(24))
    for i in range(22):
        b.add_post(url, f"Игрок{i % 7}", f"Дальше {i + 1}", at(30 + i))
    pages = {"S-thread-ru-loggedin-page2.html": b.thread_page(101, 2, True, "1796119200,abcdef0123456789"),
             "thread-page-3": b.thread_page(101, 3, True, "1796119200,abcdef0123456789")}
    role = Conversation(301, "Ваша роль", "МафБот", ["МафБот", "Дон"])
    role.messages += [Message(9001, "МафБот", "Ваша роль: Дон.\n\n#fb:1a2b3c4d", at(0)),
                      Message(9002, "Дон", "подтверждаю", at(5)),
                      Message(9003, "Дон", "[quote=\"МафБот\"]Ваша роль[/quote]\nубить М2", at(40))]
    role.read["МафБот"] = 9002
    other = Conversation(302, "Ход", "Шериф", ["Шериф", "МафБот"])
    other.messages.append(Message(9004, "Шериф", "проверка Дон", at(41)))
    b.conversations = {301: role, 302: other}
    pages["S-conversations-list-ru.html"] = b.page(b.conversation_list(), "Личные переписки", True, "1796119200,abcdef0123456789")
    pages["S-conversation-view-ru.html"] = b.conversation_page(301, 1, "1796119200,abcdef0123456789")
    pages["S-login-ru.html"] = b.page(_LOGIN_FORM, "Вход", False, "1796119200,abcdef0123456789")
    pages["conversation-302"] = b.conversation_page(302, 1, "1796119200,abcdef0123456789")
    return pages


if __name__ == "__main__":
    for name, body in synthesized_pages().items():
        if name.startswith("S-"):
            (FIXTURES / name).write_text(body, encoding="utf-8")
