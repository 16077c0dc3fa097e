"""issue 7 item 19 (replay part): transcripts that hung or crashed `forumbot replay` are refused with one line
naming the field, and `replay x.json | head` ends quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from forumbot.exit_codes import EXIT_BROKEN_PIPE
from forumbot.cli.main import main

TRANSCRIPTS = Path(__file__).parent.parent / "fixtures" / "transcripts"
BASE = "moscow_draw.json"
HANG_GUARD = 900  # seconds: catches a hung process, never measures the machine (issue 28 item 1)


def replay_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes) -> tuple[int, str]:
    path = tmp_path / "x.json"
    path.write_bytes(data)
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert out == ""
    return code, err


def mutated(mutate) -> bytes:  # type: ignore[no-untyped-def]
    data = json.loads((TRANSCRIPTS / BASE).read_text(encoding="utf-8"))
    mutate(data)
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def with_text(old: str, new: str) -> bytes:
    """The transcript with one piece of its JSON text replaced (for what json.dumps cannot write)."""
    text = mutated(lambda d: None).decode("utf-8")
    assert old in text
    return text.replace(old, new, 1).encode("utf-8")


CASES = [
    # vote_count_minutes 0 or negative scheduled vote counts forever at one instant: replay never ended
    ("count every 0 minutes", mutated(lambda d: d["options"].update(vote_count_minutes=0)),
     "options.vote_count_minutes: must be at least 1"),
    ("count every -5 minutes", mutated(lambda d: d["options"].update(vote_count_minutes=-5)),
     "options.vote_count_minutes: must be at least 1"),
    ("count every 'x' minutes", mutated(lambda d: d["options"].update(vote_count_minutes="x")),
     "options.vote_count_minutes: expected a number of minutes"),
    ("remind 'x' hours", mutated(lambda d: d["options"].update(remind_hours="x")),
     "options.remind_hours: expected a number of hours"),
    ("day_hours a string", mutated(lambda d: d.update(day_hours="24")), "field 'day_hours' must be a number"),
    ("day_hours NaN", with_text('"day_hours": 24', '"day_hours": NaN'), "day_hours must be more than 0"),
    ("day_hours Infinity", with_text('"day_hours": 24', '"day_hours": Infinity'), "day_hours must be more than 0"),
    ("day_hours 1e308", mutated(lambda d: d.update(day_hours=1e308)), "day_hours must be more than 0"),
    ("gms [1]", mutated(lambda d: d.update(gms=[1])), "gms[0] must be a non-empty name, got 1"),
    ("unknown option", mutated(lambda d: d["options"].update(mafiaa=4)),
     "options.mafiaa: unknown option (did you mean 'mafia'?)"),
    ("a Free Hunt option in Moscow", mutated(lambda d: d["options"].update(mafia=3)),
     "options.mafia: not an option of moscow"),
    ("edited_votes a number", mutated(lambda d: d["options"].update(edited_votes=3)),
     "options.edited_votes: must be 'void' or 'first_seen', got 3"),
    ("agitation_markers a string", mutated(lambda d: d["options"].update(agitation_markers="вешаем")),
     "options.agitation_markers: expected a list"),
    ("R-1 vote_changes negative (issue 12)", mutated(lambda d: d["options"].update(vote_changes=-1)),
     "options.vote_changes: must be a whole number of at least 0 or 'unlimited', got -1 (R-1)"),
    ("R-6 tie unknown (issue 12)", mutated(lambda d: d["options"].update(tie="coin")),
     "options.tie: must be 'runoff' or 'nobody' or 'all' or 'first_reached', got 'coin' (R-6)"),
    ("R-10 cast with a role of the other variant (issue 12)", mutated(lambda d: d["options"].update(cast={"doctor": 1})),
     "options.cast: 'doctor' is not a role the moscow cast may set (only mafia, don, sheriff) (R-10)"),
    ("unknown markup", mutated(lambda d: d.update(markup="html")), "markup must be bbcode or markdown"),
    ("start in year 9999", mutated(lambda d: d.update(start="9999-12-31T23:00:00+00:00")),
     "start '9999-12-31T23:00:00+00:00': the year must be from 2000 to 2999"),
    ("lone surrogate in a text", with_text('"text": "', '"text": "\\ud800'),
     "events[1]: field 'text' holds a lone surrogate U+D800"),
    ("lone surrogate in an author", with_text('"from": "', '"from": "\\udfff'),
     "events[1]: field 'from' holds a lone surrogate U+DFFF"),
    ("lone surrogate in a nick", with_text('"nick": "', '"nick": "\\ud800'),
     "players[1]: field 'nick' holds a lone surrogate U+D800"),
    ("lone surrogate in a GM", with_text('"gms": ["', '"gms": ["\\ud800'), "gms[0] holds a lone surrogate"),
    ("lone surrogate in an option", with_text('"options": {}', '"options": {"agitation_markers": ["\\ud800"]}'),
     "options.agitation_markers holds a lone surrogate U+D800"),
    ("invalid UTF-8", (TRANSCRIPTS / BASE).read_bytes().replace(b'"variant"', b'"vari\xffant"', 1),
     "x.json: not UTF-8: byte 0xff on line 2"),
]


@pytest.mark.parametrize("data, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_issue7_item19_a_bad_transcript_is_one_line_naming_the_field(tmp_path, capsys, data, expected):
    code, err = replay_bytes(tmp_path, capsys, data)
    assert code == 2
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err


def test_the_base_transcript_replays(tmp_path, capsys):
    code = main(["replay", str(TRANSCRIPTS / BASE)])
    assert code == 0 and "== winner:" in capsys.readouterr().out


def test_issue7_item19_replay_into_a_closed_pipe_ends_quietly(tmp_path):
    """`forumbot replay x.json | head` ended in BrokenPipeError. The pipe's reader is closed before the child
    writes, so the very first write meets EPIPE: the test does not depend on how fast head reads."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    try:
        proc = subprocess.run([sys.executable, "-m", "forumbot", "replay", str(TRANSCRIPTS / BASE)],
                              stdout=write_end, stderr=subprocess.PIPE, env=env, timeout=HANG_GUARD)
    finally:
        os.close(write_end)
    assert proc.stderr.decode() == ""
    assert proc.returncode == EXIT_BROKEN_PIPE
