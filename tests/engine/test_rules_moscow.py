"""The Moscow variant (RULES.md M-1..M-14) through the engine, as short game stories (tests/gamekit.py).

The kit's Moscow cast: Sheriff Шериф; Don Дон; mafia Маф1, Маф2; civilians М1..М6.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import DAY, MOSCOW_CAST, START, Game, _offset, opening, plain  # noqa: E402

from forumbot.errors import SetupError  # noqa: E402
from forumbot.model import Role  # noqa: E402

MAFIA = ("Дон", "Маф1", "Маф2")
DRAWN = [(n, None) for n, _ in MOSCOW_CAST]


def shoot(g: Game, night: str, target: str, offset: str = "+1h", who=MAFIA) -> None:
    for m in who:
        g.pm(night, offset, m, f"убить {target}")


def msg(r, key: str):
    if key.endswith("/opens"):  # issue 11 item 6: announced in the results' post
        return opening(r, key.split("/")[0])
    return next(m for m in r.run.messages if m.key == key)


def has_key(r, key: str) -> bool:
    return any(m.key == key for m in r.run.messages)


def result(r, day: int = 1) -> str:
    """The game-thread post(s) ending day N: its result or its runoff's, whichever came."""
    return "\n".join(plain(m.text) for m in r.run.messages if m.key in (f"day {day}/result", f"runoff {day}/result"))


def final_count(r, label: str) -> str:
    return next(plain(m.text) for m in r.run.messages if m.where == "game" and f"Итоговый подсчёт голосов ({label})" in plain(m.text))


def drawn_mafia(seed: int) -> list[str]:
    r = Game("moscow", list(DRAWN), seed=seed).run("day 1", "+1h")
    return [n for n, _ in DRAWN if r.player(n).role in (Role.MAFIA, Role.DON)]


def tie_day1(g: Game, a: str = "М3", b: str = "М4", a_runoff: str = "", b_runoff: str = "") -> None:
    """Day 1 ends in a tie a:b, two votes each (voters М1, М2 → a; М5, М6 → b), with optional RUNOFF parts."""
    for who in ("М1", "М2"):
        g.vote("day 1", "+1h", who, a + (f" / {a_runoff}" if a_runoff else ""))
    for who in ("М5", "М6"):
        g.vote("day 1", "+1h", who, b + (f" / {b_runoff}" if b_runoff else ""))


def runoff(offset: str = "+1h"):
    """A time inside the runoff of day 1: the plain day-1 deadline plus `offset`."""
    return START + DAY + _offset(offset)


# ------------------------------------------------------------------------------------------------ M-1


@pytest.mark.parametrize("n", [9, 11])
def test_M1_wrong_player_count_is_a_setup_error(n):
    cast = [(f"И{i}", None) for i in range(n)]
    with pytest.raises(SetupError, match="10"):
        Game("moscow", cast).run("day 1", "+1h")


def test_M1_given_cast_must_be_the_moscow_cast():
    cast = [(n, Role.CIVILIAN if r is Role.SHERIFF else r) for n, r in MOSCOW_CAST]
    with pytest.raises(SetupError):
        Game("moscow", cast).run("day 1", "+1h")


def test_M1_drawn_cast_is_six_civilians_a_sheriff_two_mafia_and_a_don():
    r = Game("moscow", list(DRAWN), seed=5).run("day 1", "+1h")
    roles = sorted(r.player(n).role for n, _ in DRAWN)
    assert roles == sorted([Role.CIVILIAN] * 6 + [Role.SHERIFF, Role.MAFIA, Role.MAFIA, Role.DON])


def test_M1_mafia_nomination_chooses_the_don():
    mafia = drawn_mafia(5)
    for pick in mafia:
        g = Game("moscow", list(DRAWN), seed=5)
        g.pm("setup", "-3h", mafia[0], f"дон {pick}")
        r = g.run("day 1", "+1h")
        assert r.player(pick).role is Role.DON
        assert sum(r.player(m).role is Role.DON for m in mafia) == 1
        assert any("по выбору мафии" in t for t in r.pms(mafia[1]))


def test_M1_M4_the_chosen_don_alone_is_told_his_check_and_how_to_send_it():
    """His role PM was a mafioso's (no check): the PM naming him the Don is where he learns «проверка НИК»."""
    for nominate in (True, False):
        mafia = drawn_mafia(5)
        g = Game("moscow", list(DRAWN), seed=5)
        if nominate:
            g.pm("setup", "-3h", mafia[0], f"дон {mafia[1]}")
        r = g.run("day 1", "+1h")
        don = next(m for m in mafia if r.player(m).role is Role.DON)
        told = [t for t in r.pms(don) if "Дон мафии" in t]
        assert len(told) == 1 and "«проверка " in told[0] and "«убить " in told[0]
        assert mafia[0] not in told[0].split("Ваши ночные ходы")[1], "the example names no partner"
        for other in (m for m in mafia if m != don):
            news = [t for t in r.pms(other) if "Дон мафии" in t]
            assert len(news) == 1 and "проверка" not in news[0]


