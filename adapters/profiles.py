"""Engine markup as data: URLs, selectors, pagination, forms and messages, one profile per engine.

A board with a prosilver-like style needs a new profile (often `dataclasses.replace` of PHPBB with a few
selectors changed), not new code. What cannot be declared is a named hook (see hooks.py).
Every selector in `selectors`, `strip` and the forms is checked against saved pages by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping


# What an adapter does over several pages, named so a profile can list it as unverified: logging in (and reading
# the answer), posting a reply (and reading its result page), sending a PM (and its answer), reading a post's edit
# time through an API, reading an edit notice's wording in a language no saved page showed.
FLOWS = frozenset({"login", "login_answer", "reply", "reply_result", "reply_answer", "pm", "pm_answer",
                   "api_edited", "api_nesting", "edit_notice_text"})


def profile_for(engine: str) -> "HtmlProfile | None":
    """The profile of HTML engine `engine` among those defined in this module: what a forum table's `profile`
    overrides are checked against (None for an engine without one)."""
    return next((p for p in list(globals().values()) if isinstance(p, HtmlProfile) and p.engine == engine), None)


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
    # A regex whose group 1 is the param's value in a page link, where it is not a plain query value
    # (SMF: "index.php?topic=2.15", the offset after the topic id).
    pattern: str | None = None
    # Where the number is in the link's path rather than its query (XenForo ".../page-3"): a regex whose
    # group 1 is `param`'s value.
    in_path: str | None = None


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
    # Selectors, urls, forms and flows written from documentation or another engine's markup, no real page
    # seen: `forumbot probe` reports them, so the first GM on a board knows what to check.
    # One convention: "selectors.NAME", "urls.NAME", "forms.NAME", "messages.NAME", "limits.NAME", "strip[i]",
    # "flows.NAME" (NAME in FLOWS); `unknown_unverified` names any entry that refers to nothing.
    unverified: frozenset[str] = frozenset()

    def part_names(self) -> set[str]:
        """Every name an `unverified` entry (or `forumbot probe`) may use for a part of this profile."""
        return ({f"selectors.{k}" for k in self.selectors} | {f"urls.{k}" for k in self.urls}
                | {f"forms.{k}" for k in self.forms} | {f"messages.{k}" for k in self.messages}
                | {f"limits.{k}" for k in self.limits} | {f"strip[{i}]" for i in range(len(self.strip))}
                | {f"flows.{k}" for k in FLOWS})

    def unknown_unverified(self) -> list[str]:
        return sorted(self.unverified - self.part_names())

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
        # the compose form with the recipient already in its address list (fixtures/phpbb/33_pm_compose_to_user)
        "compose_to": "ucp.php?i=pm&mode=compose&u={user}",
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
        # the folder's form, opened unconditionally by prosilver's ucp_pm_message_header.html (empty folders too)
        "pm_list": "form#viewfolder",
        "pm_row_author": "a.username, a.username-coloured",
        "pm_unread": "dl.pm_unread",
        "pm_view": "div.post.pm",
        "pm_author": "p.author a.username, p.author a.username-coloured",
        "pm_time": "p.author",  # the "sent" line; the pm_time hook reads its date
        "pm_subject": "div.postbody h3",
        "pm_recipient": "input[name^='address_list[u]']",
        # the address list's names, each linking its user id (`u=`): who a preset recipient id is now
        "pm_recipient_name": "ul.recipients a.username, ul.recipients a.username-coloured",
        "folder_status": "form#viewfolder p",
        "pm_sent_to": "a.username, a.username-coloured",  # in a sent folder's row: the recipients
        "page_end": "div#page-footer",  # after the posts and rows: a page without it was cut short
        "member_name": "dl.profile-details > dd > span",  # the profile's "Имя пользователя"
        "message_panel": "div#message",  # phpBB's notice box (trigger_error), e.g. "no such user"
        # the header's inbox link and its badge: the bot's unread PMs (user_unread_privmsg), "0" when none
        "pm_header": "a[href*='i=pm'][href*='folder=inbox'] > strong.badge",
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
        "pm_header": "count_text",
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
        # the folder's form (saved inbox pages); MyBB's `private` template prints it round private_nomessages too
        "pm_list": "form[action*='private.php'][name='pmForm']",
        "prev_page": "div.pagination a.pagination_previous",
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
        # the welcome block's inbox link, followed by "(Unread N, Total M)" (users.unreadpms)
        "pm_header": "ul.user_links a[href$='private.php']",
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
        # MyBB 1.8: "Please wait 45 more seconds." (datahandler_post/pm.lang.php)
        "flood_seconds": r"(\d+)\s*(?:more\s+)?(?:секунд|second)",
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
        "pm_header": "mybb_pm_usage",
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


SMF = HtmlProfile(
    engine="smf",
    urls=_ro({
        "login": "index.php?action=login",
        "topic": "index.php?topic={topic}.0",
        "topic_page": "index.php?topic={topic}.{start}",
        "post_page": "index.php?msg={post}",  # redirects to topic=T.msgN, the page that holds the post
        # a message id at or past the topic's last shows the last page (Display.php, "virtual_msg")
        "last_page": "index.php?topic={topic}.msg2147483647",
        "reply": "index.php?action=post;topic={topic}.0",
        # Newest first, asked for: SMF's own default is oldest first, which puts new PMs on the last page.
        "inbox": "index.php?action=pm;f=inbox;sort=date;desc",
        "pm": "index.php?action=pm;f=inbox;pmsg={pm}",
        "sentbox": "index.php?action=pm;f=sent;sort=date;desc",
        "sent_pm": "index.php?action=pm;f=sent;pmsg={pm}",
        "compose": "index.php?action=pm;sa=send",
        "pm_display_mode": "index.php?action=pm;view",  # cycles the member's mode: all at once, one by one, conversation
    }),
    topic_id=r"(?:[?&;]topic=|^)(\d+)",
    selectors=_ro({
        # by id, wherever they sit (a theme wrapping them, no longer children of form#quickModForm, dropped
        # them silently: issue 17 item 19); "msg_N" (body), "msg_N_signature", "msg_N_quick_mod" are not posts
        "post": "#forumposts div[id^='msg']:not([id^='msg_'])",
        "author": "div.poster h4",
        "author_link": "div.poster h4 a[href*='action=profile']",
        "time": "div.postinfo a.smalltext[href*='msg=']",
        "body": "div.post div.inner[id^='msg_']",
        "signature": "div.signature",
        "edit_notice": "span.modified[id^='modified_']",  # present, empty, on unedited posts
        "quote": "blockquote",
        "pagination": "div.pagelinks",
        "page_link": "div.pagelinks a.nav_page",
        "next_page": "div.pagelinks a.nav_page:has(span.next_page)",
        "prev_page": "div.pagelinks a.nav_page:has(span.previous_page)",
        "new_anchor": "a#new",  # on the page a reply redirects to (topic=T.new#new)
        "logged_in": "a[href*='action=logout']",
        # fatal error pages (flood, permissions: HTTP 403 or 200), and the error box of a re-shown form
        "error": "#fatal_error div.windowbg, div.errorbox, div#post_error li, div.error",
        "captcha": "[id^='verification_control'], input[name$='_vv[code]'], div.g-recaptcha, div.h-captcha",
        "pm_row": "form#pmFolder table.table_grid tbody tr",
        "pm_row_box": "input[name='pms[]']",
        "pm_row_link": "td.pm_subject a",
        # template_folder() opens form#pmFolder before it looks at the messages (an empty folder too)
        "pm_list": "form#pmFolder",
        "pm_row_users": "td.pm_from_to a",  # inbox: the sender; sent items: the recipients
        "pm_view": "div.windowbg[id='msg{pm}']",
        # "conversation" display mode lists one row per conversation, the newest PM of each: earlier new ones hide
        "pm_conversation_mode": "form#pmFolder[action*=';conversation;']",  # the PM on a folder page (every display mode shows it)
        "pm_author": "div.poster h4 a",
        "pm_time": "div.postinfo span.smalltext",
        "pm_subject": "div.subject_title h5",
        "pm_send_log": "div.windowbg.noup span.error",  # the "send report" over a re-shown compose form
        "page_end": "div#footer",
    }),
    strip=("blockquote", "div.codeheader", "code.bbc_code", "div.spoiler"),
    pagination=Pagination(param="start", kind="offset", per_page=15, pattern=r"[?&;]topic=\d+\.(\d+)"),
    forms=_ro({
        # The session pair (a hidden input with a random name per session) and 2.1's login token ride along as
        # served; hash_passwrd is left empty (only JavaScript fills it), plain passwrd is accepted.
        "login": FormSpec("form#frmLogin", needs="passwrd", fields={"username": "user", "password": "passwrd"},
                          fixed={"cookielength": "3153600"}),
        "reply": FormSpec("form#postmodify", needs="message", fields={"message": "message"}, submit="post"),
        "compose": FormSpec("form#postmodify", needs="to",
                            fields={"to": "to", "subject": "subject", "message": "message"}, submit="post"),
        "folder": FormSpec("form#pmFolder", needs="pms[]", submit="del_selected"),
    }),
    messages=_ro({
        # Russian (dragomano's 2.1 pack, realdigger's 2.0 pack) and English: post_WaitTime_broken,
        # pm_WaitTime_broken (both "... from your IP was less than N seconds ago").
        "flood": r"с вашего IP|from your IP was less than|last posting from your IP",
        "flood_seconds": r"(\d+)\s*(?:секунд|second)",
        # login_WaitTime_broken: a login within 2 s of the last one from the IP
        "login_wait": r"подождать около (\d+) секунд|wait about (\d+) seconds",
        "pm_hourly": r"лимит отправки личных сообщений в (\d+)|limit of (\d+) personal messages per hour",
        "form_invalid": r"Не удалось проверить сессию|Session verification failed|сессия закончилась|session timed out",
        "bad_login": r"Неверный пароль|Password incorrect|username does not exist|Пользователя не существует"
                     r"|превысили лимит попыток|login attempts threshold|out of login chances",
        "no_recipient": r"Unable to find member|could not be found|Не найден пользователь",
        # pm_successfully_sent in a send report: sent to some, the form re-shown for the others. The Russian
        # text is unverified (not in the captured language strings).
        "pm_partly_sent": r"successfully sent to|успешно отправлен",
        "posted": r"[?&;]topic=\d+\.msg(\d+)",
        "pm_sent": r"done=sent",
    }),
    # spamProtection('post') and spamProtection('pm') keep separate log_floodcontrol rows (log_type 'post' and
    # 'pm'), both spamWaitTime (5 s stock) per IP (Security.php). pm_spam_settings ("10,5,20" stock) adds at
    # most 10 recipients a PM and 20 PMs an hour, the latter answered as an error (pm_too_many_per_hour).
    limits=_ro({"post": 5.0, "pm": 5.0}),
    hooks=_ro({
        "post_time": "text_date",
        "edit_notice": "smf_edit_notice",
        "pm_time": "smf_pm_date",
    }),
    date_order="dmy",
)

SMF_MAX_RECIPIENTS = 10
SMF_PMS_PER_HOUR = 20


# XenForo 2.x. Thread pages are read from real saved pages (fixtures/xenforo/README.md); XenForo is closed
# source and no board runs here, so what no saved page shows is listed in `unverified`.
XENFORO = HtmlProfile(
    engine="xenforo",
    urls=_ro({
        "login": "login/",
        "login_post": "login/login",
        "topic": "threads/{topic}/",  # XF redirects the bare id to the canonical slug.id URL
        "topic_page": "threads/{topic}/page-{start}",
        "post_page": "posts/{post}/",  # redirects to the thread page that holds the post
        "reply": "threads/{topic}/add-reply",
        "inbox": "conversations/",
        "inbox_page": "conversations/page-{page}",
        "conversation": "conversations/{pm}/",
        "conversation_page": "conversations/{pm}/page-{page}",
        "conversation_reply": "conversations/{pm}/add-reply",
        "compose": "conversations/add",
    }),
    topic_id=r"(?:threads/(?:[^/?#]*\.)?|^)(\d+)",
    selectors=_ro({
        "post": "article.message--post[data-content^='post-']",
        "author": "h4.message-name .username",
        "author_link": "h4.message-name .username[data-user-id]",
        "time": "header.message-attribution time.u-dt",
        "body": "article.message-body > div.bbWrapper",
        "signature": "aside.message-signature",
        "edit_notice": "div.message-lastEdit",
        "quote": "blockquote.bbCodeBlock--quote",
        "pagination": "nav.pageNavWrapper",
        "page_link": "ul.pageNav-main a",
        "next_page": "a.pageNav-jump--next",
        "logged_in": "html[data-logged-in='true']",
        "error": "div.blockMessage--error, div.formRow--error, ul.errorList li",
        "captcha": "div.g-recaptcha, div.h-captcha, [data-xf-init~='re-captcha'], [data-xf-init~='h-captcha'], "
                   "[data-xf-init~='turnstile']",
        "page_end": "footer#footer",
        # conversations (PMs): the list, one conversation's messages, the compose form
        "pm_row": "div.structItem--conversation",
        # the title link is a.structItem-title itself in conversation_list_macros (ENGINES.md §12); a theme that
        # wraps it in a div.structItem-title is met too; XF 2.3 links direct-messages/
        "pm_row_link": "a.structItem-title[href*='conversations/'], a.structItem-title[href*='direct-messages/'], "
                       ".structItem-title a[href*='conversations/'], .structItem-title a[href*='direct-messages/']",
        "pm_row_time": "div.structItem-cell--latest time.u-dt",
        "pm_row_users": "ul.structItem-parts a.username",
        "pm_row_replies": "div.structItem-cell--meta dl.pairs dd",  # the first: replies after the first message
        # conversation_message_macros: no data-content; the id is on span.u-anchorTarget#convMessage-N inside
        "pm_message": "article.message--conversationMessage, article.js-message",
        "pm_anchor": "span.u-anchorTarget[id^='convMessage-'], [id^='convMessage-']",
        "pm_author": "h4.message-name .username",
        "pm_time": "header.message-attribution time.u-dt",
        "pm_body": "article.message-body > div.bbWrapper",
        "pm_subject": "h1.p-title-value",
        "inbox_next": "a.pageNav-jump--next",
    }),
    strip=("blockquote.bbCodeBlock--quote", "div.bbCodeBlock--code", "div.bbCodeSpoiler", "span.bbCodeInlineSpoiler",
           "aside.message-signature"),
    pagination=Pagination(param="page", kind="page", per_page=20, in_path=r"/page-(\d+)"),
    forms=_ro({
        # Posted as fields, not as a served form (the forms are absent from the saved pages, and a served form's
        # empty `message_html` would win over `message`): XF takes `message` as BBCode when no `message_html`
        # comes; every POST carries the page's html[data-csrf] as _xfToken and asks for a JSON answer.
        "login": FormSpec("form[action$='login/login']", needs="password",
                          fields={"username": "login", "password": "password"},
                          fixed={"remember": "1", "_xfResponseType": "json"}),
        "reply": FormSpec("form.js-quickReply, form[action*='/add-reply']", needs="message",
                          fields={"message": "message"}, fixed={"_xfResponseType": "json"}),
        "compose": FormSpec("form[action$='conversations/add']", needs="recipients",
                            fields={"to": "recipients", "subject": "title", "message": "message"},
                            fixed={"_xfResponseType": "json"}),
    }),
    messages=_ro({
        # must_wait_x_seconds_before_performing_this_action, English and the Russian pack
        "flood": r"must wait at least|подождите|должны подождать|подождать",
        "flood_seconds": r"(\d+)\s*(?:second|секунд|сек)",
        "form_invalid": r"Security error occurred|ошибка безопасности",
        "bad_login": r"Incorrect password|requested user .* could not be found|Неверный пароль|не найден",
        "no_recipient": r"following recipients could not be found|not be found|не найден",
        "quota": r"may only start|maximum number|не можете начать",
        "posted": r"(?:(?:^|[/?])posts/|/post-)(\d+)",
        # a reply held for a moderator redirects to the thread with ?pending_approval=1 (§12): queued, not refused
        "pending": r"[?&]pending_approval=1",
        # XF 2.3 renamed conversations "direct messages": its links and redirects are direct-messages/slug.ID/
        "conversation": r"(?:conversations|direct-messages)/(?:[^/?#]*\.)?(\d+)",
        "two_step": r"login/two-step",
        "login_required": r"must be logged-in|должны войти|необходимо войти",  # XF phrase login_required
    }),
    # floodCheckLength (30 s stock) paces posts and replies inside a conversation; starting a conversation is
    # checked with floodCheckLengthDiscussion, 180 s stock (ENGINES.md §12): "pm" is a reply into a kept
    # conversation, "pm_start" a new one.
    limits=_ro({"post": 30.0, "pm": 30.0, "pm_start": 180.0}),
    hooks=_ro({
        "post_time": "xf_data_time",
        "edit_notice": "xf_last_edit",
        "pm_time": "xf_data_time",
    }),
    date_order="dmy",
    unverified=frozenset({
        "urls.login_post", "forms.login", "flows.login",  # no login page or answer saved
        "urls.reply", "forms.reply", "flows.reply",  # the quick-reply form is absent from the guest page
        "selectors.edit_notice",  # seen only in a compiled template, not on a served page
        # documented, not seen served
        "selectors.signature", "selectors.quote", "strip[0]", "strip[1]", "strip[2]", "strip[3]", "strip[4]",
        "selectors.pagination", "selectors.page_link", "selectors.next_page",  # no page with pageNav saved
        "selectors.error", "messages.flood", "messages.bad_login", "messages.login_required", "messages.no_recipient",
        "messages.quota",
        "urls.inbox", "urls.inbox_page", "urls.conversation", "urls.conversation_page", "urls.compose",
        "urls.conversation_reply",
        "selectors.pm_row", "selectors.pm_row_link", "selectors.pm_row_time", "selectors.pm_row_users",
        "selectors.pm_row_replies",
        "selectors.pm_message", "selectors.pm_anchor", "selectors.pm_author", "selectors.pm_time", "selectors.pm_body", "selectors.pm_subject",
        "selectors.inbox_next", "forms.compose", "flows.pm", "limits.pm_start",
        "messages.pending",
    }),
)


# PunBB / FluxBB 1.5 (seen on a live FluxBB 1.5.11 board, Visman's fork, Russian; fixtures/punbb/README.md).
# The login, reply and redirect flows and their field names are PunBB's, shared by the hosted mybb.ru engine
# (MYBBRU below), whose pages are PunBB 1.2 markup with other class names.
PUNBB = HtmlProfile(
    engine="punbb",
    urls=_ro({
        "login": "login.php",
        "topic": "viewtopic.php?id={topic}",
        "topic_page": "viewtopic.php?id={topic}&p={start}",
        "post_page": "viewtopic.php?pid={post}",  # lands on the topic page that holds the post
        "last_page": "viewtopic.php?id={topic}&action=last",  # 302 to the last page
        "reply": "post.php?tid={topic}",
        # PMs: Visman's "New PMS" module (stock FluxBB has no PMs): dialogues, each a thread of messages.
        "inbox": "pmsnew.php",  # the folder "Новые": dialogues with unread messages (not read: see fetch_pms)
        "pm_list": "pmsnew.php?mdl=list",  # "Моя переписка": every dialogue, sent ones too, newest first
        "dialogue": "pmsnew.php?mdl=topic&tid={pm}",
        "dialogue_reply": "pmsnew.php?mdl=post&tid={pm}",  # a message into an existing dialogue
        "compose": "pmsnew.php?mdl=post",
    }),
    topic_id=r"(?:[?&;]id=|^)(\d+)",
    selectors=_ro({
        "post": "div.blockpost[id^='p']",
        "author": "div.postleft dl dt strong",
        "author_link": "div.postleft dl dt a[href*='profile.php?id=']",
        # members see viewtopic.php?pid=N#pN; FluxBB 1.5 (Visman) shows guests "#pN" alone (ENGINES.md §12)
        "time": "h2 a[href*='pid='], h2 a[href^='#p']",
        # the signature shares the body's class: "div.postsignature postmsg"
        "body": "div.postright div.postmsg:not(.postsignature)",
        "signature": "div.postsignature",
        "edit_notice": "p.postedit",
        "quote": "div.quotebox",
        "pagination": "p.pagelink",
        "page_link": "p.pagelink a[href*='viewtopic.php']",
        "next_page": "p.pagelink a[rel='next']",
        "current_page": "p.pagelink strong",  # the number of the page shown
        "logged_in": "#navlogout a",
        "error": "#posterror li, #msg div.inbox p:first-child",
        "captcha": "input[name='captcha'], div.g-recaptcha, div.h-captcha",
        "redirect": "#punredirect, #pun-redirect",
        "pm_row": "#vf tbody tr",
        "pm_row_link": "td.tcl a[href*='mdl=topic'][href*='tid=']:not([href*='action='])",
        "pm_row_users": "td.tc2",  # sender, recipient (as text: a link or a plain name), last post
        "pm_row_replies": "td.tc3",
        "pm_unread": "tr.inew",
        "pm_next": "p.pagelink a[rel='next']",
        "pm_usage": "div.blockmenu li",  # "Моя переписка: 5%"
        "page_end": "#brdfooter",
    }),
    strip=("div.quotebox", "div.codebox", "p.postedit"),
    pagination=Pagination(param="p", kind="page", per_page=25),
    forms=_ro({
        "login": FormSpec("form#login", needs="req_password",
                          fields={"username": "req_username", "password": "req_password"}, submit="login",
                          fixed={"save_pass": "1"}),
        "reply": FormSpec("form#post, form#quickpostform", needs="req_message", fields={"message": "req_message"},
                          submit="submit"),
        "compose": FormSpec("form#post", needs="req_addressee",
                            fields={"to": "req_addressee", "subject": "req_subject", "message": "req_message"},
                            submit="submit"),
        "dialogue_reply": FormSpec("form#post", needs="req_message", fields={"message": "req_message"},
                                   submit="submit"),
    }),
    messages=_ro({
        # FluxBB 1.5 Russian: "Хотя бы 30 секунд должно пройти между отправкой сообщений"; English: "At least
        # 30 seconds have to pass between posts"; PunBB 1.2: "Должно пройти хотя бы N секунд ...".
        "flood": r"должно пройти|have to pass between|between posts",
        "flood_seconds": r"(\d+)\s*(?:секунд|second)",
        "bad_login": r"Неверн\w* имя|Wrong username|incorrect",
        "no_permission": r"нет прав|do not have permission|Вы должны войти|must login",
        "no_recipient": r"Нет получателя|no user|не найден",
        "quota": r"заполнен|больше максимума|максимальн|full",
        "posted": r"viewtopic\.php\?(?:.*&)?pid=(\d+)",
        "pm_sent": r"[?&]pid=(\d+)",
        "pm_usage_percent": r"(\d+)\s*%",
    }),
    # Two timers: posts against users.last_post (post.php), PMs against users.pmsn_last_post (the New PMS module,
    # include/pms_new/mdl/post.php), both refused while now - last < g_post_flood (30 s for Members, stock).
    limits=_ro({"post": 30.0, "pm": 30.0}),
    hooks=_ro({
        "post_time": "text_date",
        "edit_notice": "punbb_edit_notice",
        "pm_time": "text_date",
        "prepare_reply": "none",
    }),
    date_order="dmy",
)


# The hosted mybb.ru / rusff engine (QuadroSystems; PunBB 1.2 derived, not MyBB). Seen: its login form and
# login answer, its reply form with the anti-bot script (../shared/fixtures-src/mybbru/). Topic and PM pages were
# not seen: they follow PunBB 1.2's markup as public userscripts name it, and are listed in `unverified`.
MYBBRU = replace(
    PUNBB,
    engine="mybbru",
    urls=_ro({
        **{k: v for k, v in PUNBB.urls.items() if k not in ("pm_list", "dialogue", "dialogue_reply")},
        "last_page": "viewtopic.php?id={topic}&action=last",
        "api": "api.php",
        "inbox": "messages.php",
        "pm": "messages.php?id={pm}",
        "compose": "messages.php?action=new",
        "sentbox": "messages.php?box=1",
    }),
    selectors=_ro({
        **PUNBB.selectors,
        "post": "div.post[id^='p']",
        # the link, not the li: the li starts with a hidden "Автор:" label; a guest's post (no link) has no author
        "author": "div.post-author .pa-author a",
        "author_link": "div.post-author .pa-author a[href*='profile.php?id=']",
        "time": "h3 a.permalink, h3 a[href*='pid=']",
        "body": "div.post-content",
        "signature": "dl.post-sig",
        "edit_notice": "p.lastedit",
        "quote": "div.quote-box:not(.spoiler-box)",
        "pagination": "div.pagelink",
        "page_link": "div.pagelink a[href*='viewtopic.php']",
        "next_page": "div.pagelink a.next",
        "current_page": "div.pagelink strong",
        "logged_in": "#navlogout a",
        # PunBB 1.2's form errors and message box, and the info frame of the real login answer; themes differ
        "error": "#posterror li, #pun-main div.info div.container, #pun-main div.error div.container, "
                 "#msg div.inbox p:first-child",
        "redirect": "body.redirect-page, #pun-redirect",
        "antibot_script": "head script",
        "pm_row": "#pun-messages tbody tr",
        "pm_row_link": "a[href*='messages.php?id=']",
        # messages.php's own section (§12: #pun-messages): a page in its place is named; the list's container
        # inside it is not known (themes differ: §12), so a themed list on the right page is not caught
        "pm_list": "#pun-messages",
        "pm_row_users": "td.tc2",
        "pm_unread": "tr.inew",
        "pm_view": "div.post",
        "pm_author": "div.post-author .pa-author a",
        "pm_time": "h3 a",
        "pm_subject": "#pun-main h1 span",
        "page_end": "#pun-about, #html-footer",
    }),
    strip=("div.quote-box", "blockquote", "div.code-box", "pre", "p.lastedit"),
    forms=_ro({
        **PUNBB.forms,
        "reply": FormSpec("form#post", needs="req_message", fields={"message": "req_message"}, submit="submit"),
        "compose": FormSpec("form#post", needs="req_message",
                            fields={"to": "req_username", "subject": "req_subject", "message": "req_message"},
                            submit="submit"),
    }),
    messages=_ro({
        **PUNBB.messages,
        "posted": r"viewtopic\.php\?(?:.*&)?pid=(\d+)",
        # a redirect page ("done") to the topic or forum, not to a post: a reply held for premoderation (unverified)
        "queued": r"view(?:topic|forum)\.php",
        "pm_sent": r"messages\.php\?(?:.*&)?id=(\d+)",
    }),
    # PunBB 1.2's g_post_flood: 30 s stock, a board setting on mybb.ru; PMs pace the same way (unverified).
    limits=_ro({"post": 30.0, "pm": 30.0}),
    hooks=_ro({**PUNBB.hooks, "prepare_reply": "mybbru_antibot"}),
    date_order="dmy",
    unverified=frozenset({
        # topic pages: userscripts' selectors, never a served page
        "selectors.post", "selectors.author", "selectors.author_link", "selectors.time", "selectors.body",
        "selectors.signature", "selectors.edit_notice", "selectors.quote", "selectors.pagination",
        "selectors.page_link", "selectors.next_page", "selectors.current_page", "selectors.page_end",
        "selectors.error", "urls.last_page", "messages.flood", "messages.posted",
        # PMs: messages.php was never seen
        "urls.inbox", "urls.pm", "urls.compose", "urls.sentbox", "forms.compose", "selectors.pm_row",
        "selectors.pm_row_link", "selectors.pm_row_users", "selectors.pm_unread", "selectors.pm_view",
        "selectors.pm_author", "selectors.pm_time", "selectors.pm_subject", "messages.pm_sent",
        "flows.pm", "flows.reply_result", "flows.api_edited", "flows.api_nesting",
        # never seen on mybb.ru (ENGINES.md §12): the compose form's answer, a reply's answer (PunBB 1.2's redirect
        # page is assumed: any redirect page without an error is taken as done) and the flood text's wording
        "flows.pm_answer", "flows.reply_answer", "messages.queued", "selectors.pm_list",
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
        # standard_error pages (3.8 panel, 4.2 blockrow) and form errors through construct_errors (ENGINES.md
        # §12): 3.8 a list in an alt1 cell of a tborder table, 4.2 the errorblock's list; lists inside a post's
        # message are not errors (VbulletinForum.error_text leaves them out)
        "error": "div.standard_error div.blockrow, td.panelsurround div.panel > div, "
                 "div.blockbody.errorblock ul.blockrow.error li, table.tborder td.alt1 ol li, "
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
        # §12: the folder's form#pmform (private.php?do=managepm); around an empty folder: unverified
        "pm_list": "form#pmform",
        "prev_page": "div.pagenav a[rel='prev'], div.pagination a[rel='prev']",
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
        # English from the stock phrases (ENGINES.md §12: postfloodcheck, pmfloodcheck, the security token's
        # "was invalid" / "was missing" / "has expired"); Russian from Russian vB packs: unverified
        "flood": r"wait \d+ seconds between|try again in \d+ seconds|подождать \d+ секунд|"
                 r"через \d+ секунд|между сообщениями",
        "flood_seconds": r"(?:try again in|попробуйте (?:снова |ещё раз )?через|осталось)\s*(\d+)\s*(?:second|секунд)",
        "form_invalid": r"security token|маркер безопасности|ключ безопасности",
        "bad_login": r"invalid username or password|entered an invalid|неправильн\w* (имя|пароль)|неверн\w* (имя|пароль)",
        "no_permission": r"do not have permission|not logged in|нет (прав|доступа)|не вошли",
        "no_recipient": r"could not be found|were not found|не найден",
        "quota": r"private message quota|квот",
        "posted": r"[?&]p=(\d+)",
        # a moderated reply's redirect: to the forum, not to a post
        "queued": r"forumdisplay\.php",
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
        "selectors.print_body", "flows.login_answer", "flows.reply_answer", "urls.inbox", "urls.pm", "urls.compose",
        "urls.sentbox", "selectors.pm_row_link", "selectors.pm_view", "selectors.pm_subject",
        "selectors.pm_sent_to", "forms.compose", "forms.folder", "selectors.error", "messages.flood",
        "messages.flood_seconds", "messages.form_invalid", "messages.bad_login", "messages.no_permission",
        "messages.no_recipient", "flows.edit_notice_text", "limits.pm", "limits.post", "selectors.pm_list",
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
        # ENGINES.md §12: the comment form's flood warning, error pages, the login error; field errors
        "error": "div.ipsType_warning[data-role='commentFormError'], section#elError div#elErrorMessage, "
                 "p.ipsMessage.ipsMessage_error, div.ipsMessage_error, p.ipsType_warning, span.ipsType_warning, "
                 "div#elError div.ipsType_normal",
        # a two-step (MFA) login asks for a code before any session cookie is set (field names: unverified)
        "two_step": "input[name*='auth_code'], input[name*='mfa'], form[action*='_mfaLogin']",
        "captcha": "div.g-recaptcha, div.h-captcha, div[data-ipscaptcha]",
        "pm_row": "li.ipsDataItem[data-messageid], li.ipsDataItem[data-conversationid]",
        "pm_row_link": "h4 a.cMessageTitle, a[href*='messenger/'][data-ipshover], h4 a[href*='messenger/']",
        # the Messenger's list (its container: unverified, rows §12)
        "pm_list": "[data-role='messageList'], ol.cMessageList",
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
        # error_flood_control (§12): "New posts within a short time frame are limited. Please wait %s seconds
        # before submitting."; Russian: unverified
        "flood": r"short time frame|wait \d+ seconds|подождать \d+ секунд|подождите \d+ секунд|flood",
        "flood_seconds": r"(\d+)\s*(?:second|секунд)",
        "form_invalid": r"security key|csrf|ключ безопасности",
        "bad_login": r"password you entered is incorrect|does not belong to any account|неверн\w* пароль",
        "quota": r"inbox is full|ящик\w* (?:для сообщений )?переполнен",
        "no_permission": r"don't have permission|нет разрешения|нет прав",
        # a posted reply redirects to ".../page/N/#comment-ID" (§12); findComment links name it as comment=ID
        "posted": r"(?:[?&]comment=|#comment-)(\d+)",
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
        "flows.login_answer", "flows.pm_answer", "messages.bad_login", "messages.quota", "selectors.two_step",
        "messages.flood",
        "messages.form_invalid", "limits.post", "limits.pm", "selectors.pm_list",
    }),
)
