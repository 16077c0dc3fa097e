"""Invision Community 4's markup as data."""

from __future__ import annotations

from adapters.html import hooks
from adapters.html.profile import FormSpec, HtmlProfile, Pagination, frozen_map


# Invision Community 4: every post and message carries `data-quotedata` JSON (member, unix time, comment id) on
# its comment wrapper, read by the `ips_quotedata` hook; `time[datetime]` is the fallback. Seen on the real
# excerpts in fixtures/invision/; everything else follows the IPS 4 templates and is `unverified`.
INVISION = HtmlProfile(
    engine="invision",
    urls=frozen_map({
        "login": "login/",
        "topic": "topic/{topic}/",
        "topic_page": "topic/{topic}/page/{start}/",
        "post_page": "topic/{topic}/?do=findComment&comment={post}",
        "inbox": "messenger/",
        "conversation": "messenger/{pm}/",
        "compose": "messenger/compose/",
    }),
    topic_id=r"(?:/topic/|[?&]showtopic=|^)(\d+)",
    selectors=frozen_map({
        "post": "div[data-quotedata][data-commentid]",
        "author": "aside.cAuthorPane h3.cAuthorPane_author a",
        "author_link": "aside.cAuthorPane h3.cAuthorPane_author a",
        "time": "div.ipsComment_meta time[datetime], time[datetime]",
        "body": "div[data-role='commentContent']",
        "signature": "div[data-role='memberSignature']",
        # IPS prints "Изменено <time> пользователем X" inside the content, excluded from quotes
        "edit_notice": "span[data-excludequote] time[datetime]",
        "quote": "blockquote.ipsQuote",
        # a comment held for a moderator, as its author sees it: IPS 4's forums postContainer template marks
        # the article `ipsModerated` (hidden() true); no served page of one seen
        "held": "article.ipsModerated",
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
    forms=frozen_map({
        "login": FormSpec("form[action*='login']", needs="auth",
                          fields={"username": "auth", "password": "password"},
                          fixed={"remember_me": "1", "_processLogin": "usernamepassword"}),
        "reply": FormSpec("form[action*='topic']", needs="csrfKey"),
        "compose": FormSpec("form[action*='messenger/compose']", needs="messenger_to",
                            fields={"to": "messenger_to", "subject": "messenger_title", "message": "messenger_content"}),
    }),
    messages=frozen_map({
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
    limits=frozen_map({"post": 30.0, "pm": 30.0}),
    hooks=frozen_map({
        "post_time": hooks.time_element,
        "edit_notice": hooks.time_element_edited,
        "pm_time": hooks.time_element,
        "post_meta": hooks.ips_quotedata,
    }),
    unverified=frozenset({
        "urls.login", "urls.topic_page", "urls.post_page", "urls.inbox", "urls.conversation", "urls.compose",
        "selectors.edit_notice", "selectors.pagination", "selectors.page_link", "selectors.next_page",
        "selectors.logged_in", "selectors.error", "selectors.pm_row", "selectors.pm_row_link",
        "selectors.pm_row_time", "selectors.pm_row_users", "selectors.pm_message", "selectors.pm_subject",
        "selectors.page_end", "selectors.signature", "forms.login", "forms.reply", "forms.compose",
        "flows.login_answer", "flows.pm_answer", "messages.bad_login", "messages.quota", "selectors.two_step",
        "messages.flood",
        "messages.form_invalid", "limits.post", "limits.pm", "selectors.pm_list", "selectors.held",
    }),
)