def test_M1_if_nominations_differ_the_last_before_day_1_counts():
    a, b, c = drawn_mafia(5)
    g = Game("moscow", list(DRAWN), seed=5)
    g.pm("setup", "-5h", a, f"дон {b}")
    g.pm("setup", "-4h", b, f"дон {c}")
    g.pm("day 1", "+1h", a, f"дон {a}")  # after Day 1 opened: refused
    r = g.run("day 1", "+2h")
    assert r.player(c).role is Role.DON
    assert "уже определён" in r.pms(a)[-1]


def test_M1_without_nomination_the_don_is_drawn_by_lot():
    mafia = drawn_mafia(5)
    r = Game("moscow", list(DRAWN), seed=5).run("day 1", "+1h")
    dons = [m for m in mafia if r.player(m).role is Role.DON]
    assert len(dons) == 1
    assert any("по жребию" in t for t in r.pms(mafia[0]))
    again = Game("moscow", list(DRAWN), seed=5).run("day 1", "+1h")
    assert again.player(dons[0]).role is Role.DON  # the lot is seeded


def test_M1_nomination_of_a_non_mafia_or_by_a_non_mafia_is_refused():
    mafia = drawn_mafia(5)
    town = next(n for n, _ in DRAWN if n not in mafia)
    g = Game("moscow", list(DRAWN), seed=5)
    g.pm("setup", "-5h", mafia[0], f"дон {mafia[1]}")
    g.pm("setup", "-4h", mafia[0], f"дон {town}")
    g.pm("setup", "-4h", town, f"дон {town}")
    r = g.run("day 1", "+1h")
    assert r.player(mafia[1]).role is Role.DON
    assert r.player(town).role is not Role.DON
    assert "только члена мафии" in r.pms(mafia[0])[-2] or any("только члена мафии" in t for t in r.pms(mafia[0]))
    assert any("только мафия" in t for t in r.pms(town))


def test_M1_nominations_are_ignored_when_roles_are_given():
    g = Game.moscow()
    g.pm("setup", "-3h", "Маф1", "дон Маф2")
    r = g.run("day 1", "+1h")
    assert r.player("Дон").role is Role.DON and r.player("Маф2").role is Role.MAFIA
    assert not any("выбору мафии" in t or "жребию" in t for t in r.pms("Маф1"))


def test_M1_mafia_know_each_other_in_a_drawn_game():
    mafia = drawn_mafia(9)
    r = Game("moscow", list(DRAWN), seed=9).run("day 1", "+1h")
    for m in mafia:
        role_pm = r.pms(m)[0]
        assert all(o in role_pm for o in mafia if o != m)
        assert "дон НИК" in role_pm  # asked to choose the Don


# ------------------------------------------------------------------------------------------------ M-2

NEUTRAL = [("Аня", Role.SHERIFF), ("Боря", Role.DON), ("Вика", Role.MAFIA), ("Гоша", Role.MAFIA),
           ("Даша", Role.CIVILIAN), ("Егор", Role.CIVILIAN), ("Жора", Role.CIVILIAN), ("Зоя", Role.CIVILIAN),
           ("Иван", Role.CIVILIAN), ("Катя", Role.CIVILIAN)]
ROLE_WORDS = re.compile(r"мирн|шериф|мафи|\bдон|доктор|маньяк|роль|civilian|sheriff|mafia|\bdon\b|role|town", re.I)


def _closed_game(language: str) -> Game:
    g = Game("moscow", list(NEUTRAL), language=language)
    g.votes("day 1", {"Даша": "Вика", "Егор": "Вика", "Жора": "Аня"})  # a mafioso hanged
    g.gm("night 1", "+1h", "модкилл Зоя флуд")
    for m in ("Боря", "Гоша"):
        g.pm("night 1", "+2h", m, "убить Аня")  # the sheriff shot
    g.pm("day 2", "+1h", "Катя", "модкилл")  # tactical modkill, day 2 has no vote
    g.votes("day 3", {"Даша": "Егор", "Жора": "Иван"})  # tie with 6 alive: hang-all runoff
    t3 = g.at("day 3", "+25h")
    g.vote(t3, "", "Даша", "помиловать всех")
    g.pm("night 3", "+1h", "Боря", "убить Даша")  # misfire: Гоша sends nothing
    return g


