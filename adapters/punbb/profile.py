"""PunBB / FluxBB 1.5's markup as data."""

from __future__ import annotations

from adapters.html import hooks
from adapters.html.profile import FormSpec, HtmlProfile, Pagination, frozen_map


# PunBB / FluxBB 1.5 (seen on a live FluxBB 1.5.11 board, Visman's fork, Russian; fixtures/punbb/README.md).
# The login, reply and redirect flows and their field names are PunBB's, shared by the hosted mybb.ru engine
# (MYBBRU below), whose pages are PunBB 1.2 markup with other class names.
PUNBB = HtmlProfile(
    engine="punbb",
    urls=frozen_map({
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
        # the user list filtered by `username LIKE name` (userlist.php; `*` a wildcard), when the group may search
        "member": "userlist.php?username={user}&show_group=-1&sort_by=username&sort_dir=ASC",
    }),
    topic_id=r"(?:[?&;]id=|^)(\d+)",
    selectors=frozen_map({
        "post": "div.blockpost[id^='p']",
        # userlist.php: the names listed, and the name filter (absent when the group may not search users: the
        # filter is then ignored and every member listed, page by page)
        "member_row": "#users1 td.tcl a[href^='profile.php?id=']",
        "member_search": "form#userlist input[name='username']",
        "author": "div.postleft dl dt strong",
        "author_link": "div.postleft dl dt a[href*='profile.php?id=']",
        # members see viewtopic.php?pid=N#pN; FluxBB 1.5 (Visman) shows guests "#pN" alone (ENGINES.md §12)
        "time": "h2 a[href*='pid='], h2 a[href^='#p']",
        # the signature shares the body's class: "div.postsignature postmsg"
        "body": "div.postright div.postmsg:not(.postsignature)",
        "signature": "div.postsignature",
        "edit_notice": "p.postedit",
        "quote": "div.quotebox",
        # post.php with `preview` (FluxBB 1.5): the message rendered above the form shown again
        "preview": "#postpreview div.postmsg",
        "pagination": "p.pagelink",
        "page_link": "p.pagelink a[href*='viewtopic.php']",
        "next_page": "p.pagelink a[rel='next']",
        "current_page": "p.pagelink strong",  # the number of the page shown
        "logged_in": "#navlogout a",
        "error": "#posterror li, #msg div.inbox p:first-child",
        "captcha": "input[name='captcha'], div.g-recaptcha, div.h-captcha",
        "redirect": "#punredirect, #pun-redirect",
        # The list's container, on an empty folder too (check_pm_list): New PMS's mdl/list.php (and new.php, the
        # inbox) prints the dialogues in div#vf, a page without one as its row tr.inone "Пусто."; a member with
        # no dialogue at all gets div#infono "В данной папке нет сообщений." instead of the table.
        "pm_list": "#vf, #infono",
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
    forms=frozen_map({
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
    messages=frozen_map({
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
    limits=frozen_map({"post": 30.0, "pm": 30.0}),
    hooks=frozen_map({
        "post_time": hooks.text_date,
        "edit_notice": hooks.punbb_edit_notice,
        "pm_time": hooks.text_date,
        "prepare_reply": hooks.no_fields,
    }),
    date_order="dmy",
)
