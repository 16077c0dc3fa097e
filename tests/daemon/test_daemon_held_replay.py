"""C-13 through the daemon (issue 26 item 8): a held vote approved before the deadline, then export -> replay.

The scripted Day 1 (opens 10:00, hourly counts) has its votes at 12:00. Шериф changes his vote to М1 at 13:00 in a
post the forum holds for a moderator; М6 changes his to Дон at 13:10 in a visible one. The 14:00 count and a GM's
status go out with М6's change and without Шериф's (the bot could not read it). The moderator approves the post
after that tick; the tick at 14:05 reads it, stamped 13:00. The bot's messages must be the fold's: the deadline
counts the vote at its stamp (C-1, M-8), the counts after 14:05 show it, and a replay of the export gives every
message the daemon sent, byte for byte, the 14:00 count without the vote among them (C-13: an input counts in a
message only when the bot had read it before making that message).
"""

from __future__ import annotations

import json
from datetime import timedelta

from daemon_world import GM, STEPS, T0, play, world  # noqa: F401 (a fixture)
from sqlalchemy import select

from forumbot import replay
from forumbot.games.export import export_game
from forumbot.store.models import OutboxRow
from forumbot.store.game import fold_game

HELD_AT = T0 + timedelta(hours=3)  # 13:00 MSK
COUNTED_AT = T0 + timedelta(hours=4)  # the 14:00 count
READ_AT = COUNTED_AT + timedelta(minutes=5)
WITHOUT = "[b]М1[/b] — 3 голоса: Дон, Маф1, Маф2"
WITH = "[b]М1[/b] — 4 голоса: Шериф, Дон, Маф1, Маф2"


def _sent(w) -> list[tuple]:
    with w.daemon.sessions.begin() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.status == "sent", OutboxRow.origin == "core")
                               .order_by(OutboxRow.due_at, OutboxRow.id))
        return [(r.due_at, r.where, r.to, r.text) for r in rows]


def _replayed(transcript: dict):  # type: ignore[no-untyped-def]
    result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
    return result


def _held_then_read(w) -> None:
    play(w, upto=2)
    w.now = HELD_AT + timedelta(minutes=30)
    held = w.forum.add_post("g1/vote", "Шериф", "М1", HELD_AT, held=True)
    w.forum.add_post("g1/vote", "М6", "Дон", HELD_AT + timedelta(minutes=10))
    w.tick()
    w.now = COUNTED_AT
    w.pm(GM, "статус")
    w.tick()  # the 14:00 count and the GM's status: М6's change, not Шериф's held one
    w.forum.approve_post(held.id)
    w.now = READ_AT
    w.tick()  # reads the approved post, stamped 13:00


def test_C13_a_held_vote_approved_before_the_deadline_replays_as_sent(world):
    w = world
    _held_then_read(w)
    before = [text for _, text, at in w.bot_posts("g1/vote") if at == COUNTED_AT]
    assert len(before) == 1 and WITHOUT in before[0] and "[b]Дон[/b] — 1 голос: М6" in before[0]
    status = [text for to, text, at in w.bot_pms() if to == GM and at == COUNTED_AT and "Шериф → Маф1" in text]
    assert len(status) == 1 and "М6 → Дон" in status[0]
    w.now = COUNTED_AT + timedelta(hours=1)
    w.tick()  # the 15:00 count: the approved vote is shown once it has been read
    after = [text for _, text, at in w.bot_posts("g1/vote") if at == w.now]
    assert len(after) == 1 and WITH in after[0]
    w.now = STEPS[3][0]
    w.tick()  # Day 1 resolves, counting the vote at its stamp
    result = [text for _, text, at in w.bot_posts("g1/game") if at == w.now and "Итоги" in text]
    assert len(result) == 1 and WITH in result[0], result
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert run.late == ()  # read before the deadline: not late
    sent = _sent(w)
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
    replayed = _replayed(transcript)
    assert [(m.at, str(m.where), m.to, m.text) for m in replayed.messages] == sent
    assert [(m.at, m.text) for m in run.messages if m.at <= w.now and m.where == "vote"] == [
        (at, text) for at, where, to, text in sent if where == "vote"]
