"""Real games replayed with their house rules: the bot must reach the real GM's decisions (issue 12).

Each transcript in fixtures/transcripts/real/ is converted from a public record named in its `source` field and
in that folder's README.md; the expected decisions below are the record's, not the bot's.
"""

from __future__ import annotations

import json
from pathlib import Path

from forumbot import replay

REAL = Path(__file__).parent.parent / "fixtures" / "transcripts" / "real"


def replay_json(path: Path) -> dict:
    result, _ = replay.replay(replay.load(path))
    return replay.to_json(result)


def departures(out: dict) -> dict[str, tuple[str, str]]:
    return {p["nick"]: (p["died"]["phase"], p["died"]["cause"]) for p in out["result"]["players"] if p["died"]}


def day_posts(out: dict) -> list[str]:
    return [m["text"] for m in out["messages"] if m["where"] == "game"]


# mafiaratings.com game 1437, as its page records it (record "Day k" is our day k+1, "Night k" our night k)
MAFIARATINGS_1437 = {
    "Игрок 9": ("night 1", "mafia"),
    "Игрок 8": ("day 2", "vote"),    # record Day 1: all nine vote seat 8
    "Игрок 4": ("night 2", "mafia"),
    "Игрок 6": ("day 3", "vote"),    # record Day 2: 5 votes to 2
    "Игрок 1": ("night 3", "mafia"),
    "Игрок 2": ("day 4", "vote"),    # record Day 3: 3 votes to 2, leaving four alive
    "Игрок 7": ("night 4", "mafia"),  # record: "7 (maf) leaves the game. Town wins."
}


def test_R8_M13_real_game_mafiaratings_1437_plays_on_at_four_and_the_town_wins() -> None:
    """R-8 draw_at = 0: the real GM played on at four alive (the last mafioso and three civilians) and the town
    won on night 4; the bot's every day's outcome, night's death, end and winner are the GM's."""
    path = REAL / "mafiaratings_1437.json"
    assert json.loads(path.read_text(encoding="utf-8"))["source"].startswith("https://mafiaratings.com/")
    out = replay_json(path)
    assert departures(out) == MAFIARATINGS_1437
    assert out["result"]["winner"] == "town"
    assert out["result"]["ended_at"] == "2026-12-07T10:00:00+03:00"  # the end of night 4, as in the record
    assert sorted(p["nick"] for p in out["result"]["players"] if p["alive"]) == ["Игрок 10", "Игрок 3", "Игрок 5"]
    posts = day_posts(out)
    assert any("Итоги дня 1." in t and "никто не уходит" in t for t in posts)  # record Day 0: nobody left


def test_M13_the_same_real_game_without_its_house_rule_is_a_draw_at_four(tmp_path: Path) -> None:
    """Without draw_at = 0, M-13 would have ended the real game as a draw after day 4's vote: the option is what
    makes the bot agree with the real GM."""
    data = json.loads((REAL / "mafiaratings_1437.json").read_text(encoding="utf-8"))
    data["options"] = {}
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = replay_json(path)
    assert out["result"]["winner"] == "draw"
    assert "Игрок 7" not in departures(out) and departures(out)["Игрок 2"] == ("day 4", "vote")


def test_real_transcripts_are_regenerated_from_their_records() -> None:
    """The JSON is exactly what the converter writes from the typed-in record, so the record is the reviewable
    source and the two cannot drift apart."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("mafiaratings_1437", REAL / "mafiaratings_1437.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert json.loads((REAL / "mafiaratings_1437.json").read_text(encoding="utf-8")) == module.build()
