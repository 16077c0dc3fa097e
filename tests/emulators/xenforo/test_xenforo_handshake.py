"""`forumbot probe --handshake` against the XenForo emulator (issue 28 item 3, the XenForo bullet: the board's own
words reach the GM). The handshake verifies every flow on a board that lets the bot in, in all four modes (2.2 and
2.3, friendly and `index.php?` URLs), the reply flow through XF's own preview (`threads/{id}/reply-preview`, which
posts nothing: issue 28 item 4); where XF refuses (its login limit, noPermission on `conversations/add`), the
failing flow carries XF's phrase and the next step, not a bare status or "no form"."""

from __future__ import annotations

import pytest
from xfsupport import BOT, PASSWORD, make_board

from adapters.xenforo.forum import XenforoForum
from forumbot.errors import LoginRequired
from forumbot.probe.handshake import FAILING, UNVERIFIED, VERIFIED, handshake
from xfemu import Emulator

GM = "ГМ"


def adapter(xf, clock, password: str = PASSWORD) -> XenforoForum:
    return XenforoForum(xf.base_url, BOT, password, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                        max_wait=None)


def threads(xf) -> list[str]:
    vote = xf.board.thread("Мафия 1: голосование", "mafiya-1-golosovanie", GM, "Голосуем здесь.")
    return [xf.base_url + "threads/mafiya-1-igra.101/", xf.base_url + f"threads/{vote.slug}.{vote.id}/"]


def test_two_runs_verify_every_flow_in_every_mode_and_post_nothing(xf, clock, tmp_path):
    state = tmp_path / ".handshake-main.json"
    urls = threads(xf)
    posts_before = dict(xf.board.posts)
    first = handshake(adapter(xf, clock), urls, GM, state, forum="main")
    assert [(f.name, f.status) for f in first.flows] == [
        ("login", VERIFIED), (f"read:{urls[0]}", VERIFIED), (f"read:{urls[1]}", VERIFIED),
        (f"reply:{urls[0]}", VERIFIED), ("pm_send", VERIFIED), ("pm_reply", UNVERIFIED)]
    assert ("POST", "threads/101/reply-preview") in xf.board.requests  # checked through XF's preview
    (conversation,) = xf.board.conversations.values()
    assert [m for m in conversation.members] == [BOT, GM]
    assert first.code in xf.board.messages[conversation.messages[0]].text
    xf.board.add_message(conversation.id, GM, f"Код {first.code}, всё пришло")
    second = handshake(adapter(xf, clock), urls, GM, state, forum="main")
    assert [(f.name, f.status) for f in second.flows][-2:] == [("pm_send", VERIFIED), ("pm_reply", VERIFIED)]
    assert len(xf.board.conversations) == 1 and not state.exists()
    assert xf.board.posts == posts_before  # nothing posted in the game's threads


@pytest.mark.parametrize("limit,words", [
    ("block", "«Your account has temporarily been locked due to failed login attempts.»"),
    ("captcha", "«Did not complete the CAPTCHA verification properly. Please try again.»")])
def test_a_login_locked_by_failed_attempts_fails_in_xfs_words_with_the_next_step(xf22, clock, tmp_path, limit,
                                                                                  words):
    """Service\\User\\Login::isLoginLimited after a wrong password_env tried by ticks: the handshake says XF's
    phrase and what to fix, and tries nothing else (no PM is sent)."""
    xf22.board.login_limit = limit
    for n in range(4):
        with pytest.raises(LoginRequired):
            adapter(xf22, clock, password=f"не тот {n}").login()
    report = handshake(adapter(xf22, clock), threads(xf22), GM, tmp_path / "s.json")
    login = report.flows[0]
    assert (login.name, login.status) == ("login", FAILING)
    assert words in login.said and "password_env" in login.said
    assert all(f.status == UNVERIFIED for f in report.flows[1:]) and xf22.board.conversations == {}


def test_no_permission_to_start_conversations_fails_the_pm_flow_naming_the_permission(xf, clock, tmp_path):
    """Controller::noPermission (403) on conversations/add for a group without "Start conversations": the GM reads
    XF's sentence and which permission to give, where the adapter used to say only that the form was refused."""
    xf.board.members["мафбот"].starts_conversations = False
    report = handshake(adapter(xf, clock), threads(xf), GM, tmp_path / "s.json")
    by_name = {f.name: f for f in report.flows}
    assert by_name["login"].status == VERIFIED
    assert by_name["pm_send"].status == FAILING
    assert "«You do not have permission to view this page or perform this action.»" in by_name["pm_send"].said
    assert '"Start conversations"' in by_name["pm_send"].said
    assert by_name["pm_reply"].status == UNVERIFIED and xf.board.conversations == {}


@pytest.mark.parametrize("why", ["a group without Reply to threads", "a locked thread"])
def test_a_bot_that_may_not_reply_fails_the_reply_flow_before_the_game_and_posts_nothing(xf, clock, tmp_path, why):
    """actionReplyPreview checks Thread::canReply as add-reply does: the GM learns before the game that the
    bot's replies would be refused, in XF's words with the permission to give."""
    urls = threads(xf)
    if why == "a locked thread":
        xf.board.threads[101].discussion_open = False
    else:
        xf.board.members["мафбот"].replies = False
    posts_before = dict(xf.board.posts)
    report = handshake(adapter(xf, clock), urls, GM, tmp_path / "s.json")
    reply = {f.name: f for f in report.flows}[f"reply:{urls[0]}"]
    assert reply.status == FAILING
    assert "«You do not have permission to view this page or perform this action.»" in reply.said
    assert '"Reply to threads"' in reply.said
    assert xf.board.posts == posts_before


def test_a_gm_whose_privacy_shuts_the_bot_out_is_told_which_setting_to_change(xf22, clock, tmp_path):
    """getValidatedRecipients refuses a member canStartConversationWith rejects: the handshake's PM to the GM
    fails naming him and the privacy setting, the same words a player's refused role PM carries."""
    xf22.board.members["гм"].accepts_conversations = False
    report = handshake(adapter(xf22, clock), threads(xf22), GM, tmp_path / "s.json")
    pm_send = {f.name: f for f in report.flows}["pm_send"]
    assert pm_send.status == FAILING
    assert f"«You may not start a conversation with the following recipients: {GM}.»" in pm_send.said
    assert '"Start conversations with you"' in pm_send.said and xf22.board.conversations == {}
