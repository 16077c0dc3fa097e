"""XF's markup. The page skeleton is the real saved thread page (fixtures/xenforo/a-thread-xf20-en-guest.
xenforo.com.REAL.html) with its posts cut out; a post is that page's post markup; conversations follow
conversation_list_macros and conversation_message_macros as ENGINES.md §12 reads them (no data-content on a
conversation message: its id on span.u-anchorTarget#convMessage-N; the list's title link a.structItem-title
itself); the login form and error blocks follow §6/§12 (blockMessage--error)."""

from __future__ import annotations

import html
import re
from datetime import datetime, timezone
from pathlib import Path

REAL = Path(__file__).resolve().parents[4] / "fixtures" / "xenforo" / "a-thread-xf20-en-guest.xenforo.com.REAL.html"
_SKELETON: list[str] = []


def skeleton() -> str:
    if not _SKELETON:
        src = REAL.read_text(encoding="utf-8")
        mark = '<div class="block-body js-replyNewMessageContainer">'
        start = src.index(mark) + len(mark)
        last = src.rindex("</article>", start) + len("</article>")
        page = src[:start] + "\x00MAIN\x00" + src[last:]
        page = page.replace('<h1 class="p-title-value">a dark theme option</h1>',
                            '<h1 class="p-title-value">\x00TITLE\x00</h1>')
        page = page.replace('data-logged-in="false"', 'data-logged-in="\x00LOGGED\x00"')
        page = page.replace('data-template="thread_view"', 'data-template="\x00TEMPLATE\x00" data-xf="\x00XF\x00"')
        page = page.replace("conversations_unread: '0'", "conversations_unread: '\x00UNREAD\x00'")
        page = page.replace("1562130994,d8f3b3c32cbd2529ed60e8a76656f7c7", "\x00CSRF\x00")
        _SKELETON.append(page)
    return _SKELETON[0]


def page(main: str, *, title: str, logged_in: bool, unread: int, csrf: str, template: str, version: str) -> str:
    out = skeleton()
    for key, value in (("MAIN", main), ("TITLE", html.escape(title)), ("LOGGED", "true" if logged_in else "false"),
                       ("UNREAD", str(unread)), ("CSRF", csrf), ("TEMPLATE", template), ("XF", version)):
        out = out.replace(f"\x00{key}\x00", value)
    return out


def bbcode(text: str) -> str:
    """What XF renders of the BBCode the game's texts use; everything else escaped, lines as <br />."""
    out = html.escape(text, quote=False)
    out = re.sub(r'\[quote(?:="?([^\]"]*?)"?)?\](.*?)\[/quote\]',
                 lambda m: ('<blockquote class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote" '
                            f'data-quote="{m.group(1) or ""}"><div class="bbCodeBlock-content">'
                            f'<div class="bbCodeBlock-expandContent">{m.group(2)}</div></div></blockquote>'),
                 out, flags=re.S)
    out = re.sub(r"\[spoiler(?:=([^\]]*))?\](.*?)\[/spoiler\]",
                 r'<div class="bbCodeSpoiler"><button type="button" class="button bbCodeSpoiler-button">'
                 r'<span class="bbCodeSpoiler-button-title">\1</span></button><div class="bbCodeSpoiler-content">'
                 r'<div class="bbCodeBlock bbCodeBlock--spoiler"><div class="bbCodeBlock-content">\2</div></div>'
                 r'</div></div>', out, flags=re.S)
    for tag in ("b", "i", "u", "s"):
        out = re.sub(rf"\[{tag}\](.*?)\[/{tag}\]", rf"<{tag}>\1</{tag}>", out, flags=re.S | re.I)
    return out.replace("\n", "<br />\n")


def _time(at: float) -> str:
    d = datetime.fromtimestamp(at, timezone.utc)
    return (f'<time  class="u-dt" dir="auto" datetime="{d.strftime("%Y-%m-%dT%H:%M:%S+0000")}" data-time="{int(at)}" '
            f'data-date-string="{d.strftime("%b %d, %Y")}" data-time-string="{d.strftime("%I:%M %p")}" '
            f'title="{d.strftime("%b %d, %Y at %I:%M %p")}">{d.strftime("%b %d, %Y")}</time>')


