"""Issue 18 item 4: XenForo through its REST API (`api_key_env`): every flow against the emulator's /api/ (built
from xenforo.com/docs/dev/rest-api as ENGINES.md §12 lists it), a key of the wrong account refused, and
`check-config --online` naming a scope the key lacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from xfsupport import BOT, START, make_board

from adapters.xenforo.api import SCOPES, XenforoApiForum
from forumbot.cli.main import main
from forumbot.config.load import load_config
from forumbot.errors import ConfigError, FormRejected, LoginRequired, PostGone, PostQueued
from xfemu import Emulator

KEY = "bot-user-key-0123456789"


@pytest.fixture
def api(clock):
    board = make_board(clock, "2.3", friendly=False)  # the API answers at <board>/api/ whatever the URL style
    board.api_keys[KEY] = (BOT, frozenset(SCOPES))
    with Emulator(board) as xf:
        yield xf


def bot(xf, clock, key: str = KEY) -> XenforoApiForum:
    return XenforoApiForum(xf.base_url, BOT, key, clock=clock, sleep=clock.sleep)


def test_every_flow_goes_through_the_api_with_the_key_header(api, clock):
    forum = bot(api, clock)
    forum.login()
    thread = api.base_url + "threads/mafiya-1-igra.101/"
    pid = forum.reply(thread, "[b]Итоги[/b]\n\n#fb:0badf00d")
    posts, cursor = forum.fetch_posts(thread)
    assert [(p.author, p.text) for p in posts][-1] == (BOT, "[b]Итоги[/b]\n\n#fb:0badf00d")
    assert forum.find_own_post(thread, "#fb:0badf00d") == pid
    # role PMs at once: the API runs no flood check; the game's later PMs reply into the kept conversation
    first = forum.send_pm("Дон", "Мафия: g1", "роль Дон #fb:1")
    forum.send_pm("Шериф", "Мафия: g1", "роль Шериф #fb:2")
    assert forum.send_pm("Дон", "Мафия: g1", "Принято #fb:3") == first
    assert clock.slept == [] and clock.now == START
    api.board.add_message(int(first), "Дон", "[quote=МафБот]роль[/quote]убить Шериф")
    pms, pm_cursor = forum.fetch_pms()
    assert [(p.author, p.subject, p.text) for p in pms] == [("Дон", "Мафия: g1", "убить Шериф")]
    assert forum.fetch_pms(after=pm_cursor)[0] == []
    assert api.board.unread_count(BOT) == 0  # marked read on the board
    assert forum.find_own_pm("Дон", "#fb:3") == first
    assert all(route.startswith("api/") for _, route in api.board.requests)
    with pytest.raises(FormRejected, match="no such user"):
        forum.send_pm("Никто", "Мафия: g1", "текст")


def test_a_queued_reply_is_post_queued(api, clock):
    api.board.moderated_threads.add(101)
    with pytest.raises(PostQueued):
        bot(api, clock).reply("101", "текст")


def test_a_key_of_another_account_or_an_unknown_key_is_refused(api, clock):
    api.board.api_keys["gm-key"] = ("ГМ", frozenset(SCOPES))
    with pytest.raises(LoginRequired, match="not as"):
        bot(api, clock, "gm-key").login()
    with pytest.raises(LoginRequired, match="refused"):
        bot(api, clock, "no-such-key").login()


def api_config(api, tmp_path) -> Path:
    """A forumbot.toml with the forum in API mode and one game on its thread."""
    api.board.thread("Мафия 1: голосование", "mafiya-1-golosovanie", "ГМ", "Голосуем здесь.", at=START - 3600)
    for nick in ("Дон", "Шериф", "Маф1", "Кот Баюн", "А", "Б", "В", "ГМ"):  # their accounts are looked up
        api.board.member(nick)
    config = tmp_path / "forumbot.toml"
    config.write_text(f"""
[forums.xf]
engine = "xenforo"
base_url = "{api.base_url}"
login = "{BOT}"
api_key_env = "XF_API_KEY"

