"""The WSGI application: XF's routes, friendly (`/community/threads/...`) or plain (`/community/index.php?threads/
...`), answering a POST asked with `_xfResponseType=json` as XF\\Mvc\\Renderer\\Json does: {"status": "ok",
"redirect": URL}, {"status": "error", "errors": [...]}, or {"status": "ok", "html": {...}} for a re-rendered
view (a refused login), each with `visitor.conversations_unread` (ENGINES.md §12)."""

from __future__ import annotations

import html
import json
import re
import secrets
from http.cookies import SimpleCookie
from typing import Any, Callable, Iterable
from urllib.parse import parse_qsl, quote, unquote

from xfemu import api, pages
from xfemu.state import FLOOD_DISCUSSION, FLOOD_POST, PER_PAGE, PHRASES, Board, Thread, fold

BASE = "/community/"
_REF = r"(?:[^/]*\.)?(\d+)"
Answer = tuple[str, list[tuple[str, str]], bytes]


class Request:
    def __init__(self, environ: dict[str, Any], board: Board) -> None:
        self.method = environ["REQUEST_METHOD"]
        path = unquote(environ.get("PATH_INFO", ""))
        query = environ.get("QUERY_STRING", "")
        self.plain = path == BASE + "index.php"
        if self.plain:  # index.php?threads/1/&page=2: the route is the first query item, without a value
            first, _, rest = query.partition("&")
            self.route, query = unquote(first), rest
        else:
            self.route = path[len(BASE):] if path.startswith(BASE) else None
        self.query = dict(parse_qsl(query))
        self.cookies = {k: v.value for k, v in SimpleCookie(environ.get("HTTP_COOKIE", "")).items()}
        self.form: dict[str, str] = {}
        self.pairs: list[tuple[str, str]] = []  # the form as sent (recipient_ids[] repeats)
        if self.method == "POST":
            size = int(environ.get("CONTENT_LENGTH") or 0)
            self.pairs = parse_qsl(environ["wsgi.input"].read(size).decode("utf-8"), keep_blank_values=True)
            self.form = dict(self.pairs)
        self.headers = environ
        self.host = f"http://{environ.get('HTTP_HOST', '127.0.0.1')}"
        self.json = self.form.get("_xfResponseType") == "json"
        self.set_cookies: list[str] = []


