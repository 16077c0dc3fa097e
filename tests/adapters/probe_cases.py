"""Saved pages `forumbot probe` reads per HTML engine: a logged-in topic page and the inbox (issue 9 item 4)."""

from __future__ import annotations

from importlib import import_module

from adapters_support import FIXTURES

BASE = "http://127.0.0.1:18999/"
UTF8 = "text/html; charset=UTF-8"
CP1251 = "text/html; charset=windows-1251"

# engine: (adapter class, topic id, topic page, inbox page, content type)
CASES = {
    "phpbb": ("adapters.phpbb.forum:PhpbbForum", "1", "20_topic_page1.html", "30_pm_inbox_all_unread.html", UTF8),
    "mybb": ("adapters.mybb.forum:MybbForum", "2", "20_thread_page1.html", "30_pm_inbox.html", UTF8),
    "flaskbb": ("adapters.flaskbb.forum:FlaskbbForum", "2", "20_topic_page1.html", "33_inbox.html", UTF8),
    "smf": ("adapters.smf.forum:SmfForum", "2", "10_topic_page1.html", "30_pm_inbox.html", UTF8),
    "punbb": ("adapters.punbb.forum:PunbbForum", "2", "10_topic_page1.html", "30_pm_new_folder.html", UTF8),
    "mybbru": ("adapters.mybbru.forum:MybbruForum", "5", "s-viewtopic-last-page.SYNTHETIC.html",
               "s-messages-inbox.SYNTHETIC.html", CP1251),
    "xenforo": ("adapters.xenforo.forum:XenforoForum", "77", "S-thread-ru-loggedin-page2.html",
                "E-conversations-list-xf22.html", UTF8),
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


# Engines whose saved pages are thread pages only (no inbox saved), and a FluxBB guest page: probed as a guest
# (issue 10, issue 18).
# case: (adapter class, topic id, engine's fixture dir, thread page, content type)
GUEST_CASES = {
    "vbulletin-3.8": ("adapters.vbulletin.forum:VbulletinForum", "128882", "vbulletin",
                      "a-thread-vb3811-en-loggedin.animesuki.REAL.html", "text/html; charset=ISO-8859-1"),
    "vbulletin-4.2": ("adapters.vbulletin.forum:VbulletinForum", "9687", "vbulletin",
                      "a-thread-vb423-en-guest.militarytimes.REAL.html", UTF8),
    # an excerpt of one post: no footer, so selectors.page_end (listed unverified) cannot match on it
    "invision": ("adapters.invision.forum:InvisionForum", "34923", "invision",
                 "a-topic-onepost-ips4-en.armbian.REAL-EXCERPT.html", UTF8),
    # FluxBB 1.5 (Visman) shows a guest `#pN` post links without pid= (ENGINES.md §12): a captured guest page
    "fluxbb-guest": ("adapters.punbb.forum:PunbbForum", "2", "punbb", "42_guest_topic_page1.html", UTF8),
}


def guest_class(case: str):
    module, _, attr = GUEST_CASES[case][0].partition(":")
    return getattr(import_module(module), attr)


def guest_url(case: str) -> str:
    return BASE + guest_class(case).profile.urls["topic"].format(topic=GUEST_CASES[case][1])


def guest_bytes(case: str) -> bytes:
    _, _, folder, page, _ = GUEST_CASES[case]
    return (FIXTURES / folder / page).read_bytes()


def serve_guest(http, case: str, body: bytes | None = None) -> None:
    http.add("GET", guest_url(case), body=guest_bytes(case) if body is None else body,
             content_type=GUEST_CASES[case][4])
