"""Issue 18, the XenForo bullets: the adapter against the emulator (xfemu, built from ENGINES.md §12 and the real
saved thread page, never from the adapter), in XF 2.2 and 2.3 modes, with friendly and plain (index.php?) URLs.
Every test here failed on the adapter before issue 18: the conversation list read as empty, a 2.3 redirect taken
for a refusal, a wrong password for a login, a queued reply for a refused one, index.php? routes as 404."""

from __future__ import annotations

import json

import pytest
from xfsupport import BOT, PASSWORD, START, make_board

from adapters.xenforo.forum import LOGIN_HOLD, XenforoForum
from forumbot.errors import FloodLimited, FormRejected, LoginRequired, PostQueued
from xfemu import Emulator

SUBJECT = "Мафия 1"


def adapter(xf, clock, password: str = PASSWORD, **kw) -> XenforoForum:
    kw.setdefault("max_wait", None)  # sleep out every flood (on the test's clock), as a long-running `run` would
    return XenforoForum(xf.base_url, BOT, password, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                        **kw)


def thread_url(xf) -> str:
    return xf.base_url + "threads/mafiya-1-igra.101/"


def posts_of(board, route_start: str) -> list:
    return [r for m, r in board.requests if m == "POST" and r.startswith(route_start)]


# --- conversations: the list's a.structItem-title, messages' span#convMessage-N (§12) ---------------------------


def test_player_answers_inside_a_conversation_are_read_in_every_mode(xf, clock):
    bot = adapter(xf, clock)
    cid = bot.send_pm("Дон", SUBJECT, "Ваша роль: Дон.\n\n#fb:1a2b3c4d")
    xf.board.add_message(int(cid), "Дон", "подтверждаю")
    xf.board.add_message(int(cid), "Дон", "[quote=МафБот]Ваша роль[/quote]убить Шериф")
    c = xf.board.start_conversation("Шериф", [BOT], "Ход", "проверка Дон")
    pms, cursor = bot.fetch_pms()
    assert [(p.author, p.subject, p.text) for p in pms] == [
        ("Дон", SUBJECT, "подтверждаю"), ("Дон", SUBJECT, "убить Шериф"), ("Шериф", "Ход", "проверка Дон")]
    assert [p.id for p in pms] == [str(m) for m in [*xf.board.conversations[int(cid)].messages[1:], c.messages[0]]]
    assert bot.fetch_pms(after=cursor)[0] == []  # read once


def test_find_own_pm_after_a_crash_finds_the_conversation_in_a_new_process(xf, clock):
    """The process died after the board took the PM and before it was recorded: the next one finds it, so the
    outbox does not send it twice."""
    cid = adapter(xf, clock).send_pm("Дон", SUBJECT, "Ваша роль: Дон.\n\n#fb:1a2b3c4d")
    fresh = adapter(xf, clock)
    assert fresh.find_own_pm("Дон", "#fb:1a2b3c4d") == cid
    assert fresh.find_own_pm("Дон", "#fb:99999999") is None
    assert fresh.find_own_pm("Шериф", "#fb:1a2b3c4d") is None


def test_xf23_direct_messages_redirect_is_a_sent_pm_not_a_refusal(clock):
    with Emulator(make_board(clock, "2.3")) as xf:
        bot = adapter(xf, clock)
        cid = bot.send_pm("Дон", SUBJECT, "Ваша роль")
        assert cid == str(xf.board.conversations_of("Дон")[0].id)
        assert posts_of(xf.board, "direct-messages/add") == ["direct-messages/add"]


def test_several_recipients_share_one_conversation_and_unknown_ones_are_named(xf22, clock):
    bot = adapter(xf22, clock)
    cid = bot.send_pm("Дон, Маф1", "Мафия 1: команда", "Вы мафия")
    assert {m for m in xf22.board.conversations[int(cid)].members} == {BOT, "Дон", "Маф1"}
    with pytest.raises(FormRejected, match="could not be found: Никто"):
        bot.send_pm("Никто", "Роль", "текст")