@pytest.mark.parametrize("language", ["ru", "en"])
def test_M2_no_role_or_team_in_any_post_before_the_end(language):
    g = _closed_game(language)
    r = g.run("day 4", "+1h")
    assert r.winner is None
    assert not r.alive("Вика") and not r.alive("Аня") and not r.alive("Зоя") and not r.alive("Катя")
    posts = [m for m in r.run.messages if m.where != "pm"]
    assert any("runoff" in m.key for m in posts)
    for m in posts:
        for line in plain(m.text).splitlines():
            if any(n in line for n, _ in NEUTRAL):
                assert not ROLE_WORDS.search(line), (m.key, line)
        assert not re.search(r"\b(роль|role):", plain(m.text), re.I), m.key


def test_M2_roles_are_revealed_at_the_end():
    g = Game("moscow", list(NEUTRAL))
    for m in ("Боря", "Вика", "Гоша"):
        g.gm("day 1", "+1h", f"модкилл {m}")
    r = g.run("day 1", "+2h")
    end = plain(msg(r, "ended/result").text)
    assert "Аня — шериф" in end and "Боря — дон" in end


# ------------------------------------------------------------------------------------------------ M-3


def test_M3_sheriff_learns_town_or_mafia_and_the_don_shows_as_mafia():
    for target, word in (("Дон", "мафия"), ("Маф2", "мафия"), ("М4", "мирный житель")):
        g = Game.moscow()
        g.pm("night 1", "+1h", "Шериф", f"проверка {target}")
        r = g.run("day 2", "+1h")
        res = [t for t in r.pms("Шериф") if "Результат проверки" in t]
        assert res == [f"Результат проверки: {target} — {word}."]
        assert msg(r, "night 1/check/Шериф").at == g.at("night 1", "+12h")


def test_M3_checking_a_dead_player_is_allowed():
    g = Game.moscow()
    g.votes("day 1", {"М1": "Маф1", "М2": "Маф1"})
    g.pm("night 1", "+1h", "Шериф", "проверка Маф1")
    r = g.run("day 2", "+1h")
    assert "Результат проверки: Маф1 — мафия." in r.pms("Шериф")


def test_M3_one_check_per_night_results_each_night():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "проверка М1")
    g.pm("night 2", "+1h", "Шериф", "проверка Маф1")
    r = g.run("day 3", "+1h")
    res = [t for t in r.pms("Шериф") if "Результат" in t]
    assert res == ["Результат проверки: М1 — мирный житель.", "Результат проверки: Маф1 — мафия."]


# ------------------------------------------------------------------------------------------------ M-4


def test_M4_don_learns_the_exact_role():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Дон", "проверка Шериф")
    g.pm("night 2", "+1h", "Дон", "проверка М2")
    r = g.run("day 3", "+1h")
    res = [t for t in r.pms("Дон") if "Результат" in t]
    assert res == ["Результат проверки: Шериф — шериф.", "Результат проверки: М2 — мирный житель."]


def test_M4_sheriff_killed_that_night_gets_no_result():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "проверка Дон")
    shoot(g, "night 1", "Шериф")
    r = g.run("day 2", "+1h")
    assert r.died("Шериф") == ("night 1", "mafia")
    assert not any("Результат" in t for t in r.pms("Шериф"))


def test_M4_don_killed_that_night_gets_no_result():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Дон", "проверка Шериф")
    shoot(g, "night 1", "Дон", "+2h")
    r = g.run("day 2", "+1h")
    assert r.died("Дон") == ("night 1", "mafia")
    assert not any("Результат" in t for t in r.pms("Дон"))


# ------------------------------------------------------------------------------------------------ M-5


def test_M5_unanimous_shot_kills():
    g = Game.moscow()
    shoot(g, "night 1", "М6")
    r = g.run("day 2", "+1h")
    assert r.died("М6") == ("night 1", "mafia")
    assert "несострел" not in plain(msg(r, "night 1/result").text)


def test_M5_one_member_sending_nothing_is_a_misfire():
    g = Game.moscow()
    shoot(g, "night 1", "М6", who=("Дон", "Маф1"))
    r = g.run("day 2", "+1h")
    assert r.alive("М6")
    assert "несострел" in plain(msg(r, "night 1/result").text)


def test_M5_different_targets_are_a_misfire():
    g = Game.moscow()
    shoot(g, "night 1", "М6", who=("Дон", "Маф1"))
    shoot(g, "night 1", "М5", who=("Маф2",))
    r = g.run("day 2", "+1h")
    assert r.alive("М6") and r.alive("М5")
    assert "несострел" in plain(msg(r, "night 1/result").text)