def _user(name: str, uid: int, link) -> str:  # type: ignore[no-untyped-def]
    return (f'<a href="{link(f"members/{uid}/")}" class="username " dir="auto" data-user-id="{uid}" '
            f'data-xf-init="member-tooltip" itemprop="name">{html.escape(name)}</a>')


def post(p, number: int, uid: int, link, permalink: str) -> str:  # type: ignore[no-untyped-def]
    """A post as the real page shows one (thread_view's message macro)."""
    edit = (f'<div class="message-lastEdit">Last edited: {_time(p.edited)}</div>' if p.edited else "")
    return f"""<article class="message message--post js-post js-inlineModContainer  "
		data-author="{html.escape(p.author)}"
		data-content="post-{p.id}"
		id="js-post-{p.id}">
		<span class="u-anchorTarget" id="post-{p.id}"></span>
		<div class="message-inner">
			<div class="message-cell message-cell--user">
	<section itemscope itemtype="https://schema.org/Person" class="message-user">
		<div class="message-userDetails">
			<h4 class="message-name">{_user(p.author, uid, link)}</h4>
		</div>
	</section>
			</div>
			<div class="message-cell message-cell--main">
				<div class="message-main js-quickEditTarget">
					<header class="message-attribution message-attribution--split">
						<div class="message-attribution-main">
							<a href="{permalink}" class="u-concealed" rel="nofollow">{_time(p.at)}</a>
						</div>
						<ul class="message-attribution-opposite message-attribution-opposite--list">
								<li><a href="{permalink}" rel="nofollow">#{number}</a></li>
						</ul>
					</header>
					<div class="message-content js-messageContent">
						<div class="message-userContent lbContainer js-lbContainer " data-lb-id="post-{p.id}">
							<article class="message-body js-selectToQuote">
								<div class="bbWrapper">{bbcode(p.text)}</div>
								<div class="js-selectToQuoteEnd">&nbsp;</div>
							</article>
							{edit}
						</div>
					</div>
				</div>
			</div>
		</div>
	</article>
"""


def conversation_message(m, uid: int, link) -> str:  # type: ignore[no-untyped-def]
    """conversation_message_macros: article.message--conversationMessage.js-message with data-author, no
    data-content; its id on span.u-anchorTarget#convMessage-N (ENGINES.md §12)."""
    return f"""<article class="message message--conversationMessage js-message" data-author="{html.escape(m.author)}">
		<span class="u-anchorTarget" id="convMessage-{m.id}"></span>
		<div class="message-inner">
			<div class="message-cell message-cell--user">
				<section class="message-user"><div class="message-userDetails">
					<h4 class="message-name">{_user(m.author, uid, link)}</h4>
				</div></section>
			</div>
			<div class="message-cell message-cell--main">
				<div class="message-main js-quickEditTarget">
					<header class="message-attribution">{_time(m.at)}</header>
					<div class="message-content js-messageContent">
						<article class="message-body js-selectToQuote"><div class="bbWrapper">{bbcode(m.text)}</div></article>
					</div>
				</div>
			</div>
		</div>
	</article>
"""


def conversation_row(c, last, unread: bool, users: list[tuple[str, int]], link, route: str) -> str:  # type: ignore[no-untyped-def]
    """conversation_list_macros: the row, its title link a.structItem-title itself (no wrapping div); its parts
    name the starter, then every other participant (the template's loop over Master.recipients skips the
    starter), in one comma list. The template's start date after them is left out (the row has no use for it)."""
    starter = next(((n, uid) for n, uid in users if n == c.starter), None)
    named = [u for u in users if u != starter]
    parts = "".join(f"<li>{_user(n, uid, link)}</li>" for n, uid in ([starter] if starter else []) + named)
    parts = f'<li><ul class="listInline listInline--comma listInline--selfInline">{parts}</ul></li>'
    return f"""<div class="structItem structItem--conversation {'is-unread' if unread else ''} js-inlineModContainer" \
data-author="{html.escape(c.starter)}">
	<div class="structItem-cell structItem-cell--main">
		<a href="{link(f"{route}/{_ref(c)}/unread")}" class="structItem-title">{html.escape(c.title)}</a>
		<div class="structItem-minor"><ul class="structItem-parts">{parts}</ul></div>
	</div>
	<div class="structItem-cell structItem-cell--meta">
		<dl class="pairs pairs--justified"><dt>Replies</dt><dd>{len(c.messages) - 1}</dd></dl>
		<dl class="pairs pairs--justified structItem-minor"><dt>Participants</dt><dd>{len(c.members)}</dd></dl>
	</div>
	<div class="structItem-cell structItem-cell--latest">
		<a href="{link(f"{route}/{_ref(c)}/latest")}" rel="nofollow">{_time(last.at)}</a>
		<div class="structItem-minor">{html.escape(last.author)}</div>
	</div>
</div>
"""


