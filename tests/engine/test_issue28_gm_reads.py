"""Issue 28, what GMs still read wrong (stop 36's walk-throughs): each text pinned in Russian and English.

The Moscow cast of the kit: Sheriff Шериф; Don Дон; mafia Маф1, Маф2; civilians М1..М6."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import Game, plain  # noqa: E402

TOWN = ("Шериф", "М2", "М3", "М4", "М5", "М6")

ENDED = {
    "ru": ["Игра окончена: победа города!",
           "В живых к концу игры — 6 игроков: Шериф, М2, М3, М4, М5, М6."],
    "en": ["Game over: the town wins!",
           "Alive at the end — 6 players: Шериф, М2, М3, М4, М5, М6."],
}
ROLES = {"ru": "Роли (объявлены в итоге игры): Шериф — шериф; Дон — дон мафии — вне игры;",
         "en": "Roles (published in the game's result): Шериф — sheriff; Дон — mafia Don — out;"}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_C7_a_gms_status_after_the_end_says_who_won_and_who_was_alive_at_the_end(language: str) -> None:
    """«В игре 5 игроков» after the end read as if the game still ran; «Фаза: игра окончена» beside «Игра окончена:
    победа города!» said the end twice."""
    g = Game.moscow(language=language)
    g.votes("day 1", {who: "Маф1" for who in TOWN})
    for mafia in ("Дон", "Маф2"):
        g.pm("night 1", "+1h", mafia, "убить М1")
    g.votes("day 2", {who: "Маф2" for who in TOWN})
    g.votes("day 3", {who: "Дон" for who in TOWN})  # the last of the mafia: the town wins
    g.gm("night 3", "+1h", "статус")
    r = g.run("night 3", "+2h")
    status = plain(r.pms("ГМ")[-1]).splitlines()
    assert status[:2] == ENDED[language], status
    assert not any(line.startswith(("Фаза", "Phase", "В игре", "In the game")) for line in status), status
    assert status[2].startswith(ROLES[language]), status  # the result post has published them
