"""vBulletin 3.8 and 4.2's markup as data, in one profile."""

from __future__ import annotations

from adapters.html import hooks
from adapters.html.profile import FormSpec, HtmlProfile, Pagination, frozen_map


# vBulletin 3.8 and 4.2 in one profile: selectors list both versions' markup, seen on the two real pages in
# fixtures/vbulletin/ (3.8.11 showthread, logged in; 4.2.3 showthread, guest). Flows no page shows are listed
# in `unverified`.
VBULLETIN = HtmlProfile(
    engine="vbulletin",
    urls=frozen_map({
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
    # vB 4's friendly URLs (Settings > Friendly URLs; includes/class_friendly_url.php): basic
    # `showthread.php?31-slug`, advanced `showthread.php/31-slug`, mod_rewrite `threads/31-slug`
    topic_id=r"(?:[?&;]t=|showthread\.php[/?]|(?:^|/)threads/|^)(\d+)",
    selectors=frozen_map({
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
        "pagination": "div.pagenav, div.pagination, form.pagination",  # vB 4's pagenav is a form.pagination
        # `page=N`, or vB 4's friendly `/pageN` (showthread.php?ID-slug/pageN, showthread.php/..., threads/...)
        "page_link": "div.pagenav a[href*='page'], .pagination span a[href*='page']",
        "next_page": "div.pagenav a[rel='next'], .pagination a[rel='next']",
        "logged_in": "a[href*='login.php?do=logout']",
        # What marks an error block in vB 3.8.11's templates (install/vbulletin-style.xml, hanson-tapatalk/dbdvb388),
        # never a bare panel: td.panelsurround div.panel > div also holds every posting form's own words (newreply,
        # newthread, pm_newpm). STANDARD_ERROR's message sits between its `main error message` comments in
        # `<div style="margin: 10px">` (27706-27712), STANDARD_ERROR_LITE's (a bad security token: global.php sets
        # VB_ERROR_LITE) in a `<blockquote>` (27815-27821), STANDARD_ERROR_LOGIN's (session_timed_out_login) in a
        # blockquote inside its login form; construct_errors' list is newpost_preview's `<ol>` in a td.alt1 after the
        # POSTERROR comment (11757-11762), which VbulletinForms.error_text requires (a thread review's or a preview's
        # list sits in a td.alt1 too). 4.2: standard_error's blockrow, construct_errors' errorblock (ENGINES.md §12).
        # Styles that rewrite these templates: unverified.
        "error": "div.standard_error div.blockrow, td.panelsurround div.panel > div > div[style*='margin'], "
                 "td.panelsurround div.panel > div > blockquote, "
                 "td.panelsurround div.panel form[action*='login.php'] > blockquote, "
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
        "prev_page": "div.pagenav a[rel='prev'], .pagination a[rel='prev']",
        "pm_view": "table[id^='post'].tborder, li.postcontainer, li.postbit, div#post",
        "pm_author": "a.bigusername, a.username, span.username",
        "pm_time": "td.thead, span.date, span.datetime",
        "pm_subject": "div.title, strong.title, h2.title",
        "pm_sent_to": "a[href*='member.php']",
        "page_end": "div#footer, div#lastpost, img[src*='cron.php'], div#vb_footer",
    }),
    strip=("div[style*='margin:20px']", "div.bbcode_container", "pre.bbcode_code", "div.spoiler",
           "div.bbcode_spoiler"),
    pagination=Pagination(param="page", kind="page", per_page=20, in_path=r"/page(\d+)"),
    forms=frozen_map({
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
    messages=frozen_map({
        # English from the stock phrases (ENGINES.md §12: postfloodcheck, pmfloodcheck, the security token's
        # "was invalid" / "was missing" / "has expired"); Russian from Russian vB packs: unverified
        "flood": r"wait \d+ seconds between|try again in \d+ seconds|подождать \d+ секунд|"
                 r"через \d+ секунд|между сообщениями",
        "flood_seconds": r"(?:try again in|попробуйте (?:снова |ещё раз )?через|осталось)\s*(\d+)\s*(?:second|секунд)",
        # security_token_missing / _invalid say "a security token", security_token_timeout "the token has expired"
        "form_invalid": r"security token|token has expired|маркер безопасности|ключ безопасности",
        # `strikes`: 5 failed logins from one address lock every login for 15 minutes (verify_strike_status)
        "login_locked": r"failed login quota|15 minutes|15 минут|лимит (?:попыток|неудачных)",
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
    limits=frozen_map({"post": 30.0, "pm": 60.0}),
    hooks=frozen_map({
        "post_time": hooks.vb_post_date,
        "edit_notice": hooks.vb_edit_notice,
        "pm_time": hooks.vb_post_date,
    }),
    date_order="auto",  # stock vB prints m-d-Y, Russian packs d.m.Y; the vB3 page shows Y-m-d
    unverified=frozenset({
        "urls.print", "urls.print_page", "selectors.print_post", "selectors.print_author", "selectors.print_time",
        "selectors.print_body", "flows.login_answer", "flows.reply_answer", "urls.inbox", "urls.pm", "urls.compose",
        "urls.sentbox", "selectors.pm_row_link", "selectors.pm_view", "selectors.pm_subject",
        "selectors.pm_sent_to", "forms.compose", "forms.folder", "selectors.error", "messages.flood",
        "messages.flood_seconds", "messages.form_invalid", "messages.bad_login", "messages.no_permission",
        "messages.no_recipient", "messages.login_locked", "flows.edit_notice_text", "limits.pm", "limits.post",
        "selectors.pm_list",
    }),
)
