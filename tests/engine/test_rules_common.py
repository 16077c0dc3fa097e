"""Rules common to both variants (RULES.md C-1..C-12) and the GM commands (DESIGN.md), through the engine.

Every test tells a short game story with tests/gamekit.py and checks what the bot said and who died.
The Moscow cast of the kit: Sheriff Шериф; Don Дон; mafia Маф1, Маф2; civilians М1..М6.
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import MOSCOW_CAST, START, Game, opening, plain  # noqa: E402

from forumbot.errors import SetupError  # noqa: E402
from forumbot.model import Role  # noqa: E402

MAFIA = ("Дон", "Маф1", "Маф2")


def shoot(g: Game, night: str, target: str, offset: str = "+1h", who=MAFIA) -> None:
    for m in who:
        g.pm(night, offset, m, f"убить {target}")


def final_count(r, day: str = "day 1") -> str:
    """C-6: the final count is posted in the game thread at the deadline (with the day's outcome)."""
    label = {"day": "день", "runoff": "перестрелка дня"}[day.split()[0]] + " " + day.split()[1]
    return next(plain(m.text) for m in r.run.messages if m.where == "game" and f"Итоговый подсчёт голосов ({label})" in plain(m.text))


def msg(r, key: str):
    if key.endswith("/opens"):
        found = opening(r, key.split("/")[0])
        assert found is not None, key
        return found
    return next(m for m in r.run.messages if m.key == key)


def has_key(r, key: str) -> bool:
    if key.endswith("/opens"):
        return opening(r, key.split("/")[0]) is not None
    return any(m.key == key for m in r.run.messages)


def counts(r, day: str = "day 1") -> list:
    return [m for m in r.run.messages if m.key.startswith(f"{day}/count/") and not m.key.endswith("final")]


# ------------------------------------------------------------------------------------------------ C-1


def test_C1_vote_stamped_exactly_at_deadline_is_late():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М4": "М5"})
    g.vote("day 1", "+24h", "М5", "М5")
    g.vote("day 1", "+24h", "М6", "М5")
    g.vote("day 1", "+24h", "Шериф", "М5")
    r = g.run("night 1", "+1h")
    assert r.died("М3") == ("day 1", "vote")
    assert r.alive("М5")


def test_C1_vote_one_second_before_deadline_counts():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М4": "М5"})
    for who in ("М5", "М6", "Шериф"):
        g.vote("day 1", "+23h59m59s", who, "М5")
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")
    assert r.alive("М3")


def test_C1_vote_posted_during_night_is_not_a_vote():
    g = Game.moscow()
    g.votes("day 1", {"М1": "ннв"})
    for who in ("М2", "М3", "М4"):
        g.vote("night 1", "+1h", who, "М5")
    r = g.run("day 2", "+2h")
    assert r.alive("М5")
    assert not any("М5 — 3" in t for t in r.posts("vote"))


def test_C1_move_sent_during_day_counts_for_that_night():
    g = Game.moscow()
    shoot(g, "day 1", "М1", "+2h")
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("night 1", "mafia")


def test_C1_move_sent_during_setup_counts_for_night_1():
    g = Game.moscow()
    g.pm("setup", "-3h", "Шериф", "проверка Маф1")
    r = g.run("day 2", "+1h")
    assert any("Маф1 — мафия" in t for t in r.pms("Шериф"))


def test_C1_move_stamped_at_night_deadline_is_for_the_next_night():
    g = Game.moscow()
    shoot(g, "night 1", "М1", "+12h")  # exactly the night-1 deadline: Day 2 has begun
    r = g.run("day 2", "+1h")
    assert r.alive("М1")
    assert "несострел" in plain(msg(r, "night 1/result").text)
    r = g.run("day 3", "+1h")
    assert r.died("М1") == ("night 2", "mafia")


def test_C1_day_move_of_a_player_who_dies_that_day_is_void():
    g = Game.moscow()
    g.pm("day 1", "+1h", "Шериф", "проверка Дон")
    g.votes("day 1", {"М1": "Шериф", "М2": "Шериф"})
    r = g.run("day 2", "+1h")
    assert r.died("Шериф") == ("day 1", "vote")
    assert not any("Результат проверки" in t for t in r.pms("Шериф"))


def test_C1_runoff_shifts_every_later_deadline():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М4"})
    # Night 1 opens at the runoff's end (+12 h) and lasts 12 h: a shot 13 h into the plain night 1 is in it.
    shoot(g, "night 1", "М5", "+13h")
    r = g.run("day 2", "+13h")
    assert msg(r, "night 1/opens").at == START + timedelta(hours=36)
    assert msg(r, "day 2/opens").at == START + timedelta(hours=48)
    assert r.died("М5") == ("night 1", "mafia")


def test_C1_gm_extend_shifts_the_deadline_and_later_ones():
    g = Game.moscow()
    g.gm("day 1", "+2h", "продлить 2ч")
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    for who in ("М4", "М5", "М6"):
        g.vote("day 1", "+25h", who, "М6")  # inside the extended day
    r = g.run("day 2", "+3h")
    assert r.died("М6") == ("day 1", "vote")
    assert msg(r, "night 1/opens").at == START + timedelta(hours=26)
    assert msg(r, "day 2/opens").at == START + timedelta(hours=38)


def test_C1_end_phase_opens_next_phase_with_its_normal_length():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.gm("day 1", "+5h", "конец-фазы")
    g.vote("day 1", "+6h", "М4", "М4")  # night now: not a vote
    shoot(g, "day 1", "М5", "+16h")  # inside night 1 (day 1 +5h .. +17h)
    r = g.run("day 1", "+18h")
    assert r.died("М3") == ("day 1", "vote")
    assert msg(r, "night 1/opens").at == START + timedelta(hours=5)
    assert r.died("М5") == ("night 1", "mafia")
    assert msg(r, "day 2/opens").at == START + timedelta(hours=17)


def test_C1_pause_shifts_the_deadline_by_its_length():
    g = Game.moscow()
    g.gm("day 1", "+2h", "пауза")
    g.gm("day 1", "+5h", "продолжить")
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    for who in ("М4", "М5", "М6"):
        g.vote("day 1", "+26h", who, "М6")  # day now ends at +27h
    r = g.run("night 1", "+6h")
    assert r.died("М6") == ("day 1", "vote")
    assert msg(r, "night 1/opens").at == START + timedelta(hours=27)


def test_C1_paused_game_does_not_resolve_its_deadline():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.gm("day 1", "+2h", "pause")
    r = g.run("day 2", "+1h")
    assert r.alive("М3")
    assert r.run.phase == "day 1"
    assert r.run.next_deadline is None


# ------------------------------------------------------------------------------------------------ C-2


def test_C2_each_player_gets_a_role_pm_and_mafia_their_partners():
    r = Game.moscow().run("day 1", "+1h")
    assert "шериф" in r.pms("Шериф")[0]
    assert "мирный" in r.pms("М1")[0]
    assert "дон" in r.pms("Дон")[0]
    for m in MAFIA:
        text = r.pms(m)[0]
        assert "Мафия вместе с вами" in text
        assert all(p in text for p in MAFIA if p != m)
    assert "Мафия вместе с вами" not in r.pms("Шериф")[0] and "Маф1" not in r.pms("М1")[0]


def test_C2_player_list_is_posted():
    r = Game.moscow().run("day 1", "+1h")
    first = r.posts("game")[0]
    assert all(nick in first for nick, _ in MOSCOW_CAST)


def test_C2_roles_drawn_with_the_seed_are_reproducible():
    cast = [(n, None) for n, _ in MOSCOW_CAST]
    a = Game("moscow", list(cast), seed=42).run("day 1", "+1h")
    b = Game("moscow", list(cast), seed=42).run("day 1", "+1h")
    roles_a = {n: a.player(n).role for n, _ in cast}
    assert roles_a == {n: b.player(n).role for n, _ in cast}
    assert sorted(roles_a.values()) == sorted([Role.CIVILIAN] * 6 + [Role.SHERIFF, Role.DON, Role.MAFIA, Role.MAFIA])
    others = [Game("moscow", list(cast), seed=s).run("day 1", "+1h") for s in range(43, 48)]
    assert any({n: o.player(n).role for n, _ in cast} != roles_a for o in others)


@pytest.mark.parametrize("reply", ["Подтверждаю!", "принял, спасибо", "I confirm", "confirm"])
def test_C2_any_reply_with_a_confirm_word_confirms(reply):
    g = Game.moscow()
    g.pm("setup", "-5h", "М1", reply)
    r = g.run("day 1", "+1h")
    assert any("подтверждена" in t for t in r.pms("М1"))
    gm = next(t for t in r.pms("ГМ") if "День 1 начался" in t)
    assert "М1" not in gm and "М2" in gm


def test_C2_unconfirmed_get_exactly_one_reminder():
    g = Game.moscow()
    g.pm("setup", "-10h", "М1", "подтверждаю")
    g.pm("setup", "-9h", "М2", "ok")  # not a confirmation
    r = g.run("day 2", "+1h")
    reminder = "Напоминание: подтвердите"
    assert sum(reminder in t for t in r.pms("М2")) == 1
    assert sum(reminder in t for t in r.pms("М3")) == 1
    assert not any(reminder in t for t in r.pms("М1"))


def test_C2_gm_is_told_who_is_unconfirmed_when_day_1_opens():
    g = Game.moscow()
    for n, _ in MOSCOW_CAST:
        if n not in ("М4", "Маф2"):
            g.pm("setup", "-2h", n, "подтверждаю")
    r = g.run("day 1", "+1h")
    gm = [m for m in r.run.messages if m.to == "ГМ"]
    assert len(gm) == 1 and gm[0].at == START
    assert "М4" in gm[0].text and "Маф2" in gm[0].text and "М5" not in gm[0].text


def test_C2_game_starts_on_schedule_regardless_of_confirmations():
    r = Game.moscow().run("day 1", "+1h")
    assert msg(r, "day 1/opens").at == START
    assert r.run.phase == "day 1"


# ------------------------------------------------------------------------------------------------ C-3


def test_C3_dead_players_post_is_not_a_vote():
    g = Game.moscow()
    shoot(g, "night 1", "М1")
    g.votes("day 2", {"М2": "М3", "М1": "М4"})
    r = g.run("night 2", "+1h")
    assert r.died("М3") == ("day 2", "vote")
    assert r.alive("М4")
    assert "М1 «М4» — автор вне игры и не голосует" in final_count(r, "day 2")


def test_C3_non_player_post_is_not_a_vote_and_is_reported():
    g = Game.moscow()
    g.vote("day 1", "+1h", "Прохожий", "М3")
    g.vote("day 1", "+1h", "Прохожий2", "М3")
    g.vote("day 1", "+1h", "М1", "М4")
    g.vote("day 1", "+1h", "М2", "М4")
    r = g.run("night 1", "+1h")
    assert r.died("М4") == ("day 1", "vote")
    assert "Прохожий «М3» — автор не участвует в этой игре" in final_count(r)


def test_C3_bot_posts_are_not_votes():
    g = Game.moscow()
    g.vote("day 1", "+1h", "Бот", "М3")
    g.vote("day 1", "+1h", "Бот", "М3")
    g.votes("day 1", {"М1": "М4", "М2": "М4"})
    r = g.run("night 1", "+1h")
    assert r.died("М4") == ("day 1", "vote")
    assert r.alive("М3")


def test_C3_vote_for_dead_player_is_invalid_and_reported():
    g = Game.moscow()
    shoot(g, "night 1", "М1")
    g.votes("day 2", {"М2": "М1", "М3": "М1", "М4": "М5"})
    r = g.run("night 2", "+1h")
    assert r.died("М5") == ("day 2", "vote")
    assert "этот игрок вне игры" in final_count(r, "day 2")


def test_C3_one_post_holds_at_most_one_vote():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3\nМ4")
    g.vote("day 1", "+1h", "М2", "М3 М4")
    r = g.run("night 1", "+1h")
    assert r.alive("М3") and r.alive("М4")
    assert "Голосов нет" in final_count(r)


# ------------------------------------------------------------------------------------------------ C-4

LOOKALIKE_CAST = [("Cosmo", Role.SHERIFF), ("Дон", Role.DON), ("Маф1", Role.MAFIA), ("Маф2", Role.MAFIA),
                  ("Кот", Role.CIVILIAN), ("Кoт", Role.CIVILIAN),  # the second has a Latin "o"
                  ("М3", Role.CIVILIAN), ("М4", Role.CIVILIAN), ("М5", Role.CIVILIAN), ("М6", Role.CIVILIAN)]


def test_C4_lookalike_spelling_of_a_nick_counts_as_a_vote():
    g = Game("moscow", list(LOOKALIKE_CAST))
    g.vote("day 1", "+1h", "М3", "Соsmо")  # Cyrillic С, о, о
    g.vote("day 1", "+1h", "М4", "[b]COSMO[/b]")
    r = g.run("night 1", "+1h")
    assert r.died("Cosmo") == ("day 1", "vote")


def test_C4_exact_match_wins_over_lookalike_so_both_twins_can_be_named():
    g = Game("moscow", list(LOOKALIKE_CAST))
    g.votes("day 1", {"М3": "Кoт", "М4": "Кoт", "М5": "Кот"})
    r = g.run("night 1", "+1h")
    assert r.died("Кoт") == ("day 1", "vote")
    assert r.alive("Кот")


def test_C4_ambiguous_name_is_invalid_and_reported_in_the_count():
    g = Game("moscow", list(LOOKALIKE_CAST))
    g.votes("day 1", {"М3": "Кοт", "М4": "Кοт"})  # Greek omicron: folds to both twins
    g.votes("day 1", {"М5": "М6", "М6": "М6"})
    r = g.run("night 1", "+1h")
    assert r.died("М6") == ("day 1", "vote")
    assert r.alive("Кот") and r.alive("Кoт")
    assert "подходит нескольким" in final_count(r)


def test_C4_unknown_name_is_reported_in_the_count():
    g = Game.moscow()
    g.votes("day 1", {"М1": "Вася", "М2": "М3", "М4": "М3"})
    r = g.run("night 1", "+1h")
    assert "нет игрока с таким ником" in final_count(r)


def test_C4_gm_alias_matches_in_votes():
    g = Game.moscow()
    g.gm("day 1", "+1h", "алиас Шер Шериф")
    g.votes("day 1", {"М1": "шер", "М2": "Шер"}, offset="+2h")
    r = g.run("night 1", "+1h")
    assert r.died("Шериф") == ("day 1", "vote")


def test_C4_keywords_match_after_normalisation():
    g = Game.moscow()
    g.votes("day 1", {"М1": "[b]НнВ[/b]", "М2": "нНв.", "М3": "ННВ"})
    r = g.run("night 1", "+1h")
    assert "Все голоса — ннв" in plain(msg(r, "day 1/result").text)


# ------------------------------------------------------------------------------------------------ C-5


def test_C5_latest_valid_move_counts():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "проверка М1")
    g.pm("night 1", "+2h", "Шериф", "проверка Маф2")
    g.pm("night 1", "+3h", "Шериф", "проверка Никтошкин")  # invalid: does not replace
    r = g.run("day 2", "+1h")
    results = [t for t in r.pms("Шериф") if "Результат проверки" in t]
    assert results == ["Результат проверки: Маф2 — мафия."]


