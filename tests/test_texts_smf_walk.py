"""What read wrong to Russian players in a GM's walk-through of a Moscow game on the live SMF board, from
`forumbot init` to the end (issue 28, "Done means"). Game stories told with tests/gamekit.py; the Moscow cast:
Шериф, Дон, Маф1, Маф2, М1..М6."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gamekit import Game  # noqa: E402


def test_M7_a_post_with_more_than_a_name_is_told_why_it_is_no_vote():
    """«Кот Баюн «голос Дядя Фёдор» — это не голос.» left the player guessing what was wrong with it."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "голос М2")
    g.vote("day 1", "+1h", "М3", "М4, М5")
    r = g.run("day 1", "+3h")
    count = r.posts("vote")[-1]
    assert "Не засчитано: М1 «голос М2» — это не голос: в голосе должен быть только ник одного игрока, " \
           "без других слов и цитат." in count
    assert "Не засчитано: М3 «М4, М5» — это не голос: в голосе должен быть только ник одного игрока" in count


def test_M7_a_post_with_more_than_a_name_is_told_why_in_english():
    g = Game.moscow(language="en")
    g.vote("day 1", "+1h", "М1", "vote М2")
    r = g.run("day 1", "+3h")
    assert "М1 “vote М2” — not a vote: a vote is one player's name alone, with no other words or quotes." \
        in r.posts("vote")[-1]
