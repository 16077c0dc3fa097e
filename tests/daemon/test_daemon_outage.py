"""issue 26 item 6: an outage across a whole phase must not autokill everyone (C-14, H-5, R-7).

Whole games through the daemon on the memory forum, on the test's clock: the bot is "down" while the clock moves
on and no tick runs. C-14: a phase that would have opened and ended while the bot was down, its opening never
posted, opens when the bot is back, with its whole length, and every later deadline moves by as much, said in
the opening post; interim counts and reminders of a phase already resolved are never sent late. The export
replays to the very messages sent."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from daemon_world import CAST, GM, STARTED, T0, Crash, World, game_toml
from sqlalchemy import select

import forumbot.cycle.tick as tick_module

from forumbot import replay
from forumbot.errors import FormTransient, ForumUnavailable
from forumbot.games.export import export_game
from forumbot.store.models import OutboxRow
from forumbot.texts import get_texts
from forumbot.store.game import fold_game

NINE = [("Шериф", "sheriff"), ("Дон", "don"), ("Маф1", "mafia")] + [(f"М{i}", "civilian") for i in range(1, 7)]
TEXTS = get_texts("ru", lambda s: s, "Europe/Moscow")
# 4-hour days, 2-hour nights, a no-show autokilled (H-5 through R-7), one mafia and the Don among nine
SHORT_DAYS = ('day_hours = 4\nnight_hours = 2\n[games.g1.options]\nno_show = "autokill"\n'
              'cast = { mafia = 1, don = 1, sheriff = 1 }\n')


def _world(tmp_path, players=NINE, extra: str = "") -> World:
    w = World(tmp_path, games=game_toml("g1", players) + extra)
    w.start()
    w.now = STARTED + timedelta(minutes=1)
    w.tick()
    w.now = STARTED + timedelta(hours=2)
    for nick, _ in players or CAST:
        w.pm(nick, "подтверждаю")
    w.tick()
    w.now = T0 + timedelta(minutes=1)
    w.tick()  # Day 1 opens
    return w


def _autokill_world(tmp_path) -> World:
    """9 players, `no_show = "autokill"`, 4-hour days and 2-hour nights: Day 1 and the opening of Night 1 go out
    as usual (everybody votes, Маф1 is hanged)."""
    w = _world(tmp_path, extra=SHORT_DAYS)
    w.now = T0 + timedelta(hours=2)
    for nick in ("Шериф", "М1", "М2", "М3", "М4", "М5", "М6"):
        w.post("vote", nick, "Маф1")
    for nick in ("Дон", "Маф1"):
        w.post("vote", nick, "М1")
    w.tick()
    w.now = T0 + timedelta(hours=4, minutes=1)
    w.tick()  # Day 1's result; Night 1 opens, until T0 + 6 h
    w.now = T0 + timedelta(hours=4, minutes=30)
    w.pm("Дон", "убить М2\nпроверка Шериф")
    w.pm("Шериф", "проверка Дон")
    w.tick()
    return w


def _sent(w: World) -> list[tuple]:
    with w.daemon.sessions.begin() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.status == "sent", OutboxRow.origin == "core")
                               .order_by(OutboxRow.due_at, OutboxRow.id))
        return [(r.due_at, r.where, r.to, r.text) for r in rows]


def _replays_to_what_was_sent(w: World) -> dict:
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
    result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
    assert [(m.at, str(m.where), m.to, m.text) for m in result.messages] == _sent(w)
    folded = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert replay.to_json(result)["result"] == replay.to_json(folded)["result"]
    return transcript


def _game_posts_since(w: World, since: datetime) -> list[str]:
    return [text for _, text, at in w.bot_posts("g1/game") if at >= since]


def test_C14_H5_a_six_hour_outage_across_a_whole_4h_day_autokills_nobody_and_day_2_opens_when_the_bot_is_back(
        tmp_path):
    w = _autokill_world(tmp_path)
    # down for 6 hours: Night 1 ends at T0 + 6 h, Day 2 would have run from then to T0 + 10 h
    back = T0 + timedelta(hours=10, minutes=30)
    w.now = back
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert run.result.winner is None
    assert not [p.nick for p in run.result.players if p.died and p.died.cause == "autokill"]  # H-5, R-7
    assert {p.nick for p in run.result.players if not p.alive} == {"Маф1", "М2"}  # the vote, the night
    # Day 2 opens when the bot is back, with its whole length; the opening says so and by how much all moves
    assert (run.phase, run.phase_opens, run.next_deadline) == ("day 2", back, back + timedelta(hours=4))
    posts = _game_posts_since(w, back)
    night = next(t for t in posts if "Итоги ночи 1" in t)
    assert "М2" in night
    opening = next(t for t in posts if "день 2" in t)
    assert TEXTS.phases.late_opening(T0 + timedelta(hours=6), back) in opening
    assert "4 часа 30 минут" in opening and TEXTS.v.time(back + timedelta(hours=4)) in opening
    # Day 2 is played in full; every later deadline has moved by the same 4 h 30 min
    w.now = back + timedelta(hours=1)
    for nick in ("Шериф", "М1", "М3", "М4", "М5", "М6"):
        w.post("vote", nick, "Дон")
    w.post("vote", "Дон", "М1")
    w.tick()
    w.now = back + timedelta(hours=4, minutes=1)
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert run.result.winner == "town"  # the Don hanged on Day 2: a town win, not a table of autokills
    assert not [p.nick for p in run.result.players if p.died and p.died.cause == "autokill"]
    _replays_to_what_was_sent(w)
    w.close()


def test_C14_the_night_s_opening_moves_too_when_the_bot_was_down_across_a_whole_night(tmp_path):
    """The same for a night: down from Day 1 on until after Night 1 would have ended; Day 1 resolves at its
    deadline, Night 1 opens when the bot is back, and the hanged player's last word runs to its new end."""
    w = _world(tmp_path, extra=SHORT_DAYS)
    w.now = T0 + timedelta(hours=2)
    for nick in ("Шериф", "М1", "М2", "М3", "М4", "М5", "М6"):
        w.post("vote", nick, "Маф1")
    for nick in ("Дон", "Маф1"):
        w.post("vote", nick, "М1")
    back = T0 + timedelta(hours=7)  # Day 1 ends at T0 + 4 h, Night 1 would have ended at T0 + 6 h
    w.now = back
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert (run.phase, run.phase_opens, run.next_deadline) == ("night 1", back, back + timedelta(hours=2))
    posts = _game_posts_since(w, back)
    result = next(t for t in posts if "Итоги дня 1" in t)
    assert TEXTS.v.time(back + timedelta(hours=2)) in result  # Маф1's last word: until the night's new end
    assert any(TEXTS.phases.late_opening(T0 + timedelta(hours=4), back) in t and "ночь 1" in t for t in posts)
    _replays_to_what_was_sent(w)
    w.close()


