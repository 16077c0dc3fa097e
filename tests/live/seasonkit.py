"""What the live season tests (test_phpbb_season.py, test_mybb_season.py) share: reading the bot's new PMs, and
S-6's standings checked against a rating computed here on its own, through `forumbot season standings` (`--json`,
and `--pages` for the season index page)."""

from __future__ import annotations

import json
from pathlib import Path

from boards import Member
from livegame import LiveGame

# a seat's side at the game's end, by its role as the role PM names it (R-10's roles of both variants)
SIDE = {"sheriff": "town", "civilian": "town", "doctor": "town", "mafia": "mafia", "don": "mafia",
        "maniac": "maniac"}


def new_pms(member: Member, bot: str, seen: set[str]) -> list[str]:
    return [m.text for m in member.pms_from(bot) if m.id not in seen]


def pm_ids(member: Member, bot: str) -> set[str]:
    return {m.id for m in member.pms_from(bot)}


def between(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


def rated(games: list[tuple[dict[str, str], set[str]]]) -> dict[str, float]:
    """S-6's rating, computed here on its own: each game (its seats' sides at the end, the town won, the
    modkilled scoring 0) moves each player by K × (S − E) against the mean ratings at its start."""
    ratings: dict[str, float] = {}
    for sides, forfeited in games:
        start = {n: ratings.get(n, 1500.0) for n in sides}
        for nick, side in sides.items():
            mine = [start[n] for n, s in sides.items() if s == side]
            others = [start[n] for n, s in sides.items() if s != side]
            e = 1 / (1 + 10 ** ((sum(others) / len(others) - sum(mine) / len(mine)) / 400))
            score = 0.0 if nick in forfeited else 1.0 if side == "town" else 0.0
            ratings[nick] = start[nick] + 20 * (score - e)
    return ratings


def check_standings(game: LiveGame, names: list[str], games: list[tuple[dict[str, str], set[str]]],
                    site: Path) -> dict:
    """S-6 over the season's games `names`, each won by the town and given here as (its seats' sides at the end,
    the modkilled): `season standings --json` ranks exactly those seats by the rating `rated` computes; `--pages`
    writes the same document, byte for byte, into the season index, whose page counts the games and names
    each of them and every ranked player. Returns the document."""
    ratings = rated(games)
    done = game.cli("season", "standings", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert [(g["game"], g["winner"]) for g in doc["games"]] == [(n, "town") for n in names], doc["games"]
    rows = doc["standings"]
    assert {r["nick"] for r in rows} == set(ratings), (sorted(r["nick"] for r in rows), sorted(ratings))
    for r in rows:
        nick = r["nick"]
        assert abs(float(r["rating"]) - ratings[nick]) < 0.051, (nick, r["rating"], ratings[nick])
        assert r["games"] == sum(nick in seats for seats, _ in games), r
        assert r["modkills"] == sum(nick in modkilled for _, modkilled in games), r
        assert r["wins"] == sum(seats.get(nick) == "town" for seats, _ in games), r
    assert [float(r["rating"]) for r in rows] == sorted((float(r["rating"]) for r in rows), reverse=True)
    assert [r["place"] for r in rows][0] == 1
    text = game.cli("season", "standings", "--pages", str(site))
    assert text.returncode == 0 and text.stdout.startswith(f"{len(names)} finished game(s): {', '.join(names)}"), \
        text.stdout + text.stderr
    # the second process's document, byte for byte: the same exports give the same table (no third run for it)
    assert (site / "standings.json").read_bytes().decode("utf-8") == done.stdout, "the same exports gave another table"
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f"Рейтинг пересчитан по {len(names)} завершённым играм сезона" in index, index[-3000:]
    assert all(name in index for name in names) and all(r["nick"] in index for r in rows), index[-3000:]
    return doc
