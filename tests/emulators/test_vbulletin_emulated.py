"""The vBulletin adapter against the vB 3.8 and 4.2 emulators (issue 18 items 1 and 3): the answers are shaped as
ENGINES.md §12 states them (form errors through construct_errors, redirects, private.php), so a flood, an unknown
recipient or a full quota is read as what it is, not as a permanent "unexpected answer"."""

from __future__ import annotations

import pytest

from adapters.vbulletin.forum import VbulletinForum
from forumbot.errors import FloodLimited, FormRejected, FormTransient, LoginRequired, PageFormatChanged, PostQueued
from forumbot.probe.handshake import FAILING, UNVERIFIED, VERIFIED, reply_flow
from forumbot.texts import en, ru
from vbulletin import FLOOD_POST, VBulletin
from vbulletin_pm import NOT_FOUND

BOT, PASSWORD = "GM_Bot", "пароль-бота"
VERSIONS = ["3.8", "4.2"]


class Clock:
    def __init__(self) -> None:
        self.now = 1_795_000_000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:  # the bot's waits pass on the board's clock, at once
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture(params=VERSIONS)
def vb(request):
    clock = Clock()
    board = VBulletin(BOT, PASSWORD, version=request.param, clock=clock)
    board.clock_ = clock
    board.thread(7, "Мафия: день 1")
    for i in range(25):
        board.add_post(7, f"Игрок{i % 4}", f"сообщение {i}")
    for name in ("Маша", "Кот Баюн", "Дядя Фёдор"):
        board.add_user(name)
    with board:
        yield board


def adapter(board: VBulletin, password: str = PASSWORD, **kw) -> VbulletinForum:
    return VbulletinForum(board.base, BOT, password, timezone_name="Europe/Moscow",
                          intervals={"post": 0, "pm": 0}, clock=board.clock_, sleep=board.clock_.sleep, **kw)


def test_login_and_a_wrong_password_in_the_boards_words(vb):
    adapter(vb).login()
    assert any(vb.sessions.values())
    with pytest.raises(LoginRequired, match="invalid username or password"):
        adapter(vb, "не тот").login()


def test_reads_every_page_and_an_edit(vb):
    a = adapter(vb)
    posts, cursor = a.fetch_posts("7")
    assert [p.text for p in posts] == [f"сообщение {i}" for i in range(25)]
    first = vb.thread_posts(7)[3]
    vb.clock_.now += 600
    vb.edit_post(first.id, "сообщение 3 (исправлено)")
    vb.add_post(7, "Маша", "новое")
    again, _ = a.fetch_posts("7", cursor)
    assert "новое" in [p.text for p in again]
    if vb.version == "4.2":  # 3.8's printthread has no ids: showthread (20 a page) then holds the edited post
        return
    edited = [p for p in a.reread_from("7", str(first.id)) if p.id == str(first.id)]
    assert edited and edited[0].text == "сообщение 3 (исправлено)" and edited[0].edited_at is not None


def test_reply_then_a_flood_is_retried_with_the_boards_wait(vb):
    a = adapter(vb)
    pid = a.reply("7", "Итоги дня")
    assert vb.posts[-1].text == "Итоги дня" and pid == str(vb.posts[-1].id)
    vb.clock_.now += 10
    with pytest.raises(FloodLimited, match="wait 30 seconds between posts") as e:
        a.with_login(lambda: a._reply("7", "Второе"))  # the answer itself: the board's words and wait
    assert e.value.retry_after == 21.0 and vb.posts[-1].text == "Итоги дня"
    a.reply("7", "Второе")  # as the bot sends it: the refusal waited out, then sent once
    assert [p.text for p in vb.posts_by(BOT)] == ["Итоги дня", "Второе"] and 21.0 in vb.clock_.slept


def test_a_moderated_reply_is_queued_not_refused(vb):
    vb.moderated.add(BOT)
    with pytest.raises(PostQueued):
        adapter(vb).reply("7", "На проверке")


