"""issue 17 item 12: `game stop` keeps the first post's promise. Its closing post verifies like the end post (the
seed, the exact string the opening post's commitment hashed, the command that checks it, C-2) and names the reason
as «Причина: …»; `game export` writes the stop into the transcript and `replay` ends the game stopped, with the
same closing post, not "game still running"."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta

from daemon_world import World, game_toml, play, world  # noqa: F401 (a fixture)
from sqlalchemy import select

from forumbot import replay
from forumbot.cli.main import main
from forumbot.games.export import export_game
from forumbot.store.models import GameRow, OutboxRow


def _stop(w, reason: str) -> str:
    play(w, upto=3)  # Day 1 resolved: Маф1 is out
    w.now += timedelta(hours=1)
    assert main(["game", "stop", "g1", "--reason", reason, "-c", str(w.config_path)], clock=lambda: w.now) == 0
    w.tick()
    return w.bot_posts("g1/game")[-1][1]


def _drawn(closing: str) -> str:
    """The string between the first [code] tags: what the commitment hashed."""
    return re.findall(r"\[code\](.*?)\[/code\]", closing, re.S)[0]


def _commitment(w) -> str:
    with w.daemon.sessions.begin() as session:
        return session.scalar(select(GameRow.commitment))


def test_the_stop_post_gives_the_hashed_string_and_the_command_and_the_reason_in_russian(world, capsys):
    w = world
    closing = _stop(w, "Сервер переезжает.")
    plain = closing.replace("[b]", "").replace("[/b]", "")
    assert plain.startswith("Игра остановлена ведущим, победителя нет.\nПричина: Сервер переезжает.\n")
    assert "Проверка раздачи. Зерно жеребьёвки — 7; контрольная сумма из первого сообщения" in plain
    drawn = _drawn(closing)
    assert drawn.startswith("7:Шериф=sheriff,Дон=don,Маф1=mafia,")
    # C-2: the string hashes to the commitment the opening post gave, and the post says how to check it
    assert hashlib.sha256(drawn.encode()).hexdigest() == _commitment(w)
    assert _commitment(w) in w.bot_posts("g1/game")[0][1]
    assert "Проверить в терминале" in plain and f"printf '%s' '{drawn}' | sha256sum" in plain
    with w.daemon.sessions.begin() as session:
        assert session.scalar(select(GameRow.stop_reason)) == "Сервер переезжает."


def test_the_stop_post_in_english(tmp_path):
    w = World(tmp_path, games=game_toml("g1") + 'language = "en"\n')
    try:
        closing = _stop(w, "The server moves.")
    finally:
        w.close()
    plain = closing.replace("[b]", "").replace("[/b]", "")
    assert plain.startswith("The game was stopped by the game master; there is no winner.\nReason: The server moves.\n")
    assert "Checking the draw. The seed is 7; the checksum in the first post is the SHA-256 of this string" in plain
    assert "To check it in a terminal" in plain and "| sha256sum" in plain


def test_a_stop_without_a_reason_names_none(world):
    closing = _stop(world, "")
    assert "Причина" not in closing and "Проверка раздачи" in closing


def test_an_exported_stopped_game_replays_into_the_same_closing_post_and_ends_stopped(world, tmp_path, capsys):
    w = world
    _stop(w, "Сервер переезжает.")
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now + timedelta(days=3))
    with w.daemon.sessions.begin() as session:
        ended = session.scalar(select(GameRow.ended_at))
        sent = [(r.due_at, r.where, r.to, r.text) for r in session.scalars(
            select(OutboxRow).where(OutboxRow.status == "sent").order_by(OutboxRow.due_at, OutboxRow.id))]
    assert transcript["stopped"] == {"at": ended.isoformat(), "reason": "Сервер переезжает."}
    assert transcript["until"] == ended.isoformat()
    result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
    replayed = [(m.at, str(m.where), m.to, m.text) for m in result.messages]
    assert replayed == sent  # the closing post included, byte for byte
    assert replayed[-1][3].startswith("[b]Игра остановлена ведущим")
    assert result.result.winner is None and result.phase == "stopped"
    # the CLI's replay says how it ended
    path = tmp_path / "g1.json"
    path.write_text(json.dumps(transcript, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "game still running" not in out
    assert out.rstrip().endswith("== stopped by the game master (02.12 11:01): no winner")


def test_a_transcript_whose_stop_is_not_its_end_is_refused(world):
    w = world
    _stop(w, "")
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
    transcript["until"] = (w.now + timedelta(days=1)).isoformat()
    try:
        replay.parse_transcript(transcript)
    except replay.TranscriptError as e:
        assert "stopped.at" in str(e) and "until" in str(e)
    else:
        raise AssertionError("a stop that is not the transcript's end was accepted")
