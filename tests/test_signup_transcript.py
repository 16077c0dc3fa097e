"""A transcript can carry a sign-up (S-1..S-3, docs/transcripts.md): replay folds it, then the game with exactly
its players; the same transcript replays to the same bytes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from forumbot import replay
from forumbot.errors import TranscriptError
from forumbot.model import Where

NAMES = ["Маша", "Петя", "Вася", "Коля", "Оля", "Аня", "Дима", "Лена", "Игорь", "Кот Баюн", "Сова"]


def transcript(**signup) -> dict:
    events = [{"at": "2026-12-01T10:30:00+03:00", "where": "game", "from": "Маша", "text": "когда начало?"}]
    events += [{"at": f"2026-12-01T{11 + i:02d}:00:00+03:00", "where": "game", "from": n, "text": "+"}
               for i, n in enumerate(NAMES)]
    events.insert(3, {"at": "2026-12-01T12:30:00+03:00", "where": "pm", "from": "Ведущий", "text": "статус"})
    events.append({"at": "2026-12-02T12:00:00+03:00", "where": "pm", "from": "Маша", "text": "подтверждаю"})
    return {
        "variant": "moscow", "seed": 7, "timezone": "Europe/Moscow", "start": "2026-12-05T10:00:00+03:00",
        "bot": "Ведущий-бот", "gms": ["Ведущий"], "events": events, "until": "2026-12-05T12:00:00+03:00",
        "signup": {"opens": "2026-12-01T10:00:00+03:00", "closes": "2026-12-03T10:00:00+03:00",
                   "close_when_full": True, **signup},
    }


def test_s3_a_transcripts_sign_up_closes_full_and_the_game_plays_with_exactly_its_players() -> None:
    result, _ = replay.replay(replay.parse_transcript(transcript()))
    assert [p.nick for p in result.result.players] == NAMES[:10]  # Сова joined after the close: not a player
    keys = [m.key for m in result.messages]
    assert keys[0] == "signup/open" and "signup/closed" in keys
    closed = keys.index("signup/closed")
    setup_post = next(m for m in result.messages[closed:] if m.where is Where.GAME and m.key != "signup/closed")
    assert all(n in setup_post.text for n in NAMES[:10]) and "Сова" not in setup_post.text
    assert result.phase == "day 1"
    status = next(m for m in result.messages if m.key.startswith("gm/"))
    assert status.to == "Ведущий" and status.text.startswith("Набор: записалось 2 из 10")


def test_s3_a_transcripts_sign_up_short_is_extended_then_cancelled() -> None:
    raw = transcript(close_when_full=False, players=12)
    raw["until"] = "2026-12-06T12:00:00+03:00"
    result, _ = replay.replay(replay.parse_transcript(raw))
    assert result.phase == "signup cancelled" and result.result.players == ()
    assert [m.key for m in result.messages][-2:] == ["signup/cancelled", "signup/cancelled/Ведущий"]


def test_s3_a_transcript_takes_players_from_signup_or_players_not_both() -> None:
    raw = transcript()
    raw["players"] = [{"nick": "Маша"}]
    with pytest.raises(TranscriptError, match="not both"):
        replay.parse_transcript(raw)


def test_s3_a_sign_up_transcript_replays_to_the_same_bytes(tmp_path) -> None:
    path = tmp_path / "signup.json"
    path.write_text(json.dumps(transcript(), ensure_ascii=False), encoding="utf-8")
    outs = [subprocess.run([sys.executable, "-m", "forumbot", "replay", "--json", str(path)], capture_output=True,
                           check=True).stdout for _ in range(2)]
    assert outs[0] == outs[1]
    messages = json.loads(outs[0])["messages"]
    assert messages[0]["text"].startswith("[b]Набор в игру: московская мафия[/b]")
    assert len([p for p in json.loads(outs[0])["result"]["players"]]) == 10
