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
        # a profile by name (`un`, matched as phpBB matches logins: case-folded); no such user: 404, #message
        "member": "memberlist.php?mode=viewprofile&un={user}",
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
        "member_name": "dl.profile-details > dd > span",  # the profile's "Имя пользователя"
        "message_panel": "div#message",  # phpBB's notice box (trigger_error), e.g. "no such user"
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
        # the member list filtered by name: names beginning with it, in name order, so the exact one comes first
        "member": "memberlist.php?username={user}&username_match=begins&sort=username&order=ascending",
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
        "member_row": "td.trow1 > a[href*='action=profile'], td.trow2 > a[href*='action=profile']",
        "member_search": "form[action$='memberlist.php']",  # only the member list has it
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
        "member": "user/{user}",  # the profile; 404 for a name no account has (spelled exactly)
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
        "member_name": "h4.author-name",
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