def test_an_expired_security_token_is_transient(vb):
    a = adapter(vb)
    a.login()
    page = a.get(a.url("reply", topic="7"))
    vb.clock_.now += 4 * 3600
    with pytest.raises(FormTransient, match="the token has expired"):  # security_token_timeout's words
        a.forms.raise_for_errors(a.forms.submit(page, "reply", {"message": "поздно"}, action="post"))


def test_a_pm_to_several_names_goes_out_split_on_semicolons_and_is_read_back(vb):
    a = adapter(vb)
    a.send_pm("Маша, Кот Баюн", "Роль", "Вы мафия")
    (pm,) = vb.pms_from(BOT)
    assert pm.to == ["Маша", "Кот Баюн"] and pm.text == "Вы мафия"
    assert a.find_own_pm("Маша, Кот Баюн", "мафия") == str(pm.id)
    vb.add_pm("Маша", [BOT], "Ход", "убить Кот Баюн")
    pms, cursor = a.fetch_pms()
    assert [(p.author, p.text) for p in pms] == [("Маша", "убить Кот Баюн")]
    assert a.fetch_pms(cursor)[0] == []


def test_unknown_recipient_full_quota_and_pm_flood_are_named(vb):
    a = adapter(vb)
    with pytest.raises(FormRejected, match="were not found: Никто") as e:
        a.send_pm("Никто", "Роль", "текст")
    assert not isinstance(e.value, FormTransient)
    for i in range(vb.pm_quota):
        vb.add_pm("Кот Баюн", ["Маша"], "спам", str(i))
    with pytest.raises(FormRejected, match="Маша has exceeded their private message quota"):
        a.send_pm("Маша", "Роль", "текст")
    a.send_pm("Дядя Фёдор", "Роль", "текст")
    with pytest.raises(FloodLimited, match="between sending private messages") as e:
        a.with_login(lambda: a._send_pm("Дядя Фёдор", "Роль", "ещё"))
    assert e.value.retry_after == 61.0
    a.send_pm("Дядя Фёдор", "Роль", "ещё")  # waited out (61 s on the board's clock), then sent
    assert [m.text for m in vb.pms_from(BOT)] == ["текст", "ещё"]


def test_r13_the_bot_closes_and_opens_a_thread_as_a_moderator(vb):
    """R-13 (unverified: §12 is silent, the emulator follows vB's postings.php `openclosethread`, which toggles):
    an ordinary member has no thread tools and is refused; a moderator closes and opens, once each, and a player
    cannot reply in the closed thread meanwhile."""
    bot = adapter(vb)
    bot.login()
    assert bot.may_lock("7") is False
    with pytest.raises(FormRejected, match="canopenclose"):
        bot.lock_thread("7", True)
    vb.moderators.add(BOT)
    assert bot.may_lock("7") is True
    bot.lock_thread("7", True)
    assert vb.closed == {7}
    bot.lock_thread("7", True)  # already closed: a second toggle would open it
    assert vb.closed == {7}
    bot.reply("7", "итоги дня")  # a moderator still posts in a closed thread
    bot.lock_thread("7", False)
    bot.lock_thread("7", False)
    assert vb.closed == set() and vb.moderators == {BOT}


# --- issue 28 item 3, the vBulletin bullet ---------------------------------------------------------------------------


