"""C-13 for what the bot says between deadlines (issue 26 item 8), at the level of the fold and of a transcript.

An interim count, a reminder and a GM's status are made from the posts the bot had read when it made them: a
vote stamped earlier but read later (a post held for a moderator and approved; a rough time) is left out of
them, as the daemon left it out, and counts at the deadline by its stamp. The daemon records when it first made
each count and reminder beside each resolution (Schedule.resolved; an export's `resolved`), so the refold of a
tick and a replay give the very messages it sent. The daemon side is tests/daemon/test_daemon_held_replay.py.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import Game, Result  # noqa: E402

from forumbot import replay  # noqa: E402
from forumbot.game import run  # noqa: E402

MIN = timedelta(minutes=1)
WITHOUT = "[b]М1[/b] — 3 голоса: Дон, Маф1, Маф2"  # Шериф's held change to М1 left out
WITH = "[b]М1[/b] — 4 голоса: Шериф, Дон, Маф1, Маф2"


def fold(g: Game, resolved: dict[str, datetime], until: datetime) -> Result:
    setup = g.setup()
    setup = replace(setup, schedule=replace(setup.schedule, resolved=tuple(resolved.items())))
    return Result(run(setup, g.events, until))


def held_day(g: Game) -> datetime:
    """Day 1 (opens 10:00): 7 for Маф1 and 3 for М1 at 11:00; Шериф changes to М1 at 13:00 in a post read only
    at 14:05; М6 changes to Дон at 13:10, read at 13:30. Returns when the held post was read."""
    on_time = g.at("day 1", "+1h")
    for who in ("Шериф", "М1", "М2", "М3", "М4", "М5", "М6"):
        g.vote("day 1", "+1h", who, "Маф1", read_at=on_time)
    for who in ("Дон", "Маф1", "Маф2"):
        g.vote("day 1", "+1h", who, "М1", read_at=on_time)
    read = g.at("day 1", "+4h") + 5 * MIN
    g.vote("day 1", "+3h", "Шериф", "М1", read_at=read)
    g.vote("day 1", "+3h10m", "М6", "Дон", read_at=g.at("day 1", "+3h30m"))
    return read


def counts(r: Result) -> dict[datetime, str]:
    return {m.at: m.text for m in r.run.messages if m.key.startswith("day 1/count/")}


def test_C13_an_interim_count_made_before_a_vote_was_read_leaves_it_out():
    g = Game.moscow()
    held_day(g)
    made = g.at("day 1", "+4h")
    r = fold(g, {"day 1/count/20261201T110000": made + MIN}, g.at("night 1", "+1h"))
    shown = counts(r)
    assert WITHOUT in shown[made] and "[b]Дон[/b] — 1 голос: М6" in shown[made]  # as the bot posted it at 14:01
    assert WITH in shown[made + timedelta(hours=1)]  # the next count on the grid shows the vote, read by then
    final = [m.text for m in r.run.messages if m.key == "day 1/result"]
    assert len(final) == 1 and WITH in final[0] and r.died("Маф1") == ("day 1", "vote")  # counted at its stamp
    assert r.run.late == ()


def test_C13_without_the_count_s_record_the_count_shows_every_vote_by_its_stamp():
    """The control: a count the daemon has not made yet (no record; a written transcript) shows every vote the
    fold has, as before."""
    g = Game.moscow()
    held_day(g)
    made = g.at("day 1", "+4h")
    assert WITH in counts(fold(g, {}, g.at("night 1", "+1h")))[made]


def test_C13_a_reminder_made_before_a_vote_was_read_still_goes_to_its_author():
    g = Game.moscow()
    for who in ("Шериф", "Дон", "Маф1", "Маф2", "М1", "М2", "М3", "М4", "М5"):
        g.vote("day 1", "+1h", who, "Маф1", read_at=g.at("day 1", "+1h"))
    reminded = g.at("day 1", "+21h")
    g.vote("day 1", "+20h", "М6", "Маф1", read_at=reminded + 30 * MIN)  # held, approved after the reminder
    r = fold(g, {"remind:day 1": reminded + MIN}, g.at("night 1", "+1h"))
    assert [m.to for m in r.run.messages if m.key.startswith("day 1/remind/")] == ["М6"]
    control = fold(g, {}, g.at("night 1", "+1h"))
    assert [m.to for m in control.run.messages if m.key.startswith("day 1/remind/")] == []


def test_C13_a_GM_status_shows_the_votes_read_by_the_time_his_command_was():
    g = Game.moscow()
    held_day(g)
    asked = g.at("day 1", "+3h30m")
    g.gm("day 1", "+3h30m", "статус")
    g.events[-1] = replace(g.events[-1], read_at=asked)
    r = fold(g, {}, g.at("day 1", "+5h"))
    status = [m.text for m in r.run.messages if m.to == "ГМ" and m.key.startswith(f"gm/{g.events[-1].id}")]
    assert len(status) == 1 and "Шериф → М1" not in status[0] and "Шериф → Маф1" in status[0], status


def test_C13_a_transcript_with_a_vote_read_after_a_count_replays_the_count_as_made():
    """The export's shape: `read_at` on the events, the count's record in `resolved`; the replay gives the
    count as the bot made it, twice the same."""
    g = Game.moscow()
    held_day(g)
    made = g.at("day 1", "+4h")
    setup = g.setup()
    transcript = {
        "variant": "moscow", "seed": setup.seed, "timezone": "Europe/Moscow", "start": setup.schedule.start.isoformat(),
        "day_hours": 24, "night_hours": 12, "runoff_hours": 12, "bot": setup.bot, "gms": list(setup.gms),
        "until": g.at("night 1", "+1h").isoformat(),
        "players": [{"nick": p.nick, "role": str(p.role)} for p in setup.players],
        "resolved": {"day 1/count/20261201T110000": (made + MIN).isoformat()},
        "events": [{"at": e.at.isoformat(), "where": str(e.where), "from": e.author, "text": e.text, "id": e.id,
                    "read_at": e.read_at.isoformat()} for e in g.events],
    }
    played = [replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))[0] for _ in range(2)]
    assert played[0].messages == played[1].messages
    shown = {m.at: m.text for m in played[0].messages if m.key.startswith("day 1/count/")}
    assert WITHOUT in shown[made] and WITH in shown[made + timedelta(hours=1)]