def test_M5_target_dead_at_resolution_is_a_misfire():
    g = Game.moscow()
    shoot(g, "night 1", "М6")
    g.gm("night 1", "+2h", "модкилл М6")
    r = g.run("day 2", "+1h")
    assert r.died("М6") == ("night 1", "modkill")
    assert "несострел" in plain(msg(r, "night 1/result").text)


def test_M5_self_shot_is_allowed():
    g = Game.moscow()
    shoot(g, "night 1", "Маф2")
    r = g.run("day 2", "+1h")
    assert r.died("Маф2") == ("night 1", "mafia")


def test_M5_only_alive_members_need_to_agree():
    g = Game.moscow()
    g.votes("day 1", {"М1": "Маф1", "М2": "Маф1"})
    shoot(g, "night 1", "М6", who=("Дон", "Маф2"))
    r = g.run("day 2", "+1h")
    assert r.died("М6") == ("night 1", "mafia")


def test_M5_member_changing_his_shot_breaks_unanimity():
    g = Game.moscow()
    shoot(g, "night 1", "М6")
    g.pm("night 1", "+3h", "Маф1", "убить М5")
    r = g.run("day 2", "+1h")
    assert r.alive("М6") and r.alive("М5")


# ------------------------------------------------------------------------------------------------ M-6


def test_M6_three_consecutive_misfires_town_wins():
    g = Game.moscow()
    shoot(g, "night 2", "М1", who=("Дон",))  # a misfire too
    r = g.run("day 3", "+1h")
    assert r.winner is None
    r = g.run("day 4", "+1h")
    assert r.winner == "town"
    assert r.run.result.ended_at == g.at("night 3", "+12h")
    assert "три ночи подряд" in plain(msg(r, "ended/result").text)


def test_M6_a_kill_resets_the_misfire_streak():
    g = Game.moscow()
    shoot(g, "night 2", "М1")  # misfire, kill, misfire, misfire: no win
    r = g.run("day 5", "+1h")
    assert r.winner is None
    r = g.run("day 6", "+1h")
    assert r.winner == "town"
    assert r.run.result.ended_at == g.at("night 5", "+12h")


# ------------------------------------------------------------------------------------------------ M-7


def test_M7_target_slash_runoff_vote_is_accepted():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3 / помиловать всех", "М2": "[i]М3[/i]/М4", "М5": "ннв / повесить всех"})
    r = g.run("night 1", "+1h")
    assert r.died("М3") == ("day 1", "vote")
    assert "Не засчитано" not in final_count(r, "день 1")


@pytest.mark.parametrize("text", ["Голосую за М3", "М3, М4", "М3 / М4 / М5", "М3 потому что молчит", "помиловать всех"])
def test_M7_anything_else_is_not_a_vote_and_is_reported(text):
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", text)
    g.vote("day 1", "+1h", "М2", text)
    g.votes("day 1", {"М5": "М6", "М6": "М6"})
    r = g.run("night 1", "+1h")
    assert r.died("М6") == ("day 1", "vote")
    assert final_count(r, "день 1").count("Не засчитано: М") == 2


def test_M7_bad_runoff_part_makes_the_post_no_vote():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3 / всех простить", "М2": "М3 / всех простить", "М5": "М6"})
    g.vote("day 1", "+1h", "М6", "М6")
    r = g.run("night 1", "+1h")
    assert r.died("М6") == ("day 1", "vote")
    assert "после «/»" in final_count(r, "день 1")


# ------------------------------------------------------------------------------------------------ M-8


def test_M8_second_vote_replaces_the_first_and_is_final():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3")
    g.vote("day 1", "+2h", "М1", "М4")
    g.vote("day 1", "+3h", "М1", "М5")  # third: ignored, listed
    g.vote("day 1", "+1h", "М2", "М4")
    g.vote("day 1", "+1h", "М6", "М5")
    r = g.run("night 1", "+1h")
    assert r.died("М4") == ("day 1", "vote")
    assert "М1 «М5» — лимит смены голоса исчерпан" in final_count(r, "день 1")


def test_M8_invalid_posts_do_not_count_toward_the_limit():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "Вася")
    g.vote("day 1", "+2h", "М1", "за М3!")
    g.vote("day 1", "+3h", "М1", "М3")
    g.vote("day 1", "+4h", "М1", "М4")
    g.vote("day 1", "+4h", "М2", "М4")
    r = g.run("night 1", "+1h")
    assert r.died("М4") == ("day 1", "vote")