def test_more_recipients_than_the_group_may_invite_is_refused(xf22, clock):
    xf22.board.max_recipients = 2
    with pytest.raises(FormRejected):
        adapter(xf22, clock).send_pm("Дон, Маф1, Шериф", "Команда", "текст")
    assert xf22.board.conversations == {}


# --- flood: 180 s to start a conversation, 30 s to reply in one (§12) ---------------------------------------------


def test_new_conversations_are_paced_at_180_s_and_a_game_s_later_pms_reply_into_the_kept_one(xf22, clock):
    bot = adapter(xf22, clock)
    first = bot.send_pm("Дон", SUBJECT, "роль Дон")
    bot.send_pm("Шериф", SUBJECT, "роль Шериф")
    assert clock.now - START >= 180  # floodCheckLengthDiscussion, waited out before the second start
    before = clock.now
    assert bot.send_pm("Дон", SUBJECT, "Принято: убить Шериф") == first  # a reply: floodCheckLength only
    assert clock.now - before <= 31
    assert len(xf22.board.conversations_of("Дон")) == 1
    assert len(xf22.board.conversations[int(first)].messages) == 2
    # a new process keeps replying into it: the kept conversations travel in the stored session
    again = adapter(xf22, clock)
    again.import_cookies(bot.export_cookies())
    assert again.send_pm("Дон", SUBJECT, "Итоги ночи") == first
    assert bot.send_pm("Дон", "Мафия 2", "новая игра") != first  # another game: its own conversation


def test_the_board_s_own_flood_answer_is_waited_out_by_the_seconds_it_names(xf22, clock):
    adapter(xf22, clock).send_pm("Дон", SUBJECT, "роль")  # another process started one just now
    bot = adapter(xf22, clock, max_wait=60)
    with pytest.raises(FloodLimited) as e:
        bot.send_pm("Шериф", SUBJECT, "роль")
    assert 170 <= e.value.retry_after <= 180  # "You must wait at least N seconds": N read from the text
    assert len(xf22.board.conversations) == 1


# --- login ----------------------------------------------------------------------------------------------------


def test_wrong_password_answered_with_the_login_view_is_a_refused_login_and_not_retried(xf, clock):
    bot = adapter(xf, clock, password="не тот")
    with pytest.raises(LoginRequired, match="Incorrect password"):
        bot.login()
    logins = len(posts_of(xf.board, "login/login"))
    assert logins == 1
    with pytest.raises(LoginRequired, match="not trying again"):
        bot.login()
    next_tick = adapter(xf, clock, password="не тот")  # the next process, with the stored session
    next_tick.import_cookies(bot.export_cookies())
    with pytest.raises(LoginRequired):
        next_tick.fetch_pms()
    assert len(posts_of(xf.board, "login/login")) == logins  # no second wrong password towards XF's lockout
    clock.sleep(LOGIN_HOLD + 1)
    fixed = adapter(xf, clock)  # the GM set the right password: tried at once, whatever the hold
    fixed.import_cookies(bot.export_cookies())
    fixed.login()


def test_an_unknown_login_name_is_a_refused_login(xf22, clock):
    bot = XenforoForum(xf22.base_url, "Никто", "pw", clock=clock, sleep=clock.sleep)
    with pytest.raises(LoginRequired, match="could not be found"):
        bot.login()


def test_two_step_verification_is_refused_saying_what_to_switch_off(xf22, clock):
    xf22.board.members["мафбот"].two_step = True
    with pytest.raises(LoginRequired, match="two-step"):
        adapter(xf22, clock).login()


def test_an_expired_session_logs_in_again_once(xf22, clock):
    bot = adapter(xf22, clock)
    bot.reply(thread_url(xf22), "первый")
    xf22.board.sessions.clear()
    bot.transport.session.cookies.clear()
    clock.sleep(31)
    bot.reply(thread_url(xf22), "второй")
    assert len(posts_of(xf22.board, "login/login")) == 2


