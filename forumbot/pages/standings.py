"""S-6 on the season index: the standings document (`standings.json`, written by `forumbot season standings
--pages` from the finished games' exports) as the table's rows, each player's games linked to their pages.

The document holds only finished games (roles public once a game ended); a game named in it is linked only when
the site has its folder."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from forumbot.pages.words import Words

SIDES = ("town", "mafia", "maniac")


def standings_rows(doc: dict[str, Any] | None, words: Words, games: set[str]) -> list[dict[str, Any]]:
    """One dict per row: place, nick, rating, the counts, a side's share in words, and the games (name, linked)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("standings"), list):
        return []
    rows = []
    for r in doc["standings"]:
        try:
            sides = [_share(words, r["sides"][side]) for side in SIDES]
            rows.append(dict(place=int(r["place"]), nick=str(r["nick"]), rating=str(r["rating"]),
                             games=int(r["games"]), wins=int(r["wins"]), sides=sides, survived=int(r["survived"]),
                             modkills=int(r["modkills"]),
                             played=[(str(name), str(name) in games) for name in r["played"]]))
        except (KeyError, TypeError, ValueError, InvalidOperation):
            return []  # not ours, or half-written by hand: the index shows the games alone
    return rows


def counted(doc: dict[str, Any] | None) -> int:
    """How many finished games the standings count."""
    return len(doc["games"]) if isinstance(doc, dict) and isinstance(doc.get("games"), list) else 0


def _share(words: Words, side: dict[str, Any]) -> str:
    if not side["games"]:
        return "—"
    percent = (Decimal(str(side["share"])) * 100).quantize(Decimal(1), ROUND_HALF_UP)
    return words("season.share", share=percent, wins=int(side["wins"]), games=int(side["games"]))