def test_issue28_a_bad_token_is_a_standard_error_page_in_vbs_phrase_and_the_adapter_sends_again(vb):
    """vB 3.8's global.php and vB 4's check_state() answer CSRF_ERROR with standard_error() before any form is
    built: no construct_errors list, no form. The phrase security_token_timeout ("the token has expired") read as a
    token to renew: the reply goes out on the next try, once."""
    import requests

    a = adapter(vb)
    a.login()
    page = a.get(a.url("reply", topic="7"))
    vb.clock_.now += 3 * 3600 + 1
    answer = a.forms.submit(page, "reply", {"message": "поздно"}, action="post")
    assert "the token has expired" in answer.text and 'name="vbform"' not in answer.text
    assert "errorblock" not in answer.text and "<ol>" not in answer.text
    stale = requests.post(vb.base + "newreply.php?do=postreply&t=7", cookies=dict(a.transport.session.cookies),
                          data={"message": "т", "securitytoken": "1-abc", "do": "postreply"})
    assert "a security token was invalid" in stale.content.decode(vb.charset)
    assert a.reply("7", "поздно, но дошло")
    assert [p.text for p in vb.posts_by(BOT)] == ["поздно, но дошло"]


@pytest.mark.parametrize("friendly,address", [("rewrite", "threads/7-{slug}"), ("basic", "showthread.php?7-{slug}"),
                                              ("advanced", "showthread.php/7-{slug}")])
def test_issue28_vb4_friendly_thread_addresses_are_threads_and_read_page_by_page(friendly, address):
    """vB 4's friendlyurl: basic `showthread.php?31-slug`, advanced `showthread.php/31-slug`, rewrite
    `threads/31-slug` (class_friendly_url.php); each board links its own and redirects the others to it."""
    from vbulletin import slug

    clock = Clock()
    board = VBulletin(BOT, PASSWORD, version="4.2", friendly=friendly, clock=clock, per_page=10)
    board.clock_ = clock
    board.thread(7, "Мафия: день 1")
    for i in range(25):
        board.add_post(7, f"Игрок{i % 4}", f"сообщение {i}")
    with board:
        url = board.base + address.format(slug=slug(board.threads[7]))
        a = adapter(board, printthread=False)
        assert a.topic_id(url) == "7"
        posts, _ = a.fetch_posts(url)
        assert [p.text for p in posts] == [f"сообщение {i}" for i in range(25)]
        served = [path for method, path in board.requests if method == "GET" and "page3" in path]
        assert served and all(path.startswith(address.split("7-")[0]) for path in served)


def test_issue28_five_failed_logins_lock_every_login_for_15_minutes_and_the_adapter_waits(vb):
    """verify_strike_status(): 5 strikes from one address within 15 minutes refuse every login, the right password
    too, and each try while locked strikes again; the adapter names the lock and does not try again for 15 minutes
    with the same password."""
    for n in range(5):
        with pytest.raises(LoginRequired, match="invalid username or password"):
            adapter(vb, f"не тот {n}").login()
    bot = adapter(vb)
    with pytest.raises(LoginRequired, match="locked logins after 5 failed attempts: «You have used up your failed"):
        bot.login()
    with pytest.raises(LoginRequired, match="not trying again"):
        bot.login()
    tries = len([r for r in vb.requests if r[0] == "POST" and r[1].startswith("login.php")])
    vb.clock_.now += 14 * 60
    with pytest.raises(LoginRequired, match="failed login quota"):
        adapter(vb).login()  # a new process: still locked (the try while locked struck again)
    vb.clock_.now += 15 * 60 + 1
    fresh = adapter(vb)
    fresh.login()
    assert any(v == BOT for v in vb.sessions.values())
    assert len([r for r in vb.requests if r[0] == "POST" and r[1].startswith("login.php")]) == tries + 2


