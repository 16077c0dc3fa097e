"""The SMF adapter against a real SMF 2.1.4 board (`<boards>/smf.sh build`, stock English, MariaDB) on 127.0.0.1:
login, the seeded 32-post thread read across its pages, a reply, and a PM round trip with the GM (issue 9 item 1);
the look-up of a game's accounts in the member list (issue 28 item 4).

The board is built fresh for the session in a temporary folder and stopped at the end. It skips with the reason
where it cannot run (no board scripts, no PHP or MariaDB, a failed build); with FORUMBOT_REQUIRE_LIVE=1 it fails
instead. The boards' folder is FORUMBOT_BOARDS, else `../shared/boards` next to the checkout. Ports: 21140 / 21141,
plus FORUMBOT_BOARD_PORT_OFFSET (the whole-game SMF board has the stock 18140)."""

from __future__ import annotations

import json

import pytest

from adapters.smf.forum import SmfForum
from forumbot.cli.main import main
from boards import own_board

pytestmark = pytest.mark.live

SHIFT = 3000  # ports 21140/21141 (+ FORUMBOT_BOARD_PORT_OFFSET): the whole-game SMF board has the stock 18140


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    with own_board("smf", tmp_path_factory.mktemp("smf-board"), {}, SHIFT) as built:
        yield built.env


def _forum(env: dict[str, str], name: str) -> SmfForum:
    return SmfForum(env["BASE_URL"], name, env["PASSWORD"], timezone_name="Europe/Moscow")


def test_login_read_reply_and_pm_round_trip(board):
    env = board
    bot = _forum(env, env["BOT_NAME"])
    bot.login()
    assert any(c.name == env["COOKIE"] for c in bot.transport.session.cookies)

    # the seeded thread: 32 posts over 3 pages of 15, read page by page
    before = bot.transport.requests_made
    posts, cursor = bot.fetch_posts(env["GAME_TOPIC"])
    assert len(posts) == 32 and posts[0].id == env["FIRST_MSG"]
    assert bot.transport.requests_made - before == 3
    before = bot.transport.requests_made
    assert bot.fetch_posts(env["GAME_TOPIC"], cursor)[1] == cursor
    assert bot.transport.requests_made - before == 1  # idle: the last page only
    assert len({p.author for p in posts}) >= 4 and all(p.posted_at.tzinfo for p in posts)
    edited = {p.id: p for p in posts if p.edited_at}
    assert {env["EDIT_AUTHOR_REASON_MSG"], env["EDIT_AUTHOR_NOREASON_MSG"], env["EDIT_MOD_MSG"]} <= set(edited)
    assert not any("Last Edit" in p.text for p in posts)  # the notice is no part of a post's text

    # reply: the id comes from the topic=T.new page SMF redirects to
    # a nickname-like text with BBCode, a URL, a smiley and an @name, escaped: shown exactly as written
    nasty = "[b]Кот[/b] [url=http://e.x]l[/url] www.e.x @alice :) [/nobbc] &#91;"
    rid = bot.reply(env["GAME_TOPIC"], "Живой тест адаптера SMF: " + bot.escape(nasty) + " [#live-smf-1]")
    new, _ = bot.fetch_posts(env["GAME_TOPIC"], cursor)
    mine = [p for p in new if p.id == str(rid)]
    assert mine and mine[0].author == env["BOT_NAME"]
    assert mine[0].text == "Живой тест адаптера SMF: " + nasty + " [#live-smf-1]"
    assert "<a" not in mine[0].html and "<img" not in mine[0].html and "<b>" not in mine[0].html
    assert bot.find_own_post(env["GAME_TOPIC"], "[#live-smf-1]") == str(rid)

    # PM round trip: the bot to the GM, the GM back; both sides read from their inboxes
    bot.send_pm(env["GM_NAME"], "Роль", "Вы — мирный житель. [#live-smf-pm]")
    assert bot.find_own_pm(env["GM_NAME"], "[#live-smf-pm]") is not None
    gm = _forum(env, env["GM_NAME"])
    gm.login()  # within 2 s of the bot's login from this IP, SMF answers "wait": the adapter waits it out
    got, _ = gm.fetch_pms()
    to_gm = [p for p in got if "[#live-smf-pm]" in p.text]
    assert len(to_gm) == 1 and to_gm[0].author == env["BOT_NAME"]
    gm.send_pm(env["BOT_NAME"], "Re: Роль", "голос: alice [#live-smf-back]")

    pms, pm_cursor = bot.fetch_pms()
    back = [p for p in pms if "[#live-smf-back]" in p.text]
    assert len(back) == 1 and back[0].author == env["GM_NAME"] and back[0].text == "голос: alice [#live-smf-back]"
    # handed back once: the next read has nothing new and deletes what was acknowledged
    before = bot.transport.requests_made
    again, pm_cursor2 = bot.fetch_pms(pm_cursor)
    assert again == [] and bot.transport.requests_made - before == 2  # the inbox, and the delete
    inbox = bot.read_page(bot.url("inbox"))
    left = {pid for pid, _, _ in bot._rows(inbox.tree())}
    assert not left & set(json.loads(pm_cursor)["del"])
    before = bot.transport.requests_made
    assert bot.fetch_pms(pm_cursor2)[0] == [] and bot.transport.requests_made - before == 1  # idle: the inbox


def test_issue28_item4_check_config_online_looks_the_accounts_up(board, tmp_path, capsys, monkeypatch):
    """`check-config --online` said «не проверено: форум не показал боту, есть ли учётные записи …» on SMF: the
    adapter had no look-up. It searches the member list by name (C-3: case-folded): each seeded account is found,
    in another case too; a typo, a name only part of another's ("Кот" of Кот Баюн) and a name held in two others
    ("a": admin, alice) are named to the GM, and nothing else is."""
    env = board
    bot = _forum(env, env["BOT_NAME"])
    for name in (env["GM_NAME"], env["BOT_NAME"], "alice", "bob", "Маша", "Кот Баюн", "КОТ БАЮН"):
        assert bot.account_exists(name) is True, name
    for name in ("Машка", "Кот", "a", "gm_bot2"):
        assert bot.account_exists(name) is False, name

    players = ["alice", "bob", "Маша", "КОТ БАЮН", "admin", "gm_bot2", "Машка", "Боб", "Кот", "a"]  # 10: M-1
    listed = ", ".join(f'"{p}"' for p in players)
    config = tmp_path / "forumbot.toml"
    config.write_text(f'''
[forums.main]
engine = "smf"
base_url = "{env['BASE_URL']}"
login = "{env['BOT_NAME']}"
password_env = "SMF_LOOKUP_PASSWORD"
timezone_name = "Europe/Moscow"

[games.g]
forum = "main"
variant = "moscow"
game_thread = "{env['BASE_URL']}index.php?topic={env['GAME_TOPIC']}.0"
vote_thread = "{env['BASE_URL']}index.php?topic={env['VOTE_TOPIC']}.0"
gms = ["{env['GM_NAME']}"]
start = 2026-12-10T10:00:00+03:00
players = [{listed}]
''', encoding="utf-8")
    monkeypatch.setenv("SMF_LOOKUP_PASSWORD", env["PASSWORD"])
    assert main(["check-config", "--online", "-c", str(config)]) != 0  # names to fix
    out, err = capsys.readouterr()
    missing = [line.split("«")[1].split("»")[0] for line in err.splitlines() if "нет учётной записи" in line]
    assert missing == ["gm_bot2", "Машка", "Боб", "Кот", "a"], err
    assert "не проверено: games.g" not in out + err
