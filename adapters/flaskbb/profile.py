"""FlaskBB's markup as data."""

from __future__ import annotations

from adapters.html import hooks
from adapters.html.profile import FormSpec, HtmlProfile, Pagination, frozen_map


FLASKBB = HtmlProfile(
    engine="flaskbb",
    urls=frozen_map({
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
    selectors=frozen_map({
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
    forms=frozen_map({
        "login": FormSpec("form[method='post']", needs="password", fields={"username": "login", "password": "password"},
                          submit="submit", fixed={"remember_me": "y"}),
        "reply": FormSpec("form[method='post']", needs="content", fields={"message": "content"}, submit="submit"),
        "compose": FormSpec("form[method='post']", needs="to_user",
                            fields={"to": "to_user", "subject": "subject", "message": "message"},
                            submit="send_message"),
    }),
    messages=frozen_map({
        "bad_login": r"Wrong username or password|incorrect|неверн",
        "form_invalid": r"CSRF",
        "quota": r"message limit|reached your",
        "no_recipient": r"username you entered does not exist",
        "flood": r"too many requests|rate limit",
        "posted": r"/post/(\d+)",
    }),
    # FlaskBB has no flood interval of its own; Flask-Limiter answers 429, which the transport honours.
    limits=frozen_map({}),
    hooks=frozen_map({
        "post_time": hooks.time_element,
        "edit_notice": hooks.time_element_edited,
        "pm_time": hooks.time_element,
    }),
)