def test_C14_a_short_outage_that_swallows_no_whole_phase_changes_nothing(tmp_path):
    """Down from Night 1 into Day 2 but back before Day 2's deadline: Day 2 opened at the night's deadline, as
    scheduled, and runs to its scheduled end (what the bot did before C-14)."""
    w = _autokill_world(tmp_path)
    back = T0 + timedelta(hours=7)
    w.now = back
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    due = T0 + timedelta(hours=6)
    assert (run.phase, run.phase_opens, run.next_deadline) == ("day 2", due, due + timedelta(hours=4))
    opening = next(t for t in _game_posts_since(w, back) if "день 2" in t)
    assert "сдвинуты" not in opening and TEXTS.v.time(due + timedelta(hours=4)) in opening
    _replays_to_what_was_sent(w)
    w.close()


def test_C14_no_interim_count_or_reminder_of_a_resolved_day_is_sent_after_its_deadline(tmp_path):
    """24-hour days; the bot is down from 20:00 into the day until 2 h after its deadline. Meanwhile counts and
    the 3-hour reminder fell due, and М6 voted after the reminder's time: nothing of the day but its result is
    sent when the bot is back (no count, and no reminder telling М6 he has not voted), and the export replays to
    exactly what was sent."""
    w = _world(tmp_path, players=None)  # the scripted 10-player Moscow game, default 24 h days
    w.now = T0 + timedelta(hours=2)
    for nick in ("Шериф", "М1", "М2", "М3", "М4", "М5"):
        w.post("vote", nick, "Маф1")
    for nick in ("Дон", "Маф1", "Маф2"):
        w.post("vote", nick, "М1")
    for hours in range(3, 21):
        w.now = T0 + timedelta(hours=hours, minutes=1)
        w.tick()
    before = len(w.bot_posts("g1/vote"))
    assert before >= 1  # the counts of the day went out while the bot was up
    w.now = T0 + timedelta(hours=21, minutes=30)
    w.post("vote", "М2", "Дон")
    w.now = T0 + timedelta(hours=22)
    w.post("vote", "М6", "Маф1")
    deadline = T0 + timedelta(hours=24)
    back = deadline + timedelta(hours=2)
    w.now = back
    w.tick()
    assert len(w.bot_posts("g1/vote")) == before  # no interim count of Day 1 after its deadline
    late_pms = [(to, text) for to, text, at in w.bot_pms() if at >= deadline]
    assert not [pm for pm in late_pms if "Напоминание" in pm[1]], late_pms
    result = next(t for t in _game_posts_since(w, back) if "Итоги дня 1" in t)
    assert "Маф1" in result and "М6" in result  # his vote counted at the deadline
    transcript = _replays_to_what_was_sent(w)
    assert any(key.startswith("day 1/remind/") for key in transcript["unsent"])
    assert any(key.startswith("day 1/count/") for key in transcript["unsent"])
    w.close()


