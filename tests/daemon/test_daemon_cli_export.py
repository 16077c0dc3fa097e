"""issue 11 item 10: `forumbot game export` writes a stored game as a transcript that `forumbot replay` plays into
the messages the daemon sent and the result its fold reached: the dispute tool works on real games."""

from __future__ import annotations

import json
from datetime import timedelta

from daemon_world import CAST, GM, STEPS, play, world  # noqa: F401 (a fixture)

from forumbot import replay
from forumbot.cli.main import main
from forumbot.games.export import export_game
from forumbot.store.models import GameRow, OutboxRow
from forumbot.store.game import fold_game
from sqlalchemy import select


def _sent(w) -> list[tuple]:
    with w.daemon.sessions.begin() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.status == "sent", OutboxRow.origin == "core")
                               .order_by(OutboxRow.due_at, OutboxRow.id))
        return [(r.due_at, r.where, r.to, r.text) for r in rows]


def _replayed(transcript: dict) -> tuple[list[tuple], object]:
    result, _ = replay.replay(replay.parse_transcript(json.loads(json.dumps(transcript))))
    return [(m.at, str(m.where), m.to, m.text) for m in result.messages], result


def _play_with_replacement_and_edit(w) -> None:
    """The scripted game, plus what only the store knows: an edited vote (C-11), a replacement the forum lacks
    (facts), and one it has (the seat changes hands)."""
    w.forum.accounts = {n for n, _ in CAST} | {GM, "Новичок"}
    play(w)
    w.now = STEPS[-1][0] + timedelta(hours=1)
    w.pm(GM, "замена М3 Призрак")  # no such account: refused, recorded as a fact
    w.pm(GM, "замена М4 Новичок")
    w.tick()
    w.now += timedelta(hours=1)
    post = w.post("vote", "Новичок", "Дон")
    w.tick()
    w.now += timedelta(minutes=10)
    w.forum.edit_post(post.id, "Маф2", w.now - timedelta(minutes=1))
    w.tick()


def test_an_exported_game_replays_into_what_the_daemon_sent_and_folded(world):
    w = world
    _play_with_replacement_and_edit(w)
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
    assert transcript["seed"] == 7 and [p["nick"] for p in transcript["players"]] == [n for n, _ in CAST]
    assert any(e.get("missing_accounts") == ["Призрак"] for e in transcript["events"])
    assert any(e["where"] == "pm" and e["from"] == GM for e in transcript["events"])
    assert any("first_text" in e for e in transcript["events"])
    messages, result = _replayed(transcript)
    sent = _sent(w)
    assert len(sent) > 20
    assert messages == sent
    folded = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert replay.to_json(result)["result"] == replay.to_json(folded)["result"]
    assert result.phase == folded.phase
    seats = {p.nick for p in result.result.players}
    assert "Новичок" in seats and "М4" not in seats  # the replaced seat kept, under its new player


def test_an_ended_game_exports_to_its_end(world):
    """Played to the end, the export's `until` is where the game ended, and replay gives its winner, however
    long after the end the export runs."""
    w = world
    play(w)
    w.now += timedelta(hours=1)
    w.pm(GM, "модкилл Дон")
    w.pm(GM, "модкилл Маф2")
    w.tick()
    w.now += timedelta(minutes=5)
    w.tick()
    with w.daemon.sessions.begin() as session:
        game = session.scalar(select(GameRow).where(GameRow.name == "g1"))
        status, ended_at = game.status, game.ended_at
    assert status == "ended"
    transcript = export_game(w.daemon.sessions, w.config, "g1", w.now + timedelta(days=30))
    assert transcript["until"] == ended_at.isoformat()
    messages, result = _replayed(transcript)
    assert messages == _sent(w)
    assert result.result.winner == "town"


def test_game_export_on_the_command_line_writes_a_file_replay_reads(world, tmp_path, capsys):
    w = world
    play(w, upto=3)
    out = tmp_path / "g1.json"
    assert main(["game", "export", "g1", "-o", str(out), "--until", w.now.isoformat(),
                 "-c", str(w.config_path)]) == 0
    assert main(["replay", "--json", str(out)]) == 0
    captured = capsys.readouterr()
    # issue 28 item 3: a Russian game's GM reads the note in Russian
    assert captured.err.startswith(f"записан {out} (событий: ") and f"воспроизвести: `forumbot replay {out}`" in captured.err
    replayed = json.loads(captured.out)
    assert [m["text"] for m in replayed["messages"]] == [text for *_, text in _sent(w)]
    assert main(["game", "export", "nope", "-c", str(w.config_path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "нет игры «nope»: export читает темы игры" in err


def test_game_export_answers_an_english_games_gm_in_english(world, tmp_path, capsys):
    """issue 28 item 3: the export's note and refusals in the game's language (a Russian one's above)."""
    w = world
    text = w.config_path.read_text(encoding="utf-8")
    w.config_path.write_text(text.replace('forum = "main"', 'forum = "main"\nlanguage = "en"', 1), encoding="utf-8")
    assert main(["game", "export", "g1", "-c", str(w.config_path)]) == 2
    assert "game 'g1' was never started; there is nothing to export" in capsys.readouterr().err
    play(w, upto=1)
    out = tmp_path / "g1.json"
    assert main(["game", "export", "g1", "-o", str(out), "-c", str(w.config_path)]) == 0
    assert capsys.readouterr().err.startswith(f"wrote {out} (")
    assert main(["game", "export", "nope", "-c", str(w.config_path)]) == 2
    assert "no game named 'nope' in " in capsys.readouterr().err


def test_a_game_with_drawn_roles_and_rough_times_round_trips(tmp_path):
    """Roles left to the seed (the Moscow Don chosen in Setup, M-1) are drawn again from the exported seed; a post
    whose time the forum showed only roughly keeps its span (C-1), one deleted before the deadline its deletion
    (C-11)."""
    from daemon_world import World, game_toml

    w = World(tmp_path, games=game_toml("g1", players=[(n, "") for n, _ in CAST]))
    try:
        play(w, upto=2)
        w.now += timedelta(minutes=10)  # after the 12:00 count the daemon already posted
        w.forum.add_post("g1/vote", "М6", "М1", w.now - timedelta(minutes=3), latest=w.now - timedelta(minutes=2))
        gone = w.post("vote", "М5", "М1")
        w.post("game", "М5", "передумал", ago=timedelta(seconds=10))
        w.post("vote", "М4", "Маф1", ago=timedelta(seconds=10))  # a later post: the gap is a deletion (C-11)
        w.tick()
        w.forum.delete_post(gone.id)
        for at, act in STEPS[3:]:
            w.now = at
            act(w)
            w.tick()
        transcript = export_game(w.daemon.sessions, w.config, "g1", w.now)
        assert all("role" not in p for p in transcript["players"]) and transcript["seed"] == 7
        assert any("at_latest" in e for e in transcript["events"])
        assert any("deleted_at" in e for e in transcript["events"])
        messages, result = _replayed(transcript)
        assert messages == _sent(w)
        folded = fold_game(w.daemon.sessions, w.config, "g1", w.now)
        assert replay.to_json(result)["result"] == replay.to_json(folded)["result"]
    finally:
        w.close()