def test_M8_the_runoff_has_its_own_change_limit():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл М6")  # 9 alive: the runoff is among the leaders
    g.vote("day 1", "+1h", "М1", "М3")
    g.vote("day 1", "+2h", "М1", "М4")  # the day change used up
    g.vote("day 1", "+1h", "М2", "М3")
    g.vote("day 1", "+1h", "М5", "М4")
    g.vote("day 1", "+1h", "Шериф", "М3")  # 2:2
    g.vote(runoff("+1h"), "", "М1", "М3")  # the runoff vote
    g.vote(runoff("+2h"), "", "М1", "М4")  # the runoff change
    g.vote(runoff("+3h"), "", "М1", "М3")  # ignored
    g.vote(runoff("+1h"), "", "М2", "М4")
    g.vote(runoff("+1h"), "", "М5", "М3")
    r = g.run("night 1", "+13h")
    assert r.died("М4") == ("day 1", "runoff")


def test_M8_a_gm_setvote_does_not_use_up_a_vote_change():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3")
    g.gm("day 1", "+2h", "голос М1 М4")
    g.vote("day 1", "+3h", "М1", "М5")  # the player's one change still counts
    g.vote("day 1", "+1h", "М2", "М5")
    g.vote("day 1", "+1h", "М6", "М4")
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")


# ------------------------------------------------------------------------------------------------ M-9


def test_M9_all_no_lynch_nobody_leaves():
    g = Game.moscow()
    g.votes("day 1", {n: "ннв" for n in ("М1", "М2", "М3", "Маф1")})
    r = g.run("night 1", "+1h")
    assert all(r.alive(n) for n, _ in MOSCOW_CAST)
    assert "ннв" in result(r)


def test_M9_no_votes_nobody_leaves():
    r = Game.moscow().run("night 1", "+1h")
    assert all(r.alive(n) for n, _ in MOSCOW_CAST)
    assert "Голосов нет" in result(r)


def test_M9_most_votes_leaves_and_no_lynch_is_not_a_candidate():
    g = Game.moscow()
    g.votes("day 1", {"М1": "ннв", "М2": "ннв", "М3": "ннв", "М4": "М5", "М6": "М5"})
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")


def test_M9_day1_single_vote_among_no_lynch_pardons():
    g = Game.moscow()
    g.votes("day 1", {"М1": "ннв", "М2": "ннв", "М3": "М5"})
    r = g.run("night 1", "+1h")
    assert r.alive("М5")
    assert "М5 остаётся в игре" in result(r)


def test_M9_day1_single_vote_alone_pardons():
    g = Game.moscow()
    g.votes("day 1", {"М3": "М5"})
    r = g.run("night 1", "+1h")
    assert r.alive("М5")


def test_M9_day1_two_votes_for_one_player_hang():
    g = Game.moscow()
    g.votes("day 1", {"М1": "ннв", "М2": "М5", "М3": "М5"})
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")


def test_M9_day2_single_vote_is_enough():
    g = Game.moscow()
    g.votes("day 2", {"М1": "ннв", "М2": "ннв", "М3": "М5"})
    r = g.run("night 2", "+1h")
    assert r.died("М5") == ("day 2", "vote")


def test_M9_day2_lone_vote_hangs():
    g = Game.moscow()
    g.votes("day 2", {"М3": "М5"})
    r = g.run("night 2", "+1h")
    assert r.died("М5") == ("day 2", "vote")


# ------------------------------------------------------------------------------------------------ M-10


def test_M10_tie_opens_a_runoff_of_12_hours():
    g = Game.moscow()
    tie_day1(g)
    r = g.run("day 1", "+25h")
    assert r.run.phase == "runoff 1"
    assert r.run.next_deadline == g.at("day 1", "+36h")
    post = plain(msg(r, "day 1/runoff").text)
    assert "М3" in post and "М4" in post and "повесить всех" in post


def test_M10_even_alive_hang_all_strict_majority_hangs_every_leader():
    g = Game.moscow()
    tie_day1(g)
    for who in ("М1", "М2"):
        g.vote(runoff(), "", who, "повесить всех")
    g.vote(runoff(), "", "М5", "помиловать всех")
    r = g.run("night 1", "+13h")
    assert r.died("М3") == ("day 1", "runoff") and r.died("М4") == ("day 1", "runoff")


def test_M10_even_alive_hang_all_without_strict_majority_pardons_all():
    g = Game.moscow()
    tie_day1(g)
    g.vote(runoff(), "", "М1", "повесить всех")
    g.vote(runoff(), "", "М5", "помиловать всех")
    r = g.run("night 1", "+13h")
    assert r.alive("М3") and r.alive("М4")
    assert "Помилованы все" in result(r)