def test_C5_void_latest_move_does_not_fall_back_to_an_earlier_one():
    g = Game.moscow()
    shoot(g, "night 1", "М1")
    g.pm("night 1", "+2h", "Маф1", "убить М2")
    g.gm("night 1", "+3h", "модкилл М2")  # Маф1's latest target is dead when the night resolves
    r = g.run("day 2", "+1h")
    assert r.alive("М1")
    assert "несострел" in plain(msg(r, "night 1/result").text)


def test_C5_move_of_a_sender_dead_at_resolution_is_void():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "проверка Дон")
    g.gm("night 1", "+2h", "модкилл Шериф")
    r = g.run("day 2", "+1h")
    assert not any("Результат проверки" in t for t in r.pms("Шериф"))


def test_C5_move_without_the_ability_is_refused_by_pm():
    g = Game.moscow()
    g.pm("night 1", "+1h", "М1", "убить М2")
    g.pm("night 1", "+1h", "Маф1", "проверка М2")
    g.pm("night 1", "+1h", "Шериф", "убить М2")
    r = g.run("day 2", "+1h")
    for who in ("М1", "Маф1", "Шериф"):
        assert any("нет такого хода" in t for t in r.pms(who)), who
    assert r.alive("М2")


def test_C5_move_from_a_dead_player_is_refused_by_pm():
    g = Game.moscow()
    g.votes("day 1", {"М1": "Маф1", "М2": "Маф1"})
    g.pm("night 1", "+1h", "Маф1", "убить М3")
    shoot(g, "night 1", "М4", who=("Дон", "Маф2"))
    r = g.run("day 2", "+1h")
    assert any("Вы вне игры" in t for t in r.pms("Маф1"))
    assert r.alive("М3") and not r.alive("М4")


