"""XenForo 2.x's markup as data."""

from __future__ import annotations

from adapters.html import hooks
from adapters.html.profile import FormSpec, HtmlProfile, Pagination, frozen_map


# XenForo 2.x. Thread pages are read from real saved pages (fixtures/xenforo/README.md); XenForo is closed
# source and no board runs here, so what no saved page shows is listed in `unverified`.
XENFORO = HtmlProfile(
    engine="xenforo",
    urls=frozen_map({
        "login": "login/",
        "login_post": "login/login",
        "topic": "threads/{topic}/",  # XF redirects the bare id to the canonical slug.id URL
        "topic_page": "threads/{topic}/page-{start}",
        "post_page": "posts/{post}/",  # redirects to the thread page that holds the post
        "reply": "threads/{topic}/add-reply",
        # Pub\\Controller\\Thread::actionReplyPreview: canReply checked, the message rendered, nothing posted
        "reply_preview": "threads/{topic}/reply-preview",
        "inbox": "conversations/",
        "inbox_page": "conversations/page-{page}",
        "conversation": "conversations/{pm}/",
        "conversation_page": "conversations/{pm}/page-{page}",
        "conversation_reply": "conversations/{pm}/add-reply",
        # Pub\\Controller\\Conversation::actionEdit (the starter only, canEdit): title, open_invite, conversation_locked
        "conversation_edit": "conversations/{pm}/edit",
        "compose": "conversations/add",
        # Pub\\Controller\\Member::actionFind, the recipients box's autocomplete: names beginning with `q`, JSON
        "member_find": "members/find",
    }),
    topic_id=r"(?:threads/(?:[^/?#]*\.)?|^)(\d+)",
    selectors=frozen_map({
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
    forms=frozen_map({
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
    messages=frozen_map({
        # must_wait_x_seconds_before_performing_this_action, English and the Russian pack
        "flood": r"must wait at least|подождите|должны подождать|подождать",
        "flood_seconds": r"(\d+)\s*(?:second|секунд|сек)",
        # security_error_occurred, and cookies_required_to_use_this_site for a token sent without the xf_csrf
        # cookie (Controller::validateCsrfToken): a page read again sets both
        "form_invalid": r"Security error occurred|ошибка безопасности|Cookies are required|требуется .*cookie",
        "bad_login": r"Incorrect password|requested user .* could not be found|Неверный пароль|не найден",
        "no_recipient": r"following recipients could not be found|not be found|не найден",
        # XF's phrase keys (the English texts and the Russian pack's: unverified): the recipient limit
        # you_may_only_invite_x_members_to_join_this_conversation (2.3: ..._this_direct_message), the bot alone
        # you_cannot_start_conversation_with_yourself, Controller::noPermission's do_not_have_permission, and the
        # login limit (Service\User\Login::isLoginLimited, answers.COUNTED) answered by the option
        # loginLimit as a CAPTCHA or as your_account_has_temporarily_been_locked_due_to_failed_login_attempts
        "recipient_limit": r"may only invite \d+|можете пригласить только|можете пригласить не более",
        # you_may_not_start_a_conversation_with_the_following_recipients_x: a recipient's privacy shuts the bot out
        "recipient_privacy": r"may not start a (?:conversation|direct message) with the following|"
                             r"не можете начать (?:переписку|диалог|беседу|личную переписку) со следующими",
        "self_conversation": r"conversation with yourself|direct message with yourself|с самим собой",
        "no_permission": r"do not have permission to view this page or perform this action|нет прав|нет доступа",
        "login_locked": r"temporarily been locked due to failed login|временно заблокирован",
        "captcha_login": r"CAPTCHA verification|проверку CAPTCHA|не прошли проверку",
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
    limits=frozen_map({"post": 30.0, "pm": 30.0, "pm_start": 180.0}),
    hooks=frozen_map({
        "post_time": hooks.xf_data_time,
        "edit_notice": hooks.xf_last_edit,
        "pm_time": hooks.xf_data_time,
    }),
    date_order="dmy",
    unverified=frozenset({
        "urls.login_post", "forms.login", "flows.login",  # no login page or answer saved
        "urls.reply", "urls.reply_preview", "forms.reply", "flows.reply",  # the quick-reply form is absent from the guest page
        "selectors.edit_notice",  # seen only in a compiled template, not on a served page
        # documented, not seen served
        "selectors.signature", "selectors.quote", "strip[0]", "strip[1]", "strip[2]", "strip[3]", "strip[4]",
        "selectors.pagination", "selectors.page_link", "selectors.next_page",  # no page with pageNav saved
        "selectors.error", "messages.flood", "messages.bad_login", "messages.login_required", "messages.no_recipient",
        "messages.recipient_limit", "messages.recipient_privacy", "messages.self_conversation", "messages.no_permission", "messages.login_locked",
        "messages.captcha_login",
        "urls.inbox", "urls.inbox_page", "urls.conversation", "urls.conversation_page", "urls.compose",
        "urls.conversation_reply", "urls.conversation_edit",
        "selectors.pm_row", "selectors.pm_row_link", "selectors.pm_row_time", "selectors.pm_row_users",
        "selectors.pm_row_replies",
        "selectors.pm_message", "selectors.pm_anchor", "selectors.pm_author", "selectors.pm_time", "selectors.pm_body", "selectors.pm_subject",
        "selectors.inbox_next", "forms.compose", "flows.pm", "limits.pm_start",
        "messages.pending",
    }),
)
