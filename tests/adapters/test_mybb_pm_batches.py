"""MyBB sends a PM to more than 5 recipients in batches; a session that expires during a later batch logs in
and goes on from that batch, never sending an earlier one again (issue 7 item 5 follow-up)."""

from __future__ import annotations

import pytest

from adapters.mybb.forum import MybbForum
from adapters_support import MYBB_URL as U, add_page, form_body
from forumbot.errors import FormTransient, PartlySent

PASSWORD = "bot-password-1!"


@pytest.fixture
def forum(clock):
    return MybbForum(U, "gm_bot", PASSWORD, timezone_name="Europe/Moscow", clock=clock, sleep=clock.sleep)


def test_a_session_expired_in_batch_two_resends_only_batch_two_issue7_item5(forum, http):
    compose = U + "private.php?action=send"
    add_page(http, "GET", compose, "mybb", "32_pm_compose_form.html")  # batch 1
    add_page(http, "GET", compose, "mybb", "01_login_page.html")  # batch 2: the session is gone
    add_page(http, "GET", compose, "mybb", "32_pm_compose_form.html")  # batch 2 after the login
    add_page(http, "POST", U + "private.php", "mybb", "36_pm_sent_result.html")
    add_page(http, "GET", U + "member.php?action=login", "mybb", "01_login_page.html")
    add_page(http, "POST", U + "member.php", "mybb", "04_login_success_result.html",
             headers={"Set-Cookie": "mybbuser=2_AbCdEf; path=/; HttpOnly"})
    forum.send_pm(", ".join(f"p{i}" for i in range(7)), "Ночь", "Город засыпает")
    sent = [form_body(c).get("to", ["(login)"])[0] for c in http.calls
            if c.request.method == "POST" and c.request.url.endswith("private.php")]
    assert sent == ["p0, p1, p2, p3, p4", "p5, p6"]
    assert any(c.request.url.endswith("member.php") for c in http.calls)  # it did log in again


def test_a_refusal_in_batch_two_says_who_has_the_pm_and_who_not_issue7_item5(forum, http):
    add_page(http, "GET", U + "private.php?action=send", "mybb", "32_pm_compose_form.html")
    add_page(http, "POST", U + "private.php", "mybb", "36_pm_sent_result.html")
    add_page(http, "POST", U + "private.php", "mybb", "03_login_without_my_post_key.html")  # a stale post key
    with pytest.raises(PartlySent) as err:
        forum.send_pm(", ".join(f"p{i}" for i in range(7)), "Ночь", "Город засыпает")
    assert err.value.sent == [f"p{i}" for i in range(5)] and err.value.remaining == ["p5", "p6"]
    assert isinstance(err.value.cause, FormTransient)


def test_a_refusal_in_batch_one_is_the_refusal_itself(forum, http):
    add_page(http, "GET", U + "private.php?action=send", "mybb", "32_pm_compose_form.html")
    add_page(http, "POST", U + "private.php", "mybb", "03_login_without_my_post_key.html")
    with pytest.raises(FormTransient):
        forum.send_pm(", ".join(f"p{i}" for i in range(7)), "Ночь", "Город засыпает")
