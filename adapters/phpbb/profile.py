"""phpBB 3.3 (prosilver)'s markup as data."""

from __future__ import annotations

from adapters.html import hooks
from adapters.html.profile import FormSpec, HtmlProfile, Pagination, frozen_map


PHPBB = HtmlProfile(
    engine="phpbb",
    urls=frozen_map({
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
    selectors=frozen_map({
        "post": "div.post[id^='p']",
        "author": "dl.postprofile dt .username, dl.postprofile dt .username-coloured",
        "author_link": "dl.postprofile dt a[href*='mode=viewprofile']",
        "time": "p.author time[datetime]",
        "body": "div.content",
        "signature": "div.signature",
        "edit_notice": "div.notice",
        "quote": "blockquote",  # inside the body: the post quotes someone (ForumPost.quoted)
        # a post awaiting approval, shown to its author (display_unapproved_posts, on by default in 3.3) and
        # moderators: prosilver's viewtopic_body.html puts `p.post-notice.unapproved` in it (S_POST_UNAPPROVED)
        "held": "div.post p.post-notice.unapproved",
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
        # M-15: a second recipient on the view's "Получатель" line (after the author's name and the first one): a
        # PM written to the bot and others, as a reply to all of the bot's conference PM
        # (fixtures/phpbb/90_pm_view_reply_to_all.html; 91_... has one recipient)
        "pm_shared": "p.author a[class^='username'] ~ a[class^='username'] ~ a[class^='username']",
        "pm_recipient": "input[name^='address_list[u]']",
        # the address list's names, each linking its user id (`u=`): who a preset recipient id is now
        "pm_recipient_name": "ul.recipients a.username, ul.recipients a.username-coloured",
        "folder_status": "form#viewfolder p",
        "pm_sent_to": "a.username, a.username-coloured",  # in a sent folder's row: the recipients
        "page_end": "div#page-footer",  # after the posts and rows: a page without it was cut short
        "member_name": "dl.profile-details > dd > span",  # the profile's "Имя пользователя"
        "message_panel": "div#message",  # phpBB's notice box (trigger_error), e.g. "no such user"
        "message_text": "div#message p",  # its words, under the title (message_body.html)
        # the header's inbox link and its badge: the bot's unread PMs (user_unread_privmsg), "0" when none
        "pm_header": "a[href*='i=pm'][href*='folder=inbox'] > strong.badge",
    }),
    strip=("blockquote", "div.codebox", "details.spoiler"),
    pagination=Pagination(param="start", kind="offset", per_page=10),
    forms=frozen_map({
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
    messages=frozen_map({
        # Russian (the captured board) and English (stock language pack).
        "flood": r"сразу после предыдущего|cannot make another post so soon|FLOOD_ERROR",
        "form_invalid": r"Ошибка отправки формы|form was invalid|FORM_INVALID",
        "bad_login": r"неверн\w* (пароль|имя)|incorrect password|incorrect username|не найден",
        "quota": r"(папка|ящик)\W.*заполнен|folder is full|quota",
        "no_recipient": r"не найден|not found|не существует",
        # NO_AUTH_SEND_MESSAGE (language/*/ucp.php), English "You are not authorised sending private messages."
        "no_pm_permission": r"нет доступа к отправке личных сообщений|not authori[sz]ed sending private messages",
        "posted": r"viewtopic\.php\?(?:.*&)?p=(\d+)",
        "pm_sent": r"[?&]p=(\d+)",
        "folder_count": r"(\d+)\s*(?:из|of|/)\s*(\d+)",
    }),
    # One timer: posting and sending a PM both set user_lastpost_time, and both are refused while
    # now - user_lastpost_time < flood_interval (15 s stock; posting.php, ucp_pm_compose.php).
    limits=frozen_map({"post+pm": 15.0}),
    hooks=frozen_map({
        "post_time": hooks.time_element,
        "edit_notice": hooks.phpbb_edit_notice,
        "pm_time": hooks.phpbb_pm_sent_line,
        "recipients": hooks.phpbb_address_list,
        "stale": hooks.phpbb_post_review,
        "pm_header": hooks.count_text,
    }),
    date_order="dmy",
    # the mark of a post awaiting approval: read from the shipped templates, no saved page of one
    unverified=frozenset({"selectors.held"}),
)
