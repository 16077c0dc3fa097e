"""The bot's own post awaiting a moderator, as phpBB, MyBB and SMF show it to its author, is found as queued.

A tick killed right after its post went into a board's approval queue leaves the row "attempted"; the next
tick's find_own_post finds the post, which the author sees and the players do not. Each page is a saved page of
the real board (fixtures/<engine>/) with the bot's post marked as the engine's shipped templates mark a post
awaiting approval for its author (the sources in ../shared/boards/src):
- phpBB 3.3.10: `display_unapproved_posts` (default 1) shows the author his unapproved post; prosilver's
  viewtopic_body.html puts `<p class="post-notice unapproved">` with POST_UNAPPROVED_EXPLAIN before its content;
- MyBB 1.8.37: with `showownunapproved` on (default off), the postbit's `class="post {$unapproved_shade}"` reads
  `post unapproved_post` (inc/functions_post.php);
- SMF 2.1.4: Display.php shows the author his unapproved messages, `css_class` `approvebg` in place of
  `windowbg`, and Display.template.php a `div.noticebox` with post_awaiting_approval before the body.
"""

from __future__ import annotations

import pytest

from adapters.mybb.forum import MybbForum
from adapters.phpbb.forum import PhpbbForum
from adapters.smf.forum import SmfForum
from adapters_support import HTML, MYBB_URL, PHPBB_URL, page
from forumbot.errors import PostQueued

PASSWORD = "bot-password-1!"
SMF_URL = "http://127.0.0.1:18120/"  # the board the SMF pages were captured on
SMF_LAST = "index.php?topic=2.msg2147483647"
SMF_DATE = {"Date": "Tue, 01 Dec 2026 09:00:00 GMT"}  # the capture's day: its relative dates count from it

PHPBB_NOTICE = ('<p class="post-notice unapproved"><span><i class="icon fa-exclamation icon-red fa-fw" '
                'aria-hidden="true"></i></span><strong>Данное сообщение не будет показано другим пользователям до '
                'его одобрения модератором.</strong></p>')


def phpbb_page(held: bool) -> bytes:
    """The topic's last page (bot post 38 last), post 38 awaiting approval when `held`."""
    body = page("phpbb", "23_topic_last_page.html").decode("utf-8")
    if held:
        start = body.index('<div id="p38"')
        at = body.index('<div class="content">', start)
        body = body[:at] + PHPBB_NOTICE + body[at:]
    return body.encode("utf-8")


def mybb_page(held: bool) -> bytes:
    body = page("mybb", "15_thread2_after_merge.html")
    return body.replace(b'<div class="post " style="" id="post_36">',
                        b'<div class="post unapproved_post" style="" id="post_36">') if held else body


def smf_page(held: bool) -> bytes:
    body = page("smf", "12_topic_page3_last.html").decode("utf-8")
    if held:
        start = body.index('<div class="windowbg" id="msg33">')
        body = body[:start] + body[start:].replace('<div class="windowbg" id="msg33">',
                                                   '<div class="approvebg" id="msg33">', 1)
        at = body.index('<div class="post">', start)
        notice = ('<div class="noticebox">This message is awaiting approval by a moderator.</div>')
        at += len('<div class="post">')
        body = body[:at] + notice + body[at:]
    return body.encode("utf-8")


