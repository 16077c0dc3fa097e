"""The engine's timeline under any setup: last-word deadlines never already past (M-14 amended, issue 7
item 24), and no config value that makes a fold spin or overflow (issue 7 item 19), nor input text that
cannot be encoded."""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import START, Game, plain  # noqa: E402

from forumbot.errors import SetupError  # noqa: E402
from forumbot.model import Role  # noqa: E402

MAFIA = ("Дон", "Маф1", "Маф2")


def _short_day_game() -> Game:
    """Days of 2 h, nights of 12 h: a night victim's "3 h before the day ends" is before the day opens."""
    g = Game.moscow(day=timedelta(hours=2))
    g.vote(START + timedelta(hours=1), "", "М1", "ннв")
    night1 = START + timedelta(hours=2)
    for m in MAFIA:
        g.pm(night1 + timedelta(hours=1), "", m, "убить М2")
    return g


def test_M14_item24_night_victims_last_word_deadline_that_would_be_past_is_the_end_of_the_day():
    g = _short_day_game()
    day2 = START + timedelta(hours=14)
    g.post(day2 + timedelta(minutes=30), "", "М2", "Моё последнее слово")
    r = g.run(day2 + timedelta(hours=1))
    assert r.died("М2") == ("night 1", "mafia")
    result = next(m for m in r.run.messages if m.key == "night 1/result")
    assert "Последнее слово — в игровой теме до 02.12 02:00" in result.text  # day 2's end, not 23:00 before
    assert result.at == day2
    assert not any("написал в игровой теме" in plain(m.text) for m in r.run.messages)  # a last word, not a breach
    assert any("last word of М2" in line for line in r.run.log)


def test_M14_last_word_deadline_of_an_ordinary_day_is_still_three_hours_before_its_end():
    g = Game.moscow()
    g.votes("day 1", {"М1": "ннв"})
    for m in MAFIA:
        g.pm("night 1", "+1h", m, "убить М2")
    r = g.run("day 2", "+1h")
    result = next(plain(m.text) for m in r.run.messages if m.key == "night 1/result")
    assert "до 03.12 19:00" in result  # day 2 ends at 22:00


# ---------------------------------------------------------------------------------- issue 7 item 19


@pytest.mark.parametrize("value", [0, -5, 0.01, float("nan"), float("inf"), 1e308, 10**400, "60", True])
def test_item19_vote_count_minutes_out_of_bounds_is_a_setup_error_not_a_hang(value):
    """`vote_count_minutes = 0` spun `replay` and every tick forever; the engine refuses it even when config
    validation is bypassed (a transcript, a hand-made setup), with the option's name."""
    g = Game.moscow(options={"vote_count_minutes": value})
    g.vote("day 1", "+1h", "М1", "М2")
    with pytest.raises(SetupError, match="vote_count_minutes"):
        g.run("night 1", "+1h")


@pytest.mark.parametrize("value", [-1, float("nan"), 1e308, "3"])
def test_item19_remind_hours_out_of_bounds_is_a_setup_error(value):
    with pytest.raises(SetupError, match="remind_hours"):
        Game.moscow(options={"remind_hours": value}).run("day 1", "+1h")


def test_item19_smallest_count_interval_still_folds_a_day():
    g = Game.moscow(options={"vote_count_minutes": 0.1})
    g.vote("day 1", "+1h", "М1", "М2")
    r = g.run("night 1", "+1h")
    assert r.run.phase == "night 1"


@pytest.mark.parametrize("field, kw", [("day_hours", {"day": timedelta(0)}), ("night_hours", {"night": -timedelta(hours=1)}),
                                       ("runoff_hours", {"runoff": timedelta(days=10000)})])
def test_item19_phase_lengths_out_of_bounds_are_a_setup_error(field, kw):
    with pytest.raises(SetupError, match=field):
        Game.moscow(**kw).run("day 1", "+1h")


SURROGATE = "\ud800"


@pytest.mark.parametrize("where", ["vote text", "vote author", "pm text", "gm say", "gm replace", "game post"])
def test_item19_lone_surrogates_in_inputs_fold_and_every_message_can_be_encoded(where):
    g = Game.moscow()
    {
        "vote text": lambda: g.vote("day 1", "+1h", "М1", "М2" + SURROGATE),
        "vote author": lambda: g.vote("day 1", "+1h", "М1" + SURROGATE, "М2"),
        "pm text": lambda: g.pm("night 1", "+1h", "Шериф", "проверка Дон" + SURROGATE),
        "gm say": lambda: g.gm("day 1", "+1h", "сказать привет" + SURROGATE),
        "gm replace": lambda: g.gm("day 1", "+1h", "замена М1 Нов" + SURROGATE),
        "game post": lambda: g.post("day 1", "+1h", "М1", "привет" + SURROGATE),
    }[where]()
    g.votes("day 1", {"М3": "М4"}, offset="+2h")
    r = g.run("day 2", "+1h")
    for m in r.run.messages:
        for text in (plain(m.text), m.to or "", m.key):
            text.encode("utf-8")
    for line in r.run.log:
        line.encode("utf-8")


def test_item19_a_surrogate_pair_in_a_text_is_the_character_it_encodes():
    g = Game.moscow()
    g.gm("day 1", "+1h", "сказать привет \ud83d\ude00")
    r = g.run("day 1", "+2h")
    assert any(plain(m.text) == "привет \U0001F600" for m in r.run.messages)


@pytest.mark.parametrize("who", ["player", "GM"])
def test_item19_a_lone_surrogate_in_a_configured_nick_is_a_setup_error(who):
    g = Game.moscow(gms=("ГМ" + SURROGATE,)) if who == "GM" else Game.moscow()
    if who == "player":
        g.cast[5] = ("М2" + SURROGATE, Role.CIVILIAN)
    with pytest.raises(SetupError, match=f"{who} name") as e:
        g.run("day 1", "+1h")
    str(e.value).encode("utf-8")
