"""SMF 2.1's markup as data, and its PM limits."""

from __future__ import annotations

from adapters.html import hooks
from adapters.html.profile import FormSpec, HtmlProfile, Pagination, frozen_map


SMF = HtmlProfile(
    engine="smf",
    urls=frozen_map({
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
        # the member list's search by name (Memberlist.php MLSearch: real_name LIKE %name%, `_` and `%` escaped, `*`
        # a wildcard; sorted by name, defaultMaxMembers a page, 30 stock): open to Regular Members (view_mlist)
        "member": "index.php?action=mlist;sa=search;fields=name;search={user}",
    }),
    topic_id=r"(?:[?&;]topic=|^)(\d+)",
    selectors=frozen_map({
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
        # a post awaiting approval, shown to its author and moderators: Display.php's css_class `approvebg` in
        # place of `windowbg` (Display.template.php, with the author's "awaiting approval" noticebox)
        "held": "#forumposts div.approvebg[id^='msg']",
        "pagination": "div.pagelinks",
        "page_link": "div.pagelinks a.nav_page",
        "next_page": "div.pagelinks a.nav_page:has(span.next_page)",
        "prev_page": "div.pagelinks a.nav_page:has(span.previous_page)",
        "new_anchor": "a#new",  # on the page a reply redirects to (topic=T.new#new)
        # Post.template.php prints it over every post form, hidden and empty ("<br>") until a preview fills it
        "preview": "div#preview_section div#preview_body",
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
        # the search's results (Memberlist.template.php template_main): a row's name links to the profile; no
        # match is one row "Sorry, no matches were found" under the same table
        "member_row": "div#mlist td.real_name a[href*='action=profile']",
        "member_search": "div#mlist table.table_grid",
    }),
    strip=("blockquote", "div.codeheader", "code.bbc_code", "div.spoiler"),
    pagination=Pagination(param="start", kind="offset", per_page=15, pattern=r"[?&;]topic=\d+\.(\d+)"),
    forms=frozen_map({
        # The session pair (a hidden input with a random name per session) and 2.1's login token ride along as
        # served; hash_passwrd is left empty (only JavaScript fills it), plain passwrd is accepted.
        "login": FormSpec("form#frmLogin", needs="passwrd", fields={"username": "user", "password": "passwrd"},
                          fixed={"cookielength": "3153600"}),
        "reply": FormSpec("form#postmodify", needs="message", fields={"message": "message"}, submit="post"),
        "compose": FormSpec("form#postmodify", needs="to",
                            fields={"to": "to", "subject": "subject", "message": "message"}, submit="post"),
        "folder": FormSpec("form#pmFolder", needs="pms[]", submit="del_selected"),
    }),
    messages=frozen_map({
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
    limits=frozen_map({"post": 5.0, "pm": 5.0}),
    hooks=frozen_map({
        "post_time": hooks.text_date,
        "edit_notice": hooks.smf_edit_notice,
        "pm_time": hooks.smf_pm_date,
    }),
    date_order="dmy",
    # the mark of a post awaiting approval: read from the shipped templates, no saved page of one
    unverified=frozenset({"selectors.held"}),
)

SMF_MAX_RECIPIENTS = 10
SMF_PMS_PER_HOUR = 20