def test_C14_the_counts_before_an_outage_are_sent_as_before(tmp_path):
    """While the bot ticks, every interim count and reminder goes out on time (nothing is held as stale)."""
    w = _world(tmp_path, players=None)
    w.now = T0 + timedelta(hours=2)
    w.post("vote", "М1", "Маф1")
    w.tick()
    w.now = T0 + timedelta(hours=3, minutes=1)
    w.tick()
    assert w.bot_posts("g1/vote")
    w.now = T0 + timedelta(hours=21, minutes=1)
    w.tick()
    assert [text for to, text, _ in w.bot_pms() if to == "М6" and "Напоминание" in text]
    assert "unsent" not in _replays_to_what_was_sent(w)
    w.close()


def test_C14_a_gm_is_still_the_gm_after_an_outage(tmp_path):
    """`статус` after a late opening names the moved deadline (the game as the fold has it)."""
    w = _autokill_world(tmp_path)
    back = T0 + timedelta(hours=10, minutes=30)
    w.now = back
    w.tick()
    w.now = back + timedelta(minutes=10)
    w.pm(GM, "статус")
    w.tick()
    answer = [text for to, text, _ in w.bot_pms() if to == GM][-1]
    assert TEXTS.v.time(back + timedelta(hours=4)) in answer
    w.close()


