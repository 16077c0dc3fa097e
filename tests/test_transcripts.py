"""The example games end to end through `forumbot replay`, and the replay command's contract (DESIGN.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from forumbot import replay
from forumbot.cli.main import main

TRANSCRIPTS = Path(__file__).parent.parent / "fixtures" / "transcripts"


def run_json(name: str) -> dict:
    result, _ = replay.replay(replay.load(TRANSCRIPTS / f"{name}.json"))
    return replay.to_json(result)


def deaths(out: dict) -> dict[str, tuple[str, str]]:
    return {p["nick"]: (p["died"]["phase"], p["died"]["cause"]) for p in out["result"]["players"] if p["died"]}


def test_M10_M13_town_wins_after_hang_all_runoff() -> None:
    out = run_json("moscow_town_win_runoff")
    assert out["result"]["winner"] == "town"
    assert deaths(out) == {
        "Петя": ("day 1", "runoff"), "Вася": ("day 1", "runoff"), "Оля": ("night 1", "mafia"), "Коля": ("day 2", "vote"),
    }


def test_M13_mafia_win_at_parity() -> None:
    out = run_json("moscow_mafia_win")
    assert out["result"]["winner"] == "mafia"
    alive = [p for p in out["result"]["players"] if p["alive"]]
    assert len(alive) == 6 and sum(p["role"] in ("mafia", "don") for p in alive) == 3


def test_M13_draw_at_four_alive() -> None:
    out = run_json("moscow_draw")
    assert out["result"]["winner"] == "draw"
    assert sum(p["alive"] for p in out["result"]["players"]) == 4


def test_M6_three_misfires_town_wins() -> None:
    out = run_json("moscow_three_misfires")
    assert out["result"]["winner"] == "town"
    assert deaths(out) == {}
    game_posts = [m["text"] for m in out["messages"] if m["where"] == "game"]
    assert sum("несострел" in t for t in game_posts) == 3
    assert any("остаётся в игре" in t for t in game_posts)  # M-9 day-1 lone vote


def test_H14_maniac_wins() -> None:
    out = run_json("free_hunt_maniac_win")
    assert out["result"]["winner"] == "maniac"
    assert [p["nick"] for p in out["result"]["players"] if p["alive"]] == ["Глеб", "Даша"]


def test_H11_every_hunt_outcome_and_town_win() -> None:
    out = run_json("free_hunt_hunts_town_win")
    assert out["result"]["winner"] == "town"
    d = deaths(out)
    assert d["Егор"] == ("night 1", "failed_hunt")
    assert d["Даша"] == ("night 2", "hunt")
    assert d["Вера"] == ("night 3", "hunt")
    assert "Жора" not in d  # healed from the mafia (H-9)
    assert "Катя" not in d  # the Maniac killed on the hunt did not shoot (H-11, H-13)


def test_H4_H5_agitation_and_no_show_autokill() -> None:
    out = run_json("free_hunt_agitation_noshow")
    d = deaths(out)
    assert d["Иван"] == ("day 1", "autokill")
    assert d["Мила"] == ("day 2", "autokill")
    assert "Алиса" not in d and "Борис" not in d  # an autokill at the vote means nobody hangs (H-6)


def test_H14_stalemate_draw() -> None:
    assert run_json("free_hunt_stalemate_draw")["result"]["winner"] == "draw"


def test_replay_twice_is_byte_identical(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(TRANSCRIPTS / "free_hunt_hunts_town_win.json")
    assert main(["replay", path, "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["replay", path, "--json"]) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert set(data) == {"messages", "result", "log"}
    assert set(data["messages"][0]) == {"at", "where", "to", "text"}


def test_replay_delivers_every_message_to_the_memory_forum() -> None:
    result, forum = replay.replay(replay.load(TRANSCRIPTS / "moscow_town_win_runoff.json"))
    bot_posts = forum.posts_by("Ведущий-бот")
    bot_pms = [p.pm for p in forum.pms if p.pm.author == "Ведущий-бот"]
    assert len(bot_posts) + len(bot_pms) == len(result.messages)


def test_until_stops_the_clock_and_later_events_are_not_processed(tmp_path: Path) -> None:
    data = json.loads((TRANSCRIPTS / "moscow_mafia_win.json").read_text(encoding="utf-8"))
    data["until"] = "2026-12-02T09:00:00+03:00"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result, _ = replay.replay(replay.load(path))
    assert result.result.winner is None
    assert all(m.at.isoformat() <= data["until"] for m in result.messages)
    assert all(p.alive for p in result.result.players)


def _bad(tmp_path: Path, mutate) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    data = json.loads((TRANSCRIPTS / "free_hunt_maniac_win.json").read_text(encoding="utf-8"))
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, ensure_ascii=False) if not isinstance(data, str) else data, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "forumbot.cli.main", "replay", str(path)], capture_output=True, text=True)


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda d: d["players"].pop(), "Free Hunt is played by 12 to 17 players, got 11"),
        (lambda d: d["players"][0].update(role="werewolf"), "неизвестная роль 'werewolf'"),  # a Russian game's
        (lambda d: d["players"][1].update(nick=d["players"][0]["nick"]), "duplicate nickname"),
        (lambda d: d["players"][5].update(role="mafia"), "Free Hunt with 12 players allows"),
        (lambda d: d["players"][0].update(role="sheriff"), "role sheriff does not exist in the free_hunt variant"),
        (lambda d: d.pop("start"), "missing field 'start'"),
        (lambda d: d.update(variant="werewolves"), "unknown variant 'werewolves'"),
        (lambda d: d["events"][0].update(at="yesterday"), "events[1]: at 'yesterday' is not an ISO 8601 time"),
        (lambda d: d["events"][0].update(where="chat"), "where must be game, vote, signup, pm, shared, undelivered, not"),
        (lambda d: d.update(start="2026-12-01T10:00:00"), "has no UTC offset"),
        (lambda d: d.update(seed="seven"), "field 'seed' must be int"),
    ],
)
def test_setup_errors_exit_nonzero_with_one_clear_line(tmp_path: Path, mutate, expected: str) -> None:  # type: ignore[no-untyped-def]
    proc = _bad(tmp_path, mutate)
    assert proc.returncode != 0
    assert expected in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_malformed_json_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"variant": "moscow",', encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "forumbot.cli.main", "replay", str(path)], capture_output=True, text=True)
    assert proc.returncode != 0 and "not valid JSON" in proc.stderr and "Traceback" not in proc.stderr


def test_demo_replays_both_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "moscow.json" in out and "free_hunt.json" in out
    assert out.count("== winner: town") == 2


def run_without_options(name: str, tmp_path: Path) -> dict:
    """The same transcript under the variant's own clauses: what the house rule changed."""
    data = json.loads((TRANSCRIPTS / f"{name}.json").read_text(encoding="utf-8"))
    data["options"] = {}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result, _ = replay.replay(replay.load(path))
    return replay.to_json(result)