def test_M10_hang_all_has_one_win_check_after_all_leaders_leave():
    g = Game.moscow()
    for n in ("Маф1", "Маф2", "М5", "М6"):
        g.gm("setup", "-1h", f"модкилл {n}")
    # 6 alive: Шериф, Дон, М1..М4. Three-way tie → hang-all; after two leaders it would be a draw (4 alive),
    # after all three it is a town win (no mafia).
    g.votes("day 1", {"М1": "Дон", "М2": "Дон", "М3": "М1", "М4": "М1", "Шериф": "М2", "Дон": "М2"})
    for who in ("М3", "М4", "Шериф", "М1"):
        g.vote(runoff(), "", who, "повесить всех")
    r = g.run("night 1", "+13h")
    assert not r.alive("Дон") and not r.alive("М1") and not r.alive("М2")
    assert r.winner == "town"


def test_M10_odd_alive_runoff_among_the_leaders():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл Шериф")  # 9 alive
    tie_day1(g)
    g.vote(runoff(), "", "М1", "М4")
    g.vote(runoff(), "", "М2", "М4")
    g.vote(runoff(), "", "М5", "М3")
    r = g.run("night 1", "+13h")
    assert "голосуйте за одного из них" in plain(msg(r, "day 1/runoff").text)
    assert r.died("М4") == ("day 1", "runoff") and r.alive("М3")


def test_M10_leaders_vote_in_the_runoff_too():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл Шериф")
    tie_day1(g)
    g.vote(runoff(), "", "М3", "М4")
    g.vote(runoff(), "", "М4", "М4")
    g.vote(runoff(), "", "М1", "М3")
    r = g.run("night 1", "+13h")
    assert r.died("М4") == ("day 1", "runoff")


def test_M10_second_tie_pardons_all():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл Шериф")
    tie_day1(g)
    g.vote(runoff(), "", "М1", "М4")
    g.vote(runoff(), "", "М5", "М3")
    r = g.run("night 1", "+13h")
    assert r.alive("М3") and r.alive("М4")
    assert "Снова ничья" in result(r)


def test_M10_runoff_part_of_day_vote_counts_unless_he_votes_again():
    g = Game.moscow()
    tie_day1(g, a_runoff="повесить всех", b_runoff="повесить всех")
    g.vote(runoff(), "", "М5", "помиловать всех")  # re-voted: his day RUNOFF part no longer counts
    g.vote(runoff(), "", "М6", "помиловать всех")
    g.vote(runoff(), "", "Шериф", "повесить всех")
    r = g.run("night 1", "+13h")
    # hang: М1, М2 (day parts) + Шериф = 3 of 5
    assert not r.alive("М3") and not r.alive("М4")


def test_M10_runoff_parts_alone_decide_the_runoff():
    g = Game.moscow()
    tie_day1(g, a_runoff="помиловать всех", b_runoff="повесить всех")
    g.vote(runoff(), "", "Шериф", "повесить всех")
    r = g.run("night 1", "+13h")
    assert not r.alive("М3") and not r.alive("М4")  # 3 hang of 5 cast


def test_M10_runoff_part_that_does_not_fit_is_no_vote():
    g = Game.moscow()
    tie_day1(g, a_runoff="М3", b_runoff="М4")  # names in a hang-all runoff: no runoff votes
    g.vote(runoff(), "", "Шериф", "повесить всех")
    r = g.run("night 1", "+13h")
    assert not r.alive("М3") and not r.alive("М4")  # 1 of 1 cast


def test_M10_non_leader_runoff_part_is_no_vote_in_a_runoff_among_leaders():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл Шериф")
    tie_day1(g, a_runoff="М6", b_runoff="помиловать всех")  # neither fits a runoff among М3, М4
    g.vote(runoff(), "", "Дон", "М3")
    r = g.run("night 1", "+13h")
    assert r.died("М3") == ("day 1", "runoff") and r.alive("М4")


def test_M10_no_lynch_or_slash_post_during_the_runoff_is_no_vote():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл Шериф")
    tie_day1(g)
    g.vote(runoff(), "", "М1", "ннв")
    g.vote(runoff(), "", "М2", "М4 / М3")
    g.vote(runoff(), "", "М5", "М3")
    r = g.run("night 1", "+13h")
    assert r.died("М3") == ("day 1", "runoff") and r.alive("М4")
    count = final_count(r, "перестрелка дня 1")
    assert "М1 «ннв»" in count and "М2 «М4 / М3»" in count


def test_M10_modkill_during_runoff_cancels_it_and_night_opens_at_its_scheduled_end():
    g = Game.moscow()
    tie_day1(g)
    for who in ("М1", "М2", "М5"):
        g.vote(runoff(), "", who, "повесить всех")
    g.gm(runoff("+2h"), "", "модкилл Маф1")
    r = g.run("night 1", "+13h")
    assert r.alive("М3") and r.alive("М4")
    assert "отменена" in result(r)
    assert msg(r, "night 1/opens").at == g.at("day 1", "+36h")