def test_issue28_the_next_tick_does_not_strike_again_while_the_lock_lasts(vb):
    """Each cron tick is a new process: the hold travels in the session the daemon stores (export_cookies /
    import_cookies), so the next tick neither posts the refused password again, which would strike and keep the
    lock alive for ever at one tick a minute, nor stays away once the lock is over."""
    for n in range(5):
        with pytest.raises(LoginRequired):
            adapter(vb, "не тот").login()
    first = adapter(vb, "не тот")
    with pytest.raises(LoginRequired, match="locked logins"):
        first.login()
    stored = first.export_cookies()
    posts = lambda: len([r for r in vb.requests if r[0] == "POST" and r[1].startswith("login.php")])  # noqa: E731
    tried = posts()
    for minutes in (1, 2, 14):  # ticks 1, 2 and 14 minutes after the lock's last strike
        vb.clock_.now += {1: 60, 2: 60, 14: 12 * 60}[minutes]
        tick = adapter(vb, "не тот")
        tick.import_cookies(stored)
        with pytest.raises(LoginRequired, match="not trying again"):
            tick.login()
    assert posts() == tried  # the lock's last strike stays the one 15 minutes ago
    vb.clock_.now += 60 + 1  # the lock is over (verify_strike_status: the last strike 900 s ago)
    fixed = adapter(vb)  # the GM fixed password_env meanwhile
    fixed.import_cookies(stored)
    fixed.login()
    assert posts() == tried + 1 and any(v == BOT for v in vb.sessions.values())


def test_issue28_item4_no_permission_to_send_pms_is_refused_in_vbs_words(vb):
    """private.php: a group whose pmquota is 0 meets print_no_permission() (nopermission_loggedin) on newpm and
    insertpm; the adapter names it in the board's words and what to change, and sends nothing."""
    vb.no_pms.add(BOT)
    with pytest.raises(FormRejected, match=r"not let the bot send private messages: «GM_Bot, you do not have "
                                           r"permission to access this page.*quota above 0"):
        adapter(vb).send_pm("Маша", "Роль", "текст")
    assert vb.pms_from(BOT) == []


def _sent_forms(board: VBulletin) -> list[dict[str, str]]:
    forms: list[dict[str, str]] = []
    board.after_request = lambda req, resp: forms.append(req.form) if req.method == "POST" else None
    return forms


def test_issue28_item4_vb38s_reply_form_is_verified_through_its_own_preview_and_nothing_is_posted():
    """vB 3.8.11's newreply.php with `preview` (hanson-tapatalk/dbdvb388): the full form (do=newreply) sent with its
    Preview Post button, never sbutton; the answer shows the message in newpost_preview's td.alt1; no post, and no
    flood timer (the preview skips the flood check), so a real reply right after goes out at once."""
    clock = Clock()
    board = VBulletin(BOT, PASSWORD, version="3.8", clock=clock)
    board.clock_ = clock
    board.thread(7, "Мафия: день 1")
    board.add_post(7, "Маша", "первое")
    with board:
        bot = adapter(board)
        bot.login()
        sent = _sent_forms(board)
        before = len(board.posts)
        flow = reply_flow(bot, "7")
        assert (flow.status, flow.said) == (VERIFIED, ru.T["handshake.reply_previewed"]), flow
        (form,) = sent
        assert form["message"] == ru.T["handshake.preview"] and "preview" in form and "sbutton" not in form
        assert "fromquickreply" not in form  # the full editor's form, not the quick reply's
        assert len(board.posts) == before
        bot.reply("7", "итоги дня")
        assert board.posts[-1].text == "итоги дня" and clock.slept == []


@pytest.mark.parametrize("version", VERSIONS)
def test_issue28_item4_a_closed_thread_fails_in_the_boards_words_and_nothing_is_sent(version):
    """newreply.php refuses a closed thread with standard_error(threadclosed) before any form (newreply.php 123-130):
    the flow is failing in the board's words, and the preview is never sent."""
    clock = Clock()
    board = VBulletin(BOT, PASSWORD, version=version, clock=clock)
    board.clock_ = clock
    board.thread(7, "Мафия: день 1")
    board.closed.add(7)
    with board:
        bot = adapter(board)
        bot.login()
        sent = _sent_forms(board)
        flow = reply_flow(bot, "7", "en")
        assert flow.status == FAILING and "Эта тема закрыта" in flow.said, flow
        assert sent == []


