"""Saved pages `forumbot probe` reads per HTML engine: a logged-in topic page and the inbox (issue 9 item 4)."""

from __future__ import annotations

from importlib import import_module

from adapters_support import FIXTURES

BASE = "http://127.0.0.1:18999/"
UTF8 = "text/html; charset=UTF-8"
CP1251 = "text/html; charset=windows-1251"

# engine: (adapter class, topic id, topic page, inbox page, content type)
CASES = {
    "phpbb": ("adapters.phpbb:PhpbbForum", "1", "20_topic_page1.html", "30_pm_inbox_all_unread.html", UTF8),
    "mybb": ("adapters.mybb:MybbForum", "2", "20_thread_page1.html", "30_pm_inbox.html", UTF8),
    "flaskbb": ("adapters.flaskbb:FlaskbbForum", "2", "20_topic_page1.html", "33_inbox.html", UTF8),
    "smf": ("adapters.smf:SmfForum", "2", "10_topic_page1.html", "30_pm_inbox.html", UTF8),
    "punbb": ("adapters.punbb:PunbbForum", "2", "10_topic_page1.html", "30_pm_new_folder.html", UTF8),
    "mybbru": ("adapters.mybbru:MybbruForum", "5", "s-viewtopic-last-page.SYNTHETIC.html",
               "s-messages-inbox.SYNTHETIC.html", CP1251),
    "xenforo": ("adapters.xenforo:XenforoForum", "77", "S-thread-ru-loggedin-page2.html",
                "S-conversations-list-ru.html", UTF8),
}


def adapter_class(engine: str):
    module, _, attr = CASES[engine][0].partition(":")
    return getattr(import_module(module), attr)


def topic_url(engine: str) -> str:
    cls = adapter_class(engine)
    return BASE + cls.profile.urls["topic"].format(topic=CASES[engine][1])


def serve(http, engine: str, topic_body: bytes | None = None, inbox: bool = True) -> None:
    """The topic page (or `topic_body` in its place) and the inbox, at the URLs the profile names."""
    cls = adapter_class(engine)
    _, _, topic_page, inbox_page, ctype = CASES[engine]
    body = topic_body if topic_body is not None else (FIXTURES / engine / topic_page).read_bytes()
    http.add("GET", topic_url(engine), body=body, content_type=ctype)
    if inbox:
        http.add("GET", BASE + cls.profile.urls["inbox"], body=(FIXTURES / engine / inbox_page).read_bytes(),
                 content_type=ctype)


def topic_bytes(engine: str) -> bytes:
    return (FIXTURES / engine / CASES[engine][2]).read_bytes()
