"""C-3 (amended): who posted is the forum account as the forum names it, case aside; C-4 folding is for names
players write, never for the author (issue 7 item 10). The same holds for votes, game-thread posts and PMs."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from gamekit import Game, plain  # noqa: E402

from forumbot.store import game as stored_game  # noqa: E402
from forumbot.parse import account_key  # noqa: E402

# Accounts that C-4 would fold into "М1" (Cyrillic М, digit 1) but that are other accounts on the forum.
IMPOSTORS = [
    "М1.",  # trailing punctuation
    "M1",  # Latin M
    "М1 ",  # trailing space: adapters strip what HTML layout adds, so one left over is part of the name
    "М\u200b1",  # zero-width space inside
    "\ufeffМ1",  # byte-order mark in front
    "Ｍ1",  # fullwidth M (NFKC would fold it)
]


def final_count(r) -> str:
    return next(plain(m.text) for m in r.run.messages if m.where == "game" and "Итоговый подсчёт голосов (день 1)" in plain(m.text))


@pytest.mark.parametrize("account", IMPOSTORS)
def test_C3_impostor_account_vote_is_not_the_players_vote(account: str) -> None:
    """Issue 7 item 10: `М1.` etc. posting in the vote thread changed М1's vote; it is a non-player's post."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3")
    g.vote("day 1", "+2h", account, "М4")  # would be М1's vote change if folded like a nickname
    g.vote("day 1", "+1h", "М2", "М3")
    g.vote("day 1", "+1h", "М5", "М4")
    r = g.run("night 1", "+1h")
    assert r.died("М3") == ("day 1", "vote")
    assert r.alive("М4")
    assert f"Не засчитано: {account} «М4» — автор не участвует в этой игре" in final_count(r)


def test_C3_account_differing_only_in_case_is_the_same_account() -> None:
    """C-3 ignores case (forums keep names unique regardless of case): `м1` is М1's account."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3")
    g.vote("day 1", "+2h", "м1", "М4")
    g.vote("day 1", "+1h", "М2", "М4")
    r = g.run("night 1", "+1h")
    assert r.died("М4") == ("day 1", "vote")


@pytest.mark.parametrize("account", IMPOSTORS)
def test_C3_impostor_account_pm_is_not_the_players_move(account: str) -> None:
    """A tactical modkill (M-12) PM'd by `М1.` does not take М1 out; nor is it answered as his."""
    g = Game.moscow()
    g.pm("day 1", "+1h", account, "модкилл")
    r = g.run("night 1", "+1h")
    assert r.alive("М1")
    assert r.pms(account) == []


@pytest.mark.parametrize("account", IMPOSTORS)
def test_C3_impostor_account_cannot_give_a_dead_players_last_word_or_a_runoff_speech(account: str) -> None:
    """Game-thread posts (C-8, M-10): a post by `М1.` is not М1's, so М1 keeps his own last word."""
    g = Game.moscow()
    g.votes("day 1", {"М2": "М1", "М3": "М1"})
    g.post("night 1", "+1h", account, "последнее слово")
    g.post("night 1", "+2h", "М1", "моё последнее слово")
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("day 1", "vote")
    # the impostor's post is no last word and no extra post of М1's; М1's own post (t4) is his last word
    assert not any(m.key.endswith("/dead") for m in r.run.messages)
    assert "night 1: last word of М1 (t4)" in r.run.log


def test_C3_impostor_account_is_not_a_gm() -> None:
    """C-9: only the configured GM account commands (case aside); `ГМ.` is someone else."""
    g = Game.moscow()
    g.pm("day 1", "+1h", "ГМ.", "модкилл М3")
    g.pm("day 1", "+1h", "гм", "модкилл М4")
    r = g.run("day 1", "+2h")
    assert r.alive("М3")
    assert not r.alive("М4")


@pytest.mark.parametrize("account", ["М3.", "M3", "М\u200b3"])
def test_C9_replace_takes_the_new_account_exactly_as_written(account: str) -> None:
    """`замена М3 NEW`: NEW is an account name, so an account `М3.` is new and the old М3 no longer plays."""
    g = Game.moscow()
    g.gm("day 1", "+1h", f"замена М3 {account}")
    g.vote("day 1", "+2h", "М3", "М4")  # the replaced account: no longer a player
    g.vote("day 1", "+2h", account, "М5")
    g.vote("day 1", "+2h", "М2", "М5")
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")
    assert r.alive("М4")


@pytest.mark.parametrize("account", IMPOSTORS)
def test_C3_pm_routing_matches_accounts_exactly_case_aside(account: str) -> None:
    """tick routes a stored PM to a game by its forum-authenticated author, compared with `account_key`."""
    game = SimpleNamespace(name="Игра", pm_subject="")
    members = {account_key("М1"), account_key("ГМ")}
    assert not stored_game._routed_here(SimpleNamespace(author=account, subject=""), game, members, [])
    assert stored_game._routed_here(SimpleNamespace(author="м1", subject=""), game, members, [])


def test_C3_account_key_is_casefold_only() -> None:
    assert account_key("Маша") == account_key("МАША") == account_key("маша")
    assert account_key("STRASSE") == account_key("straße")
    for other in ["Маша.", "Mаша", "Ма\u200bша", "Маша ", " Маша", "Мaшa"]:
        assert account_key(other) != account_key("Маша")
