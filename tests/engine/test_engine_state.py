"""The game value's one field list (issue 27 item 4): `freeze` and `thaw` copy every field by what `Fields` says
of it, so a Game shares no mutable container with the draft it was frozen from, and a Game cannot be written to."""

from __future__ import annotations

from collections import Counter
from dataclasses import FrozenInstanceError, fields, replace
from pathlib import Path
from types import MappingProxyType

import pytest

from forumbot import replay
from forumbot.engine.fold import play
from forumbot.engine.state import Fields, Game, freeze, thaw

TRANSCRIPTS = Path(__file__).parents[2] / "fixtures" / "transcripts"
MUTABLE = (list, dict, set, Counter)


def _game() -> Game:
    t = replay.load(TRANSCRIPTS / "moscow_town_win_runoff.json")
    game, _ = play(t.setup, t.events, None)
    return game


def test_issue27_a_game_holds_no_mutable_container_and_its_draft_shares_none() -> None:
    game = _game()
    draft = thaw(game)
    for f in fields(Fields):
        value, drafted = getattr(game, f.name), getattr(draft, f.name)
        assert not isinstance(value, MUTABLE), f.name
        if isinstance(drafted, MUTABLE):
            assert drafted is not value, f.name
    assert all(not isinstance(m, dict) for m in (game.moves.by_player, game.moves.hunts))
    assert freeze(draft) == game


def test_issue27_writing_to_the_draft_leaves_the_frozen_game_as_it_was() -> None:
    game = _game()
    draft = thaw(game)
    before = freeze(draft)
    draft.posts.append(draft.posts[0])
    draft.doomed.add("x")
    draft.agitations["x"] += 1
    next(iter(draft.seats.values())).alive = False
    assert freeze(draft) != before and before == game


def test_issue27_a_game_cannot_be_written_to_but_replace_makes_another() -> None:
    game = _game()
    with pytest.raises(FrozenInstanceError):
        game.winner = "mafia"
    with pytest.raises(FrozenInstanceError):
        del game.winner
    assert isinstance(game.accounts, MappingProxyType)
    other = replace(game, winner="mafia")
    assert other.winner == "mafia" and game.winner != "mafia" and other != game


def test_issue27_a_games_vote_posts_and_night_moves_are_values() -> None:
    game = _game()
    with pytest.raises(FrozenInstanceError):
        game.posts[0].voided = True
    with pytest.raises(FrozenInstanceError):
        game.moves.hunts = {}
    with pytest.raises(TypeError):  # a Game's maps are read-only (mappingproxy)
        game.moves.hunts["x"] = game.moves.hunts.get("x")
