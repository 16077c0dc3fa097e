"""MyBB 1.8's markup as data."""

from __future__ import annotations

from adapters.html import hooks
from adapters.html.profile import FormSpec, HtmlProfile, Pagination, frozen_map


MYBB = HtmlProfile(
    engine="mybb",
    urls=frozen_map({
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
    selectors=frozen_map({
        "post": "div.post[id^='post_']",
        "author": "div.author_information span.largetext",
        "author_link": "div.author_information span.largetext a[href*='uid=']",
        "time": "span.post_date",
        "body": "div.post_body",
        "signature": "div.signature",
        "edit_notice": "span.edited_post",
        "quote": "blockquote.mycode_quote",
        # a post awaiting approval, shown to its author where `showownunapproved` is on (off by default) and to
        # moderators: the postbit template's `div.post.{$unapproved_shade}` (inc/functions_post.php)
        "held": "div.post.unapproved_post",
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
        # M-15: a second recipient on the view's "To:" line: a PM written to the bot and others, as a reply to all
        # of the bot's conference PM (fixtures/mybb/90_pm_view_reply_to_all.html; 91_... has one recipient)
        "pm_shared": "div.post_head > a[href*='uid='] ~ a[href*='uid=']",
        "quick_reply": "form#quick_reply_form",
        # newreply.php with `previewpost`: the 'previewpost' template's postbit, above the form shown again
        "preview": "td#posts_container div#posts div.post_body",
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
    forms=frozen_map({
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
    messages=frozen_map({
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
    limits=frozen_map({"post": 60.0, "pm": 60.0}),
    hooks=frozen_map({
        "post_time": hooks.mybb_post_date,
        "edit_notice": hooks.mybb_edit_notice,
        "pm_time": hooks.mybb_post_date,
        "merge": hooks.mybb_merged,
        "pm_header": hooks.mybb_pm_usage,
    }),
    date_order="auto",  # stock MyBB prints m-d-Y; Russian packs d.m.Y
    # the mark of a post awaiting approval: read from the shipped templates, no saved page of one
    unverified=frozenset({"selectors.held"}),
)

MYBB_MAX_RECIPIENTS = 5
