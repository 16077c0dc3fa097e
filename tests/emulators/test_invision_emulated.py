"""The Invision adapter against the IPS 4 emulator (issue 18 items 1 and 3), answers shaped as ENGINES.md §12 states:
a posted reply redirects to `.../page/N/#comment-ID` (success, not a refusal), the flood warning sits in
`div.ipsType_warning[data-role=commentFormError]`, `messenger_to` takes one name per line (a PM to the mafia
team), and the default group's 50 conversations fill up (old ones are left, then the PM goes out)."""

from __future__ import annotations

import pytest

from adapters.invision.forum import InvisionForum
from forumbot.errors import FloodLimited, FormRejected, LoginRequired, PageFormatChanged, PostQueued
from invision import Invision

BOT, PASSWORD = "GM_Bot", "пароль-бота"


class Clock:
    def __init__(self) -> None:
        self.now = 1_795_000_000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:  # the bot's waits pass on the board's clock, at once
        self.now += seconds


@pytest.fixture(params=[True, False], ids=["friendly", "index.php"])
def ips(request):
    clock = Clock()
    board = Invision(BOT, PASSWORD, rewrite=request.param, clock=clock)
    board.clock_ = clock
    board.thread(12, "Мафия день 1")
    for i in range(30):
        board.add_post(12, f"Игрок{i % 4}", f"сообщение {i}")
    for name in ("Маша", "Кот Баюн", "Дядя Фёдор"):
        board.add_user(name)
    with board:
        yield board


def adapter(board: Invision, password: str = PASSWORD) -> InvisionForum:
    return InvisionForum(board.link(""), BOT, password, intervals={"post": 0, "pm": 0}, clock=board.clock_,
                         sleep=board.clock_.sleep)


def topic(board: Invision) -> str:
    return board.topic_link(12)


def test_login_a_wrong_password_and_two_step(ips):
    adapter(ips).login()
    with pytest.raises(LoginRequired, match="password you entered is incorrect"):
        adapter(ips, "не тот").login()
    ips.mfa.add(BOT)
    with pytest.raises(LoginRequired, match="two-step"):
        adapter(ips).login()


def test_reads_both_pages(ips):
    posts, _ = adapter(ips).fetch_posts(topic(ips))
    assert [p.text for p in posts] == [f"сообщение {i}" for i in range(30)]


def test_a_posted_reply_redirects_to_its_comment_and_is_success(ips):
    pid = adapter(ips).reply(topic(ips), "Итоги дня")
    assert ips.posts[-1].author == BOT and pid == str(ips.posts[-1].id)


def test_a_reply_into_the_moderation_queue_is_queued_not_published_nor_refused(ips):
    """IPS 4 answers a queued reply exactly as a published one (the redirect to its #comment-ID); the mod-queue
    box before the comment form is what says it waits: PostQueued (taken, never sent again), naming the comment.
    Players do not see it; the bot's own reading shows it, as IPS shows the author his queued comment."""
    ips.moderated.add(BOT)
    a = adapter(ips)
    with pytest.raises(PostQueued, match="awaits a moderator's approval") as e:
        a.reply(topic(ips), "Итоги дня")  # today: returned as a published post
    (queued,) = ips.posts_by(BOT)
    assert e.value.pending_id == str(queued.id) and queued.id in ips.pending
    assert [p.text for p in ips.shown(12, "Маша")][-1] == "сообщение 29"  # the players do not see it
    ips.moderated.discard(BOT)
    assert adapter(ips).reply(topic(ips), "Второе") == str(ips.posts[-1].id)  # no queue, no notice: published


def test_a_queue_notice_over_a_reply_that_stands_published_is_no_queue(ips):
    """The box before the form is read with the comment's own mark: a reply the board shows published (approved
    in the meantime, here at once) is a published post, not held back as queued."""
    ips.moderated.add(BOT)

    def approve(req, resp):
        if req.method == "POST":
            ips.pending.clear()

    ips.after_request = approve
    pid = adapter(ips).reply(topic(ips), "Итоги дня")
    assert pid == str(ips.posts_by(BOT)[-1].id)


def test_the_flood_warning_is_retried_with_the_boards_wait(ips):
    a = adapter(ips)
    a.reply(topic(ips), "первое")
    ips.clock_.now += 12
    with pytest.raises(FloodLimited, match="short time frame") as e:
        a.with_login(lambda: a._reply(topic(ips), "второе"))
    assert e.value.retry_after == 19.0 and ips.posts[-1].text.endswith("первое</p>")
    a.reply(topic(ips), "второе")  # waited out on the board's clock, then sent once
    assert [p.text for p in ips.posts_by(BOT)] == ["<p>первое</p>", "<p>второе</p>"]


def test_a_pm_to_the_mafia_team_names_one_member_per_line(ips):
    a = adapter(ips)
    cid = a.send_pm("Маша, Кот Баюн", "Команда мафии", "Вы вдвоём")
    (pm,) = ips.pms_from(BOT)
    assert pm.to == ["Маша", "Кот Баюн"] and cid == str(pm.conv)
    assert a.find_own_pm("Маша, Кот Баюн", "вдвоём") is not None
    ips.add_pm("Маша", [BOT], "Команда мафии", "стреляем в Дядя Фёдор", conv=pm.conv)
    pms, cursor = a.fetch_pms()
    assert [(p.author, p.text) for p in pms] == [("Маша", "стреляем в Дядя Фёдор")]
    assert a.fetch_pms(cursor)[0] == []
    ips.add_pm("Кот Баюн", [BOT], "Команда мафии", "согласен", conv=pm.conv)  # the same second: the row's time
    assert [p.text for p in a.fetch_pms(cursor)[0]] == ["согласен"]  # as read, but the row is unread


