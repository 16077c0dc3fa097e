"""C-13 through the daemon (issue 19 item 4): announced results stand.

Day 1 of the scripted game hangs Маф1 (7 votes to 3) at the tick after its deadline. Then five votes changed to
М1 and stamped an hour before the deadline appear (a moderated post approved from the queue keeps its first
time; a rough time): folded by their stamps they would hang М1 instead. The bot stores them, records the day as
resolved before it read them, keeps its announced result, tells the GM once per input, shows them as late in
`game status` and the export, and a replay of the export reproduces the game as announced.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from daemon_world import GM, STEPS, T0, play, world  # noqa: F401 (a fixture)
from sqlalchemy import select

from forumbot import replay
from forumbot.games.export import export_game
from forumbot.games.status import game_status
from forumbot.store.models import OutboxRow, ResolutionRow
from forumbot.store.game import fold_game

CHANGED = ("Шериф", "М2", "М3", "М4", "М5")  # 7 for Маф1 and 3 for М1 become 2 and 8
DEADLINE = T0 + timedelta(hours=24)


def _sent(w) -> list[tuple]:
    with w.daemon.sessions.begin() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.status == "sent", OutboxRow.origin == "core")
                               .order_by(OutboxRow.due_at, OutboxRow.id))
        return [(r.due_at, r.where, r.to, r.text) for r in rows]


def _day_one_resolved(w) -> None:
    play(w, upto=3)  # through the tick at 24:01 that resolves Day 1
    assert w.now == STEPS[3][0]


def _replayed(transcript: dict):  # type: ignore[no-untyped-def]
    result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
    return result


def test_C13_votes_approved_after_the_deadline_leave_the_announced_day_as_it_was(world):
    w = world
    _day_one_resolved(w)
    with w.daemon.sessions.begin() as session:
        resolved = dict(session.execute(select(ResolutionRow.phase, ResolutionRow.resolved_at)).all())
    assert resolved == {"setup": STEPS[2][0], "day 1": STEPS[3][0],  # the ticks that resolved them
                        # and those that first made the interim count and the reminders (issue 26 item 8)
                        "day 1/count/20261201T090000": STEPS[2][0], "remind:setup": STEPS[2][0],
                        "remind:day 1": STEPS[3][0]}
    w.now = DEADLINE + timedelta(minutes=30)
    late = [w.forum.add_post("g1/vote", nick, "М1", DEADLINE - timedelta(hours=1)) for nick in CHANGED]
    w.tick()
    w.now += timedelta(minutes=5)
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    died = {p.nick: p.died.phase for p in run.result.players if p.died}
    assert died == {"Маф1": "day 1"}  # the announced result; by their stamps the votes would hang М1
    assert [item for item, phase, *_ in run.late] == [p.id for p in late]
    assert {phase for _, phase, *_ in run.late} == {"day 1"}
    # one PM to the GM per late input, naming it
    to_gm = [text for to, text, *_ in w.bot_pms() if to == GM and "Прочитано после итогов" in text]
    assert len(to_gm) == len(CHANGED) and all("день 1" in t for t in to_gm)
    status = game_status(w.daemon.sessions, w.config, "g1", w.now)
    assert sum(line.startswith("опоздало: пост в теме голосования ") and "после итогов фазы «день 1»" in line
               for line in status.splitlines()) == len(CHANGED)
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
    assert datetime.fromisoformat(transcript["resolved"]["day 1"]) == STEPS[3][0]
    assert all("read_at" in e for e in transcript["events"])
    assert sum(e.get("late") == "day 1" for e in transcript["events"]) == len(CHANGED)
    # the replay of the export reproduces the game as announced: every message the daemon sent, the same dead
    replayed = _replayed(transcript)
    assert [(m.at, str(m.where), m.to, m.text) for m in replayed.messages] == _sent(w)
    assert {p.nick: p.died.phase for p in replayed.result.players if p.died} == died
    # the control: without the read times (an export from before C-13), the same events re-derive Day 1
    for event in transcript["events"]:
        event.pop("read_at")
    assert {p.nick for p in _replayed(transcript).result.players if p.died} == {"М1"}


def test_C1_C13_a_rough_time_read_after_the_deadline_was_resolved_is_late(world):
    """A post whose forum time is only rough (from a minute before the deadline to a minute after) counts
    before the deadline (C-1) when read in time; read first by a later tick, it is late (C-13)."""
    w = world
    _day_one_resolved(w)
    w.now = DEADLINE + timedelta(minutes=20)
    rough = w.forum.add_post("g1/vote", "М6", "Дон", DEADLINE - timedelta(minutes=1),
                             latest=DEADLINE + timedelta(minutes=1))
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert [(item, phase) for item, phase, *_ in run.late] == [(rough.id, "day 1")]
    counts = [text for topic, text, *_ in w.bot_posts("g1/vote")]
    assert not any("Время неточное" in text for text in counts)  # never counted into the resolved day