def phpbb(http, clock, held: bool) -> tuple[PhpbbForum, str, str]:
    http.add("GET", PHPBB_URL + "viewtopic.php?t=2", body=page("phpbb", "20_topic_page1.html"), content_type=HTML)
    for start in (10, 20):
        http.add("GET", PHPBB_URL + f"viewtopic.php?t=2&start={start}",
                 body=page("phpbb", f"2{start // 10}_topic_page{start // 10 + 1}.html"), content_type=HTML)
    http.add("GET", PHPBB_URL + "viewtopic.php?t=2&start=30", body=phpbb_page(held), content_type=HTML)
    forum = PhpbbForum(PHPBB_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    return forum, "Ход принят", "38"


def mybb(http, clock, held: bool) -> tuple[MybbForum, str, str]:
    http.add("GET", MYBB_URL + "showthread.php?tid=2&action=lastpost", body=mybb_page(held), content_type=HTML)
    forum = MybbForum(MYBB_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    return forum, "Quick reply #1", "36"


def smf(http, clock, held: bool) -> tuple[SmfForum, str, str]:
    http.add("GET", SMF_URL + SMF_LAST, body=smf_page(held), content_type=HTML, headers=SMF_DATE)
    forum = SmfForum(SMF_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    return forum, "Итоги голосования", "33"


ENGINES = {"phpbb": phpbb, "mybb": mybb, "smf": smf}


@pytest.mark.parametrize("engine", ENGINES)
def test_an_own_post_awaiting_approval_is_found_queued_not_sent(engine, http, clock):
    forum, text, pid = ENGINES[engine](http, clock, held=True)
    with pytest.raises(PostQueued, match="awaits a moderator's approval") as e:
        forum.find_own_post("2", text)  # before: its id, counted sent though the players cannot see it
    assert e.value.pending_id == pid


@pytest.mark.parametrize("engine", ENGINES)
def test_the_same_post_published_is_found_by_its_id(engine, http, clock):
    forum, text, pid = ENGINES[engine](http, clock, held=False)
    assert forum.find_own_post("2", text) == pid


# --- phpBB: a reply taken into the queue ----------------------------------------------------------------------


def phpbb_queued_answer() -> bytes:
    """posting.php's answer to a reply held for approval (3.3.10: meta_refresh(10, $redirect_url), where submit_post
    names the topic, not the post, of a post its author cannot approve; trigger_error with POST_STORED_MOD,
    POST_APPROVAL_NOTIFY and RETURN_FORUM), laid on the saved message page of the same board (37_pm_sent_result)."""
    body = page("phpbb", "37_pm_sent_result.html").decode("utf-8")
    body = body.replace('content="3; url=http://127.0.0.1:8081/ucp.php?i=pm&amp;mode=view&amp;p=6"',
                        'content="10; url=http://127.0.0.1:8081/viewtopic.php?t=2"')
    start = body.index('<h2 class="message-title">Информация</h2>')
    end = body.index("</p>", start)
    message = ('<h2 class="message-title">Информация</h2>\n\t<p>Сообщение успешно отправлено, но должно быть одобрено '
               'модератором до того, как будет отображено на конференции. Вы будете уведомлены об одобрении вашего '
               'сообщения.<br /><br /><a href="./viewforum.php?f=2">Вернуться в форум</a>')
    return (body[:start] + message + body[end:]).encode("utf-8")


def test_a_phpbb_reply_held_for_approval_is_queued_not_refused(http, clock):
    forum = PhpbbForum(PHPBB_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    http.add("GET", PHPBB_URL + "posting.php?mode=reply&t=2", body=page("phpbb", "10_reply_form.html"),
             content_type=HTML)
    http.add("POST", PHPBB_URL + "posting.php?mode=reply&t=2", body=phpbb_queued_answer(), content_type=HTML)
    with pytest.raises(PostQueued, match="одобрено модератором") as e:
        forum.reply("2", "Итоги дня")  # before: a refusal of a post the board has taken
    assert e.value.pending_id is None
    assert len([c for c in http.calls if c.request.method == "POST"]) == 1  # taken once, not sent again


# --- SMF: a reply taken into the queue ------------------------------------------------------------------------


def test_an_smf_reply_held_for_approval_is_queued_not_sent(http, clock):
    """Post2 redirects a reply awaiting approval as any other; the page it leads to shows the author his new post
    marked `approvebg` (Display.php): PostQueued naming it, not its id as if the players could read it."""
    forum = SmfForum(SMF_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    http.add("GET", SMF_URL + "index.php?action=post;topic=2.0", body=page("smf", "20_reply_form.html"),
             content_type=HTML, headers=SMF_DATE)
    http.add("POST", SMF_URL + "index.php?action=post2;start=0;board=1", status=302,
             headers={"Location": SMF_URL + "index.php?topic=2.new#new"})
    shown = page("smf", "21_reply_posted_result.html").decode("utf-8").replace(
        '<div class="windowbg" id="msg37">', '<div class="approvebg" id="msg37">')
    http.add("GET", SMF_URL + "index.php?topic=2.new", body=shown.encode("utf-8"), content_type=HTML,
             headers=SMF_DATE)
    with pytest.raises(PostQueued, match="awaits a moderator's approval") as e:
        forum.reply("2", "Бот на связи: проверка ответа.")
    assert e.value.pending_id == "37"
    assert len([c for c in http.calls if c.request.method == "POST"]) == 1


# --- MyBB: a reply taken into the queue -----------------------------------------------------------------------


def test_a_mybb_reply_held_for_approval_is_queued_not_refused(http, clock):
    """newreply.php (1.8.37) sends a post into the moderation queue to get_thread_link($tid) through its forced
    redirect page with redirect_newreply + redirect_newreply_moderation (stock English: the live boards' language),
    not to `pid=N`: laid on the board's saved redirect page (13_reply_posted_result)."""
    forum = MybbForum(MYBB_URL, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)
    http.add("GET", MYBB_URL + "showthread.php?tid=2&action=lastpost", body=page("mybb", "28_thread_short.html"),
             content_type=HTML)
    answer = page("mybb", "13_reply_posted_result.html").decode("utf-8")
    answer = answer.replace("showthread.php?tid=1&amp;pid=37#pid37", "showthread.php?tid=2").replace(
        "Спасибо, ваш ответ опубликован.<br />Вы будете перенаправлены к вашему сообщению.",
        "Thank you, your reply has been posted.<br />The administrator has specified that all new posts require "
        "moderation. You will now be returned to the thread.")
    http.add("POST", MYBB_URL + "newreply.php?tid=2&processed=1", body=answer.encode("utf-8"), content_type=HTML)
    with pytest.raises(PostQueued, match="require moderation"):
        forum.reply("2", "Итоги дня")  # before: the redirect page read as an unexpected answer, a refusal
    assert len([c for c in http.calls if c.request.method == "POST"]) == 1
