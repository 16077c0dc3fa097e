"""Issue 17 items 5-10 and the text bits of item 15: what players read, in Russian and English.

Casts (tests/gamekit.py): Moscow Шериф, Дон, Маф1, Маф2, М1..М6; Free Hunt Ф1..Ф3, Док, Ман, Г1..Г7.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from gamekit import Game, Result, opening, plain  # noqa: E402

MAJORITY = ["Шериф", "Маф1", "Маф2", "М1", "М2", "М3", "М4", "М5", "М6"]


def pm_after(r: Result, to: str, inp) -> str:  # type: ignore[no-untyped-def]
    return next(plain(m.text) for m in r.run.messages if m.to == to and m.key == f"pm/{inp.id}")


def sheriff_and_don_dead(language: str) -> Game:
    """Night 1 the mafia shoot the Sheriff; Day 2 the town hangs the Don: nobody alive can check."""
    g = Game.moscow(language=language)
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить Шериф")
    g.votes("day 2", {v: "Дон" for v in MAJORITY if v != "Шериф"})
    return g


# ============================================================ item 5: the night post leaks no dead role (M-2)


@pytest.mark.parametrize("language, how", [
    ("ru", "Как писать: «проверка НИК», «убить НИК»."),
    ("en", "How to write them: “check NICK”, “kill NICK”."),
])
def test_M2_closed_roles_night_post_lists_the_cast_moves_after_the_checkers_died(language: str, how: str) -> None:
    r = sheriff_and_don_dead(language).run("night 2", "+1h")
    assert r.died("Шериф") == ("night 1", "mafia") and r.died("Дон") == ("day 2", "vote")
    for n in (1, 2):
        post = plain(opening(r, f"night {n}").text)
        assert how in post, post


def test_H2_open_roles_night_post_still_lists_what_the_living_can_do() -> None:
    """Free Hunt reveals roles (H-2): naming only the moves still possible leaks nothing, and stays so."""
    g = Game.free_hunt()
    voters = [n for n, _ in g.cast]
    for i, v in enumerate(voters):  # an all-way tie: nobody leaves, nobody is a no-show
        g.vote("day 1", "+1h", v, voters[(i + 1) % len(voters)])
    r = g.run("night 1", "+1h")
    assert "«охота НИК маф|маньяк»" in plain(opening(r, "night 1").text)


# ================================================ item 7: Russian grammar in PMs (C-12 amended), strict votes


@pytest.mark.parametrize("language, ack, ambiguous, vote_rejected", [
    ("ru", "Принято: выстрел. Цель — Шериф.", "ник подходит нескольким игрокам: Печкин 1, Печкин 2",
     "Не засчитано: М3 «Шерифа» — нет игрока с таким ником."),
    ("en", "Accepted: shot. Target — Шериф.", "the name fits several players: Печкин 1, Печкин 2",
     "Not counted: М3 «Шерифа» — no player by that name."),
])
def test_C12_inflected_pm_target_is_understood_and_named_the_vote_thread_stays_strict(
        language: str, ack: str, ambiguous: str, vote_rejected: str) -> None:
    g = Game.moscow(language=language)
    g.cast[4:6] = [("Печкин 1", g.cast[4][1]), ("Печкин 2", g.cast[5][1])]
    g.vote("day 1", "+1h", "М3", "Шерифа")  # M-7, H-3: the vote thread reads no inflected form
    shots = [g.pm("night 1", "+1h", m, "убить Шерифа") for m in ("Дон", "Маф1")]
    shots.append(g.pm("night 1", "+1h", "Маф2", "стреляю в Шерифа"))
    check = g.pm("night 1", "+1h", "Шериф", "проверка Печкина")
    r = g.run("day 2", "+1h")
    assert all(pm_after(r, m.author, m) == ack for m in shots)
    assert ambiguous in pm_after(r, "Шериф", check)
    assert r.died("Шериф") == ("night 1", "mafia")
    assert vote_rejected in r.text().replace("“", "«").replace("”", "»")