def test_C14_a_tick_killed_after_its_fold_opened_the_phase_late_keeps_that_opening_for_the_replay(
        tmp_path, monkeypatch):
    """The tick back after the outage folds (its tip opens Day 2 at its time) and is killed before it records
    anything; the next tick starts from that tip, sends that opening and records the night's resolution at it,
    so the export replays to the very messages sent."""
    w = _autokill_world(tmp_path)
    back = T0 + timedelta(hours=10, minutes=30)
    w.now = back
    record = tick_module.record_resolutions

    def killed(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise Crash("after the fold, before the outbox")

    monkeypatch.setattr(tick_module, "record_resolutions", killed)
    with pytest.raises(Crash):
        w.tick()
    monkeypatch.setattr(tick_module, "record_resolutions", record)
    w.restart()
    w.now = back + timedelta(minutes=5)
    w.tick()
    opening = next(t for t in _game_posts_since(w, back) if "день 2" in t)
    assert TEXTS.phases.late_opening(T0 + timedelta(hours=6), back) in opening
    _replays_to_what_was_sent(w)
    w.close()


@pytest.mark.parametrize("refusal", [ForumUnavailable("HTTP 503 Service Unavailable"),
                                     FormTransient("form token rejected")], ids=["unavailable", "transient"])
def test_C14_a_count_or_reminder_queued_while_the_forum_refused_posts_is_withheld_once_its_day_is_resolved(
        tmp_path, refusal):
    """The forum reads fine but refuses every post and PM from the day's third hour until an hour after its
    deadline: the day's counts and the reminders are in the outbox, undelivered, when the day resolves (after a
    503 the row tried is left "attempted" and looked for first, after a refused form token it is pending again).
    When the forum takes posts again the result, the night's opening and the night's PMs go out; the counts and
    reminders of the resolved day never do (C-14): they are recorded as withheld, `game export` lists them as
    `unsent`, and the export replays to exactly what was sent."""
    w = _world(tmp_path, players=None)  # the scripted 10-player Moscow game, default 24 h days
    w.now = T0 + timedelta(hours=2)
    for nick in ("Шериф", "М1", "М2", "М3", "М4", "М5"):
        w.post("vote", nick, "Маф1")
    for nick in ("Дон", "Маф1", "Маф2"):
        w.post("vote", nick, "М1")
    w.tick()
    counts_before = len(w.bot_posts("g1/vote"))  # the day's first count, sent while the forum took posts
    reply, send_pm = w.forum.reply, w.forum.send_pm

    def refused(*args):  # type: ignore[no-untyped-def]
        raise refusal

    w.forum.reply = w.forum.send_pm = refused
    for hours in range(3, 25):
        w.now = T0 + timedelta(hours=hours, minutes=1)
        if hours == 5:
            w.post("vote", "М2", "Дон")  # a changed vote: a count falls due
        w.tick()
    deadline = T0 + timedelta(hours=24)
    with w.daemon.sessions.begin() as session:
        owed = {r.key: r.status for r in session.scalars(select(OutboxRow).where(
            OutboxRow.status != "sent", OutboxRow.key.like("day 1/%")))}
    stale = {k for k in owed if k.startswith(("day 1/count/", "day 1/remind/"))}
    assert any("/count/" in k for k in stale) and any("/remind/" in k for k in stale), owed
    w.forum.reply, w.forum.send_pm = reply, send_pm
    back = deadline + timedelta(hours=1)
    w.now = back
    w.tick()
    assert len(w.bot_posts("g1/vote")) == counts_before  # no count of Day 1 after its deadline
    assert not [(to, text) for to, text, _ in w.bot_pms() if "Напоминание" in text]
    assert any("Итоги дня 1" in t for t in _game_posts_since(w, deadline))  # the result still goes
    assert any("ночь 1" in t for t in _game_posts_since(w, deadline))  # and the night's opening
    with w.daemon.sessions.begin() as session:
        statuses = {r.key: r.status for r in session.scalars(select(OutboxRow))}
    assert {statuses[k] for k in stale} == {"withheld"}
    assert {s for k, s in statuses.items() if k not in stale} <= {"sent"}  # everything else was delivered
    transcript = _replays_to_what_was_sent(w)
    assert stale <= set(transcript["unsent"])
    w.now = back + timedelta(minutes=10)
    w.tick()  # a later tick sends none of them either
    assert len(w.bot_posts("g1/vote")) == counts_before
    w.close()