def test_C5_each_accepted_move_is_acknowledged():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "проверка М1")
    g.pm("night 1", "+2h", "Шериф", "проверка М2")
    g.pm("night 1", "+1h", "Дон", "убить М3")
    r = g.run("day 2", "+1h")
    acks = [t for t in r.pms("Шериф") if t.startswith("Принято")]
    assert acks == ["Принято: проверка. Цель — М1.", "Принято: проверка. Цель — М2."]
    assert any(t.startswith("Принято: выстрел. Цель — М3.\nЦели мафии сейчас:") for t in r.pms("Дон"))


# ------------------------------------------------------------------------------------------------ C-6


def test_C6_vote_count_at_most_every_60_minutes_and_only_when_changed():
    g = Game.moscow()
    g.vote("day 1", "+1h10m", "М1", "М2")
    g.vote("day 1", "+1h20m", "М3", "М2")
    g.vote("day 1", "+1h30m", "М4", "М5")
    g.vote("day 1", "+5h10m", "М5", "М2")
    r = g.run("day 1", "+23h")
    posted = counts(r)
    assert [m.at for m in posted] == [START + timedelta(hours=2), START + timedelta(hours=6)]
    assert "М2 — 2 голоса" in plain(posted[0].text) and "М2 — 3 голоса" in plain(posted[1].text)


def test_C6_count_interval_is_a_game_option():
    g = Game.moscow(options={"vote_count_minutes": 30})
    g.vote("day 1", "+10m", "М1", "М2")
    g.vote("day 1", "+40m", "М3", "М2")
    r = g.run("day 1", "+5h")
    assert [m.at for m in counts(r)] == [START + timedelta(minutes=30), START + timedelta(minutes=60)]


def test_C6_final_count_and_outcome_are_posted_in_the_game_thread_at_the_day_deadline():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М2", "М3": "М2"})
    r = g.run("night 1", "+1h")
    deadline = START + timedelta(hours=24)
    at_deadline = "\n".join(plain(m.text) for m in r.run.messages if m.where == "game" and m.at == deadline)
    assert "Итоговый подсчёт голосов (день 1)" in at_deadline and "М2 — 2 голоса: М1, М3" in at_deadline
    assert "покидает М2" in plain(msg(r, "day 1/result").text)


