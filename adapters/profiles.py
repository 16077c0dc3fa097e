"""Engine markup as data: URLs, selectors, pagination, forms and messages, one profile per engine.

A board with a prosilver-like style needs a new profile (often `dataclasses.replace` of PHPBB with a few
selectors changed), not new code. What cannot be declared is a named hook (see hooks.py).
Every selector in `selectors`, `strip` and the forms is checked against saved pages by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping


def _ro(d: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class FormSpec:
    """How to find a form and which of its fields the adapter sets; every other field is sent as served."""

    selector: str
    needs: str | None = None  # a control the right form has (pages can hold several matching forms)
    fields: Mapping[str, str] = field(default_factory=dict)  # role -> field name
    submit: str | None = None  # the submit control the server checks for
    fixed: Mapping[str, str] = field(default_factory=dict)  # always sent (e.g. autologin=on)


@dataclass(frozen=True)
class Pagination:
    param: str  # query parameter: "start" (phpBB) or "page" (MyBB)
    kind: str  # "offset": param is the index of the first post; "page": param is the 1-based page number
    per_page: int  # the board default, used until page links tell otherwise


@dataclass(frozen=True)
class HtmlProfile:
    engine: str
    urls: Mapping[str, str]  # templates with {topic}, {start}, {pm}, {user}
    topic_id: str  # regex that takes the topic id out of a topic URL
    selectors: Mapping[str, str]  # name -> CSS
    strip: tuple[str, ...]  # removed from a post's text: quotes, code, spoilers (each one CSS)
    pagination: Pagination
    forms: Mapping[str, FormSpec]
    messages: Mapping[str, str]  # kind -> regex on the error text (flood, form_invalid, bad_login, ...)
    # Flood timers (transport intervals): action -> minimum seconds between two; a key joining actions with "+"
    # is one timer they share, as the engine keeps it.
    limits: Mapping[str, float]
    hooks: Mapping[str, str]  # role -> hook name in hooks.HOOKS
    date_order: str = "auto"  # numeric dates: "dmy", "mdy" or "auto"
    # Names of selectors, urls, forms or flows written from documentation or another engine's markup, not from
    # a page of this engine: `forumbot probe` reports them so a GM can check them on the board.
    unverified: frozenset[str] = frozenset()

    def with_selectors(self, **changes: str) -> "HtmlProfile":
        return replace(self, selectors=_ro({**self.selectors, **changes}))


PHPBB = HtmlProfile(
    engine="phpbb",
    urls=_ro({
        "login": "ucp.php?mode=login",
        "topic": "viewtopic.php?t={topic}",
        "topic_page": "viewtopic.php?t={topic}&start={start}",
        "post_page": "viewtopic.php?p={post}",  # lands on the topic page that holds the post
        "reply": "posting.php?mode=reply&t={topic}",
        "inbox": "ucp.php?i=pm&folder=inbox",
        "pm": "ucp.php?i=pm&mode=view&f=0&p={pm}",
        "compose": "ucp.php?i=pm&mode=compose",
        "sentbox": "ucp.php?i=pm&folder=sentbox",
        "outbox": "ucp.php?i=pm&folder=outbox",
    }),
    topic_id=r"(?:[?&;]t=|^)(\d+)",
    selectors=_ro({
        "post": "div.post[id^='p']",
        "author": "dl.postprofile dt .username, dl.postprofile dt .username-coloured",
        "author_link": "dl.postprofile dt a[href*='mode=viewprofile']",
        "time": "p.author time[datetime]",
        "body": "div.content",
        "signature": "div.signature",
        "edit_notice": "div.notice",
        "quote": "blockquote",  # inside the body: the post quotes someone (ForumPost.quoted)
        "pagination": "div.pagination",
        "page_link": "div.pagination li a[href*='start=']",
        "next_page": "div.pagination li.next a",
        "logged_in": "a[href*='mode=logout']",
        "error": "div.error, p.error",
        "captcha": "input[name='confirm_code'], div.g-recaptcha, div.h-captcha, input[name='qa_answer']",
        "stale_review": "div.postbody[id^='ppr']",
        "success_message": "div#message",
        "pm_row": "ul.topiclist li.row dl.row-item",
        "pm_row_link": "a.topictitle",
        "pm_row_author": "a.username, a.username-coloured",
        "pm_unread": "dl.pm_unread",
        "pm_view": "div.post.pm",
        "pm_author": "p.author a.username, p.author a.username-coloured",
        "pm_time": "p.author",  # the "sent" line; the pm_time hook reads its date
        "pm_subject": "div.postbody h3",
        "pm_recipient": "input[name^='address_list[u]']",
        "folder_status": "form#viewfolder p",
        "pm_sent_to": "a.username, a.username-coloured",  # in a sent folder's row: the recipients
        "page_end": "div#page-footer",  # after the posts and rows: a page without it was cut short
    }),
    strip=("blockquote", "div.codebox", "details.spoiler"),
    pagination=Pagination(param="start", kind="offset", per_page=10),
    forms=_ro({
        "login": FormSpec("form#login", needs="password", fields={"username": "username", "password": "password"},
                          submit="login", fixed={"autologin": "on"}),
        "reply": FormSpec("form#postform", needs="message", fields={"message": "message"}, submit="post"),
        "compose": FormSpec("form#postform", needs="message",
                            fields={"message": "message", "subject": "subject", "to": "username_list"},
                            submit="post"),
        "folder": FormSpec("form#viewfolder", needs="mark_option", submit="submit_mark",
                           fixed={"mark_option": "delete_marked"}),
        "confirm": FormSpec("form#confirm", needs="confirm", submit="confirm"),
    }),
    messages=_ro({
        # Russian (the captured board) and English (stock language pack).
        "flood": r"сразу после предыдущего|cannot make another post so soon|FLOOD_ERROR",
        "form_invalid": r"Ошибка отправки формы|form was invalid|FORM_INVALID",
        "bad_login": r"неверн\w* (пароль|имя)|incorrect password|incorrect username|не найден",
        "quota": r"(папка|ящик)\W.*заполнен|folder is full|quota",
        "no_recipient": r"не найден|not found|не существует",
        "posted": r"viewtopic\.php\?(?:.*&)?p=(\d+)",
        "pm_sent": r"[?&]p=(\d+)",
        "folder_count": r"(\d+)\s*(?:из|of|/)\s*(\d+)",
    }),
    # One timer: posting and sending a PM both set user_lastpost_time, and both are refused while
    # now - user_lastpost_time < flood_interval (15 s stock; posting.php, ucp_pm_compose.php).
    limits=_ro({"post+pm": 15.0}),
    hooks=_ro({
        "post_time": "time_element",
        "edit_notice": "phpbb_edit_notice",
        "pm_time": "phpbb_pm_sent_line",
        "recipients": "phpbb_address_list",
        "stale": "phpbb_post_review",
    }),
    date_order="dmy",
)


MYBB = HtmlProfile(
    engine="mybb",
    urls=_ro({
        "login": "member.php?action=login",
        "topic": "showthread.php?tid={topic}",
        "topic_page": "showthread.php?tid={topic}&page={start}",
        "post_page": "showthread.php?pid={post}",  # lands on the thread page that holds the post
        "last_page": "showthread.php?tid={topic}&action=lastpost",
        "reply": "newreply.php?tid={topic}",
        "inbox": "private.php",
        "pm": "private.php?action=read&pmid={pm}",
        "compose": "private.php?action=send",
        "sentbox": "private.php?fid=2",
        "trash": "private.php?fid=4",
    }),
    topic_id=r"(?:[?&;]tid=|thread-|^)(\d+)",
    selectors=_ro({
        "post": "div.post[id^='post_']",
        "author": "div.author_information span.largetext",
        "author_link": "div.author_information span.largetext a[href*='uid=']",
        "time": "span.post_date",
        "body": "div.post_body",
        "signature": "div.signature",
        "edit_notice": "span.edited_post",
        "quote": "blockquote.mycode_quote",
        "pagination": "div.pagination",
        "page_link": "div.pagination a.pagination_page",
        "next_page": "div.pagination a.pagination_next",
        "logged_in": "a.logout",
        "error": "div.error",
        "notice": "#content table.tborder td.trow1",
        "captcha": "input[name='imagestring'], div.g-recaptcha, div.h-captcha",
        "success_message": "td.trow1 p",
        "pm_row_link": "a.new_pm[href*='pmid='], a.old_pm[href*='pmid='], a.re_pm[href*='pmid='], a.fw_pm[href*='pmid=']",
        "pm_unread": "a.new_pm",
        "pm_view": "div.post",
        "pm_author": "div.author_information span.largetext a",
        "pm_time": "span.post_date",
        "quick_reply": "form#quick_reply_form",
        "pm_quota": "span.pmspace_text",
        "pm_sent_to": "a[href*='uid=']",  # in a Sent Items row: the recipient, or each of "Multiple recipients"
        "page_end": "div#footer",
    }),
    strip=("blockquote.mycode_quote", "div.codeblock", "details.spoiler"),
    pagination=Pagination(param="page", kind="page", per_page=10),
    forms=_ro({
        "login": FormSpec("form[action$='member.php']", needs="password",
                          fields={"username": "username", "password": "password"}, submit="submit",
                          fixed={"remember": "yes"}),
        "reply": FormSpec("form#quick_reply_form, form[name='input'][action*='newreply.php']", needs="message",
                          fields={"message": "message"}, submit="submit"),
        "compose": FormSpec("form[name='input'][action*='private.php']", needs="message",
                            fields={"message": "message", "subject": "subject", "to": "to"}, submit="submit",
                            # No read receipts: each one is a PM back into the bot's quota. A copy in Sent Items
                            # is what find_own_pm looks for after an interrupted send.
                            fixed={"options[readreceipt]": "0", "options[savecopy]": "1"}),
        "folder": FormSpec("form[name='pmForm']", needs="action", submit="delete"),
    }),
    messages=_ro({
        "flood": r"слишком быстро|too quickly|too soon|flood",
        "flood_seconds": r"(\d+)\s*(?:секунд|second)",
        "bad_login": r"не ?правильн\w* (комп?бинаци|имя|пароль)|invalid username|incorrect password|invalid password",
        "form_invalid": r"Несоответствие кода авторизации|authorization code mismatch",
        "quota": r"квот|quota",
        "posted": r"[?&]pid=(\d+)",
        "pm_quota_percent": r"(\d+)\s*%",
    }),
    # Two timers: users.lastpost against postfloodsecs, users.lastpm against pmfloodsecs (60 s stock each;
    # refused while TIME_NOW - last <= the setting: inc/datahandlers/post.php, pm.php).
    limits=_ro({"post": 60.0, "pm": 60.0}),
    hooks=_ro({
        "post_time": "mybb_post_date",
        "edit_notice": "mybb_edit_notice",
        "pm_time": "mybb_post_date",
        "merge": "mybb_merged",
    }),
    date_order="auto",  # stock MyBB prints m-d-Y; Russian packs d.m.Y
)

MYBB_MAX_RECIPIENTS = 5


FLASKBB = HtmlProfile(
    engine="flaskbb",
    urls=_ro({
        "login": "auth/login",
        "topic": "topic/{topic}",
        "topic_page": "topic/{topic}?page={start}",
        "post_page": "post/{post}",  # redirects to the topic page that holds the post
        "reply": "topic/{topic}/post/new",
        "inbox": "conversations/",
        "inbox_page": "conversations/?page={page}",
        "conversation": "conversations/{pm}/view",
        "compose": "conversations/new",
        "sentbox": "conversations/sent",
    }),
    topic_id=r"(?:/topic/|^)(\d+)",
    selectors=_ro({
        "post": "div.post-row[id]",
        "author": "div.author-name",
        "author_link": "div.author-name a[href*='/user/']",
        "time": "div.post-meta time[datetime]",  # the first is the creation time, the second the last edit
        "body": "div.post-content",
        "signature": "div.post-signature",
        "edit_notice": "div.post-meta small time[datetime]",
        "quote": "blockquote",
        "pagination": "ul.pagination",
        "page_link": "ul.pagination a.page-link[href*='page=']",
        "next_page": "ul.pagination li.active + li a.page-link[href*='page=']",
        "logged_in": "a[href$='/auth/logout']",
        # flashed errors, a form's error summary, and the message under a rejected field (the reply form
        # always carries hidden attachment-limit messages of that class: only one after an invalid control counts)
        "error": "#flashed-messages div.alert-danger, form div.alert-danger li, .is-invalid + div.invalid-feedback",
        "captcha": "div.g-recaptcha, div.h-captcha, iframe[src*='recaptcha']",
        "pm_row": "div.conversation-row",
        "pm_row_link": "div.conversation-subject a[href*='/conversations/']",
        "pm_row_time": "div.conversation-meta time[datetime]",
        "pm_row_users": "div.conversation-meta a[href*='/user/']",  # from, then to
        "pm_unread_badge": "#conversations-nav span.badge",
        "pm_message": "div.conversation-message[id^='mid']",
        "pm_author": "a.author-name, span.author-name",
        "pm_time": "div.message-meta time[datetime]",
        "pm_body": "div.message-content",
        "pm_subject": "div.conversation-header strong",
        "inbox_next": "ul.pagination li.active + li a.page-link[href*='page=']",
        "page_end": "footer.flaskbb-footer",
    }),
    strip=("blockquote", "pre"),
    pagination=Pagination(param="page", kind="page", per_page=10),
    forms=_ro({
        "login": FormSpec("form[method='post']", needs="password", fields={"username": "login", "password": "password"},
                          submit="submit", fixed={"remember_me": "y"}),
        "reply": FormSpec("form[method='post']", needs="content", fields={"message": "content"}, submit="submit"),
        "compose": FormSpec("form[method='post']", needs="to_user",
                            fields={"to": "to_user", "subject": "subject", "message": "message"},
                            submit="send_message"),
    }),
    messages=_ro({
        "bad_login": r"Wrong username or password|incorrect|неверн",
        "form_invalid": r"CSRF",
        "quota": r"message limit|reached your",
        "no_recipient": r"username you entered does not exist",
        "flood": r"too many requests|rate limit",
        "posted": r"/post/(\d+)",
    }),
    # FlaskBB has no flood interval of its own; Flask-Limiter answers 429, which the transport honours.
    limits=_ro({}),
    hooks=_ro({
        "post_time": "time_element",
        "edit_notice": "time_element_edited",
        "pm_time": "time_element",
    }),
)


# vBulletin 3.8 and 4.2 in one profile: selectors list both versions' markup, seen on the two real pages in
# fixtures/vbulletin/ (3.8.11 showthread, logged in; 4.2.3 showthread, guest). Flows no page shows are listed
# in `unverified`.
VBULLETIN = HtmlProfile(
    engine="vbulletin",
    urls=_ro({
        "index": "index.php",
        "login": "login.php?do=login",
        "topic": "showthread.php?t={topic}",
        "topic_page": "showthread.php?t={topic}&page={start}",
        "post_page": "showthread.php?p={post}",  # lands on the thread page that holds the post
        "last_page": "showthread.php?t={topic}&goto=lastpost",
        # 200 posts a page where the board's maxposts allows it (vB clamps pp to it), absolute dates, no
        # signatures or edit notices
        "print": "printthread.php?t={topic}&pp=200",
        "print_page": "printthread.php?t={topic}&pp=200&page={start}",
        "reply": "newreply.php?do=newreply&noquote=1&t={topic}",
        "inbox": "private.php?folderid=0",
        "pm": "private.php?do=showpm&pmid={pm}",
        "compose": "private.php?do=newpm",
        "sentbox": "private.php?folderid=-1",
    }),
    topic_id=r"(?:[?&;]t=|showthread\.php/|^)(\d+)",
    selectors=_ro({
        # vB3: table#post123 (postbit, "legacy" layout); vB4: li#post_123 (postbitlegacy / postbit)
        "post": "table[id^='post'].tborder, li.postcontainer[id^='post_'], li.postbit[id^='post_']",
        "author": "a.bigusername, a.username, span.username",
        "author_link": "a.bigusername[href*='member.php'], a.username[href*='member.php']",
        # vB3: the first header cell holds the date text; vB4: span.date with a nested span.time
        "time": "td.thead, span.date, span.datetime",
        "body": "div[id^='post_message_']",
        # vB3 prints the signature after `__________________<br />` in a div outside the message, vB4 in
        # blockquote.signature: neither is inside the body; listed so a style that moves it in is covered
        "signature": "div.signaturecontainer, blockquote.signature",
        "edit_notice": "td[id^='td_post_'] > div > div.smallfont > em, blockquote.postcontent.lastedited, "
                       "div.lastedited",
        # vB3 bbcode_quote: div[margin:20px] > "Quote:" + table; vB4 div.bbcode_container > div.bbcode_quote
        "quote": "div[style*='margin:20px'] > table, div.bbcode_quote",
        "pagination": "div.pagenav, div.pagination",
        "page_link": "div.pagenav a[href*='page='], div.pagination span a[href*='page=']",
        "next_page": "div.pagenav a[rel='next'], div.pagination a[rel='next']",
        "logged_in": "a[href*='login.php?do=logout']",
        "error": "div.standard_error div.blockrow, td.panelsurround div.panel > div, div.blockrow.error, "
                 "ol#ajax_post_errors_message li, td#qr_error_td li",
        "captcha": "input[name='humanverify[input]'], div.g-recaptcha, img#imagereg",
        "security_token": "input[name='securitytoken']",
        "redirect": "meta[http-equiv='Refresh'], meta[http-equiv='refresh']",
        # printthread.php (printthreadbit): markup from the vB4 templates, no real page saved
        "print_post": "li.postbit[id^='post_'], table.tborder[id^='post']",
        "print_author": "span.username, td.page td[style*='14pt']",
        "print_time": "span.datetime, td.page td.smallfont",
        "print_body": "div[id^='post_message_'], blockquote.postcontent, div.content",
        # private.php
        "pm_row_link": "a[href*='do=showpm'][href*='pmid=']",
        "pm_view": "table[id^='post'].tborder, li.postcontainer, li.postbit, div#post",
        "pm_author": "a.bigusername, a.username, span.username",
        "pm_time": "td.thead, span.date, span.datetime",
        "pm_subject": "div.title, strong.title, h2.title",
        "pm_sent_to": "a[href*='member.php']",
        "page_end": "div#footer, div#lastpost, img[src*='cron.php'], div#vb_footer",
    }),
    strip=("div[style*='margin:20px']", "div.bbcode_container", "pre.bbcode_code", "div.spoiler",
           "div.bbcode_spoiler"),
    pagination=Pagination(param="page", kind="page", per_page=20),
    forms=_ro({
        "login": FormSpec("form[action*='login.php']", needs="vb_login_username",
                          fields={"username": "vb_login_username", "password": "vb_login_password"},
                          fixed={"cookieuser": "1", "do": "login"}),
        "reply": FormSpec("form#qrform, form[name='vbform'][action*='newreply.php']", needs="message",
                          fields={"message": "message"}, submit="sbutton", fixed={"wysiwyg": "0"}),
        "compose": FormSpec("form[name='vbform'][action*='private.php']", needs="recipients",
                            fields={"to": "recipients", "subject": "title", "message": "message"},
                            submit="sbutton", fixed={"wysiwyg": "0", "savecopy": "1", "do": "insertpm"}),
        "folder": FormSpec("form[action*='do=managepm']", needs="dowhat", fixed={"dowhat": "delete"}),
    }),
    messages=_ro({
        # English from the stock phrases; Russian from Russian vB packs: unverified, no Russian page was saved
        "flood": r"wait \d+ seconds between posts|try again in \d+ seconds|подождать \d+ секунд|"
                 r"через \d+ секунд|между сообщениями",
        "flood_seconds": r"(?:try again in|попробуйте (?:снова |ещё раз )?через|осталось)\s*(\d+)\s*(?:second|секунд)",
        "form_invalid": r"security token was missing or has expired|маркер безопасности|ключ безопасности",
        "bad_login": r"invalid username or password|entered an invalid|неправильн\w* (имя|пароль)|неверн\w* (имя|пароль)",
        "no_permission": r"do not have permission|not logged in|нет (прав|доступа)|не вошли",
        "no_recipient": r"could not be found|не найден",
        "posted": r"[?&]p=(\d+)",
        "pm_sent": r"private\.php",
    }),
    # vB: floodchecktime (30 s stock) between posts; pmfloodtime between PMs (60 s stock, 0 for staff)
    limits=_ro({"post": 30.0, "pm": 60.0}),
    hooks=_ro({
        "post_time": "vb_post_date",
        "edit_notice": "vb_edit_notice",
        "pm_time": "vb_post_date",
    }),
    date_order="auto",  # stock vB prints m-d-Y, Russian packs d.m.Y; the vB3 page shows Y-m-d
    unverified=frozenset({
        "urls.print", "urls.print_page", "selectors.print_post", "selectors.print_author", "selectors.print_time",
        "selectors.print_body", "flow.login_answer", "flow.reply_answer", "urls.inbox", "urls.pm", "urls.compose",
        "urls.sentbox", "selectors.pm_row_link", "selectors.pm_view", "selectors.pm_subject",
        "selectors.pm_sent_to", "forms.compose", "forms.folder", "selectors.error", "messages.flood",
        "messages.flood_seconds", "messages.form_invalid", "messages.bad_login", "messages.no_permission",
        "messages.no_recipient", "edit_notice.russian", "limits.pm", "limits.post",
    }),
)


# Invision Community 4: every post and message carries `data-quotedata` JSON (member, unix time, comment id) on
# its comment wrapper, read by the `ips_quotedata` hook; `time[datetime]` is the fallback. Seen on the real
# excerpts in fixtures/invision/; everything else follows the IPS 4 templates and is `unverified`.
INVISION = HtmlProfile(
    engine="invision",
    urls=_ro({
        "login": "login/",
        "topic": "topic/{topic}/",
        "topic_page": "topic/{topic}/page/{start}/",
        "post_page": "topic/{topic}/?do=findComment&comment={post}",
        "inbox": "messenger/",
        "conversation": "messenger/{pm}/",
        "compose": "messenger/compose/",
    }),
    topic_id=r"(?:/topic/|[?&]showtopic=|^)(\d+)",
    selectors=_ro({
        "post": "div[data-quotedata][data-commentid]",
        "author": "aside.cAuthorPane h3.cAuthorPane_author a",
        "author_link": "aside.cAuthorPane h3.cAuthorPane_author a",
        "time": "div.ipsComment_meta time[datetime], time[datetime]",
        "body": "div[data-role='commentContent']",
        "signature": "div[data-role='memberSignature']",
        # IPS prints "Изменено <time> пользователем X" inside the content, excluded from quotes
        "edit_notice": "span[data-excludequote] time[datetime]",
        "quote": "blockquote.ipsQuote",
        "pagination": "ul.ipsPagination",
        "page_link": "ul.ipsPagination li.ipsPagination_page a",
        "next_page": "ul.ipsPagination li.ipsPagination_next:not(.ipsPagination_inactive) a",
        "logged_in": "a[href*='do=logout'], #elUserLink",
        "error": "div.ipsMessage_error, p.ipsType_warning, span.ipsType_warning, div#elError div.ipsType_normal",
        "captcha": "div.g-recaptcha, div.h-captcha, div[data-ipscaptcha]",
        "pm_row": "li.ipsDataItem[data-messageid], li.ipsDataItem[data-conversationid]",
        "pm_row_link": "a[href*='messenger/'][data-ipshover], h4 a[href*='messenger/']",
        "pm_row_time": "time[datetime]",
        "pm_row_users": "a[href*='/profile/']",
        "pm_message": "div[data-quotedata][data-commentid]",
        "pm_subject": "h1.ipsType_pageTitle, h2.ipsType_pageTitle",
        "page_end": "footer#ipsLayout_footer, div#ipsLayout_footer, footer.ipsLayout_footer",
    }),
    strip=("blockquote.ipsQuote", "div.ipsSpoiler", "pre.ipsCode", "span[data-excludequote]"),
    pagination=Pagination(param="page", kind="page", per_page=25),
    forms=_ro({
        "login": FormSpec("form[action*='login']", needs="auth",
                          fields={"username": "auth", "password": "password"},
                          fixed={"remember_me": "1", "_processLogin": "usernamepassword"}),
        "reply": FormSpec("form[action*='topic']", needs="csrfKey"),
        "compose": FormSpec("form[action*='messenger/compose']", needs="messenger_to",
                            fields={"to": "messenger_to", "subject": "messenger_title", "message": "messenger_content"}),
    }),
    messages=_ro({
        "flood": r"wait \d+ seconds|подождать \d+ секунд|подождите \d+ секунд|flood",
        "flood_seconds": r"(\d+)\s*(?:second|секунд)",
        "form_invalid": r"security key|csrf|ключ безопасности",
        "bad_login": r"password you entered is incorrect|display name.*not found|неверн\w* пароль|не найден",
        "no_permission": r"don't have permission|нет разрешения|нет прав",
        "posted": r"[?&]comment=(\d+)",
        "pm_sent": r"messenger/(\d+)",
    }),
    # IPS: flood_control (group setting, off by default; often 30 s on public boards)
    limits=_ro({"post": 30.0, "pm": 30.0}),
    hooks=_ro({
        "post_time": "time_element",
        "edit_notice": "time_element_edited",
        "pm_time": "time_element",
        "post_meta": "ips_quotedata",
    }),
    unverified=frozenset({
        "urls.login", "urls.topic_page", "urls.post_page", "urls.inbox", "urls.conversation", "urls.compose",
        "selectors.edit_notice", "selectors.pagination", "selectors.page_link", "selectors.next_page",
        "selectors.logged_in", "selectors.error", "selectors.pm_row", "selectors.pm_row_link",
        "selectors.pm_row_time", "selectors.pm_row_users", "selectors.pm_message", "selectors.pm_subject",
        "selectors.page_end", "selectors.signature", "forms.login", "forms.reply", "forms.compose",
        "flow.login_answer", "flow.reply_answer", "flow.pm_answer", "messages.flood", "messages.bad_login",
        "messages.form_invalid", "limits.post", "limits.pm",
    }),
)
