"""The handshake's reply flow through the engines' own previews (issue 28 item 4), over pages saved from the live
MyBB, SMF and FluxBB boards (tests/live/capture_preview_pages.py; fixtures/<engine>/README.md): the reply form sent
with its preview button, never its submit button, is verified when the board shows the message back; a thread
closed to the account is failing, in the board's own words, and nothing is sent."""

from __future__ import annotations

import pytest

from adapters.mybb.forum import MybbForum
from adapters.mybbru.forum import MybbruForum
from adapters.punbb.forum import PunbbForum
from adapters.smf.forum import SmfForum
from adapters_support import MYBB_URL, add_page, form_body
from forumbot.errors import FormRejected, PageFormatChanged
from forumbot.forum.adapter import PREVIEW, can
from forumbot.probe.handshake import FAILING, UNVERIFIED, VERIFIED, reply_flow
from forumbot.texts import en, ru

TEXT = ru.T["handshake.preview"]  # what the handshake previews, as the captures sent it
SMF_URL = "http://127.0.0.1:18120/"  # the Russian reply form's absolute action names its board
PUNBB_URL = "http://127.0.0.1:8085/"


def posts(http):
    return [form_body(c) for c in http.calls if c.request.method == "POST"]


# engine: (adapter, base URL, the thread, its reply form (GET), where that form posts, the saved preview answer,
# the closed thread, the page served for it, the board's words there, the form's submit and preview buttons)
CASES = {
    "mybb": (MybbForum, MYBB_URL, "1", ("newreply.php?tid=1", "mybb", "10_reply_form.html"),
             "newreply.php?tid=1&processed=1", ("mybb", "53_reply_preview.html"),
             "2", ("newreply.php?tid=2", "mybb", "54_reply_form_thread_closed.html", 200),
             "You cannot post replies in this thread because it has been closed by a moderator.",
             ("submit", "previewpost"), "message"),
    "smf": (SmfForum, SMF_URL, "2", ("index.php?action=post;topic=2.0", "smf", "20_reply_form.html"),
            "index.php?action=post2;start=0;board=1", ("smf/en", "23_reply_preview.html"),
            "3", ("index.php?action=post;topic=3.0", "smf/en", "24_reply_form_topic_locked.html", 403),
            "This topic is locked, you are not allowed to post or modify messages.", ("post", "preview"), "message"),
    "punbb": (PunbbForum, PUNBB_URL, "2", ("post.php?tid=2", "punbb", "20_reply_form.html"),
              "post.php?action=post&tid=2", ("punbb", "48_reply_preview.html"),
              "3", ("post.php?tid=3", "punbb", "49_reply_form_topic_closed.html", 403),
              "У вас нет прав на просмотр этой страницы.", ("submit", "preview"), "req_message"),
}


def adapter(case, clock):
    cls, base = case[0], case[1]
    return cls(base, "gm_bot", "pw", timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


@pytest.mark.parametrize("engine", sorted(CASES))
def test_the_reply_form_sent_through_its_preview_is_verified(engine, http, clock):
    case = CASES[engine]
    _, base, thread, (form_path, form_folder, form_page), action, (folder, answer), *_, (submit, preview), field = case
    add_page(http, "GET", base + form_path, form_folder, form_page)
    add_page(http, "POST", base + action, folder, answer)
    forum = adapter(case, clock)
    assert can(forum, PREVIEW)
    flow = reply_flow(forum, thread)
    assert (flow.status, flow.said) == (VERIFIED, ru.T["handshake.reply_previewed"])
    (body,) = posts(http)
    assert body[field] == [TEXT]
    assert preview in body and submit not in body  # the preview button pressed, never the one that posts


@pytest.mark.parametrize("engine", sorted(CASES))
def test_a_closed_thread_fails_in_the_boards_words_and_sends_nothing(engine, http, clock):
    case = CASES[engine]
    closed, (path, folder, name, status), said = case[6], case[7], case[8]
    add_page(http, "GET", case[1] + path, folder, name, status=status)
    flow = reply_flow(adapter(case, clock), closed, "en")
    assert flow.status == FAILING and said in flow.said, flow
    assert posts(http) == []


@pytest.mark.parametrize("engine", sorted(CASES))
def test_a_preview_that_does_not_show_the_message_is_no_verification(engine, http, clock):
    """The answer is the reply form again with no preview of the message (a theme without the preview's box, or
    another answer in its place): not taken as verified."""
    case = CASES[engine]
    _, base, thread, (form_path, form_folder, form_page), action, *_ = case
    add_page(http, "GET", base + form_path, form_folder, form_page)
    add_page(http, "POST", base + action, form_folder, form_page)
    with pytest.raises(PageFormatChanged, match="showed no preview"):
        adapter(case, clock).preview_reply(thread, TEXT)


def test_mybbs_message_too_short_is_refused_in_its_words(http, clock):
    """newreply.php's preview checks the message as a reply's (verify_message: minmessagelength) and shows the
    form again under inline_error's box (the saved answer of a too-short reply, the same template)."""
    add_page(http, "GET", MYBB_URL + "newreply.php?tid=1", "mybb", "10_reply_form.html")
    add_page(http, "POST", MYBB_URL + "newreply.php?tid=1&processed=1", "mybb", "45_reply_error_too_short.html")
    with pytest.raises(FormRejected, match="короткое|коротким"):
        adapter(CASES["mybb"], clock).preview_reply("1", "a")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_mybbru_has_a_preview_button_whose_answer_no_source_shows_so_replying_stays_unverified(language, http):
    """Issue 28 item 4: mybb.ru's reply form has a `preview` button (fixtures/mybbru, a real page), but what it
    answers is in no source: the reply flow says «не проверено» and asks the board nothing."""
    forum = MybbruForum("http://example.mybb.ru/", "gm_bot", "pw", timezone_name="Europe/Moscow")
    assert not can(forum, PREVIEW)
    flow = reply_flow(forum, "http://example.mybb.ru/viewtopic.php?id=2", language)
    texts = ru.T if language == "ru" else en.T
    assert (flow.status, flow.said) == (UNVERIFIED, texts["handshake.reply_unverified"])
    assert len(http.calls) == 0