def test_an_unknown_member_is_refused_in_the_boards_words(ips):
    with pytest.raises(FormRejected, match="Никто: участник не найден"):
        adapter(ips).send_pm("Никто", "Роль", "текст")


def test_a_full_messenger_leaves_old_conversations_and_sends(ips):
    """The default group keeps 50 conversations: the bot leaves its oldest, then starts the new one."""
    for i in range(ips.max_conversations):
        ips.clock_.now += 60
        ips.add_pm(BOT, ["Маша"], f"старая {i}", "текст", conv=ips.next_id("conv"))
    ips.clock_.now += 60
    adapter(ips).send_pm("Кот Баюн", "Роль", "Вы шериф")
    assert ips.pms[-1].to == ["Кот Баюн"]
    gone = {c for c, who in ips.left if who == BOT}
    oldest = {m.conv for m in ips.pms[:len(gone)]}
    assert gone and gone == oldest


def test_a_full_messenger_nothing_can_leave_is_said(ips):
    ips.max_conversations = 0
    with pytest.raises(FormRejected, match="inbox is full"):
        adapter(ips).send_pm("Кот Баюн", "Роль", "Вы шериф")


def test_a_stale_csrf_key_is_transient(ips):
    """The csrfKey belongs to the session: a form served in an earlier session is refused for now, not for good."""
    from forumbot.errors import FormTransient

    a = adapter(ips)
    a.login()
    page = a._last_page("12")
    stale = {"csrfKey": "0" * 32, "topic_comment_12": "<p>x</p>"}
    with pytest.raises(FormTransient, match="csrf"):
        a.forms.raise_for_errors(a.forms.submit(page, "reply", stale, action="post"))
    assert ips.posts_by(BOT) == []


def test_the_messengers_429_is_a_flood_with_its_retry_after(ips):
    a = InvisionForum(ips.link(""), BOT, PASSWORD, intervals={"post": 0, "pm": 0}, retry_budget=0, max_wait=0,
                      clock=ips.clock_, sleep=ips.clock_.sleep)
    a.send_pm("Маша", "Роль", "первое")
    ips.clock_.now += 10
    with pytest.raises(FloodLimited, match="429") as e:
        a.with_login(lambda: a._send_pm("Кот Баюн", "Роль", "второе"))
    assert e.value.retry_after == 21.0 and len(ips.pms_from(BOT)) == 1


def test_r13_the_bot_locks_and_unlocks_a_topic_as_a_moderator(ips):
    """R-13 (unverified: §12 is silent, the emulator follows IPS 4's Content\\Controller::moderate lock/unlock):
    no lock item for an ordinary member, and a refusal; a moderator locks and unlocks, once each."""
    bot = adapter(ips)
    bot.login()
    assert bot.may_lock(topic(ips)) is False
    with pytest.raises(FormRejected, match="lock"):
        bot.lock_thread(topic(ips), True)
    ips.moderators.add(BOT)
    assert bot.may_lock(topic(ips)) is True
    bot.lock_thread(topic(ips), True)
    assert ips.closed == {12}
    bot.lock_thread(topic(ips), True)
    bot.lock_thread(topic(ips), False)
    bot.lock_thread(topic(ips), False)
    assert ips.closed == set()


def test_issue28_item4_a_messenger_switched_off_is_refused_in_the_boards_words(ips):
    """messenger.php's execute(): members_disable_pm = 2 answers error('messenger_disabled', '2C137/9', 403) on
    every Messenger page; the adapter names it and the fix, where main said only "no compose form"."""
    ips.no_pms.add(BOT)
    with pytest.raises(FormRejected, match="not let the bot use the Messenger: «Вам запрещено пользоваться"):
        adapter(ips).send_pm("Маша", "Роль", "текст")
    assert ips.pms_from(BOT) == []


def test_issue28_a_board_without_rewrite_given_its_folder_names_the_base_url_to_set():
    """A board without rewrite answers `login/` at its folder with the web server's 404: the GM who gave the
    folder as base_url read «no login form on .../login/»; now the login says which base_url to set, and
    check-config says it before any request, from the game's `index.php?/topic/...` threads."""
    board = Invision(BOT, PASSWORD, rewrite=False)
    board.thread(12, "Мафия день 1")
    with board:
        with pytest.raises(PageFormatChanged, match=r"login/ answers 404.*set the forum's base_url to "
                                                    rf"'{board.base}index\.php\?/'"):
            InvisionForum(board.base, BOT, PASSWORD).login()
        problem = InvisionForum.thread_problem(board.topic_link(12), board.base)
        assert problem is not None and f"set the forum's base_url to '{board.base}index.php?/'" in str(problem)
        assert InvisionForum.thread_problem(board.topic_link(12), board.link("")) is None
        InvisionForum(board.link(""), BOT, PASSWORD).login()  # the base it names logs in
