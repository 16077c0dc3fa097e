"""vBulletin and Invision flows over `responses` (the fake boards of tests/daemon/closed_boards.py): login,
reading, replies, PMs, and the errors each flow can meet (issue 10 items 2-4). Flows no real page shows are
the profiles' `unverified` ones; these tests pin what the adapters do with the documented markup."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
import responses

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from closed_boards import IpsBoard, VbBoard  # noqa: E402

from adapters.invision.forum import InvisionForum  # noqa: E402
from adapters.invision.profile import INVISION  # noqa: E402
from adapters.vbulletin.profile import VBULLETIN  # noqa: E402
from adapters.vbulletin.forum import VbulletinForum, md5_password  # noqa: E402
from forumbot.errors import FloodLimited, FormRejected, LoginRequired  # noqa: E402

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
BOT, PASSWORD = "Бот", "пароль"


@pytest.fixture
def http():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield mock


def board(cls, http, posts: int = 30):
    b = cls(BOT, PASSWORD, lambda: NOW)
    b.thread(101, "101")
    for i in range(posts):
        b.add_post("101", f"Игрок{i % 5}", f"сообщение {i}", NOW - timedelta(minutes=90 - i))
    b.install(http)
    return b


def vb(b: VbBoard, **kw) -> VbulletinForum:
    return VbulletinForum(b.base, BOT, PASSWORD, timezone_name="Europe/Moscow", intervals={"post": 0, "pm": 0}, **kw)


def ips(b: IpsBoard) -> InvisionForum:
    return InvisionForum(b.base, BOT, PASSWORD, intervals={"post": 0, "pm": 0})


def posts_of(http, path: str, charset: str = "cp1251") -> list[dict]:
    out = []
    for c in http.calls:
        if c.request.method == "POST" and path in c.request.url:
            body = c.request.body if isinstance(c.request.body, str) else c.request.body.decode("ascii")
            out.append(dict(parse_qsl(body, keep_blank_values=True, encoding=charset)))
    return out


# --- vBulletin ------------------------------------------------------------------------------------------------


def test_vb_login_sends_md5_and_no_plain_password(http):
    b = board(VbBoard, http)
    a = vb(b)
    a.login()
    (form,) = posts_of(http, "login.php")
    md5, md5_utf = md5_password(PASSWORD)
    assert form["vb_login_md5password"] == md5 and form["vb_login_md5password_utf"] == md5_utf
    assert form["vb_login_password"] == "" and form["securitytoken"] == "guest" and form["cookieuser"] == "1"
    assert PASSWORD not in str(http.calls[1].request.body)


def test_vb_wrong_password_is_login_refused(http):
    b = board(VbBoard, http)
    b.password = "другой"
    with pytest.raises(LoginRequired, match="неправильное имя или пароль"):
        vb(b).login()


def test_vb_reads_printthread_200_a_page_in_cp1251(http):
    b = board(VbBoard, http, posts=230)
    a = vb(b)
    a.login()
    posts, cursor = a.fetch_posts("https://vb.test/forum/showthread.php?t=101")
    assert len(posts) == 230 and posts[0].author == "Игрок0" and posts[-1].id == "5230"
    assert posts[0].posted_at == NOW - timedelta(minutes=90)  # d.m.Y in Moscow, read in the bot's zone
    reads = [p for m, p in b.requests if m == "GET" and "thread.php" in p]
    assert reads == ["printthread.php?t=101&pp=200", "printthread.php?t=101&pp=200&page=2"]
    b.add_post("101", "Маф1", "голосую М1", NOW)
    new, _ = a.fetch_posts("101", cursor)
    assert [p.text for p in new if p.id == "5231"] == ["голосую М1"]
    assert b.requests[-1] == ("GET", "printthread.php?t=101&pp=200&page=2")  # only the last page again


def test_vb_falls_back_to_showthread_when_printthread_is_refused(http):
    b = board(VbBoard, http, posts=45)
    b.printable = False
    a = vb(b)
    a.login()
    posts, cursor = a.fetch_posts("101")
    assert len(posts) == 45
    gets = [p for m, p in b.requests if m == "GET" and "thread.php" in p]
    assert gets == ["printthread.php?t=101&pp=200", "showthread.php?t=101", "showthread.php?t=101&page=2",
                    "showthread.php?t=101&page=3"]
    a.fetch_posts("101", cursor)
    assert b.requests[-1] == ("GET", "showthread.php?t=101&page=3")  # printthread not tried again
    assert "printthread" not in b.requests[-2][1]


def test_vb_edit_notice_and_signature_on_showthread(http):
    b = board(VbBoard, http, posts=3)
    b.printable = False
    b.posts[101][1].edited_at = NOW - timedelta(minutes=5)
    b.signatures["Игрок0"] = "голосую Маф2"
    posts, _ = vb(b).fetch_posts("101")  # a public thread: read as a guest
    assert posts[1].edited_at == (NOW - timedelta(minutes=5)).replace(second=0) and posts[1].edit_count == 1
    assert posts[0].text == "сообщение 0" and "Маф2" not in posts[0].text


def test_vb_quick_reply_with_security_token(http):
    b = board(VbBoard, http)
    a = vb(b)
    a.login()
    pid = a.reply("101", "Итоги: [b]Маф1[/b] 😀")
    assert pid == "5031" and b.posts[101][-1].author == BOT
    (form,) = posts_of(http, "newreply.php")
    assert form["securitytoken"] == b.token and form["do"] == "postreply" and form["t"] == "101"
    assert form["message"] == "Итоги: [b]Маф1[/b] &#128512;"  # cp1251 lacks the emoji
    assert a.find_own_post("101", "Итоги") == "5031"


def test_vb_flood_refusal_is_flood_limited_with_its_seconds(http):
    b = board(VbBoard, http)
    a = vb(b)
    a.login()
    a.transport.max_wait = 0
    b.refuse_next = ["Этот форум требует подождать 30 секунд между сообщениями. Попробуйте снова через 12 секунд."] * 2
    with pytest.raises(FloodLimited) as e:
        a.reply("101", "текст")
    assert e.value.retry_after == pytest.approx(12, abs=1)
    assert [p.author for p in b.posts[101]].count(BOT) == 0


def test_vb_expired_token_is_form_rejected(http):
    b = board(VbBoard, http)
    a = vb(b)
    a.login()
    b.token = "1796119200-other"
    page = a.get("showthread.php?t=101&goto=lastpost")
    b.token = "1796119300-newer"
    with pytest.raises(FormRejected, match="маркер безопасности"):
        a.forms.raise_for_errors(a.forms.submit(page, "reply", {"message": "x"}, action="post"))


def test_vb_session_expired_logs_in_again(http):
    b = board(VbBoard, http)
    a = vb(b)
    a.login()
    a.transport.session.cookies.clear()
    assert a.reply("101", "снова") == "5031"
    # the last page came as a guest's (no quick reply, no logout link): log in once more, then post once
    assert [p for m, p in b.requests if m == "POST"] == ["login.php?do=login", "login.php?do=login",
                                                         "newreply.php?do=postreply&t=101"]


def test_vb_pms_read_once_sent_with_semicolons_and_found_after_a_crash(http):
    b = board(VbBoard, http)
    b.add_pm("Шериф", "проверка Дон", NOW - timedelta(minutes=3))
    a = vb(b)
    a.login()
    pms, cur = a.fetch_pms()
    assert [(p.author, p.text, p.subject) for p in pms] == [("Шериф", "проверка Дон", "Ход")]
    assert pms[0].sent_at == NOW - timedelta(minutes=3)
    again, cur = a.fetch_pms(cur)
    assert again == [] and not any(m.author == "Шериф" for m in b.messages)  # read PMs deleted from the inbox
    assert a.send_pm("Дон, Маф1", "Роль", "Ваша роль: мафия #fb:r1") == ""
    (form,) = posts_of(http, "do=insertpm")
    assert form["recipients"] == "Дон;Маф1" and form["savecopy"] == "1" and form["securitytoken"] == b.token
    assert a.find_own_pm("Дон", "#fb:r1") == str(b.messages[-1].id)
    assert a.find_own_pm("Дон", "#fb:other") is None


def test_vb_pm_folder_needs_login(http):
    b = board(VbBoard, http)
    a = VbulletinForum(b.base, BOT, None, intervals={"post": 0, "pm": 0})
    with pytest.raises(LoginRequired):
        a.fetch_pms()


def test_profiles_name_what_is_unverified():
    """`forumbot probe` reports these: flows and selectors no real page showed (issue 10 item 4)."""
    for profile in (VBULLETIN, INVISION):
        assert "flows.login_answer" in profile.unverified and "urls.inbox" in profile.unverified
        names = {n.split(".", 1)[1] for n in profile.unverified if n.startswith("selectors.")}
        assert names <= set(profile.selectors)
    assert "selectors.post" not in VBULLETIN.unverified and "selectors.post" not in INVISION.unverified


# --- Invision -------------------------------------------------------------------------------------------------


def test_ips_login_with_csrf_key(http):
    b = board(IpsBoard, http)
    ips(b).login()
    (form,) = posts_of(http, "login/", "utf-8")
    assert form["csrfKey"] == b.csrf and form["auth"] == BOT and form["_processLogin"] == "usernamepassword"
    assert form["remember_me"] == "1"


def test_ips_wrong_password_is_login_refused(http):
    b = board(IpsBoard, http)
    b.password = "другой"
    with pytest.raises(LoginRequired, match="Неверный пароль"):
        ips(b).login()


def test_ips_reads_pages_by_path_with_exact_times(http):
    b = board(IpsBoard, http, posts=60)
    posts, cursor = ips(b).fetch_posts("https://ips.test/topic/101-igra/")
    assert len(posts) == 60 and posts[-1].posted_at == NOW - timedelta(minutes=31)
    assert posts[0].posted_latest is None  # exact (C-1)
    assert '"pp":25' in cursor


def test_ips_reply_as_html_and_found_again(http):
    b = board(IpsBoard, http)
    a = ips(b)
    a.login()
    assert a.reply("101", "Итоги <дня>\nМаф1") == "5031"
    (form,) = posts_of(http, "topic/", "utf-8")
    assert form["topic_comment_101"] == "<p>Итоги &lt;дня&gt;</p><p>Маф1</p>"
    assert form["commentform_101_submitted"] == "1" and form["csrfKey"] == b.csrf
    assert a.find_own_post("101", "Итоги") == "5031"


def test_ips_flood_and_bad_key(http):
    b = board(IpsBoard, http)
    a = ips(b)
    a.login()
    a.transport.max_wait = 0
    b.refuse_next = ["Вы должны подождать 25 секунд, прежде чем отправить ещё одно сообщение."] * 2
    with pytest.raises(FloodLimited) as e:
        a.reply("101", "текст")
    assert e.value.retry_after == pytest.approx(25, abs=1)
    assert [p.author for p in b.posts[101]].count(BOT) == 0
    a.transport.not_before.clear()  # the wait is over
    b.csrf = "changed"
    page = a.get("topic/101-t/")
    b.csrf = "changed-again"
    with pytest.raises(FormRejected):
        a.forms.raise_for_errors(a.forms.submit(page, "reply", {"topic_comment_101": "<p>x</p>"}, action="post"))


def test_ips_messenger_reads_new_messages_once_and_sends(http):
    b = board(IpsBoard, http)
    b.add_pm("Шериф", "проверка Дон", NOW - timedelta(minutes=3))
    a = ips(b)
    a.login()
    pms, cur = a.fetch_pms()
    assert [(p.author, p.text, p.subject, p.sent_at) for p in pms] == [
        ("Шериф", "проверка Дон", "Ход", NOW - timedelta(minutes=3))]
    reads = len(b.requests)
    again, cur = a.fetch_pms(cur)
    assert again == [] and len(b.requests) == reads + 1  # an idle inbox: the list only
    cid = a.send_pm("Дон", "Роль", "Ваша роль: Дон #fb:r2")
    assert cid == str(b.messages[-1].conversation)
    b.add_pm("Дон", "убить М2", NOW)  # Дон answers inside the bot's conversation
    pms, cur = a.fetch_pms(cur)
    assert [(p.author, p.text) for p in pms] == [("Дон", "убить М2")]  # the bot's own message is not an input
    assert a.find_own_pm("Дон", "#fb:r2") == cid and a.find_own_pm("Шериф", "#fb:r2") is None


def test_vb_printthread_is_kept_when_showthread_fails_too(http):
    """A page without posts on both scripts (a thread gone, a board hiccup) says nothing about printthread:
    it is tried again next time instead of being given up for good."""
    b = board(VbBoard, http, posts=0)
    a = vb(b)
    from forumbot.errors import PageFormatChanged
    with pytest.raises(PageFormatChanged):
        a.fetch_posts("101")
    b.add_post("101", "Ведущий", "Игровая тема", NOW)
    posts, _ = a.fetch_posts("101")
    assert [p.text for p in posts] == ["Игровая тема"]
    assert b.requests[-1] == ("GET", "printthread.php?t=101&pp=200")


def test_config_takes_the_new_engines_by_name(tmp_path):
    """engine = "vbulletin" / "invision" with their settings; vBulletin prints local times (zoned)."""
    from daemon_world import config_toml, game_toml

    from forumbot.config.types import engine_traits
    from forumbot.config.load import load_config
    for engine, extra in (("vbulletin", 'printthread = false\ntimezone_name = "Europe/Moscow"\n'), ("invision", "")):
        path = tmp_path / f"{engine}.toml"
        path.write_text(config_toml(game_toml("g1"), engine=engine,
                                    forum_extra=f'base_url = "https://{engine}.example/"\n{extra}'), encoding="utf-8")
        config = load_config(path)
        assert config.forums["main"].engine == engine
    assert config.forums["main"].extra == {}
    assert load_config(tmp_path / "vbulletin.toml").forums["main"].extra["printthread"] is False
    assert engine_traits("vbulletin").prints_local_times and not engine_traits("invision").prints_local_times
    bad = tmp_path / "bad.toml"
    bad.write_text(config_toml(game_toml("g1"), engine="invision",
                               forum_extra='base_url = "https://i.example/"\nprintthread = true\n'), encoding="utf-8")
    with pytest.raises(Exception, match="printthread"):
        load_config(bad)
