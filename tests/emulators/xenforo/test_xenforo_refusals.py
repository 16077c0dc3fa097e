"""Issue 28 item 3, the XenForo bullet: the emulator refuses as XF's own controllers do (the recipient limit in
XF's phrase `you_may_only_invite_x_members_to_join_this_conversation`, a conversation with yourself, noPermission's
403, the login limit as a CAPTCHA or a lockout, a form's error answered 200), and the adapter tells the GM each in
the board's words with the next step. Every test here failed on main: the emulator's recipient limit was worded
to match the adapter's pattern and answered 400, it started a conversation with the bot alone, had no permission
model and no login limit."""

from __future__ import annotations

import re

import pytest
import requests
from xfsupport import BOT, PASSWORD, make_board

from adapters.xenforo.forum import XenforoForum
from forumbot.errors import CaptchaRequired, FormRejected, LoginRequired
from xfemu import Emulator


def adapter(xf, clock, password: str = PASSWORD) -> XenforoForum:
    return XenforoForum(xf.base_url, BOT, password, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep,
                        max_wait=None)


def raw_post(xf, route: str, fields: dict[str, str], login: str | None = None) -> requests.Response:
    """A browser's POST asking for JSON (after logging in as `login`): the status code as XF sends it."""
    s = requests.Session()
    token = re.search(r'data-csrf="([^"]+)"', s.get(xf.base_url + "login/").text).group(1)
    if login:
        s.post(xf.base_url + "login/login", data={"login": login, "password": PASSWORD, "_xfToken": token})
        token = re.search(r'data-csrf="([^"]+)"', s.get(xf.base_url).text).group(1)
    return s.post(xf.base_url + route, data={**fields, "_xfToken": token, "_xfResponseType": "json"})


@pytest.mark.parametrize("version,noun", [("2.2", "conversation"), ("2.3", "direct message")])
def test_issue28_xf_recipient_limit_is_xfs_phrase_answered_200_and_the_adapter_names_the_permission(
        clock, version, noun):
    with Emulator(make_board(clock, version)) as xf:
        xf.board.max_recipients = 2
        route = "direct-messages/add" if version == "2.3" else "conversations/add"
        answer = raw_post(xf, route, {"recipients": "Дон, Маф1, Шериф", "title": "Команда", "message": "т"}, BOT)
        assert answer.status_code == 200  # Controller::error's default code: a form's error is not a 400
        assert answer.json()["errors"] == [f"You may only invite 2 member(s) to join this {noun}."]
        with pytest.raises(FormRejected, match=r"«You may only invite 2 member\(s\).*Maximum number of people"):
            adapter(xf, clock).send_pm("Дон, Маф1, Шериф", "Команда", "текст")
        assert xf.board.conversations == {}


def test_issue28_xf_a_conversation_with_yourself_is_refused_in_xfs_words(xf, clock):
    with pytest.raises(FormRejected, match="own account: «You cannot start a conversation with yourself.»"):
        adapter(xf, clock).send_pm(BOT, "Роль", "текст")
    assert xf.board.conversations == {}


def test_issue28_xf_no_permission_to_start_conversations_is_a_403_and_the_adapter_says_which_permission(xf, clock):
    xf.board.members["мафбот"].starts_conversations = False
    route = "direct-messages/add" if xf.board.version >= "2.3" else "conversations/add"
    answer = raw_post(xf, route, {"recipients": "Дон", "title": "Роль", "message": "т"}, BOT)
    assert (answer.status_code, answer.json()["errors"]) == (
        403, ["You do not have permission to view this page or perform this action."])
    with pytest.raises(FormRejected, match="«You do not have permission.*».*Start conversations"):
        adapter(xf, clock).send_pm("Дон", "Роль", "текст")
    assert xf.board.conversations == {}


def test_issue28_xf_form_errors_answer_200_and_a_bad_token_400(xf22):
    unknown = raw_post(xf22, "conversations/add", {"recipients": "Никто", "title": "т", "message": "т"}, BOT)
    assert unknown.status_code == 200 and unknown.json()["status"] == "error"
    stale = requests.post(xf22.base_url + "threads/101/add-reply", data={"message": "т", "_xfResponseType": "json"})
    assert stale.status_code == 400  # the CSRF check passes its own code


def _fail_four_logins(xf, clock) -> None:
    for n in range(4):  # a new password each time: the adapter's own hold is per password
        with pytest.raises(LoginRequired, match="Incorrect password"):
            adapter(xf, clock, password=f"не тот {n}").login()


