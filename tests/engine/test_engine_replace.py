"""Issue 7 item 11: after a GM `replace` (C-9) every move, check, shot, heal, hunt and vote of the seat is
played by the new account, and moves naming the new account reach the seat.

Seats keep their original nickname as their id; the rules must look moves up by that id, never by the nick the
seat is played under now (the bug: Moscow's mafia shot was looked up under the new nick, so every night after a
mafia member was replaced misfired; Free Hunt's hunt killed by nick and raised KeyError).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import HUNT_CAST, Game, plain  # noqa: E402

from forumbot.model import Role  # noqa: E402

HUNT_PLAYERS = [n for n, _ in HUNT_CAST]


def _moscow_replaced(old: str, new: str) -> Game:
    g = Game.moscow()
    g.gm("day 1", "+1h", f"замена {old} {new}")
    g.votes("day 1", {"М1": "ннв"})
    return g


# ------------------------------------------------------------------------------------------------ Moscow


def test_item11_moscow_replaced_mafioso_shoots_with_the_others():
    """M-5 after C-9 replace: the unanimous shot of Дон, the replacement and Маф2 kills (was a misfire)."""
    g = _moscow_replaced("Маф1", "Сменщик")
    for m in ("Дон", "Сменщик", "Маф2"):
        g.pm("night 1", "+1h", m, "убить М2")
    r = g.run("day 2", "+1h")
    assert r.died("М2") == ("night 1", "mafia")


def test_item11_moscow_three_nights_after_replace_are_not_misfires():
    """M-6: three nights of unanimous shots after a replace kill three players; the town is not handed the win."""
    g = _moscow_replaced("Маф2", "Сменщик")
    for n, target in ((1, "М2"), (2, "М3"), (3, "М4")):
        if n > 1:
            g.votes(f"day {n}", {"М1": "ннв"})
        for m in ("Дон", "Маф1", "Сменщик"):
            g.pm(f"night {n}", "+1h", m, f"убить {target}")
    r = g.run("day 4", "+1h")
    assert r.winner is None
    assert [r.died(x) for x in ("М2", "М3", "М4")] == [("night 1", "mafia"), ("night 2", "mafia"), ("night 3", "mafia")]


def test_item11_moscow_old_account_of_a_replaced_mafioso_shoots_nothing():
    g = _moscow_replaced("Маф1", "Сменщик")
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить М2")
    r = g.run("day 2", "+1h")
    assert r.alive("М2")  # Маф1's account no longer plays: the seat did not shoot (M-5: misfire)


def test_item11_moscow_mafia_shoot_a_replaced_player():
    g = _moscow_replaced("М3", "Новичок")
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить Новичок")
    r = g.run("day 2", "+1h")
    assert r.died("Новичок") == ("night 1", "mafia")


def test_item11_moscow_replaced_don_checks_and_shoots():
    g = _moscow_replaced("Дон", "Новый Дон")
    g.pm("night 1", "+1h", "Новый Дон", "проверка Шериф\nубить М2")
    for m in ("Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить М2")
    r = g.run("day 2", "+1h")
    assert r.died("М2") == ("night 1", "mafia")
    assert any("Шериф — шериф" in t for t in r.pms("Новый Дон")), r.pms("Новый Дон")


def test_item11_moscow_sheriff_checks_a_replaced_mafioso_and_don_a_replaced_sheriff():
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена Маф1 Сменщик")
    g.gm("day 1", "+1h", "замена Шериф Новый")
    g.votes("day 1", {"М1": "ннв"})
    g.pm("night 1", "+1h", "Новый", "проверка Сменщик")
    g.pm("night 1", "+1h", "Дон", "проверка Новый")
    r = g.run("day 2", "+1h")
    assert any("Сменщик — мафия" in t for t in r.pms("Новый")), r.pms("Новый")
    assert any("Новый — шериф" in t for t in r.pms("Дон")), r.pms("Дон")


def test_item11_moscow_votes_by_and_for_a_replaced_player():
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М3 Новичок")
    g.gm("day 1", "+1h", "замена М4 Другой")
    g.votes("day 1", {"Новичок": "Другой", "М1": "Другой", "М2": "Новичок"}, offset="+2h")
    r = g.run("night 1", "+1h")
    assert r.died("Другой") == ("day 1", "vote")
    assert r.alive("Новичок")


def test_item11_moscow_replaced_in_setup_nominated_don_and_tactical_modkill():
    g = Game("moscow", [("Шериф", Role.SHERIFF)] + [(f"Маф{i}", None) for i in (1, 2, 3)]
             + [(f"М{i}", Role.CIVILIAN) for i in range(1, 7)])
    g.gm("setup", "-5h", "замена Маф1 Сменщик")
    for m in ("Сменщик", "Маф2", "Маф3"):
        g.pm("setup", "-4h", m, "дон Сменщик")
    g.pm("day 1", "+1h", "Сменщик", "модкилл")
    r = g.run("day 1", "+2h")
    assert r.player("Сменщик").role is Role.DON
    assert r.died("Сменщик") == ("day 1", "modkill")


# ------------------------------------------------------------------------------------------------ Free Hunt


def _hunt_replaced(pairs: dict[str, str]) -> tuple[Game, list[str]]:
    g = Game.free_hunt(language="en")
    for old, new in pairs.items():
        g.gm("setup", "-5h", f"replace {old} {new}")
    players = [pairs.get(n, n) for n in HUNT_PLAYERS]
    for i, v in enumerate(players):  # a ring: an all-way tie, nobody leaves, nobody is a no-show (H-5, H-6)
        g.vote("day 1", "+1h", v, players[(i + 1) % len(players)])
    return g, players


def test_item11_free_hunt_hunt_kills_a_replaced_mafioso():
    """H-11 on a replaced seat: the hunt that kills the new account resolves (was KeyError, game stuck)."""
    g, _ = _hunt_replaced({"Ф1": "Сменщик"})
    g.pm("night 1", "+1h", "Г1", "hunt Сменщик")
    r = g.run("day 2", "+1h")
    assert r.died("Сменщик") == ("night 1", "hunt")
    assert r.run.phase == "day 2"


def test_item11_free_hunt_replaced_hunter_right_and_wrong():
    g, _ = _hunt_replaced({"Г1": "Охотник"})
    g.pm("night 1", "+1h", "Охотник", "hunt Г2")
    r = g.run("day 2", "+1h")
    assert r.died("Охотник") == ("night 1", "failed_hunt")
    g, _ = _hunt_replaced({"Г1": "Охотник"})
    g.pm("night 1", "+1h", "Охотник", "hunt Ф2")
    r = g.run("day 2", "+1h")
    assert r.died("Ф2") == ("night 1", "hunt") and r.alive("Охотник")


def test_item11_free_hunt_replaced_mafia_shoot_and_execute_a_replaced_target():
    g, _ = _hunt_replaced({"Ф1": "Сменщик", "Г3": "Новичок"})
    g.pm("night 1", "+1h", "Ф2", "kill Новичок by Сменщик")
    r = g.run("day 2", "+1h")
    assert r.died("Новичок") == ("night 1", "mafia")


def test_item11_free_hunt_replaced_doctor_heals_and_replaced_maniac_shoots():
    g, _ = _hunt_replaced({"Док": "Лекарь", "Ман": "Псих", "Г4": "Новичок"})
    g.pm("night 1", "+1h", "Ф1", "kill Новичок")
    g.pm("night 1", "+1h", "Лекарь", "heal Новичок")
    g.pm("night 1", "+1h", "Псих", "kill Г5")
    r = g.run("day 2", "+1h")
    assert r.alive("Новичок")  # H-9: healed
    assert r.died("Г5") == ("night 1", "maniac")


def test_item11_free_hunt_replaced_maniac_cannot_repeat_his_target():
    """H-8 after replace: the maniac's last target is remembered by seat, and names the replaced target."""
    g, players = _hunt_replaced({"Ман": "Псих", "Г5": "Новичок"})
    g.pm("night 1", "+1h", "Док", "heal Новичок")
    g.pm("night 1", "+1h", "Псих", "kill Новичок")
    for i, v in enumerate(players):
        g.vote("day 2", "+1h", v, players[(i + 1) % len(players)])
    again = g.pm("night 2", "+1h", "Псих", "kill Новичок")
    r = g.run("day 3", "+1h")
    assert r.alive("Новичок")
    reply = next(plain(m.text) for m in r.run.messages if m.key == f"pm/{again.id}")
    assert "H-8" not in reply and "Новичок" in reply