def test_C6_night_outcome_is_posted_at_the_night_deadline():
    g = Game.moscow()
    shoot(g, "night 1", "М3")
    r = g.run("day 2", "+1h")
    res = msg(r, "night 1/result")
    assert res.where == "game" and res.at == g.at("night 1", "+12h")
    assert "М3" in res.text


def test_C6_game_end_posts_the_winner_and_every_role():
    g = Game.moscow()
    for m in MAFIA:
        g.gm("day 1", "+1h", f"модкилл {m}")
    r = g.run("day 1", "+2h")
    assert r.winner == "town"
    end = plain(msg(r, "ended/result").text)
    assert "победа города" in end
    for nick, role in MOSCOW_CAST:
        line = next(ln for ln in end.splitlines() if ln.startswith(f"{nick} — "))
        assert {"sheriff": "шериф", "don": "дон", "mafia": "мафия", "civilian": "мирный"}[role.value] in line


# ------------------------------------------------------------------------------------------------ C-7


def test_C7_win_check_after_the_day_vote():
    g = Game.moscow()
    g.gm("setup", "-2h", "модкилл Маф1")
    g.gm("setup", "-2h", "модкилл Маф2")
    g.votes("day 1", {"М1": "Дон", "М2": "Дон"})
    r = g.run("night 1", "+1h")
    assert r.winner == "town"
    assert r.run.result.ended_at == g.at("day 1", "+24h")
    assert not has_key(r, "night 1/opens")


def test_C7_win_check_after_the_night():
    g = Game.moscow()
    for c in ("М1", "М2", "М3"):
        g.gm("setup", "-2h", f"модкилл {c}")
    shoot(g, "night 1", "М4")
    r = g.run("day 2", "+1h")
    assert r.winner == "mafia"
    assert r.run.result.ended_at == g.at("night 1", "+12h")
    assert not has_key(r, "day 2/opens")


def test_C7_win_check_after_a_modkill_ends_the_game_at_once():
    g = Game.moscow()
    g.gm("day 1", "+1h", "модкилл Маф1")
    g.gm("day 1", "+2h", "модкилл Маф2")
    g.gm("day 1", "+3h", "modkill Дон")
    r = g.run("night 1", "+1h")
    assert r.winner == "town"
    assert r.run.result.ended_at == g.at("day 1", "+3h")
    assert not has_key(r, "day 1/result")


def test_C7_first_condition_met_wins_no_mafia_beats_the_draw():
    g = Game.moscow()
    for n in ("М1", "М2", "М3", "Маф1", "Маф2"):
        g.gm("setup", "-2h", f"модкилл {n}")
    g.votes("day 1", {"М4": "Дон", "М5": "Дон", "Шериф": "Дон"})  # leaves 4 players, no mafia
    r = g.run("night 1", "+1h")
    assert r.winner == "town"


def test_C7_inputs_after_the_end_change_nothing():
    g = Game.moscow()
    for m in MAFIA:
        g.gm("day 1", "+1h", f"модкилл {m}")
    g.votes("day 1", {"М1": "М2", "М3": "М2"}, offset="+2h")
    r = g.run("day 2", "+1h")
    assert r.alive("М2") and r.winner == "town"


# ------------------------------------------------------------------------------------------------ C-8


def test_C8_hanged_player_gets_one_last_word():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М2", "М3": "М2"})
    g.post("night 1", "+1h", "М2", "Я мирный, зря вы так")
    g.post("night 1", "+2h", "М2", "И ещё одно")
    r = g.run("day 2", "+1h")
    reports = [t for t in r.pms("ГМ") if "от игрока вне игры — М2" in t]
    assert len(reports) == 1 and "t4" in reports[0]


def test_C8_night_victim_gets_one_last_word():
    g = Game.moscow()
    shoot(g, "night 1", "М3")
    g.post("day 2", "+1h", "М3", "Последнее слово")
    r = g.run("day 2", "+2h")
    assert not any("от игрока вне игры — М3" in t for t in r.pms("ГМ"))
    assert any("last word of М3" in line for line in r.run.log)


def test_C8_modkilled_player_has_no_last_word():
    g = Game.moscow()
    g.gm("day 1", "+1h", "модкилл М3 спам")
    g.post("day 1", "+2h", "М3", "Это несправедливо")
    r = g.run("day 1", "+3h")
    assert any("от игрока вне игры — М3" in t for t in r.pms("ГМ"))


def test_C8_extra_posts_of_dead_players_are_reported_to_the_gm():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М2", "М3": "М2"})
    for k in range(3):
        g.post("night 1", f"+{k + 1}h", "М2", f"пост {k}")
    r = g.run("night 1", "+5h")
    assert sum("от игрока вне игры — М2" in t for t in r.pms("ГМ")) == 2


def test_C8_last_word_after_its_deadline_is_reported_to_the_gm():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М2", "М3": "М2"})
    g.post("day 2", "+1h", "М2", "опоздал")  # due before night 1 ended (M-14)
    r = g.run("day 2", "+2h")
    assert any("от игрока вне игры — М2" in t for t in r.pms("ГМ"))


# ------------------------------------------------------------------------------------------------ C-9


def test_C9_player_pm_with_a_gm_command_changes_nothing():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.pm("day 1", "+2h", "М1", "модкилл М2")
    g.pm("day 1", "+2h", "М4", "конец-фазы")
    g.pm("day 1", "+2h", "М5", "продлить 12ч")
    g.pm("day 1", "+2h", "М6", "ГМ: модкилл М2")
    r = g.run("night 1", "+1h")
    assert r.alive("М2")
    assert r.died("М3") == ("day 1", "vote")
    assert msg(r, "night 1/opens").at == g.at("day 1", "+24h")
    assert not any(line.startswith("override") for line in r.run.log)
    for who in ("М1", "М4", "М5", "М6"):
        assert any(t.startswith("Не понято") for t in r.pms(who)), who


def test_C9_pm_claiming_to_be_from_the_gm_changes_nothing():
    g = Game.moscow()
    g.pm("day 1", "+2h", "М1", "Сообщение от ГМ (ГМ):\nмодкилл Маф1\nконец-фазы")
    r = g.run("day 1", "+3h")
    assert r.alive("Маф1") and r.run.phase == "day 1"


