"""The hosted mybb.ru / rusff engine's markup as data: PunBB 1.2's, with other class names."""

from __future__ import annotations

from dataclasses import replace

from adapters.punbb.profile import PUNBB
from adapters.html import hooks
from adapters.html.profile import FormSpec, frozen_map

# The hosted mybb.ru / rusff engine (QuadroSystems; PunBB 1.2 derived, not MyBB). Seen: its login form and
# login answer, its reply form with the anti-bot script (../shared/fixtures-src/mybbru/). Topic and PM pages were
# not seen: they follow PunBB 1.2's markup as public userscripts name it, and are listed in `unverified`.
MYBBRU = replace(
    PUNBB,
    engine="mybbru",
    urls=frozen_map({
        **{k: v for k, v in PUNBB.urls.items() if k not in ("pm_list", "dialogue", "dialogue_reply")},
        "last_page": "viewtopic.php?id={topic}&action=last",
        "api": "api.php",
        "inbox": "messages.php",
        "pm": "messages.php?id={pm}",
        "compose": "messages.php?action=new",
        "sentbox": "messages.php?box=1",
    }),
    selectors=frozen_map({
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
    forms=frozen_map({
        **PUNBB.forms,
        "reply": FormSpec("form#post", needs="req_message", fields={"message": "req_message"}, submit="submit"),
        "compose": FormSpec("form#post", needs="req_message",
                            fields={"to": "req_username", "subject": "req_subject", "message": "req_message"},
                            submit="submit"),
    }),
    messages=frozen_map({
        **PUNBB.messages,
        "posted": r"viewtopic\.php\?(?:.*&)?pid=(\d+)",
        # a redirect page ("done") to the topic or forum, not to a post: a reply held for premoderation (unverified)
        "queued": r"view(?:topic|forum)\.php",
        # ...and says why (the emulator's wording, unverified): a redirect to the topic that does not is no queue
        "queued_text": r"модерат|премодерац|провер",
        "pm_sent": r"messages\.php\?(?:.*&)?id=(\d+)",
    }),
    # PunBB 1.2's g_post_flood: 30 s stock, a board setting on mybb.ru; PMs pace the same way (unverified).
    limits=frozen_map({"post": 30.0, "pm": 30.0}),
    hooks=frozen_map({**PUNBB.hooks, "prepare_reply": hooks.mybbru_antibot}),
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
        "flows.pm_answer", "flows.reply_answer", "messages.queued", "messages.queued_text", "selectors.pm_list",
    }),
)