def test_issue28_xf_login_limit_captcha_stops_even_the_right_password_until_five_minutes_pass(xf22, clock):
    """Service\\User\\Login::isLoginLimited: 4 failures of one name in 5 minutes; loginLimit "captcha"."""
    _fail_four_logins(xf22, clock)
    with pytest.raises(CaptchaRequired, match="CAPTCHA to log in after failed attempts: «Did not complete"):
        adapter(xf22, clock).login()
    assert not any(xf22.board.sessions.values())
    clock.sleep(301)
    adapter(xf22, clock).login()
    assert BOT in xf22.board.sessions.values()


def test_issue28_xf_login_limit_block_says_the_account_is_locked_and_what_to_do(xf22, clock):
    xf22.board.login_limit = "block"
    _fail_four_logins(xf22, clock)
    answer = raw_post(xf22, "login/login", {"login": BOT, "password": PASSWORD})
    assert answer.status_code == 200
    assert answer.json()["errors"] == ["Your account has temporarily been locked due to failed login attempts."]
    with pytest.raises(LoginRequired, match="locked the bot's login.*«Your account has temporarily.*password_env"):
        adapter(xf22, clock).login()


def test_issue28_xf_login_limit_counts_eight_failures_of_a_name_in_thirty_minutes(xf22, clock):
    """getAttemptLimits' second row: a GM trying a new password every few minutes is still refused after the
    first five minutes pass; 30 minutes after the first failures the name is free again."""
    _fail_four_logins(xf22, clock)
    clock.sleep(301)
    for n in range(4, 8):
        with pytest.raises(LoginRequired, match="Incorrect password"):
            adapter(xf22, clock, password=f"не тот {n}").login()
    clock.sleep(301)  # no failure in the last 5 minutes, 8 in the last 30
    with pytest.raises(CaptchaRequired, match="«Did not complete"):
        adapter(xf22, clock).login()
    clock.sleep(1800 - 602 + 1)  # the first four are 30 minutes old
    adapter(xf22, clock).login()
    assert BOT in xf22.board.sessions.values()


def test_issue28_xf_failures_of_other_names_from_the_bots_address_lock_its_login_too(xf22, clock):
    """getAttemptLimits' "ip" rows: 8 failures of any names from one address in 5 minutes (a second bot with a
    wrong password on the same host) limit every login from it, the bot's too; the GM is told the address counts, not only
    the bot's own password."""
    for n in range(8):  # two each of four names: no name reaches its own limit
        with pytest.raises(LoginRequired, match="Incorrect password"):
            XenforoForum(xf22.base_url, ["Кот Баюн", "Дон", "Шериф", "Маф1"][n % 4], f"не тот {n}",
                         timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep, max_wait=None).login()
    with pytest.raises(CaptchaRequired, match="this address"):
        adapter(xf22, clock).login()
    assert not any(xf22.board.sessions.values())


def test_issue28_xf_a_player_whose_privacy_shuts_the_bot_out_is_named_with_the_setting_to_change(xf, clock):
    """Repository\\Conversation::getValidatedRecipients: a member User::canStartConversationWith refuses (privacy
    "Start conversations with you": nobody, or people he follows) is named in the board's answer (200); the GM
    reads which player must change which setting, not a plain refusal."""
    xf.board.members["шериф"].accepts_conversations = False
    route = "direct-messages/add" if xf.board.version >= "2.3" else "conversations/add"
    answer = raw_post(xf, route, {"recipients": "Дон, Шериф", "title": "Роль", "message": "т"}, BOT)
    assert (answer.status_code, answer.json()["errors"]) == (
        200, ["You may not start a conversation with the following recipients: Шериф."])
    with pytest.raises(FormRejected, match="«You may not start.*: Шериф.».*Start conversations with you"):
        adapter(xf, clock).send_pm("Шериф", "Роль", "текст")
    assert xf.board.conversations == {}
    adapter(xf, clock).send_pm("Дон, " + BOT, "Роль", "текст")  # the bot among others: dropped, not refused
    (started,) = xf.board.conversations.values()
    assert started.members == [BOT, "Дон"]


def test_issue28_xf_a_token_sent_without_its_cookie_is_renewed_and_the_reply_goes_out(xf22, clock):
    """Controller::validateCsrfToken: a token without the xf_csrf cookie is "no_cookie", answered 400 with
    cookies_required_to_use_this_site, not the security error; the adapter reads a page again (which sets the
    cookie and a new token) and sends the reply once more, as for a stale token."""
    bot = adapter(xf22, clock)
    bot.reply("101", "первый")
    bot.transport.session.cookies.clear(name="xf_csrf", domain=next(
        c.domain for c in bot.transport.session.cookies if c.name == "xf_csrf"), path="/")
    assert bot.reply("101", "второй")
    assert [p.text for p in xf22.board.visible_posts(101)][-2:] == ["первый", "второй"]