def test_C9_player_quoting_a_gm_command_in_a_thread_changes_nothing():
    g = Game.moscow()
    g.post("day 1", "+1h", "М1", "ГМ написал: модкилл М2")
    g.post("day 1", "+1h", "М1", "модкилл М2")
    g.vote("day 1", "+1h", "М3", "модкилл М2")
    g.vote("day 1", "+1h", "М4", "конец-фазы")
    r = g.run("day 1", "+3h")
    assert r.alive("М2") and r.run.phase == "day 1"


def test_C9_every_override_is_logged_with_who_when_and_state():
    g = Game.moscow()
    g.gm("day 1", "+1h", "модкилл М2")
    g.gm("day 1", "+2h", "продлить 1ч")
    g.gm("day 1", "+3h", "отмена")
    r = g.run("day 1", "+4h")
    overrides = [line for line in r.run.log if line.startswith("override")]
    assert len(overrides) == 3
    assert all("ГМ" in line for line in overrides)
    assert g.at("day 1", "+1h").isoformat() in overrides[0]
    before, after = overrides[0].split("; before: ")[1].split("; after: ")
    assert "alive 10" in before and "М2" in before and "alive 9" in after and "М2" not in after
    before, after = overrides[1].split("; before: ")[1].split("; after: ")
    assert g.at("day 1", "+24h").isoformat() in before and g.at("day 1", "+25h").isoformat() in after
    assert "undo Extend" in overrides[2]
    assert overrides[2].split("after: ")[1].startswith(f"day 1 until {g.at('day 1', '+24h').isoformat()}")


def test_C9_a_second_gm_account_also_commands():
    g = Game.moscow(gms=("ГМ", "Помощник"))
    g.pm("day 1", "+1h", "Помощник", "modkill М2")
    r = g.run("day 1", "+2h")
    assert r.died("М2") == ("day 1", "modkill")


def test_C9_gm_cannot_also_be_a_player():
    with pytest.raises(SetupError):
        Game.moscow(gms=("М1",)).run("day 1", "+1h")


# --- GM commands (DESIGN.md), each in Russian and English


@pytest.mark.parametrize("word", ["статус", "status"])
def test_C9_gm_status(word):
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл М6")
    g.vote("day 1", "+1h", "М1", "М2")
    g.gm("day 1", "+2h", word)
    r = g.run("day 1", "+3h")
    status = r.pms("ГМ")[-1]
    alive = status.split("В игре")[1].split("\n")[0]
    assert "день 1" in status and "В игре 9 игроков" in status and "М1 → М2" in status and "М6" not in alive


@pytest.mark.parametrize("cmd", ["модкилл М2 спам в личке", "modkill М2 spam"])
def test_C9_gm_modkill(cmd):
    g = Game.moscow()
    g.gm("day 1", "+1h", cmd)
    r = g.run("day 1", "+2h")
    assert r.died("М2") == ("day 1", "modkill")
    post = plain(msg(r, "day 1/modkill/М2").text)
    assert "Модкилл: М2" in post and "спам" in post or "spam" in post
    assert r.pms("ГМ")[-1].startswith("Выполнено")


def test_C9_gm_modkill_of_a_dead_player_is_refused_and_changes_nothing():
    g = Game.moscow()
    g.gm("day 1", "+1h", "модкилл М2")
    g.gm("day 1", "+2h", "модкилл М2")
    g.gm("day 1", "+3h", "модкилл Никто")
    r = g.run("day 1", "+4h")
    replies = r.pms("ГМ")
    assert "уже вне игры" in replies[-2]
    assert replies[-1].startswith("Команда не выполнена") and "Никто" in replies[-1]
    assert sum(1 for m in r.run.messages if "/modkill/" in m.key) == 1


@pytest.mark.parametrize("cmd", ["замена М3 Новичок", "replace М3 Новичок"])
def test_C9_gm_replace_keeps_the_seat_role_and_new_account_plays(cmd):
    g = Game.moscow()
    g.gm("day 1", "+1h", cmd)
    g.vote("day 1", "+2h", "Новичок", "Маф1")
    g.vote("day 1", "+2h", "М1", "Маф1")
    g.vote("day 1", "+2h", "М3", "М1")  # the old account no longer plays
    r = g.run("night 1", "+1h")
    assert r.died("Маф1") == ("day 1", "vote")
    assert r.player("Новичок").role is Role.CIVILIAN
    assert any("Ваша роль: мирный" in t for t in r.pms("Новичок"))
    assert "Не засчитано: М3 «М1» — автор не участвует в этой игре" in final_count(r)


def test_C9_gm_replace_of_a_special_role_moves_with_the_seat():
    g = Game.moscow()
    g.gm("day 1", "+1h", 'replace Шериф "Новый Шериф"')
    g.pm("night 1", "+1h", "Новый Шериф", "проверка Дон")
    r = g.run("day 2", "+1h")
    assert r.player("Новый Шериф").role is Role.SHERIFF
    assert any("Дон — мафия" in t for t in r.pms("Новый Шериф"))


def test_C9_gm_replace_with_an_account_already_playing_is_refused():
    g = Game.moscow()
    g.gm("day 1", "+1h", "замена М3 М4")
    r = g.run("day 1", "+2h")
    assert "этот аккаунт уже в игре (игрок, ведущий или бот): «М4»" in r.pms("ГМ")[-1]
    assert r.player("М3").role is Role.CIVILIAN and r.alive("М3")


@pytest.mark.parametrize("cmd", ["продлить 30мин", "extend 30m"])
def test_C9_gm_extend(cmd):
    g = Game.moscow()
    g.gm("day 1", "+1h", cmd)
    r = g.run("night 1", "+1h")
    assert msg(r, "night 1/opens").at == g.at("day 1", "+24h30m")


def test_C9_gm_extend_with_a_bad_duration_changes_nothing():
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить немного")
    r = g.run("night 1", "+1h")
    assert "длительность" in r.pms("ГМ")[-1]
    assert msg(r, "night 1/opens").at == g.at("day 1", "+24h")


@pytest.mark.parametrize("pause,resume", [("пауза", "продолжить"), ("pause", "resume")])
def test_C9_gm_pause_resume(pause, resume):
    g = Game.moscow()
    g.gm("night 1", "+1h", pause)
    g.gm("night 1", "+4h", resume)
    r = g.run("day 2", "+4h")
    assert msg(r, "day 2/opens").at == g.at("night 1", "+15h")


def test_C9_gm_resume_when_not_paused_is_refused():
    g = Game.moscow()
    g.gm("day 1", "+1h", "продолжить")
    g.gm("day 1", "+2h", "pause")
    g.gm("day 1", "+3h", "pause")
    g.gm("day 1", "+4h", "end-phase")
    r = g.run("day 1", "+5h")
    replies = [t for t in r.pms("ГМ") if "День 1" not in t]
    assert "не на паузе" in replies[0]
    assert "уже на паузе" in replies[2]
    assert "на паузе" in replies[3] and r.run.phase == "day 1"


