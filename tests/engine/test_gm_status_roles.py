"""issue 17 item 13: a GM's `статус` names every seat's role and the Don (GMs are trusted, C-9); nothing public
ever does; after the end it says how the game ended. Texts pinned in Russian and English."""

from __future__ import annotations

import pytest
from gamekit import MOSCOW_CAST, Game

RU_ROLES = ("Роли (видны только ведущим): Шериф — шериф; Дон — дон мафии; Маф1 — мафия; Маф2 — мафия; "
            "М1 — мирный житель; М2 — мирный житель; М3 — мирный житель; М4 — мирный житель; "
            "М5 — мирный житель; М6 — мирный житель — вне игры.")
EN_ROLES = ("Roles (shown to game masters only): Шериф — sheriff; Дон — mafia Don; Маф1 — mafia; Маф2 — mafia; "
            "М1 — civilian; М2 — civilian; М3 — civilian; М4 — civilian; М5 — civilian; М6 — civilian — out.")


@pytest.mark.parametrize("language,word,roles", [("ru", "статус", RU_ROLES), ("en", "status", EN_ROLES)])
def test_gm_status_lists_every_role_to_the_gm_only(language, word, roles):
    g = Game.moscow(language=language)
    g.gm("setup", "-1h", "модкилл М6")
    g.vote("day 1", "+1h", "М1", "М2")
    g.gm("day 1", "+2h", word)
    r = g.run("day 1", "+3h")
    status = r.pms("ГМ")[-1]
    assert status.splitlines()[-1] == roles
    # the public never sees it: no post, no player's PM
    role_word = roles.split(":")[0]
    assert not [m for m in r.run.messages if m.to != "ГМ" and role_word in m.text]


def test_the_answer_to_other_gm_commands_stays_short():
    g = Game.moscow()
    g.gm("day 1", "+2h", "продлить 1h")
    r = g.run("day 1", "+3h")
    assert "Роли (видны только ведущим)" not in r.pms("ГМ")[-1]


@pytest.mark.parametrize("language,word,line", [
    ("ru", "статус", "Дон ещё не выбран: мафия выбирает его до начала дня 1."),
    ("en", "status", "No Don yet: the mafia choose him before Day 1 begins."),
])
def test_gm_status_says_the_don_is_not_chosen_yet_when_the_mafia_choose_him(language, word, line):
    """M-1: roles drawn, three mafia, the Don chosen by them in Setup."""
    g = Game("moscow", [(n, None) for n, _ in MOSCOW_CAST], language=language)
    g.gm("day 1", "-1h", word)
    status = g.run("day 1", "-30m").pms("ГМ")[-1]
    assert status.splitlines()[-1] == line
    assert sum(" — мафия" in part or " — mafia" in part for part in status.split("; ")) == 3


@pytest.mark.parametrize("language,word,result,roles", [
    ("ru", "статус", "Игра окончена: победа города!", "Дон — дон мафии — вне игры"),
    ("en", "status", "Game over: the town wins!", "Дон — mafia Don — out"),
])
def test_gm_status_after_the_end_says_the_result(language, word, result, roles):
    g = Game.moscow(language=language)
    for nick in ("Дон", "Маф1", "Маф2"):
        g.gm("day 1", "+1h", f"модкилл {nick}")
    g.gm("day 1", "+2h", word)
    r = g.run("day 1", "+3h")
    assert r.winner == "town"
    status = r.pms("ГМ")[-1]
    assert result in status.splitlines() and roles in status
    assert "игра уже окончена" not in status and "the game is over" not in status


@pytest.mark.parametrize("language,pause,resume,word,first,after", [
    ("ru", "пауза", "продолжить", "статус",
     "Фаза: день 1, на паузе с 01.12 11:00 МСК; после «продолжить» до её конца останется 23 часа.",
     "Фаза: день 1, до 02.12 12:00 МСК."),
    ("en", "pause", "resume", "status",
     "Phase: day 1, paused since 01.12 11:00 MSK; after “resume” 23 hours of it will be left.",
     "Phase: day 1, until 02.12 12:00 MSK."),
])
def test_C1_status_while_paused_names_what_is_left_not_the_old_deadline(language, pause, resume, word, first, after):
    """C-1: a pause shifts the deadline by its length, so while paused the old deadline is not when the day
    ends; the GM's status says since when it is paused and what will be left (a GM's walk-through read
    «до 02.12 10:00» under «игра на паузе» and took it for the new deadline)."""
    g = Game.moscow(language=language)
    g.gm("day 1", "+1h", pause)
    g.gm("day 1", "+3h", word)
    g.gm("day 1", "+3h", resume)
    g.gm("day 1", "+4h", word)
    r = g.run("day 1", "+5h")
    statuses = [m.splitlines()[0] for m in r.pms("ГМ") if m.startswith(("Фаза", "Phase"))]
    assert statuses[-2:] == [first, after]