def died(out: dict) -> dict:
    return {p["nick"]: (p["died"]["phase"], p["died"]["cause"]) for p in out["result"]["players"] if p.get("died")}


def test_R8_draw_at_zero_plays_on_at_four_and_the_town_wins(tmp_path: Path) -> None:
    """Issue 12: a 10-player game with draw_at = 0 plays on at four alive; the town hangs the Don on day 4."""
    out = run_json("moscow_plays_on_at_four")
    assert out["result"]["winner"] == "town"
    assert died(out)["Петя"] == ("day 4", "vote") and died(out)["Дима"] == ("night 3", "mafia")
    assert sum(1 for p in out["result"]["players"] if p.get("died") is None) == 3
    plain = run_without_options("moscow_plays_on_at_four", tmp_path)
    assert plain["result"]["winner"] == "draw" and "Петя" not in died(plain)  # M-13 stops it after night 3


def test_R5_majority_twelve_players(tmp_path: Path) -> None:
    """Issue 12: a 12-player game with lynch = "majority": day 1's leader (under 7 of 12) stays, day 2's leaves."""
    out = run_json("free_hunt_majority")
    assert died(out) == {"Алиса": ("day 2", "vote")}
    texts = "\n".join(m["text"] for m in out["messages"])
    assert "Для повешения нужно больше половины голосов живых игроков" in texts
    assert "никто не уходит" in texts
    plain = run_without_options("free_hunt_majority", tmp_path)
    assert died(plain)["Алиса"] == ("day 1", "vote")  # H-6's plurality hangs her a day earlier