def _ref(c) -> str:  # type: ignore[no-untyped-def]
    return f"{c.slug}.{c.id}" if c.slug else str(c.id)


ref = _ref


def page_nav(link, base: str, current: int, pages: int) -> str:  # type: ignore[no-untyped-def]
    if pages <= 1:
        return ""
    url = (lambda n: link(base + ("" if n == 1 else f"page-{n}")))
    items = "".join(f'<li class="pageNav-page {"pageNav-page--current" if n == current else ""}">'
                    f'<a href="{url(n)}">{n}</a></li>' for n in range(1, pages + 1))
    prev = f'<a href="{url(current - 1)}" class="pageNav-jump pageNav-jump--prev">Prev</a>' if current > 1 else ""
    nxt = f'<a href="{url(current + 1)}" class="pageNav-jump pageNav-jump--next">Next</a>' if current < pages else ""
    return (f'<div class="block-outer"><nav class="pageNavWrapper pageNavWrapper--mixed "><div class="pageNav  ">'
            f'{prev}<ul class="pageNav-main">{items}</ul>{nxt}</div></nav></div>')


def login_form(link, error: str = "", redirect: str = "", captcha: bool = False) -> str:  # type: ignore[no-untyped-def]
    """The login view; `captcha` adds the CAPTCHA row the login template shows once the name is login-limited
    (its provider's markup is the board's choice: unverified, here reCAPTCHA's `data-xf-init="re-captcha"`)."""
    err = f'<div class="blockMessage blockMessage--error blockMessage--iconic">{html.escape(error)}</div>' if error else ""
    row = ('<dl class="formRow"><dt>Verification</dt><dd><div data-xf-init="re-captcha" data-sitekey="emulated">'
           '</div></dd></dl>') if captcha else ""
    return f"""{err}<form action="{link('login/login')}" method="post" class="block" data-xf-init="ajax-submit">
	<div class="block-container"><div class="block-body">
		<dl class="formRow"><dt>Your name or email address</dt><dd><input type="text" class="input" name="login" /></dd></dl>
		<dl class="formRow"><dt>Password</dt><dd><input type="password" class="input" name="password" /></dd></dl>
		<dl class="formRow"><dd><label><input type="checkbox" name="remember" value="1" checked="checked" /> Stay logged in</label></dd></dl>
		{row}
	</div>
	<dl class="formRow formSubmitRow"><dd><button type="submit" class="button--primary button">Log in</button></dd></dl></div>
	<input type="hidden" name="_xfRedirect" value="{html.escape(redirect)}" />
</form>"""


def error_block(text: str) -> str:
    return f'<div class="blockMessage blockMessage--error blockMessage--iconic">{html.escape(text)}</div>'


def compose_form(link, route: str) -> str:  # type: ignore[no-untyped-def]
    return f"""<form action="{link(f'{route}/add')}" method="post" class="block" data-xf-init="ajax-submit">
	<input type="text" class="input" name="recipients" data-xf-init="token-input" />
	<input type="text" class="input" name="title" />
	<textarea name="message_html" class="input"></textarea>
	<button type="submit" class="button--primary button">Start conversation</button>
</form>"""


def lock_switch(url: str, discussion_open: bool) -> str:
    """R-13: the thread tools' lock item (thread_view's "Thread tools" menu; unverified markup)."""
    label = "Lock thread" if discussion_open else "Unlock thread"
    return (f'<div class="menu" data-menu="menu"><div class="menu-content"><a href="{html.escape(url)}" '
            f'class="menu-linkRow" data-xf-click="switch" data-menu-closer="true">{label}</a></div></div>')


def locked_status() -> str:
    """A locked thread's notice above its posts (unverified markup)."""
    return ('<dl class="blockStatus"><dt>Status</dt><dd class="blockStatus-message blockStatus-message--locked">'
            'Not open for further replies.</dd></dl>')
