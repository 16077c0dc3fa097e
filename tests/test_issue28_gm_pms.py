"""Issue 28 (the XenForo walk-through's "still reads wrong"): the GMs got no PM at a night's result or at the
game's end, and the account a `замена` took the seat from (C-9, S-4) got none telling it it was out.

Decided: every GM gets one short PM at each night's result (its deaths with their roles and causes, a misfire or
a quiet night: it happens out of the GMs' sight, by PMs to the bot) and one at the end (who won); each with the
way to the bot's post, the newest in the game thread. Not an option: one PM a night to the people running the
game, and the end. When a night ends the game (C-7) the GMs get one PM saying both. Outbox keys are the phase's
(`night N/gm/GM`, `ended/gm/GM`, `gm/ID/unseated`): a fold made again says the same under the same keys."""

from __future__ import annotations

from dataclasses import replace

import pytest

from forumbot.game import run
from gamekit import Game

GAME_URL = "https://forum.example.org/viewtopic.php?t=1"


def _night_kill(language: str = "ru") -> Game:
    g = Game.moscow(language=language)
    g.votes("day 1", {"М1": "ннв"})
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить М2")
    return g


def _gm_pms(g: Game, until: str) -> dict[str, str]:
    r = run(replace(g.setup(), game_url=GAME_URL), g.events, g.at(until, "+1h"))
    return {m.key: m.text for m in r.messages if m.to == "ГМ" and m.key.endswith("/gm/ГМ")}


@pytest.mark.parametrize("language, text", [
    ("ru", f"Ночь 1: М2 (мирный житель) — убийство мафией.\nИтог бот опубликовал в [url={GAME_URL}]игровой теме[/url]."),
    ("en", f"Night 1: М2 (civilian) — killed by the mafia.\nThe bot posted the result in [url={GAME_URL}]the game "
           "thread[/url]."),
])
def test_issue28_each_gm_is_told_the_nights_result_with_the_way_to_the_post(language: str, text: str) -> None:
    assert _gm_pms(_night_kill(language), "day 2") == {"night 1/gm/ГМ": text}


def test_issue28_a_quiet_night_and_a_misfire_are_told_too() -> None:
    g = Game.moscow()
    g.votes("day 1", {"М1": "ннв"})
    g.pm("night 1", "+1h", "Дон", "убить М2")
    g.pm("night 1", "+1h", "Маф1", "убить М3")  # M-5: not unanimous, a misfire
    assert _gm_pms(g, "day 2")["night 1/gm/ГМ"].startswith("Ночь 1: несострел.\n")
    quiet = Game.free_hunt()
    quiet.votes("day 1", {n: "Ф1" for n in ("Г1", "Г2", "Г3", "Г4", "Г5", "Г6", "Г7", "Ф2", "Ф3", "Док", "Ман")})
    assert _gm_pms(quiet, "day 2")["night 1/gm/ГМ"].startswith("Ночь 1: никто не погиб.\n")


def test_issue28_the_end_is_told_once_with_the_night_that_ended_it() -> None:
    g = Game.moscow()
    for i, n in enumerate(("М1", "М2", "М3")):
        g.gm("day 1", f"+{i + 1}h", f"модкилл {n}")
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить М4")  # 3 mafia against 3: M-13
    assert _gm_pms(g, "day 2") == {"ended/gm/ГМ": (
        f"Ночь 1: М4 (мирный житель) — убийство мафией.\nИгра окончена: победа мафии!\n"
        f"Итог бот опубликовал в [url={GAME_URL}]игровой теме[/url].")}


def test_issue28_the_end_after_a_day_is_told_in_the_gms_language() -> None:
    g = Game.free_hunt(language="en")
    g.vote("day 1", "+1h", "Г1", "Г2")  # H-5: every other player is autokilled for not voting, the town wins
    pms = _gm_pms(g, "night 1")
    assert pms == {"ended/gm/ГМ": f"Game over: the town wins!\nThe bot posted the result in [url={GAME_URL}]the game "
                                  "thread[/url]."}


def test_issue28_a_fold_made_again_says_the_same_under_the_same_keys() -> None:
    """The outbox sends a key once: a later fold (the next tick) must make the same message under the same key."""
    g = _night_kill()
    first, later = _gm_pms(g, "day 2"), _gm_pms(g, "day 3")
    assert first.items() <= later.items()


@pytest.mark.parametrize("language, text", [
    ("ru", "Ведущий передал ваше место в игре аккаунту Сменщик: вы больше не участвуете. Ваши ходы и голоса не "
           "засчитываются; пожалуйста, не раскрывайте свою роль."),
    ("en", "The GM gave your seat in the game to Сменщик: you no longer play. Your moves and votes no longer count; "
           "please keep your role to yourself."),
])
def test_issue28_c9_the_replaced_account_is_told_it_is_out(language: str, text: str) -> None:
    g = Game.moscow(language=language)
    g.gm("day 1", "+1h", "замена М1 Сменщик")
    r = g.run("day 1", "+2h")
    assert r.pms("М1")[-1] == text
    assert [m.key for m in r.run.messages if m.to == "М1"][-1] == "gm/t1/unseated"
    assert text not in r.pms("Сменщик")  # the seat keeps «М1» as its id: the newcomer is not told he is out