class App:
    def __init__(self, board: Board) -> None:
        self.board = board

    # --- links --------------------------------------------------------------------------------------------

    def link(self, route: str, **query: str) -> str:
        extra = "&".join(f"{k}={quote(v)}" for k, v in query.items())
        if self.board.friendly:
            return BASE + route + (f"?{extra}" if extra else "")
        return BASE + "index.php?" + route + (f"&{extra}" if extra else "")

    @property
    def dm(self) -> str:
        """XF 2.3 renamed conversations "direct messages" (§12); whether conversations/ still routes there is
        unverified: this emulator serves only direct-messages/ in 2.3 mode (the harder case)."""
        return "direct-messages" if self.board.version >= "2.3" else "conversations"

    # --- WSGI -----------------------------------------------------------------------------------------------

    def __call__(self, environ: dict[str, Any], start: Callable[..., Any]) -> Iterable[bytes]:
        req = Request(environ, self.board)
        with self.board.lock:
            status, headers, body = self.handle(req)
        headers = [*headers, *(("Set-Cookie", c) for c in req.set_cookies)]
        start(status, headers)
        return [body]

    def handle(self, req: Request) -> Answer:
        if req.route is not None and req.route.startswith("api/"):
            self.board.requests.append((req.method, req.route))
            status, payload = api.handle(self.board, req.method, req.route, req.query, req.pairs,
                                         req.headers.get("HTTP_XF_API_KEY"))
            return status, [("Content-Type", "application/json; charset=utf-8")], api.encode(payload)
        if req.route is None or (req.route and not self.board.friendly and not req.plain):
            return self.not_found(req)  # a board without friendly URLs has no rewrite rules
        self.board.requests.append((req.method, req.route))
        user = self.visitor(req)
        csrf_cookie = req.cookies.get("xf_csrf") or self.new_csrf_cookie(req)
        req.csrf = self.board.csrf_token(csrf_cookie)  # type: ignore[attr-defined]
        if req.method == "POST":
            token = req.form.get("_xfToken") or req.headers.get("HTTP_X_XF_CSRF_TOKEN")
            if token and token.count(",") == 1 and not req.cookies.get("xf_csrf"):  # validateCsrfToken: no_cookie
                return self.error(req, user, PHRASES["cookies_required_to_use_this_site"], 400)
            if not self.board.csrf_ok(req.cookies.get("xf_csrf"), token):
                return self.error(req, user, PHRASES["security_error_occurred"], 400)
            return self.post(req, user)
        return self.get(req, user)

    # --- sessions -------------------------------------------------------------------------------------------

    def visitor(self, req: Request) -> str | None:
        sid = req.cookies.get("xf_session")
        if sid and sid in self.board.sessions:
            return self.board.sessions[sid]
        remember = req.cookies.get("xf_user", "")
        for m in self.board.members.values():
            if remember and remember == self.remember_cookie(m.name):
                self.new_session(req, m.name)
                return m.name
        return None

    def remember_cookie(self, name: str) -> str:
        m = self.board.members[fold(name)]
        return f"{m.id},{self.board._sign('remember', m.id)}"

    def new_session(self, req: Request, name: str | None) -> None:
        sid = secrets.token_hex(16)
        self.board.sessions[sid] = name
        req.set_cookies.append(f"xf_session={sid}; path=/; HttpOnly")

    def new_csrf_cookie(self, req: Request) -> str:
        value = secrets.token_hex(8)
        req.set_cookies.append(f"xf_csrf={value}; path=/")
        return value

    # --- answers --------------------------------------------------------------------------------------------

    def html(self, req: Request, user: str | None, main: str, title: str, template: str,
             status: str = "200 OK") -> Answer:
        body = pages.page(main, title=title, logged_in=user is not None,
                          unread=self.board.unread_count(user) if user else 0, csrf=req.csrf,  # type: ignore[attr-defined]
                          template=template, version=self.board.version)
        return status, [("Content-Type", "text/html; charset=utf-8")], body.encode("utf-8")

    def json(self, req: Request, user: str | None, payload: dict[str, Any], code: int = 200) -> Answer:
        payload = {**payload, "visitor": {"conversations_unread": self.board.unread_count(user) if user else 0}}
        return _STATUS[code], [("Content-Type", "application/json; charset=utf-8")], json.dumps(payload).encode()

    def redirect(self, req: Request, user: str | None, url: str, message: str = "") -> Answer:
        full = req.host + url
        if req.json:
            return self.json(req, user, {"status": "ok", "message": message, "redirect": full})
        return "303 See Other", [("Location", full)], b""

    def moved(self, req: Request, url: str, code: str = "301 Moved Permanently") -> Answer:
        return code, [("Location", req.host + url)], b""

    def error(self, req: Request, user: str | None, text: str, code: int = 200) -> Answer:
        """XF\\Mvc\\Controller::error($error, $code = 200): a form's error answers 200; noPermission 403,
        notFound 404, the CSRF check 400 pass their code."""
        if req.json:
            return self.json(req, user, {"status": "error", "errors": [text]}, code)
        return self.html(req, user, pages.error_block(text), "Oops! We ran into some problems.", "error",
                         _STATUS[code])

    def no_permission(self, req: Request, user: str | None) -> Answer:
        """Controller::noPermission(): error(do_not_have_permission, 403)."""
        return self.error(req, user, PHRASES["do_not_have_permission"], 403)

    def not_found(self, req: Request) -> Answer:
        return "404 Not Found", [("Content-Type", "text/html; charset=utf-8")], b"<html><body>Not Found</body></html>"

    def login_required(self, req: Request, user: str | None) -> Answer:
        if req.json:
            return self.error(req, user, PHRASES["login_required"], 403)
        main = pages.error_block(PHRASES["login_required"]) + pages.login_form(self.link)
        return self.html(req, None, main, "Log in", "login", "403 Forbidden")

    # --- GET ------------------------------------------------------------------------------------------------

    def get(self, req: Request, user: str | None) -> Answer:
        r, dm = req.route or "", self.dm
        if r in ("", "forums/"):
            return self.html(req, user, "<div class='block'></div>", "Forums", "forum_list")
        if r in ("login", "login/"):
            return self.html(req, user, pages.login_form(self.link, redirect=req.query.get("_xfRedirect", "")),
                             "Log in", "login")
        if r.startswith("login/two-step"):
            return self.html(req, None, "<form class='block'><input name='code' /></form>", "Two-step verification",
                             "login_two_step")
        if m := re.fullmatch(r"posts/(\d+)/?", r):
            post = self.board.posts.get(int(m.group(1)))
            # Pub\Controller\Post::assertViewablePost: no record is notFound(requested_post_not_found), 404;
            # a record the visitor may not view (soft-deleted, Entity\Post::canView) is noPermission, 403
            if post is None:
                return self.error(req, user, PHRASES["requested_post_not_found"], 404)
            if post.deleted:
                return self.error(req, user, PHRASES["do_not_have_permission"], 403)
            if not post.approved:
                return self.error(req, user, PHRASES["requested_page_not_found"], 404)
            return self.moved(req, self.post_link(post.id), "302 Found")
        if m := re.fullmatch(rf"threads/{_REF}/(?:page-(\d+)|post-(\d+))?", r):
            return self.thread(req, user, int(m.group(1)), int(m.group(2) or 1), m.group(3), r)
        if r == "members/find":
            return self.find_members(req, user)
        if not (r == dm or r.startswith(dm + "/")):
            return self.not_found(req)
        if user is None:
            return self.login_required(req, user)
        if r in (dm, dm + "/") or re.fullmatch(rf"{dm}/page-\d+", r):
            return self.conversation_list(req, user, int((re.findall(r"page-(\d+)", r) or ["1"])[0]))
        if r == f"{dm}/add":
            if not self.board.member(user).starts_conversations:  # Pub\Controller\Conversation::actionAdd
                return self.no_permission(req, user)
            return self.html(req, user, pages.compose_form(self.link, dm), "Start conversation", "conversation_add")
        if m := re.fullmatch(rf"{dm}/{_REF}/(unread|latest|page-(\d+))?", r):
            return self.conversation(req, user, int(m.group(1)), m.group(2) or "", r)
        return self.not_found(req)

    def find_members(self, req: Request, user: str | None) -> Answer:
        """The recipients box's autocomplete, Pub\\Controller\\Member::actionFind: for a query `q` of 2 characters
        or more, at most 10 valid users whose name begins with it (the database's case-insensitive LIKE), answered
        as Pub\\View\\Member\\Find::renderJson: {"results": [{"id": name, "iconHtml": ..., "text": name, "q": q}],
        "q": q}. Shown here to guests and members alike (the member-list permission is not modelled)."""
        q = req.query.get("q", "").lstrip()
        if len(q) < 2:
            q = ""
        names = sorted(m.name for k, m in self.board.members.items() if q and k.startswith(fold(q)))[:10]
        results = [{"id": n, "iconHtml": "<span class='avatar'></span>", "text": n, "q": q} for n in names]
        if req.query.get("_xfResponseType") != "json":
            return self.html(req, user, "", "Find member", "member_find")
        return self.json(req, user, {"results": results, "q": q})

    def post_link(self, pid: int) -> str:
        post = self.board.posts[pid]
        index = [p.id for p in self.board.visible_posts(post.thread)].index(pid)
        number = index // PER_PAGE + 1
        t = self.board.threads[post.thread]
        return self.link(f"threads/{t.slug}.{t.id}/" + (f"page-{number}" if number > 1 else "")) + f"#post-{pid}"

    def thread(self, req: Request, user: str | None, tid: int, number: int, post: str | None, route: str) -> Answer:
        t = self.board.threads.get(tid)
        if t is None:
            return self.error(req, user, PHRASES["requested_page_not_found"], 404)
        if post:
            return self.moved(req, self.post_link(int(post)), "302 Found")
        base = f"threads/{t.slug}.{t.id}/"
        canonical = base + (f"page-{number}" if number > 1 else "")
        if route != canonical:  # XF redirects a bare id or an old slug to the canonical URL
            return self.moved(req, self.link(canonical))
        posts = self.board.visible_posts(tid)
        count = max(1, -(-len(posts) // PER_PAGE))
        if number > count:  # XF: a page past the end redirects to the last page
            return self.moved(req, self.link(base + (f"page-{count}" if count > 1 else "")))
        shown = posts[(number - 1) * PER_PAGE: number * PER_PAGE]
        nav = pages.page_nav(self.link, base, number, count)
        body = "".join(pages.post(p, (number - 1) * PER_PAGE + i + 1, self.board.member(p.author).id, self.link,
                                  self.link(f"{base}post-{p.id}")) for i, p in enumerate(shown))
        tools = ""
        if user is not None and self.board.member(user).locks:  # R-13: the thread tools' lock switch
            tools = pages.lock_switch(self.link(f"{base}quick-close"), t.discussion_open)
        status = "" if t.discussion_open else pages.locked_status()
        return self.html(req, user, tools + status + nav + body + nav, t.title, "thread_view")

    def conversation_list(self, req: Request, user: str, number: int) -> Answer:
        mine = self.board.conversations_of(user)
        count = max(1, -(-len(mine) // PER_PAGE))
        rows = []
        for c in mine[(number - 1) * PER_PAGE: number * PER_PAGE]:
            last = self.board.messages[c.messages[-1]]
            users = [(n, self.board.member(n).id) for n in c.members]
            rows.append(pages.conversation_row(c, last, self.board.unread(c, user), users, self.link, self.dm))
        nav = pages.page_nav(self.link, f"{self.dm}/", number, count)
        main = f'<div class="structItemContainer">{"".join(rows)}</div>{nav}'
        return self.html(req, user, main, "Conversations" if self.dm == "conversations" else "Direct messages",
                         "conversation_list")

    def conversation(self, req: Request, user: str, cid: int, what: str, route: str) -> Answer:
        c = self.board.conversations.get(cid)
        if c is None or not any(fold(m) == fold(user) for m in c.members):
            return self.error(req, user, PHRASES["requested_page_not_found"], 404)
        base = f"{self.dm}/{pages.ref(c)}/"
        count = max(1, -(-len(c.messages) // PER_PAGE))
        if what in ("unread", "latest"):
            first = next((i for i, mid in enumerate(c.messages) if mid > c.last_read.get(user, 0)), len(c.messages) - 1)
            number = first // PER_PAGE + 1 if what == "unread" else count
            return self.moved(req, self.link(base + (f"page-{number}" if number > 1 else "")), "302 Found")
        number = int(what[5:]) if what.startswith("page-") else 1
        canonical = base + (f"page-{number}" if number > 1 else "")
        if route != canonical:
            return self.moved(req, self.link(canonical))
        shown = [self.board.messages[m] for m in c.messages[(number - 1) * PER_PAGE: number * PER_PAGE]]
        if shown:
            c.last_read[user] = max(c.last_read.get(user, 0), shown[-1].id)
        nav = pages.page_nav(self.link, base, number, count)
        body = "".join(pages.conversation_message(m, self.board.member(m.author).id, self.link) for m in shown)
        return self.html(req, user, nav + body + nav, c.title, "conversation_view")

    # --- POST -----------------------------------------------------------------------------------------------

    def post(self, req: Request, user: str | None) -> Answer:
        r, dm = req.route or "", self.dm
        if r == "login/login":
            return self.login(req)
        if user is None:
            return self.login_required(req, user)
        if m := re.fullmatch(rf"threads/{_REF}/add-reply", r):
            return self.add_reply(req, user, int(m.group(1)))
        if m := re.fullmatch(rf"threads/{_REF}/reply-preview", r):
            return self.reply_preview(req, user, int(m.group(1)))
        if m := re.fullmatch(rf"threads/{_REF}/quick-close", r):
            return self.quick_close(req, user, int(m.group(1)))
        if r == f"{dm}/add":
            return self.add_conversation(req, user)
        if m := re.fullmatch(rf"{dm}/{_REF}/add-reply", r):
            return self.conversation_reply(req, user, int(m.group(1)))
        if m := re.fullmatch(rf"{dm}/{_REF}/edit", r):
            return self.conversation_edit(req, user, int(m.group(1)))
        return self.not_found(req)

    def login(self, req: Request) -> Answer:
        """Pub\\Controller\\Login::actionLogin: a name limited by failed logins (Service\\User\\Login::
        isLoginLimited) meets the option loginLimit first: "captcha" shows the login view again with a CAPTCHA and
        did_not_complete_the_captcha_verification_properly (a bot cannot solve it, so it stays there), "block"
        answers error(your_account_has_temporarily_been_locked_due_to_failed_login_attempts); then a wrong
        password or unknown name is recorded (xf_login_attempt) and the login view shown again."""
        name, password = req.form.get("login", ""), req.form.get("password", "")
        if name and self.board.login_limited(name):
            if self.board.login_limit != "captcha":
                return self.error(req, None, PHRASES[
                    "your_account_has_temporarily_been_locked_due_to_failed_login_attempts"])
            return self.login_view(req, PHRASES["did_not_complete_the_captcha_verification_properly"], captcha=True)
        member = self.board.members.get(fold(name))
        if member is None or member.password != password:
            error = (PHRASES["incorrect_password"] if member is not None
                     else PHRASES["requested_user_x_not_found"].format(name=name))
            if password or member is None:  # an empty password is not logged as an attempt
                self.board.failed_logins.append((fold(name), self.board.clock()))
            return self.login_view(req, error, captcha=self.board.login_limit == "captcha"
                                   and self.board.login_limited(name))
        if member.two_step:
            return self.redirect(req, None, self.link("login/two-step", _xfRedirect=req.form.get("_xfRedirect", "")))
        self.board.failed_logins = [a for a in self.board.failed_logins if a[0] != fold(name)]  # clearFailedAttempts
        self.new_session(req, member.name)
        if req.form.get("remember"):
            req.set_cookies.append(f"xf_user={self.remember_cookie(member.name)}; path=/; HttpOnly")
        target = req.form.get("_xfRedirect", "")
        return self.redirect(req, member.name, target.removeprefix(req.host) if target.startswith(req.host)
                             else self.link(""))

    def login_view(self, req: Request, error: str, *, captcha: bool) -> Answer:
        """The login view rendered again with the error: no `errors`, no `redirect` (§12)."""
        view = pages.login_form(self.link, error, req.form.get("_xfRedirect", ""), captcha=captcha)
        if req.json:
            return self.json(req, None, {"status": "ok", "html": {"content": view, "title": "Log in"}})
        return self.html(req, None, view, "Log in", "login")

    def _message(self, req: Request) -> str:
        # `message` is taken before `message_html` (§12)
        text = req.form.get("message")
        if text is None:
            text = re.sub(r"<[^>]+>", "", req.form.get("message_html", ""))
        return text

    def add_reply(self, req: Request, user: str, tid: int) -> Answer:
        t = self.board.threads.get(tid)
        if t is None:
            return self.error(req, user, PHRASES["requested_page_not_found"], 404)
        if not self.can_reply(t, user):
            return self.no_permission(req, user)
        text = self._message(req).strip()
        if not text:
            return self.error(req, user, "Please enter a valid message.")
        wait = self.board.flood_wait(user, "post", FLOOD_POST)
        if wait:
            return self.error(req, user, PHRASES["must_wait_x_seconds_before_performing_this_action"].format(count=wait))
        member = self.board.member(user)
        queued = member.moderated or tid in self.board.moderated_threads
        post = self.board.add_post(tid, user, text, approved=not queued)
        if queued:  # held for a moderator: back to the thread, flagged (§12)
            return self.redirect(req, user, self.link(f"threads/{t.slug}.{t.id}/", pending_approval="1"))
        return self.redirect(req, user, self.link(f"posts/{post.id}/"))

    def can_reply(self, t: Thread, user: str) -> bool:
        """Thread::canReply: the group's postReply permission, and an open thread unless the member may lock it."""
        member = self.board.member(user)
        return member.replies and (t.discussion_open or member.locks)

    def reply_preview(self, req: Request, user: str, tid: int) -> Answer:
        """Pub\\Controller\\Thread::actionReplyPreview (2.1-2.3): POST only; assertViewableThread (notFound),
        canReply or noPermission (403), the replier's validation as error($errors) (200), then the BbCodePreview
        plugin's view of the message: nothing is posted, and no flood check is made (add-reply's
        assertNotFlooding is not called). *Unverified*: the preview view's markup (a div.bbWrapper here)."""
        t = self.board.threads.get(tid)
        if t is None:
            return self.error(req, user, PHRASES["requested_thread_not_found"], 404)
        if not self.can_reply(t, user):
            return self.no_permission(req, user)
        text = self._message(req).strip()
        if not text:
            return self.error(req, user, "Please enter a valid message.")
        view = f'<div class="bbWrapper">{html.escape(text)}</div>'
        if req.json:
            return self.json(req, user, {"status": "ok", "html": {"content": view, "title": "Preview"}})
        return self.html(req, user, view, "Preview", "bb_code_preview")

    def quick_close(self, req: Request, user: str, tid: int) -> Answer:
        """R-13, Pub\\Controller\\Thread::actionQuickClose (unverified: §12 is silent): POST only, noPermission
        without canLockUnlock, else discussion_open toggled and a redirect whose JSON carries the switch's new label
        (`text`) and `discussion_open`."""
        t = self.board.threads.get(tid)
        if t is None:
            return self.error(req, user, PHRASES["requested_page_not_found"], 404)
        if not self.board.member(user).locks:
            return self.error(req, user, PHRASES["do_not_have_permission"], 403)
        t.discussion_open = not t.discussion_open
        target = req.host + self.link(f"threads/{t.slug}.{t.id}/")
        if req.json:
            return self.json(req, user, {"status": "ok", "message": "Your changes have been saved.",
                                         "redirect": target, "text": "Lock thread" if t.discussion_open
                                         else "Unlock thread", "discussion_open": t.discussion_open})
        return "303 See Other", [("Location", target)], b""

    def add_conversation(self, req: Request, user: str) -> Answer:
        """Pub\\Controller\\Conversation::actionAdd: canStartConversation or noPermission (403); the creator's
        errors (Repository\\Conversation::getValidatedRecipients, then the recipient limit) as error($errors),
        200; then the flood check. getValidatedRecipients keeps one error, the last set: unknown names, then the
        bot as the only one found (returned at once), then the found members canStartConversationWith refuses
        (their privacy); the bot among others is dropped silently."""
        if not self.board.member(user).starts_conversations:
            return self.no_permission(req, user)
        names = [n.strip() for n in req.form.get("recipients", "").split(",") if n.strip()]
        error = ""
        missing = [n for n in names if fold(n) not in self.board.members]
        if missing:
            error = PHRASES["following_recipients_could_not_be_found_x"].format(names=", ".join(missing))
        found = list(dict.fromkeys(fold(n) for n in names if fold(n) in self.board.members))
        if found == [fold(user)]:
            return self.error(req, user, PHRASES["you_cannot_start_conversation_with_yourself"])
        others = set(found) - {fold(user)}
        shut = [self.board.members[n].name for n in found if n in others
                and not self.board.members[n].accepts_conversations]
        if shut:
            error = PHRASES["you_may_not_start_a_conversation_with_the_following_recipients_x"].format(
                names=", ".join(shut))
        if error:
            return self.error(req, user, error)
        if len(others) > self.board.max_recipients:
            key = f"you_may_only_invite_x_members_to_join_this_{'direct_message' if self.dm != 'conversations' else 'conversation'}"
            return self.error(req, user, PHRASES[key].format(count=self.board.max_recipients))
        title, text = req.form.get("title", "").strip(), self._message(req).strip()
        if not names or not title or not text:
            return self.error(req, user, "Please enter a valid title." if not title else "Please enter a valid message.")
        wait = self.board.flood_wait(user, "conversation", FLOOD_DISCUSSION)  # floodCheckLengthDiscussion
        if wait:
            return self.error(req, user, PHRASES["must_wait_x_seconds_before_performing_this_action"].format(count=wait))
        c = self.board.start_conversation(user, [self.board.members[n].name for n in found if n in others], title,
                                          text)
        return self.redirect(req, user, self.link(f"{self.dm}/{pages.ref(c)}/"))

    def conversation_reply(self, req: Request, user: str, cid: int) -> Answer:
        c = self.board.conversations.get(cid)
        if c is None or not any(fold(m) == fold(user) for m in c.members):
            return self.error(req, user, PHRASES["requested_page_not_found"], 404)
        if not c.conversation_open:  # Pub\Controller\Conversation::actionAddReply: canReply, even the starter's
            return self.no_permission(req, user)
        text = self._message(req).strip()
        if not text:
            return self.error(req, user, "Please enter a valid message.")
        wait = self.board.flood_wait(user, "conversation_message", FLOOD_POST)
        if wait:
            return self.error(req, user, PHRASES["must_wait_x_seconds_before_performing_this_action"].format(count=wait))
        m = self.board.add_message(cid, user, text)
        return self.redirect(req, user, self.link(f"{self.dm}/messages/{m.id}/"))


    def conversation_edit(self, req: Request, user: str, cid: int) -> Answer:
        """Pub\\Controller\\Conversation::actionEdit: the starter only (ConversationMaster::canEdit) or noPermission;
        the title required again (please_enter_valid_title); `conversation_locked` clears conversation_open; a
        redirect to the conversation."""
        c = self.board.conversations.get(cid)
        if c is None or not any(fold(m) == fold(user) for m in c.members):
            return self.error(req, user, PHRASES["requested_page_not_found"], 404)
        if fold(c.starter) != fold(user):
            return self.no_permission(req, user)
        title = req.form.get("title", "").strip()
        if not title:
            return self.error(req, user, "Please enter a valid title.")
        c.title, c.conversation_open = title, req.form.get("conversation_locked", "") in ("", "0")
        return self.redirect(req, user, self.link(f"{self.dm}/{pages.ref(c)}/"))

_STATUS = {200: "200 OK", 400: "400 Bad Request", 403: "403 Forbidden", 404: "404 Not Found"}