def test_M10_only_leaders_speak_once_in_the_runoff_others_reported():
    g = Game.moscow()
    tie_day1(g)
    g.post(runoff(), "", "М3", "я мирный")
    g.post(runoff("+2h"), "", "М4", "и я")
    g.post(runoff("+3h"), "", "М4", "правда")  # second post of a leader
    g.post(runoff("+3h"), "", "М1", "вешаем обоих")  # not a leader
    r = g.run("night 1", "+13h")
    reports = [t for t in r.pms("ГМ") if "перестрелки" in t]
    assert len(reports) == 2
    assert any("М4" in t for t in reports) and any("М1" in t for t in reports)
    assert not any("М3" in t for t in reports)


def test_M10_gm_setvote_in_a_hang_all_runoff():
    g = Game.moscow()
    tie_day1(g)
    g.vote(runoff(), "", "М1", "помиловать всех")
    g.gm(runoff("+2h"), "", "голос М1 повесить всех")
    g.gm(runoff("+2h"), "", "setvote М2 повесить всех")
    r = g.run("night 1", "+13h")
    assert all(t.startswith("Выполнено") for t in r.pms("ГМ")[-2:]), r.pms("ГМ")[-2:]
    assert not r.alive("М3") and not r.alive("М4")


def test_M10_gm_setvote_in_a_runoff_among_leaders():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл Шериф")
    tie_day1(g)
    g.vote(runoff(), "", "М1", "М3")
    g.gm(runoff("+1h"), "", "голос М2 М4")
    g.gm(runoff("+1h"), "", "голос М5 М4")
    g.gm(runoff("+1h"), "", "голос М6 М1")  # not a leader: refused, changes nothing
    r = g.run("night 1", "+13h")
    assert r.pms("ГМ")[-1].startswith("Команда не выполнена")
    assert r.died("М4") == ("day 1", "runoff")


# ------------------------------------------------------------------------------------------------ M-11


def test_M11_modkill_during_a_day_cancels_its_vote():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М4": "М3"})
    g.gm("day 1", "+5h", "модкилл М6")
    r = g.run("night 1", "+1h")
    assert r.alive("М3")
    assert "модкилл" in result(r)
    assert msg(r, "night 1/opens").at == g.at("day 1", "+24h")


def test_M11_the_cancelled_vote_is_said_once_a_day_and_not_when_the_modkill_ends_the_game():
    """A GM's walk-through read «Из-за модкилла голосования сегодня не будет» under each of two modkills in a row,
    the second of which ended the game (C-7): said once a day, and not when no day goes on."""
    no_vote = "Из-за модкилла голосования сегодня не будет."
    g = Game.moscow()
    g.gm("day 1", "+5h", "модкилл М6")
    g.gm("day 1", "+6h", "модкилл М5")
    r = g.run("day 1", "+7h")
    said = [m for m in r.run.messages if m.key.startswith("day 1/modkill/")]
    assert [no_vote in m.text for m in said] == [True, False]
    g = Game.moscow()
    g.gm("day 1", "+5h", "модкилл Маф1")
    g.gm("day 1", "+6h", "модкилл Маф2")
    g.gm("day 1", "+7h", "модкилл Дон")
    r = g.run("day 1", "+8h")
    said = [m for m in r.run.messages if m.key.startswith("day 1/modkill/")]
    assert [no_vote in m.text for m in said] == [True, False, False] and r.run.result.winner == "town"


def test_M11_modkill_at_night_does_not_cancel_the_next_days_vote():
    g = Game.moscow()
    g.gm("night 1", "+5h", "модкилл М6")
    g.votes("day 2", {"М1": "М3", "М2": "М3"})
    r = g.run("night 2", "+1h")
    assert r.died("М3") == ("day 2", "vote")


def test_M11_undo_of_that_modkill_restores_the_vote():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.gm("day 1", "+5h", "модкилл М6")
    g.gm("day 1", "+6h", "отмена")
    r = g.run("night 1", "+1h")
    assert r.alive("М6")
    assert r.died("М3") == ("day 1", "vote")


def test_M11_modkill_the_day_before_does_not_cancel_the_next_day():
    g = Game.moscow()
    g.gm("day 1", "+5h", "модкилл М6")
    g.votes("day 2", {"М1": "М3", "М2": "М3"})
    r = g.run("night 2", "+1h")
    assert r.died("М3") == ("day 2", "vote")


# ------------------------------------------------------------------------------------------------ M-12


@pytest.mark.parametrize("text", ["модкилл", "modkill", "Модкилл М6"])
def test_M12_tactical_modkill_leaves_the_game_and_cancels_the_day_vote(text):
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.pm("day 1", "+3h", "М6", text)
    r = g.run("night 1", "+1h")
    assert r.died("М6") == ("day 1", "modkill")
    assert r.alive("М3")
    assert "по просьбе" in plain(msg(r, "day 1/modkill/М6").text)


