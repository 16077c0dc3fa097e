"""The day as data (issue 20 item 1): every vote post with what it was read as and the running tally, checked
against what the bot's own count posts say (C-6) on every bundled transcript, and on stories for each reading."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from forumbot import replay
from forumbot.markup import escape_bbcode
from forumbot.model import Special
from forumbot.pages.daydata import day_data
from forumbot.texts import get_texts
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from gamekit import Game  # noqa: E402

TRANSCRIPTS = sorted((ROOT / "fixtures" / "transcripts").rglob("*.json")) + sorted(
    (ROOT / "forumbot" / "examples").glob("*.json"))


def _result_post(run, label: str) -> str:
    keys = (f"{label}/result", f"{label.replace('day', 'day')}/runoff")
    return next(m.text for m in run.messages if m.key in keys)


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_final_tally_is_what_the_final_count_post_says(path: Path) -> None:
    """C-6: each tally line of the final count, and who did not vote, as the bot posted them."""
    transcript = replay.load(path)
    run, _ = replay.replay(transcript)
    setup = transcript.setup
    t = get_texts(setup.language, escape_bbcode, setup.schedule.timezone, setup.markup)
    closed = [r for r in run.history if r.closed is not None]
    assert closed, "every bundled game resolves at least one day"
    for record in closed:
        data = day_data(record)
        post = _result_post(run, data.label)
        tally_lines = re.findall(r"(?m)^\[b\][^\n]*?\[/b\] — \d+ ", post)
        if not data.final:
            continue
        assert len(tally_lines) == len(data.final), (data.label, tally_lines)
        for target, voters in data.final:
            line = t.v._("count.line", target=t.v.target(Special(target.name) if target.special else target.name, bold=True), count=t.v.count(len(voters), "vote"),
                       voters=t.v.plain_names(list(voters)))
            assert line in post, (data.label, line)
        if data.not_voted:
            assert t.v._("count.not_voted", count=len(data.not_voted), names=t.v.plain_names(list(data.not_voted))) in post
        if record.kind == "day" and not record.cancelled:
            # the running tally after the last post is the final tally, recomputed post by post
            last = data.rows[-1].tally if data.rows else ()
            assert {(x.name, n) for x, n in last} == {(x.name, len(v)) for x, v in data.final}


def test_each_reading_of_a_vote_post() -> None:
    """M-8 (one change, then ignored), C-11 (edit voids, deletion drops), C-3 (non-player, dead voter),
    H-6-free Moscow day: the rows say what each post was read as, with the running tally after it."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "Дон")
    g.vote("day 1", "+2h", "М1", "Маф1")  # the one change
    g.vote("day 1", "+3h", "М1", "Маф2")  # M-8: beyond the limit
    g.vote("day 1", "+4h", "М2", "Дон", edited_at=g.at("day 1", "+5h"))  # C-11: voided
    g.vote("day 1", "+4h", "М3", "Дон", deleted_at=g.at("day 1", "+6h"))  # C-11: deleted
    g.vote("day 1", "+5h", "Зритель", "Дон")  # C-3: not a player
    g.vote("day 1", "+6h", "М4", "абракадабра")
    g.vote("day 1", "+7h", "М5", "Маф1")
    r = g.run("night 1", "+1h")
    data = day_data(r.run.history[0])
    readings = [(row.voter, row.reading, row.detail) for row in data.rows]
    assert readings == [
        ("М1", "counted", ""), ("М1", "changed", ""), ("М1", "ignored", "limit"), ("М2", "voided", ""),
        ("М3", "deleted", ""), ("Зритель", "rejected", "not_a_player"), ("М4", "rejected", "unknown_name"),
        ("М5", "counted", ""),
    ]
    assert [(t.name, n) for t, n in data.rows[1].tally] == [("Маф1", 1)]
    assert [(t.name, n) for t, n in data.rows[-1].tally] == [("Маф1", 2)]
    assert [(t.name, v) for t, v in data.final] == [("Маф1", ("М1", "М5"))]
    assert data.vote_post == {"М1": "t2", "М5": "t8"}
    assert "М2" in data.not_voted and "М1" not in data.not_voted
    assert data.majority == 6
    assert data.deaths == (("Маф1", "vote", ""),)


def test_open_day_is_recorded_as_it_stands() -> None:
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "Дон")
    r = g.run("day 1", "+2h")
    (record,) = r.run.history
    assert record.closed is None and record.label == "day 1"
    assert [(t.name, v) for t, v in day_data(record).final] == [("Дон", ("М1",))]


def test_an_undone_command_leaves_the_history_as_without_it() -> None:
    """C-9: an undo restores the state as if the command never came; the recorded days follow (kept in State)."""
    def game(with_undo: bool) -> Game:
        g = Game.moscow()
        g.votes("day 1", {"М1": "Маф1", "М2": "Маф1", "М3": "Маф1", "М4": "Маф1", "М5": "Маф1", "М6": "Маф1"})
        g.pm("night 1", "+1h", "Дон", "убить М1")
        g.vote("day 2", "+1h", "М2", "Маф2")
        if with_undo:
            g.gm("day 2", "+2h", "модкилл М3")
            g.gm("day 2", "+3h", "отмена")
        g.vote("day 2", "+4h", "М4", "Маф2")
        return g

    undone, plain = game(True).run("night 2", "+1h"), game(False).run("night 2", "+1h")
    assert [r.label for r in undone.run.history] == ["day 1", "day 2"]
    def seen(run):  # type: ignore[no-untyped-def]
        return [([(r.voter, r.reading, r.target, r.tally) for r in d.rows], d.final, d.not_voted, d.deaths)
                for d in map(day_data, run.history)]

    assert seen(undone.run) == seen(plain.run)
    assert day_data(undone.run.history[1]).deaths == (("Маф2", "vote", ""),)


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_running_tally_is_what_each_count_post_says(path: Path) -> None:
    """C-6's counts during the day: the running tally after the last post before each count is the count's own
    tally, line by line (the "since the previous count" view and the open day's picture rest on it)."""
    transcript = replay.load(path)
    run, _ = replay.replay(transcript)
    setup = transcript.setup
    t = get_texts(setup.language, escape_bbcode, setup.schedule.timezone, setup.markup)
    for record in run.history:
        data = day_data(record)
        for count in (m for m in run.messages if m.key.startswith(f"{data.label}/count/")):
            before = [r for r in data.rows if r.at < count.at]  # a post of the count's second is not in it
            tally = before[-1].tally if before else ()
            lines = re.findall(r"(?m)^\[b\][^\n]*?\[/b\] — \d+ ", count.text)
            assert len(lines) == len(tally), (data.label, count.key, lines, tally)
            for target, n in tally:
                shown = t.v.target(Special(target.name) if target.special else target.name, bold=True)
                assert f"{shown} — {n} " in count.text, (count.key, shown, n)