def test_item11_free_hunt_votes_by_and_for_a_replaced_player():
    g = Game.free_hunt(language="en")
    g.gm("setup", "-5h", "replace Г1 Новичок")
    players = ["Новичок" if n == "Г1" else n for n in HUNT_PLAYERS]
    for v in players:
        g.vote("day 1", "+1h", v, "Г2" if v == "Новичок" else "Новичок")
    r = g.run("night 1", "+1h")
    assert r.died("Новичок") == ("day 1", "vote")


def test_item11_count_names_the_replaced_out_account_not_the_seats_new_player():
    """C-3, C-6: a vote post by the account a replace took the seat from is a non-player's, under his name."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М3 Новичок")
    g.vote("day 1", "+2h", "М3", "М1")
    r = g.run("night 1", "+1h")
    count = next(t for t in r.posts("game") if "Итоговый подсчёт" in t)
    assert "М3 «М1» — автор не участвует в этой игре" in count
    assert "Новичок «М1»" not in count


# ------------------------------------------------------------------------------------------------ the GM's words


def test_a_refused_replace_names_the_account_it_refused():
    """issue 28: «этот аккаунт уже участвует в игре» left the GM to guess which of the two names was meant."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М1 Шериф")
    assert g.run("day 1", "+2h").pms("ГМ")[-1] == \
        "Команда не выполнена: этот аккаунт уже в игре (игрок, ведущий или бот): «Шериф»."
    g = Game.moscow(language="en")
    g.gm("day 1", "+1h", "replace М1 Шериф")
    assert g.run("day 1", "+2h").pms("ГМ")[-1] == \
        "Command not done: that account is already in the game (a player, a GM or the bot): “Шериф”."