[games.g1]
forum = "xf"
variant = "moscow"
game_thread = "{api.base_url}threads/mafiya-1-igra.101/"
vote_thread = "{api.base_url}threads/mafiya-1-golosovanie.102/"
gms = ["ГМ"]
start = 2027-01-16T10:00:00+03:00
players = [{{ nick = "Дон", role = "don" }}, {{ nick = "Шериф", role = "sheriff" }}, {{ nick = "Маф1", role = "mafia" }},
    {{ nick = "Кот Баюн", role = "civilian" }}, {{ nick = "А", role = "civilian" }}, {{ nick = "Б", role = "civilian" }},
    {{ nick = "В", role = "civilian" }}]
options = {{ cast = {{ mafia = 1, don = 1, sheriff = 1 }} }}
""", encoding="utf-8")
    return config


def test_check_config_online_names_the_scope_the_key_lacks(api, clock, tmp_path, monkeypatch):
    from forumbot.cli.check import check_online
    api.board.api_keys[KEY] = (BOT, frozenset(SCOPES) - {"conversation:read"})
    monkeypatch.setenv("XF_API_KEY", KEY)
    config = api_config(api, tmp_path)
    wrong, unreachable, _ = check_online(load_config(config), {"XF_API_KEY": KEY})
    assert unreachable == []
    assert len(wrong) == 1 and "forums.xf" in wrong[0] and "conversation:read" in wrong[0], wrong


def test_the_daemon_builds_the_api_adapter_from_api_key_env(monkeypatch):
    from forumbot.config.types import ForumConfig
    from forumbot.cycle.daemon import build_adapter
    forum = ForumConfig(name="xf", engine="xenforo", login=BOT, base_url="https://xf.test/community/",
                        extra={"api_key_env": "XF_API_KEY"})
    monkeypatch.delenv("XF_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="XF_API_KEY"):
        build_adapter(forum, {})
    monkeypatch.setenv("XF_API_KEY", "secret-key-42")
    adapter = build_adapter(forum, {})
    assert isinstance(adapter, XenforoApiForum) and "secret-key-42" not in repr(adapter)
    assert adapter.transport.session.headers["XF-Api-Key"] == "secret-key-42"


@pytest.mark.parametrize("hard", [True, False])
def test_C11_issue26_item3_a_reread_from_a_deleted_post_is_post_gone(api, clock, hard):
    """The re-read starts at a post's position (GET posts/{id}/); a deleted post answers 404 (hard) or 403 (soft),
    which the re-read reads as that post gone, so it starts at the next one, not as a forum error."""
    forum = bot(api, clock)
    thread = api.base_url + "threads/mafiya-1-igra.101/"
    first, second = forum.reply(thread, "первый"), forum.reply(thread, "второй")
    api.board.delete_post(int(first), hard=hard)
    with pytest.raises(PostGone):
        forum.reread_from(thread, first)
    assert [p.id for p in forum.reread_from(thread, second)] == [second]


# --- forumbot probe in API mode (issue 28 item 7) -----------------------------------------------------------------


def test_issue28_item7_probe_reports_the_api_flows_verified_and_exits_0(api, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XF_API_KEY", KEY)
    config = api_config(api, tmp_path)
    api.board.start_conversation("Дон", [BOT], "Мафия 1", "подтверждаю")
    code = main(["probe", "-c", str(config)])
    out = capsys.readouterr().out
    assert code == 0, out
    # in the game's language, Russian (issue 28 item 4)
    assert "через API с ключом бота" in out and "(гость)" not in out
    assert "  вход по ключу API: работает" in out and "  чтение темы: работает" in out
    assert "  список переписок: работает" in out
    assert "входящие: строк 1, непрочитанных 1" in out
    assert "ГМ, 2027-01-15 10:00:00 Europe/Moscow: «Тема открыта.»" in out  # the thread's first page, read
    assert "проблем нет" in out
    assert api.board.unread_count(BOT) == 1  # the conversation was listed, not opened


def test_issue28_item7_probe_names_the_flow_that_fails_and_exits_2(api, tmp_path, monkeypatch, capsys):
    api.board.api_keys[KEY] = (BOT, frozenset(SCOPES) - {"conversation:read"})
    monkeypatch.setenv("XF_API_KEY", KEY)
    code = main(["probe", "-c", str(api_config(api, tmp_path)), "--json"])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 2
    assert report["flows"]["login"] == report["flows"]["thread"] == "verified"
    assert report["flows"]["inbox"].startswith("failing:") and "conversation:read" in report["flows"]["inbox"]
    assert "forumbot: inbox: " in captured.err