@pytest.mark.parametrize("cmd", ["конец-фазы", "end-phase", "конец фазы"])
def test_C9_gm_end_phase(cmd):
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.gm("day 1", "+3h", cmd)
    r = g.run("day 1", "+4h")
    assert r.died("М3") == ("day 1", "vote")
    assert r.run.phase == "night 1"


@pytest.mark.parametrize("cmd", ["голос М4 М5", "setvote М4 М5"])
def test_C9_gm_setvote(cmd):
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М6": "М5"})
    g.gm("day 1", "+2h", cmd)
    g.gm("day 1", "+2h", cmd.replace("М4", "Шериф"))
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")


def test_C9_gm_setvote_outside_a_day_is_refused():
    g = Game.moscow()
    g.gm("night 1", "+1h", "голос М4 М5")
    r = g.run("night 1", "+2h")
    assert "не день" in r.pms("ГМ")[-1]


@pytest.mark.parametrize("cmd", ["алиас Котик М1", "alias Котик М1"])
def test_C9_gm_alias(cmd):
    g = Game.moscow()
    g.gm("day 1", "+1h", cmd)
    g.votes("day 1", {"М2": "котик", "М3": "Котик"}, offset="+2h")
    r = g.run("night 1", "+1h")
    assert r.died("М1") == ("day 1", "vote")


def test_C9_gm_alias_that_names_a_player_is_refused():
    g = Game.moscow()
    g.gm("day 1", "+1h", "alias М2 М1")
    r = g.run("day 1", "+2h")
    assert "уже указывает" in r.pms("ГМ")[-1]


@pytest.mark.parametrize("cmd", ["сказать Всем привет!", "say Всем привет!"])
def test_C9_gm_say(cmd):
    g = Game.moscow()
    g.gm("day 1", "+1h", cmd)
    r = g.run("day 1", "+2h")
    said = [m for m in r.run.messages if plain(m.text) == "Всем привет!"]
    assert len(said) == 1 and said[0].where == "game" and said[0].at == g.at("day 1", "+1h")


@pytest.mark.parametrize("word", ["отмена", "undo"])
def test_C9_gm_undo_reverses_the_last_override(word):
    g = Game.moscow()
    g.gm("day 1", "+1h", "модкилл М2")
    g.gm("day 1", "+2h", word)
    g.votes("day 1", {"М1": "М3", "М4": "М3"}, offset="+3h")
    r = g.run("night 1", "+1h")
    assert r.alive("М2")
    assert r.died("М3") == ("day 1", "vote")  # the day's vote is back (M-11)


def test_C9_gm_undo_twice_walks_back_two_overrides():
    g = Game.moscow()
    g.gm("day 1", "+1h", "продлить 2ч")
    g.gm("day 1", "+2h", "модкилл М2")
    g.vote("day 1", "+3h", "М1", "М3")
    g.gm("day 1", "+4h", "отмена")
    g.gm("day 1", "+5h", "undo")
    g.vote("day 1", "+6h", "М4", "М3")
    r = g.run("night 1", "+1h")
    assert r.alive("М2")
    assert r.died("М3") == ("day 1", "vote")
    assert msg(r, "night 1/opens").at == g.at("day 1", "+24h")


def test_C9_gm_undo_keeps_player_inputs_that_came_after():
    g = Game.moscow()
    g.gm("day 1", "+1h", "алиас Котик М1")
    g.votes("day 1", {"М2": "М5", "М3": "М5"}, offset="+2h")
    g.gm("day 1", "+3h", "отмена")
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")


def test_C9_gm_undo_refused_after_a_deadline_passed():
    g = Game.moscow()
    g.gm("day 1", "+1h", "модкилл М2")
    g.gm("night 1", "+1h", "отмена")
    r = g.run("night 1", "+2h")
    assert r.pms("ГМ")[-1].startswith("Нельзя отменить «модкилл М2»: после этой команды уже подведены итоги фазы.")
    assert r.died("М2") == ("day 1", "modkill")


def test_C9_gm_undo_with_nothing_to_undo_is_refused():
    g = Game.moscow()
    g.gm("day 1", "+1h", "undo")
    r = g.run("day 1", "+2h")
    assert "отменять нечего" in r.pms("ГМ")[-1]


def test_C9_gm_unknown_command_is_answered_and_changes_nothing():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    g.gm("day 1", "+2h", "повесить М4")
    r = g.run("night 1", "+1h")
    assert r.pms("ГМ")[-1].startswith("Команда не выполнена")
    assert r.died("М3") == ("day 1", "vote") and r.alive("М4")


def test_C9_gm_commands_answer_in_english_for_an_english_game():
    g = Game.moscow(language="en")
    g.gm("day 1", "+1h", "modkill М2")
    g.gm("day 1", "+2h", "resume")
    r = g.run("day 1", "+3h")
    replies = [t for t in r.pms("ГМ") if "Day 1" not in t]
    assert replies[0].startswith("Done: modkill — М2 leaves the game")
    assert replies[1] == "Command not done: the game is not paused."


# ------------------------------------------------------------------------------------------------ C-10


def test_C10_modkill_at_any_time_removes_the_player_without_last_word():
    g = Game.moscow()
    g.gm("setup", "-1h", "модкилл М1")
    g.gm("night 1", "+1h", "модкилл М2")
    g.post("night 1", "+2h", "М2", "последнее слово?")
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("setup", "modkill")
    assert r.died("М2") == ("night 1", "modkill")
    assert any("от игрока вне игры — М2" in t for t in r.pms("ГМ"))
    assert "Последнее слово" not in plain(msg(r, "night 1/modkill/М2").text)


# ------------------------------------------------------------------------------------------------ C-11


def test_C11_vote_edited_before_deadline_is_void_and_named_in_the_count():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2", edited_at=g.at("day 1", "+2h"))
    g.vote("day 1", "+1h", "М3", "М2")
    g.vote("day 1", "+1h", "М4", "М5")
    g.vote("day 1", "+1h", "М6", "М5")
    g.vote("day 1", "+3h", "Шериф", "М5")
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")
    assert "М1 «М2» — сообщение отредактировано" in final_count(r)


