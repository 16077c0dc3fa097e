"""A message the forum refuses for good is set aside and reported, and the game's delivery goes on; a GM
`замена` by an account the forum does not have is refused (issue 7 item 2)."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import BOT, CAST, GM, STEPS, World, play
from sqlalchemy import select

from forumbot.exit_codes import EXIT_OK
from forumbot.cycle.daemon import exit_code
from forumbot.errors import ForumUnavailable
from forumbot.games.status import game_status
from forumbot.store.models import OutboxRow
from forumbot.store.game import fold_game

DAY1 = STEPS[2][0]
ACCOUNTS = {n for n, _ in CAST} | {GM, "Новичок"}


def statuses(w: World) -> dict[str, str]:
    with w.daemon.sessions.begin() as s:
        return {r.key: r.status for r in s.scalars(select(OutboxRow))}


def test_a_refused_pm_is_set_aside_the_gm_told_and_the_rest_delivered_issue7_item2(tmp_path):
    w = World(tmp_path)
    w.forum.accounts = ACCOUNTS - {"М6"}  # М6's account was deleted after the sign-up
    w.start()
    w.now += timedelta(minutes=1)
    report = w.tick()
    assert exit_code(report) == EXIT_OK and report.games[0].delivery.refused == ["setup/role/М6"]
    assert statuses(w)["setup/role/М6"] == "refused"
    assert {to for to, _, _ in w.bot_pms()} == ACCOUNTS - {"М6", "Новичок"}  # nine role PMs and the notice
    (notice,) = [t for to, t, _ in w.bot_pms() if to == GM]
    assert "ЛС для М6" in notice and "setup/role/М6" in notice and "no such user: М6" in notice
    assert len(w.bot_posts("g1/game")) == 1  # the player list
    status = game_status(w.daemon.sessions, w.config, "g1")
    assert "форум отказал, не отправлено: setup/role/М6 (ЛС игроку М6): FormRejected: memory: no such user: М6" in status
    w.now = DAY1 - timedelta(hours=14)
    w.tick()  # the confirmation reminder is due 12 h before Day 1: a tick then sends it (C-14: never late)
    w.now = DAY1
    w.tick()
    assert len(w.bot_posts("g1/game")) == 2  # Day 1 opened: later messages are not held up
    to_gm = [t for to, t, _ in w.bot_pms() if to == GM]
    assert len(to_gm) == 3  # the notices of the role PM and of the confirmation reminder, the unconfirmed list
    assert any("setup/confirm-reminder/М6" in t for t in to_gm)
    w.close()


def test_an_outage_still_stops_delivery_issue7_item2(tmp_path):
    w = World(tmp_path)
    w.start()
    w.now += timedelta(minutes=1)
    reply = w.forum.reply

    def down_once(topic, text):
        w.forum.reply = reply
        raise ForumUnavailable("connection reset")

    w.forum.reply = down_once
    w.tick()
    assert w.state() == ([], []) and "refused" not in statuses(w).values()
    w.tick()
    assert len(w.bot_pms()) == len(CAST) and "refused" not in statuses(w).values()
    w.close()


def test_replace_by_an_account_the_forum_lacks_is_refused_issue7_item2(tmp_path):
    """C-9: the GM is answered "not done", the seat stays, and the later output keeps flowing."""
    w = World(tmp_path)
    w.forum.accounts = set(ACCOUNTS)
    play(w, upto=2)
    w.now += timedelta(minutes=10)
    w.pm(GM, "замена М6 nobody")
    w.tick()
    (answer,) = [t for to, t, at in w.bot_pms() if to == GM and at == w.now]
    assert answer.startswith("Команда не выполнена: на форуме нет такого аккаунта")
    assert "nobody" not in {to for to, _, _ in w.bot_pms()}
    assert "refused" not in statuses(w).values()
    w.forum.accounts.add("nobody")  # registered later: the command already folded stays refused
    w.now += timedelta(minutes=10)
    w.pm(GM, "замена М5 Новичок")
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    nicks = [p.nick for p in run.result.players]
    assert "М6" in nicks and "nobody" not in nicks and "Новичок" in nicks and "М5" not in nicks
    done = [t for to, t, at in w.bot_pms() if to == GM and at == w.now]
    assert len(done) == 1 and done[0].startswith("Выполнено")
    # the role PM, and the replaced account told it is out (issue 28)
    assert [to for to, _, at in w.bot_pms() if at == w.now and to != GM] == ["Новичок", "М5"]
    w.close()


def test_replace_where_the_adapter_cannot_tell_goes_ahead(tmp_path):
    w = World(tmp_path)  # the memory forum without an account list cannot tell
    play(w, upto=2)
    w.now += timedelta(minutes=10)
    w.pm(GM, "замена М6 Новичок")
    w.tick()
    assert [t for to, t, at in w.bot_pms() if to == GM and at == w.now][0].startswith("Выполнено")
    assert "account_exists Новичок" in w.forum.calls
    w.close()


def test_a_refused_notice_is_not_noticed_again(tmp_path):
    w = World(tmp_path)
    w.forum.accounts = ACCOUNTS - {"М6", GM}  # the GM's account is gone too
    w.start()
    w.now += timedelta(minutes=1)
    report = w.tick()
    assert report.games[0].delivery.refused == ["setup/role/М6", f"refused/setup/role/М6/{GM}"]
    assert BOT not in {to for to, _, _ in w.bot_pms()}
    w.close()


def test_a_refused_shadow_digest_is_one_notice_to_the_other_gm_issue7_item2(tmp_path):
    from daemon_world import game_toml

    w = World(tmp_path, games=game_toml("g1", mode="shadow", gms=(GM, "Второй")))
    w.forum.accounts = ACCOUNTS - {GM} | {"Второй"}  # the shadow recipient's account is gone
    w.start()
    w.now += timedelta(minutes=1)
    report = w.tick()
    assert exit_code(report) == EXIT_OK and set(statuses(w).values()) == {"refused", "sent"}
    # one notice per refused digest PM, not per row: the 11 rows fill two digests (SHADOW_PM_LIMIT) since the
    # opening post says how to vote (issue 17 item 6)
    notices = [t for to, t, _ in w.bot_pms() if to == "Второй"]
    assert 1 <= len(notices) <= 2 and all(n.count("\n— ") > 1 for n in notices)
    notice = "\n".join(notices)
    assert notice.count("\n— ") == 11 and "setup/players" in notice and "ЛС для М6 (setup/role/М6)" in notice
    assert {to for to, _, _ in w.bot_pms()} == {"Второй"}  # shadow mode: nothing reached the players
    w.close()
