"""Invision Community 4 as a WSGI app (issue 18 item 3).

Sources: the real excerpts in fixtures/invision/ (the comment wrapper `div[data-commentid][data-quotedata]`,
`time[datetime]`, `div[data-role=commentContent]`, `blockquote.ipsQuote`) and ENGINES.md §7/§12: login through
`login/` (`csrfKey`, `auth`, `password`, `_processLogin=usernamepassword`; cookies `ips4_member_id`,
`ips4_IPSSessionFront`; a wrong password re-renders it with `p.ipsMessage.ipsMessage_error`); topics at
`topic/{id}-{slug}/page/{n}/` or, without rewrite, `index.php?/topic/...`; a reply posted back to the topic
answers with a redirect to `.../page/{n}/#comment-{id}`; the flood warning "New posts within a short time frame
are limited. Please wait %s seconds before submitting." in `div.ipsType_warning[data-role=commentFormError]`;
Messenger with `messenger_to` one name per line (split on newline), success redirecting to `messenger/{id}/`,
list rows `li.ipsDataItem[data-messageid]` with `h4 a.cMessageTitle` and the participants as plain text,
messages in the global comment markup, the default group's 50 conversations (`g_max_messages`) answered with
"Your inbox is full" and HTTP 403, per-day limits with 429 and Retry-After; error pages
`section#elError div#elErrorMessage`.

The moderation queue follows IPS 4's own code (Content\\Item::commentForm, the core `forms` and `tables`
templates, as shipped): a member whose new comments are moderated (the forum's `preview_posts`, the member's
`mod_posts`) sees `forms/modQueueMessage` (`div.ipsMessage.ipsMessage_warning > p.ipsType_reset`) right before the
comment form; a posted reply that goes into the queue is answered exactly as a published one (the redirect to
`lastCommentPageUrl()` with `#comment-{id}`); the author alone sees it, its article marked `ipsModerated` and its
content opened by `strong.ipsType_warning` ("comment_awaiting_approval"); other members do not see it.

Unverified (no page or phrase of it seen; the emulator's own choice, said here): the wording of
`mod_queue_message` and `comment_awaiting_approval`, the flood timer's length
(30 s), the wording of a stale `csrfKey`'s error, the two-step (MFA) form's field names, the participants'
wrapper in a list row, leaving a conversation through `messenger/{id}/?do=leaveConversation&csrfKey=`, and the
Messenger list on one page.

R-13, locking a topic: §12 is silent; built from IPS 4's own moderation (Content\\Controller::moderate, as the
topic's moderation menu links it: `{topic url}?do=moderate&action=lock|unlock&csrfKey=`, a GET checked by csrfCheck,
`modAction` refusing a member without canLock, then a redirect to the topic; the menu lists `lock` on an open topic
and `unlock` on a locked one, each only to a member who may). A locked topic shows a member who may not lock a notice
in place of the reply form and refuses his reply. *Unverified*: the menu's markup, the notice's and the errors'
wordings and codes.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from datetime import datetime, timezone

from board import PM, Emulator, Post, Request, Response

PER_PAGE = 25
FLOOD = "New posts within a short time frame are limited. Please wait {0} seconds before submitting."
BAD_PASSWORD = "The password you entered is incorrect. Please try again."
INBOX_FULL = "Your inbox is full. You must delete some messages before you can start a new conversation."
MOD_QUEUE = "Your post will need to be approved by a moderator before it is visible to others."
AWAITING = "This post is awaiting approval by a moderator."


def iso(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_slug(title: str) -> str:
    return re.sub(r"[^\w]+", "-", title.lower(), flags=re.UNICODE).strip("-") or "topic"


class Invision(Emulator):
    flood = {"post": 30.0, "pm": 30.0}

    def __init__(self, *args, rewrite: bool = True, max_conversations: int = 50, mfa: set[str] | None = None,
                 **kw) -> None:
        super().__init__(*args, **kw)
        self.rewrite = rewrite
        self.max_conversations = max_conversations
        self.mfa = mfa or set()  # members with two-step verification on
        self.left: set[tuple[int, str]] = set()  # (conversation, member) who left it
        self.no_pms: set[str] = set()  # members whose messenger is switched off (members_disable_pm = 2)
        self.per_day: int | None = None  # messages a member may start a day (None: no limit)
        self.pending: set[int] = set()  # comments in the moderation queue (hidden === 1)
        self.moderators: set[str] = set()  # members who may lock the game's topics (canLock)
        self.closed: set[int] = set()  # topics locked now

    def shown(self, tid: int, who: str | None) -> list[Post]:
        """The topic's comments as `who` sees them: a queued one only to its author."""
        return [p for p in self.thread_posts(tid) if p.id not in self.pending or p.author == who]

    # --- URLs and frame ----------------------------------------------------------------------------------------

    def link(self, route: str) -> str:
        """A route as this board writes it: friendly, or through index.php?/ without rewrite."""
        return self.base + (route if self.rewrite else "index.php?/" + route)

    def route(self, req: Request) -> str | None:
        """The IPS path a request names; None where the web server itself answers 404: without rewrite (the
        htaccess_mod_rewrite setting off, no .htaccess rules) only index.php exists, and IPS writes every URL as
        `index.php?/path` (its core/modules/admin/settings/webapp.php builds a URL on the board as
        `baseUrl() . (htaccess_mod_rewrite ? $path : 'index.php?/' . $path)`); the 404 page's body is the web
        server's (unverified: none saved). With rewrite on, IPS still takes `index.php?/path`."""
        if req.path == "index.php" and req.raw_query.startswith("/"):
            return req.raw_query[1:].split("&", 1)[0]
        if not self.rewrite and req.path not in ("", "index.php"):
            return None
        return req.path

    def csrf(self, req: Request) -> str:
        return hashlib.md5(("csrf" + req.cookies.get("ips4_IPSSessionFront", "guest")).encode()).hexdigest()

    def who(self, req: Request) -> str | None:
        name = self.sessions.get(req.cookies.get("ips4_IPSSessionFront", ""))
        return name if name and req.cookies.get("ips4_member_id") == str(self.uid(name)) else None

    def page(self, req: Request, who: str | None, main: str, title: str = "Форум") -> str:
        nav = (f'<a href="{self.link(f"profile/{self.uid(who)}-bot/")}" id="elUserLink">{html.escape(who)}</a>'
               f'<a href="{self.link("logout/")}&amp;csrfKey={self.csrf(req)}&amp;do=logout">Выход</a>') if who else \
            f'<a href="{self.link("login/")}" id="elSignInLink">Войти</a>'
        return (f'<!DOCTYPE html><html lang="ru-RU"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
                f'<script>var ipsSettings = {{csrfKey: "{self.csrf(req)}"}};</script></head><body>'
                f'<div id="ipsLayout_header">{nav}</div><main id="ipsLayout_body">{main}</main>'
                f'<footer id="ipsLayout_footer" class="ipsClearfix"><p>Powered by Invision Community</p></footer>'
                f'</body></html>')

    def error(self, req: Request, who: str | None, text: str, status: int = 403, code: str = "2F173/1") -> Response:
        return self.html(self.page(req, who, f'<section id="elError"><div id="elErrorMessage">{html.escape(text)}'
                                             f'</div><p class="ipsType_light">Код ошибки: {code}</p></section>'), status)

    def comment(self, cid: int, author: str, at: float, body: str, app: str, content: int, edited: Post | None = None,
                queued: bool = False) -> str:
        data = html.escape(json.dumps({"userid": self.uid(author), "username": author, "timestamp": int(at),
                                       "contentapp": app, "contenttype": app, "contentid": content,
                                       "contentcommentid": cid}))
        edit = ""
        if edited is not None and edited.edited_at:
            edit = (f"<span class='ipsType_reset ipsType_medium ipsType_light' data-excludequote><strong>Изменено "
                    f"<time datetime='{iso(edited.edited_at)}'>.</time> пользователем "
                    f"{html.escape(edited.edited_by)}</strong></span>")
        moderated = ""
        if queued:  # the author's own comment in the queue (hidden === 1)
            body = (f"<strong class='ipsType_medium ipsType_warning'><i class='fa fa-info-circle'></i> {AWAITING}"
                    f"</strong>{body}")
            moderated = " ipsModerated"
        return f"""<a id="comment-{cid}"></a>
<article id="elComment_{cid}" class="cPost ipsBox ipsComment ipsComment_parent ipsClearfix ipsColumns{moderated}">
<aside class="ipsComment_author cAuthorPane ipsColumn ipsColumn_medium"><h3 class="ipsType_sectionHead cAuthorPane_author"><strong><a href="{self.link(f'profile/{self.uid(author)}-u/')}" class="ipsType_break">{html.escape(author)}</a></strong></h3></aside>
<div class="ipsColumn ipsColumn_fluid"><div id="comment-{cid}_wrap" data-controller="core.front.core.comment" data-commentapp="{app}" data-commenttype="{app}" data-commentid="{cid}" data-quotedata="{data}" class="ipsComment_content ipsType_medium">
<div class="ipsComment_meta ipsType_light"><time datetime='{iso(at)}'>.</time></div>
<div class="cPost_contentWrap"><div data-role="commentContent" class="ipsType_normal ipsType_richText ipsContained">{body}{edit}</div></div>
</div></div></article>
"""

    # --- topics ------------------------------------------------------------------------------------------------

    def topic_link(self, tid: int, number: int = 1) -> str:
        return self.link(f"topic/{tid}-{to_slug(self.threads[tid])}/" + (f"page/{number}/" if number > 1 else ""))

    def topic_page(self, req: Request, who: str | None, tid: int, number: int, warning: str = "",
                   draft: str = "") -> Response:
        posts = self.shown(tid, who)
        pages = max(1, -(-len(posts) // PER_PAGE))
        number = min(max(number, 1), pages)
        shown = posts[(number - 1) * PER_PAGE: number * PER_PAGE]
        nav = ""
        if pages > 1:
            items = "".join(f'<li class="ipsPagination_page{" ipsPagination_active" if k == number else ""}">'
                            f'<a href="{self.topic_link(tid, k)}" data-page="{k}">{k}</a></li>'
                            for k in range(1, pages + 1))
            nxt = ("" if number < pages else " ipsPagination_inactive")
            nav = (f'<ul class="ipsPagination" data-pages="{pages}">{items}<li class="ipsPagination_next{nxt}">'
                   f'<a href="{self.topic_link(tid, min(number + 1, pages))}" rel="next">Далее</a></li>'
                   f'<li class="ipsPagination_last"><a href="{self.topic_link(tid, pages)}">Последняя</a></li></ul>')
        items = "".join(self.comment(p.id, p.author, p.at, body_html(p.text), "forums", tid, p, p.id in self.pending)
                        for p in shown)
        form = ""
        menu = ""
        if who in self.moderators:  # the moderation menu's lock item
            action, label = ("unlock", "Открыть") if tid in self.closed else ("lock", "Закрыть")
            url = self.topic_link(tid)
            url += ("&amp;" if "?" in url else "?") + f"do=moderate&amp;action={action}&amp;csrfKey={self.csrf(req)}"
            menu = (f'<ul id="elTopicActions_menu" class="ipsMenu ipsMenu_auto ipsHide"><li class="ipsMenu_item">'
                    f'<a href="{url}">{label}</a></li></ul>')
        if who and tid in self.closed and who not in self.moderators:
            form = ('<div class="ipsAreaBackground_light ipsPad"><p class="ipsType_reset ipsType_light">Эта тема '
                    'закрыта для дальнейших ответов.</p></div>')
        elif who:
            warn = (f'<div class="ipsType_warning" data-role="commentFormError">{html.escape(warning)}</div>'
                    if warning else "")
            queue = (f'<div class="ipsMessage ipsMessage_warning"><p class=\'ipsType_reset\'>{MOD_QUEUE}</p></div>'
                     if who in self.moderated else "")
            form = (f'{queue}<form accept-charset="utf-8" class="ipsForm" action="{self.topic_link(tid)}" '
                    f'method="post">'
                    f'<input type="hidden" name="commentform_{tid}_submitted" value="1">'
                    f'<input type="hidden" name="csrfKey" value="{self.csrf(req)}">'
                    f'<input type="hidden" name="_contentReply" value="1">{warn}'
                    f'<textarea name="topic_comment_{tid}" data-role="contentEditor">{html.escape(draft)}</textarea>'
                    f'<button type="submit" class="ipsButton">Отправить</button></form>')
        return self.html(self.page(req, who, f'{menu}{nav}<div data-role="commentFeed">{items}</div>{nav}{form}',
                                   self.threads[tid]))

    def moderate(self, req: Request, who: str | None, tid: int) -> Response:
        """R-13: Content\\Controller::moderate for `lock` and `unlock` (the only actions emulated)."""
        if who is None:
            return self.error(req, None, "Извините, у вас нет разрешения на это.", 403, "2F173/2")
        if req.query.get("csrfKey") != self.csrf(req):
            return self.error(req, who, "The security key was missing or invalid (csrf). Please go back and try "
                                        "again.", 403, "2S119/1")
        action = req.query.get("action")
        if who not in self.moderators or action not in ("lock", "unlock"):
            return self.error(req, who, "Извините, у вас нет разрешения на это.", 403, "2S136/4")
        (self.closed.add if action == "lock" else self.closed.discard)(tid)
        return self.redirect(self.topic_link(tid), 301)

    # --- requests ----------------------------------------------------------------------------------------------

    def handle(self, req: Request) -> Response:
        from invision_messenger import messenger

        route = self.route(req)
        if route is None:
            return Response(404, b"<html><body><h1>Not Found</h1></body></html>",
                            [("Content-Type", "text/html; charset=utf-8")])
        who = self.who(req)
        if route == "login/":
            return self.login(req, who)
        if route.startswith("messenger"):
            if who is None:
                return self.login_form(req, "")
            return messenger(self, req, who, route)
        m = re.fullmatch(r"topic/(\d+)(?:-[^/]*)?/(?:page/(\d+)/)?", route)
        if m and int(m.group(1)) in self.threads:
            tid = int(m.group(1))
            if req.method == "POST":
                return self.reply(req, who, tid)
            if req.query.get("do") == "moderate":
                return self.moderate(req, who, tid)
            if req.query.get("do") == "findComment":
                for i, p in enumerate(self.shown(tid, who)):
                    if str(p.id) == req.query.get("comment"):
                        return self.redirect(self.topic_link(tid, i // PER_PAGE + 1) + f"#comment-{p.id}", 301)
                return self.error(req, who, "Запрошенная страница не найдена.", 404, "2F173/H")
            return self.topic_page(req, who, tid, int(m.group(2) or 1))
        if route in ("", "index.php"):
            return self.html(self.page(req, who, "<div>Форумы</div>"))
        return self.error(req, who, "Запрошенная страница не найдена.", 404, "2S100/1")

    def login_form(self, req: Request, error: str) -> Response:
        err = f'<p class="ipsMessage ipsMessage_error">{html.escape(error)}</p>' if error else ""
        return self.html(self.page(req, None, (
            f'{err}<form accept-charset="utf-8" method="post" action="{self.link("login/")}">'
            f'<input type="hidden" name="csrfKey" value="{self.csrf(req)}"><input type="hidden" name="ref" value="">'
            f'<input type="text" name="auth" id="auth"><input type="password" name="password" id="password">'
            f'<input type="checkbox" name="remember_me" value="1" checked>'
            f'<button type="submit" name="_processLogin" value="usernamepassword">Войти</button></form>')))

    def login(self, req: Request, who: str | None) -> Response:
        if req.method == "GET":
            if who:
                return self.html(self.page(req, who, "<div>Вы уже вошли</div>"))
            return self.login_form(req, "")
        name = self.member(req.form.get("auth", ""))
        if name is None or self.users[name][1] != req.form.get("password"):
            return self.login_form(req, BAD_PASSWORD if name else "The display name or email address you entered "
                                                                  "does not belong to any account.")
        if name in self.mfa:  # two-step: a code is asked before any session cookie is set
            return self.html(self.page(req, None, (
                f'<h1 class="ipsType_pageTitle">Двухэтапная аутентификация</h1><form method="post" '
                f'action="{self.link("login/")}&amp;_mfaLogin=1"><input type="hidden" name="csrfKey" '
                f'value="{self.csrf(req)}"><input type="text" name="google_authenticator_auth_code"></form>')))
        sid = self.new_session(name)
        return self.redirect(self.base, 301, [("Set-Cookie", f"ips4_member_id={self.uid(name)}; path=/"),
                                              ("Set-Cookie", f"ips4_IPSSessionFront={sid}; path=/"),
                                              ("Set-Cookie", f"ips4_login_key=k{sid[:8]}; path=/")])

    def reply(self, req: Request, who: str | None, tid: int) -> Response:
        if who is None:
            return self.error(req, None, "Извините, у вас нет разрешения на это.", 403, "2F173/2")
        if req.form.get("csrfKey") != self.csrf(req):
            return self.error(req, who, "The security key was missing or invalid (csrf). Please go back and try "
                                        "again.", 403, "2S119/1")
        if tid in self.closed and who not in self.moderators:
            return self.error(req, who, "Извините, у вас нет разрешения на это.", 403, "2F173/3")
        content = req.form.get(f"topic_comment_{tid}", "")
        left = self.flood_left(who, "post")
        if left:
            return self.topic_page(req, who, tid, 10 ** 6, FLOOD.format(left), content)
        self.acted(who, "post")
        post = self.add_post(tid, who, parse_bbcode(content))
        if who in self.moderated:
            self.pending.add(post.id)  # answered as a published one: lastCommentPageUrl() and the fragment
        n = len(self.shown(tid, who))
        return self.redirect(self.topic_link(tid, (n - 1) // PER_PAGE + 1) + f"#comment-{post.id}", 301)


def parse_bbcode(content: str) -> str:
    """IPS 4's Text\\Parser takes BBCode typed in the editor ([b], [i], [u], [s], [quote]) on save (its legacy
    BBCode support; which codes exactly: unverified): the simple ones, as stored."""
    for code, tag in (("b", "strong"), ("i", "em"), ("u", "u"), ("s", "s")):
        content = re.sub(rf"\[{code}\](.*?)\[/{code}\]", rf"<{tag}>\1</{tag}>", content, flags=re.S | re.I)
    return content


def body_html(text: str) -> str:
    """A player's text as IPS stores it (HTML paragraphs); HTML the bot sent is kept as sent."""
    if text.startswith("<p>"):
        return text
    return "".join(f"<p>{html.escape(line)}</p>" for line in text.split("\n"))


def conversations(board: Invision, who: str) -> dict[int, list[PM]]:
    out: dict[int, list[PM]] = {}
    for m in board.pms:
        out.setdefault(m.conv, []).append(m)
    return {c: ms for c, ms in out.items()
            if (c, who) not in board.left and (ms[0].author == who or who in ms[0].to)}