def test_C11_void_edited_post_does_not_use_a_vote_change():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2", edited_at=g.at("day 1", "+1h30m"))
    g.vote("day 1", "+2h", "М1", "М3")
    g.vote("day 1", "+3h", "М1", "М4")  # the one change: counts
    g.vote("day 1", "+3h", "М5", "М4")
    r = g.run("night 1", "+1h")
    assert r.died("М4") == ("day 1", "vote")


def test_C11_first_seen_option_counts_the_text_first_stored():
    g = Game.moscow(options={"edited_votes": "first_seen"})
    g.vote("day 1", "+1h", "М1", "М3", edited_at=g.at("day 1", "+2h"), first_text="М2")
    g.vote("day 1", "+1h", "М4", "М2")
    g.vote("day 1", "+1h", "М5", "М3")
    r = g.run("night 1", "+1h")
    assert r.died("М2") == ("day 1", "vote")
    # the count names every edited post, as it reads now and as first stored (issue 17 item 15)
    assert "Отредактировано: М1 «М3» (сначала было «М2»)" in final_count(r)


def test_C11_edit_after_deadline_changes_nothing():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3", edited_at=g.at("day 1", "+24h"), first_text="М2")
    g.vote("day 1", "+1h", "М4", "М2")
    r = g.run("night 1", "+1h")
    assert r.died("М2") == ("day 1", "vote")


def test_C11_edit_after_deadline_never_seen_before_counts_current_text():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3", edited_at=g.at("night 1", "+1h"))
    g.vote("day 1", "+1h", "М4", "М3")
    r = g.run("night 1", "+2h")
    assert r.died("М3") == ("day 1", "vote")


def test_C11_bad_option_is_refused():
    with pytest.raises(SetupError):
        Game.moscow(options={"edited_votes": "latest"}).run("day 1", "+1h")


def test_C11_edit_of_a_day_post_during_the_runoff_changes_nothing():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3 / повесить всех", edited_at=g.at("day 1", "+25h"))
    g.vote("day 1", "+1h", "М2", "М4 / повесить всех")
    g.vote("day 1", "+1h", "М5", "ннв / помиловать всех")
    r = g.run("night 1", "+13h")
    # The day tie goes to a hang-all runoff (10 alive); every RUNOFF part stands: 2 of 3 hang all.
    assert r.died("М3") == ("day 1", "runoff") and r.died("М4") == ("day 1", "runoff")


# ------------------------------------------------------------------------------------------------ C-12


def test_C12_multi_line_pm_makes_several_moves():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Дон", "убить М1\n[b]проверка[/b] Шериф")
    shoot(g, "night 1", "М1", who=("Маф1", "Маф2"))
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("night 1", "mafia")
    assert any("Шериф — шериф" in t for t in r.pms("Дон"))
    assert any(t.startswith("Принято: выстрел. Цель — М1.\nПринято: проверка. Цель — Шериф.\nЦели мафии")
               for t in r.pms("Дон"))


def test_C12_english_keywords_work():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "CHECK Маф1")
    shoot(g, "night 1", "М1", who=())
    for m in MAFIA:
        g.pm("night 1", "+1h", m, "shoot М1")
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("night 1", "mafia")
    assert any("Маф1 — мафия" in t for t in r.pms("Шериф"))


def test_C12_bare_nickname_is_the_only_possible_move():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "Маф2")  # the Sheriff's one move: a check
    g.pm("night 1", "+1h", "Маф1", "М1")  # a mafioso's one move: a shot
    g.pm("night 1", "+1h", "Маф2", "М1")
    g.pm("night 1", "+1h", "Дон", "М1")  # the Don has two moves: not understood
    r = g.run("day 2", "+1h")
    assert any("Маф2 — мафия" in t for t in r.pms("Шериф"))
    assert any(t.startswith("Принято: выстрел. Цель — М1.\n") for t in r.pms("Маф1"))
    assert any(t.startswith("Не понято") for t in r.pms("Дон"))
    assert r.alive("М1")  # the Don sent no shot: misfire


def test_C12_bare_nickname_from_a_civilian_is_not_understood():
    g = Game.moscow()
    g.pm("night 1", "+1h", "М1", "Маф2")
    r = g.run("night 1", "+2h")
    assert any(t.startswith("Не понято") for t in r.pms("М1"))


def test_C12_unknown_pm_is_answered_with_what_was_expected_and_changes_nothing():
    g = Game.moscow()
    shoot(g, "night 1", "М1")
    g.pm("night 1", "+2h", "Маф1", "привет, как дела")
    g.pm("night 1", "+2h", "Шериф", "проверь-ка М2")
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("night 1", "mafia")
    reply = r.pms("Маф1")[-1]
    assert reply.startswith("Не понято") and "Можно написать: «убить НИК»" in reply
    assert any(t.startswith("Не понято") and "«проверка НИК»" in t for t in r.pms("Шериф"))


def test_C12_one_bad_line_does_not_spoil_the_good_ones():
    g = Game.moscow()
    g.pm("night 1", "+1h", "Шериф", "привет\nпроверка Маф1\nспасибо")
    r = g.run("day 2", "+1h")
    reply = next(t for t in r.pms("Шериф") if "Принято" in t)
    assert reply.count("Не понято") == 2 and "Принято: проверка. Цель — Маф1." in reply
    assert any("Маф1 — мафия" in t for t in r.pms("Шериф"))


# ------------------------------------------------------------------------------------------------ more edges


def test_C1_lengths_are_elapsed_hours_across_a_clock_change():
    from datetime import datetime, timezone

    from forumbot.game import run
    from forumbot.model import GameSetup, PlayerSpec, Schedule

    cest = timezone(timedelta(hours=2))
    start = datetime(2026, 10, 24, 12, 0, tzinfo=cest)  # Berlin leaves summer time on 25 October
    setup = GameSetup(
        variant="moscow", seed=1, schedule=Schedule(start, timedelta(hours=24), timedelta(hours=12),
                                                     timedelta(hours=12), "Europe/Berlin"),
        players=tuple(PlayerSpec(n, r) for n, r in MOSCOW_CAST), bot="Бот", gms=("ГМ",),
    )
    r = run(setup, [], start + timedelta(hours=25))
    assert r.phase == "night 1"
    night = next(m for m in r.messages if m.where == "game" and "ночь 1" in plain(m.text))
    assert night.at == start + timedelta(hours=24)
    assert "25.10 23:00" in night.text  # 24 h after 12:00 CEST is 11:00 CET; +12 h is 23:00 CET