def test_M12_tactical_modkill_of_someone_else_is_refused():
    g = Game.moscow()
    g.pm("day 1", "+3h", "М6", "модкилл М5")
    r = g.run("day 1", "+4h")
    assert r.alive("М5") and r.alive("М6")
    assert "только для себя" in r.pms("М6")[-1]


def test_M12_free_hunt_refuses_a_tactical_modkill():
    g = Game.free_hunt()
    g.pm("day 1", "+3h", "Г1", "модкилл")
    r = g.run("day 1", "+4h")
    assert r.alive("Г1")
    assert "не предусмотрен" in r.pms("Г1")[-1]


# ------------------------------------------------------------------------------------------------ M-13


def test_M13_town_wins_when_no_mafia_is_alive():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл Маф1")
    g.gm("setup", "-1h", "модкилл Маф2")
    g.votes("day 1", {"М1": "Дон", "М2": "Дон"})
    r = g.run("night 1", "+1h")
    assert r.winner == "town"


def test_M13_draw_at_four_or_fewer_alive():
    g = Game.moscow()
    for n in ("Маф1", "Маф2", "М1", "М2", "М3"):
        g.gm("setup", "-1h", f"модкилл {n}")
    g.votes("day 1", {"М5": "М4", "М6": "М4"})  # 4 left: Шериф, Дон, М5, М6
    r = g.run("night 1", "+1h")
    assert r.winner == "draw"
    assert r.run.result.ended_at == g.at("day 1", "+24h")


def test_M13_draw_is_checked_before_mafia_parity():
    g = Game.moscow()
    for n in ("Маф1", "М1", "М2", "М3"):
        g.gm("setup", "-1h", f"модкилл {n}")
    g.votes("day 1", {"М5": "М4", "М6": "М4"})  # 5 → 4 alive: Шериф, Дон, Маф2, М5, М6 minus М4 … 2 v 2
    shoot(g, "night 1", "М6", who=("Дон", "Маф2"))
    r = g.run("night 1", "+13h")
    assert r.winner == "draw"


def test_M13_mafia_win_at_parity():
    g = Game.moscow()
    for n in ("М1", "М2", "М3"):
        g.gm("setup", "-1h", f"модкилл {n}")
    g.votes("day 1", {"Дон": "М4", "Маф1": "М4"})  # 7 → 6 alive: 3 mafia, 3 town
    r = g.run("night 1", "+1h")
    assert r.winner == "mafia"
    assert "победа мафии" in plain(msg(r, "ended/result").text)


def test_M13_no_end_while_mafia_are_fewer_and_more_than_four_alive():
    g = Game.moscow()
    for n in ("М1", "М2"):
        g.gm("setup", "-1h", f"модкилл {n}")
    g.votes("day 1", {"Дон": "М4", "Маф1": "М4"})  # 7 alive: 3 mafia, 4 town
    r = g.run("night 1", "+1h")
    assert r.winner is None


# ------------------------------------------------------------------------------------------------ M-14


def test_M14_hanged_players_last_word_is_due_before_the_night_ends():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.post("night 1", "+11h59m", "М3", "последнее слово")
    r = g.run("day 2", "+1h")
    assert "Последнее слово — в игровой теме до 02.12 22:00" in result(r)
    assert not any("М3" in t for t in r.pms("ГМ") if "Выбывший" in t)


def test_M14_night_victims_last_word_is_due_3h_before_the_day_ends():
    g = Game.moscow()
    shoot(g, "night 1", "М3")
    g.post("day 2", "+20h59m", "М3", "последнее слово")
    r = g.run("day 2", "+22h")
    assert "Последнее слово — в игровой теме до 03.12 19:00" in plain(msg(r, "night 1/result").text)
    assert not any("Выбывший игрок М3" in t for t in r.pms("ГМ"))


def test_M14_late_last_word_is_not_deleted_but_reported():
    g = Game.moscow()
    shoot(g, "night 1", "М3")
    g.post("day 2", "+21h", "М3", "поздно")
    r = g.run("day 2", "+22h")
    assert any("от игрока вне игры — М3" in t for t in r.pms("ГМ"))
    assert r.winner is None


def test_M14_runoff_victims_last_word_is_due_before_the_night_ends():
    g = Game.moscow()
    tie_day1(g)
    for who in ("М1", "М2", "М5"):
        g.vote(runoff(), "", who, "повесить всех")
    r = g.run("night 1", "+13h")
    # the runoff ended at day 1 +36h (02.12 22:00); night 1 ends 12 h later
    assert "Последнее слово — в игровой теме до 03.12 10:00" in result(r)