def test_an_undone_replace_tells_the_newcomer_he_is_out():
    """issue 28 item 8: the newcomer had his role PM; after the undo nothing told him he no longer plays."""
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М1 Новичок")
    g.gm("day 1", "+2h", "отмена")
    r = g.run("day 1", "+3h")
    assert r.pms("Новичок")[-1] == ("Ведущий отменил замену: вы больше не участвуете в игре, место снова занимает М1. "
                                    "Присланную вам роль не учитывайте; ваши ходы и голоса не засчитываются.")
    assert not any("отменил замену" in text for text in r.pms("М1"))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_C9_the_new_account_is_told_whose_seat_it_takes_and_the_phase(language: str) -> None:
    """A replacement's role PM said only «Ваша роль: мирный житель.» and asked a confirmation, as in Setup: the
    new player learnt neither whose seat he took nor that Day 1 was on and until when (seen on the issue 28
    XenForo walk-through). Expected words pinned."""
    g = Game.moscow(language=language)
    g.gm("day 1", "+1h", "замена М1 Сменщик")
    (pm,) = g.run("day 1", "+2h").pms("Сменщик")
    expected = {"ru": "Вы занимаете место игрока М1, с его ролью. Сейчас день 1, до 02.12 10:00 МСК.",
                "en": "You take over М1's seat and role. It is day 1 now, until 02.12 10:00 MSK."}[language]
    assert pm.splitlines()[0] == expected, pm
    role = {"ru": "Ваша роль: мирный житель.", "en": "Your role: civilian."}[language]
    assert pm.splitlines()[1] == role, pm
    setup = Game.moscow(language=language).run("setup", "+1h").pms("М1")[0]
    assert setup.splitlines()[0] == role, setup  # a Setup role PM names no seat taken over