def test_C1_gm_extend_during_setup_moves_day_1():
    g = Game.moscow()
    g.gm("setup", "-2h", "extend 1h")
    g.vote("day 1", "+30m", "М1", "М2")  # setup still: not a vote
    r = g.run("day 1", "+2h")
    opens = next(m for m in r.run.messages if m.where == "game" and "Наступил день 1" in plain(m.text))
    assert opens.at == g.at("day 1", "+1h")
    assert not any("М2 — 1" in t for t in r.posts("vote") + r.posts("game"))


def test_C7_win_check_after_a_night_modkill_ends_the_game_at_once():
    g = Game.moscow()
    for c in ("М1", "М2", "М3"):
        g.gm("setup", "-2h", f"модкилл {c}")
    g.gm("night 1", "+2h", "модкилл М4")  # 3 mafia v 3 town
    r = g.run("day 2", "+1h")
    assert r.winner == "mafia"
    assert r.run.result.ended_at == g.at("night 1", "+2h")


def test_C9_gm_replace_during_setup_new_account_confirms_and_gets_partners():
    g = Game.moscow()
    g.gm("setup", "-5h", "замена Маф1 Сменщик")
    g.pm("setup", "-4h", "Сменщик", "подтверждаю")
    r = g.run("day 1", "+1h")
    role_pm = r.pms("Сменщик")[0]
    assert "мафия" in role_pm and "Дон" in role_pm and "Маф2" in role_pm
    gm = next(t for t in r.pms("ГМ") if "День 1" in t)
    assert "Сменщик" not in gm and "Маф1" not in gm


def test_C9_gm_undo_of_a_replace_gives_the_seat_back():
    g = Game.moscow()
    g.gm("day 1", "+1h", "replace М3 Новичок")
    g.gm("day 1", "+2h", "undo")
    g.votes("day 1", {"М3": "М5", "М4": "М5", "Новичок": "М6"}, offset="+3h")
    r = g.run("night 1", "+1h")
    assert r.died("М5") == ("day 1", "vote")
    assert r.player("М3").role is Role.CIVILIAN


def test_C9_gm_end_phase_during_a_runoff_resolves_it_now():
    g = Game.moscow()
    g.votes("day 1", {"М1": "М3", "М2": "М3", "М5": "М4", "М6": "М4"})
    for who in ("М1", "М2"):
        g.vote("day 1", "+25h", who, "повесить всех")
    g.gm("day 1", "+26h", "end-phase")
    r = g.run("day 1", "+27h")
    assert r.died("М3") == ("day 1", "runoff") and r.died("М4") == ("day 1", "runoff")
    assert r.run.phase == "night 1"
    assert r.run.next_deadline == g.at("day 1", "+38h")


def test_C11_edit_between_a_gm_command_and_its_undo_still_voids_the_vote():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М3", edited_at=g.at("day 1", "+3h"))
    g.votes("day 1", {"М2": "М3", "М5": "М4", "М6": "М4"})
    g.gm("day 1", "+2h", "алиас Котик М1")
    g.gm("day 1", "+4h", "отмена")
    r = g.run("night 1", "+1h")
    assert r.died("М4") == ("day 1", "vote")  # М1's edited vote stays void: 2 against 1, no runoff


def test_C9_lookalike_of_the_gm_account_is_not_the_gm():
    g = Game.moscow()
    g.pm("day 1", "+1h", "ГM", "модкилл М2")  # Latin M: another forum account
    r = g.run("day 1", "+2h")
    assert r.alive("М2")
    assert not any(line.startswith("override") for line in r.run.log)


def test_C9_gm_account_matches_regardless_of_case_but_not_a_lookalike() -> None:
    """Forums keep account names unique regardless of case, so the configured GM in another case is the GM;
    an account spelled with Latin look-alikes is someone else and commands nothing (C-9)."""
    g = Game.moscow(gms=("ведущий",))
    g.pm("day 1", "+1h", "ВЕДУЩИЙ", "модкилл М1")
    g.pm("day 1", "+2h", "ВEДУЩИЙ", "модкилл М2")  # Latin E
    r = g.run("day 1", "+3h")
    assert r.died("М1") == ("day 1", "modkill")
    assert r.alive("М2")


def test_C9_gm_status_names_night_moves_only_by_night_and_unconfirmed_roles_in_setup():
    # seen on a live SMF board: a Setup `статус` listed every mafia shot and the Sheriff's check as missing
    g = Game.moscow()
    g.pm("setup", "-2h", "М1", "подтверждаю")
    g.gm("setup", "-1h", "статус")
    g.gm("day 1", "+1h", "статус")
    g.gm("night 1", "+1h", "статус")
    r = g.run("night 1", "+2h")
    setup, day, night = [t for t in r.pms("ГМ") if t.startswith("Фаза:")]
    assert "Нет ходов" not in setup and "Нет ходов" not in day
    assert "Роль не подтвердили" in setup and "М2" in setup.split("Роль не подтвердили")[1]
    assert "М1," not in setup.split("Роль не подтвердили")[1]
    assert "Роль не подтвердили" not in day
    assert "Нет ходов" in night and "проверка" in night


def test_C9_a_gm_command_after_the_end_is_answered_not_met_with_silence():
    """A GM's `отмена` sent seconds after the modkill that ended the game got no answer (GM acceptance on SMF)."""
    g = Game.moscow()
    for m in MAFIA:
        g.gm("day 1", "+1h", f"модкилл {m}")
    g.gm("day 1", "+2h", "отмена")
    r = g.run("day 2", "+1h")
    assert r.winner == "town"
    answers = [t for t in r.pms("ГМ") if "игра уже окончена" in t]
    assert len(answers) == 1, r.pms("ГМ")


def test_M14_no_last_word_time_in_a_result_that_ends_the_game():
    """GM acceptance on SMF: the day result that ended the game still said «Последнее слово — … до 02.12 05:18»."""
    g = Game.moscow()
    g.gm("setup", "-2h", "модкилл Маф1")
    g.gm("setup", "-2h", "модкилл Маф2")
    g.votes("day 1", {n: "Дон" for n in ("Шериф", "М1", "М2", "М3", "М4", "М5", "М6")}, offset="+2h")
    r = g.run("night 1", "+1h")
    assert r.winner == "town"
    result = next(t for t in r.posts() if "Итоги дня 1" in t)
    assert "Последнее слово" not in result, result
    g = Game.moscow()
    g.votes("day 1", {"М1": "М2", "М3": "М2"})
    assert any("Последнее слово" in t for t in g.run("night 1", "+1h").posts())  # the game goes on: it is said