@pytest.mark.parametrize("vb", ["3.8"], indirect=True)
def test_issue28_item4_vb38s_preview_refuses_a_too_short_message_in_its_words(vb):
    """build_new_post runs pre_save for a preview: `tooshort` comes back in construct_errors' table (POSTERROR) in the
    preview's place, and nothing is posted."""
    before = len(vb.posts)
    with pytest.raises(FormRejected, match="too short"):
        adapter(vb).preview_reply("7", "a")
    assert len(vb.posts) == before


@pytest.mark.parametrize("vb", ["3.8"], indirect=True)
def test_issue28_item4_a_vb38_answer_without_the_preview_is_no_verification(vb, monkeypatch):
    """The form again with no preview table (a style without it, or quick reply's switch to the full editor): not
    taken as verified."""
    monkeypatch.setattr(vb, "preview_table", lambda message: "")
    with pytest.raises(PageFormatChanged, match="showed no preview"):
        adapter(vb).preview_reply("7", ru.T["handshake.preview"])


@pytest.mark.parametrize("language", ["ru", "en"])
def test_issue28_item4_vb42s_reply_stays_unverified_and_sends_nothing(language):
    """4.2's newpost_preview template is in no source read: the reply form is opened (a closed thread would be
    refused there), the preview never sent, and the flow says «не проверено»."""
    clock = Clock()
    board = VBulletin(BOT, PASSWORD, version="4.2", clock=clock)
    board.clock_ = clock
    board.thread(7, "Мафия: день 1")
    with board:
        bot = adapter(board)
        bot.login()
        sent = _sent_forms(board)
        flow = reply_flow(bot, "7", language)
        texts = ru.T if language == "ru" else en.T
        assert (flow.status, flow.said) == (UNVERIFIED, texts["handshake.reply_unverified"])
        assert sent == [] and board.posts == []


# --- vB 3.8's error templates, not its panels ------------------------------------------------------------------------


def _board_without_quick_reply() -> VBulletin:
    clock = Clock()
    board = VBulletin(BOT, PASSWORD, version="3.8", clock=clock, quick_reply=False)
    board.clock_ = clock
    board.thread(7, "Мафия: день 1")
    board.add_post(7, "Маша", "Мой список подозреваемых:\n[list=1]\n[*]Кот Баюн\n[*]Дядя Фёдор\n[/list]")
    for name in ("Маша", "Кот Баюн", "Дядя Фёдор"):
        board.add_user(name)
    return board


def test_vb38_a_full_form_reply_refused_is_read_in_the_boards_words_only():
    """With the option quickreply off the bot replies through newreply.php's full form (3.8.11's newreply template:
    the form's words in td.panelsurround div.panel > div, the thread review's posts in td.alt1 cells below it). A
    flood refusal comes back as that form again under construct_errors' list: the refusal is that list's words,
    never the form's labels, the bot's own text in the textarea, or a player's numbered list in the review."""
    board = _board_without_quick_reply()
    with board:
        a = adapter(board)
        assert a.reply("7", "Итоги дня") == str(board.posts[-1].id)
        board.clock_.now += 10
        with pytest.raises(FloodLimited) as e:
            a.with_login(lambda: a._reply("7", "Второе сообщение бота"))
        assert str(e.value) == "vbulletin: flood limit: " + FLOOD_POST.format(30, 21)
        assert e.value.retry_after == 21.0 and [p.text for p in board.posts_by(BOT)] == ["Итоги дня"]


def test_vb38_a_refused_pm_is_read_in_the_boards_words_only():
    """3.8.11's pm_newpm puts construct_errors' list inside form vbform, above the panel holding the form's own
    words (the recipients typed, the title, the message): the refusal read is the list's words alone."""
    board = _board_without_quick_reply()
    with board:
        with pytest.raises(FormRejected) as e:
            adapter(board).send_pm("Никто", "Роль", "Вы мирный житель")
        assert str(e.value) == f"vbulletin: {NOT_FOUND} Никто" and board.pms_from(BOT) == []