def test_a_token_past_24_h_is_renewed_from_a_page_and_the_reply_sent_once(xf22, clock):
    bot = adapter(xf22, clock)
    bot.reply(thread_url(xf22), "первый")
    clock.sleep(86400 + 60)  # the token read with the last page is now older than XF takes
    sent = len(posts_of(xf22.board, "threads/101/add-reply"))
    assert bot.reply(thread_url(xf22), "второй")
    assert [p.text for p in xf22.board.visible_posts(101)][-2:] == ["первый", "второй"]
    assert len(posts_of(xf22.board, "threads/101/add-reply")) == sent + 2  # refused once, nothing posted then


# --- replies --------------------------------------------------------------------------------------------------


def test_a_reply_returns_the_post_id_in_every_mode(xf, clock):
    pid = adapter(xf, clock).reply(thread_url(xf), "[b]Итоги[/b] дня")
    post = xf.board.posts[int(pid)]
    assert (post.author, post.text) == (BOT, "[b]Итоги[/b] дня")


def test_a_reply_awaiting_approval_is_queued_not_refused(xf, clock):
    xf.board.moderated_threads.add(101)
    with pytest.raises(PostQueued, match="approval"):
        adapter(xf, clock).reply(thread_url(xf), "Итоги")
    assert [p.approved for p in xf.board.posts.values()][-1] is False  # the board holds it: not to send again


def test_a_reply_flood_is_waited_out_and_sent_once_more(xf22, clock):
    adapter(xf22, clock).reply(thread_url(xf22), "из другого процесса")
    bot = adapter(xf22, clock)
    bot.reply(thread_url(xf22), "голосование закрыто")
    assert any(25 <= s <= 31 for s in clock.slept)
    assert [p.text for p in xf22.board.visible_posts(101)][-1] == "голосование закрыто"


# --- reading threads --------------------------------------------------------------------------------------------


def test_pages_then_the_last_page_only_and_an_edit_is_seen(xf, clock):
    for i in range(44):
        xf.board.add_post(101, f"Игрок{i % 5}", f"пост {i + 2}", at=START - 3000 + i)
    bot = adapter(xf, clock)
    posts, cursor = bot.fetch_posts(thread_url(xf))
    assert [p.text for p in posts] == ["Тема открыта.", *(f"пост {i + 2}" for i in range(44))]
    before = len(xf.board.requests)
    xf.board.edit_post(posts[-1].id and int(posts[-1].id), "голос М2")
    again, _ = bot.fetch_posts(thread_url(xf), after=cursor)
    # an idle thread: one request
    assert [r for _, r in xf.board.requests[before:]] == ["threads/mafiya-1-igra.101/page-3"]
    edited = {p.id: p for p in again}[posts[-1].id]
    assert edited.text == "голос М2" and edited.edited_at is not None  # C-11


def test_reread_from_a_post_and_find_own_post(xf, clock):
    added = [xf.board.add_post(101, "И", f"п{i}", at=START - 3000 + i) for i in range(49)]
    mine = xf.board.add_post(101, BOT, "Итоги\n\n#fb:deadbeef")
    bot = adapter(xf, clock)
    assert [p.id for p in bot.reread_from(thread_url(xf), str(added[25].id))] == [
        str(p.id) for p in [*added[19:], mine]]  # page 2 (posts 21-40) on
    assert bot.find_own_post(thread_url(xf), "#fb:deadbeef") == str(mine.id)
    assert bot.find_own_post(thread_url(xf), "#fb:00000000") is None


def test_an_idle_cycle_costs_the_thread_s_last_page_alone(xf22, clock):
    """conversations_unread on the thread page the cycle reads anyway: an idle inbox costs no request."""
    bot = adapter(xf22, clock)
    _, pm_cursor = bot.fetch_pms()
    _, cursor = bot.fetch_posts(thread_url(xf22))
    before = len(xf22.board.requests)
    assert bot.fetch_pms(after=pm_cursor) == ([], pm_cursor)
    bot.fetch_posts(thread_url(xf22), after=cursor)
    assert [r for _, r in xf22.board.requests[before:]] == ["threads/mafiya-1-igra.101/"]
    xf22.board.start_conversation("Дон", [BOT], "Ход", "убить Шериф")
    pms, _ = bot.fetch_pms(after=pm_cursor)
    assert [p.text for p in pms] == ["убить Шериф"]


def test_the_session_export_is_json_holding_the_kept_conversations(xf22, clock):
    bot = adapter(xf22, clock)
    bot.send_pm("Дон", SUBJECT, "роль")
    state = json.loads(bot.export_cookies())
    assert state["xf"]["kept"] and PASSWORD not in bot.export_cookies()


def test_the_saved_conversation_pages_are_what_the_emulator_serves():
    """fixtures/xenforo/E-*.html (the conversation pages other tests and `forumbot probe` read) are the
    emulator's pages, built to §12's markup, not pages written to suit the adapter."""
    from xfemu.fixtures import FIXTURES, render
    pages = render()
    assert pages and all((FIXTURES / name).read_bytes() == body for name, body in pages.items())
    assert b'class="structItem-title"' in pages["E-conversations-list-xf22.html"]
    assert b'id="convMessage-' in pages["E-conversation-view-xf23.html"]
    assert b"data-content=" not in pages["E-conversation-view-xf22.html"].split(b"convMessage", 1)[1]


def test_a_list_showing_no_readable_row_while_counting_unread_ones_is_an_error(xf22, clock, monkeypatch):
    """Issue 17 item 16 on XenForo: a style whose conversation rows the profile does not read showed an empty
    list, and the night resolved without its moves. The page's own conversations_unread says there are some:
    PageFormatChanged, never "no PMs". An empty list counting none is still an empty inbox."""
    from forumbot.errors import PageFormatChanged
    from xfemu import pages

    bot = adapter(xf22, clock)
    assert bot.fetch_pms()[0] == []  # nothing there, nothing counted
    xf22.board.start_conversation("Шериф", [BOT], "Ход", "проверка Дон")
    themed = (lambda c, last, unread, users, link, route:  # a custom style's row: no structItem--conversation
              f'<div class="convRow"><a href="{link(route + "/x." + str(c.id) + "/")}">{c.title}</a></div>')
    monkeypatch.setattr(pages, "conversation_row", themed)
    with pytest.raises(PageFormatChanged, match="counts 1 unread"):
        bot.fetch_pms()  # before: ([], cursor)


# --- accounts: a GM's `замена` names an account the board must have (issue 28 item 6, C-3) ----------------------


def test_issue28_item6_an_account_is_looked_up_through_members_find_in_every_mode(xf, clock):
    bot = adapter(xf, clock)
    assert bot.account_exists("Кот Баюн") is True
    assert bot.account_exists("кот  баюн") is True  # C-3: the name case-folded, its spaces as one
    assert bot.account_exists("Новичок") is False
    assert bot.account_exists("Кот") is False  # only begins an account's name
    assert ("GET", "members/find") in xf.board.requests


def test_issue28_item6_a_full_list_of_names_that_begin_alike_cannot_tell(xf22, clock):
    for n in range(10):
        xf22.board.member(f"Игрок {n}")
    bot = adapter(xf22, clock)
    assert bot.account_exists("Игрок") is None  # ten others listed; the eleventh might be the one
    assert bot.account_exists("Игрок 3") is True
    assert bot.account_exists("И") is None  # members/find answers nothing under 2 characters


# --- R-13: the thread tools' lock switch (unverified: §12 is silent; Thread::actionQuickClose toggles) -----------


def test_r13_the_bot_locks_and_unlocks_a_thread_as_a_moderator(xf, clock):
    bot = adapter(xf, clock)
    bot.login()
    thread = xf.board.threads[101]
    assert bot.may_lock(thread_url(xf)) is False  # a member without lockUnlockThread: no switch shown
    with pytest.raises(FormRejected, match="lock"):
        bot.lock_thread(thread_url(xf), True)
    xf.board.member(BOT).locks = True
    assert bot.may_lock(thread_url(xf)) is True and thread.discussion_open
    bot.lock_thread(thread_url(xf), True)
    assert not thread.discussion_open
    bot.lock_thread(thread_url(xf), True)  # already locked: a second switch would open it
    assert not thread.discussion_open
    bot.lock_thread(thread_url(xf), False)
    bot.lock_thread(thread_url(xf), False)
    assert thread.discussion_open and len(posts_of(xf.board, "threads/mafiya-1-igra.101/quick-close")) == 2
