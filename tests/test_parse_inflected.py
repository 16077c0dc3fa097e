"""C-12 amended (issue 17 item 7): in a PM a nickname may be written in an inflected Russian form or as a unique
whole-word prefix, when exactly one living player matches; the vote thread stays strict (M-7, H-3)."""

from __future__ import annotations

import importlib

import pytest

from forumbot.model import Move, MoveKind, RejectedLine, Rejection
from forumbot.parse import NickMatcher, parse_moscow_vote, parse_pm
from forumbot.parse.inflect import LooseNames, loose_match

NICKS = ["Маша", "Петя", "Печкин 2000", "Олег", "Игорь", "Андрей", "Kolya", "Кот Баюн"]
M = NickMatcher(NICKS)


def one(text: str, alive=NICKS, variant: str = "moscow") -> Move | RejectedLine:  # type: ignore[no-untyped-def]
    (item,) = parse_pm(text, M, variant=variant, alive=alive, everyone=NICKS)
    return item


@pytest.mark.parametrize("line, kind, nick", [
    ("убить Машу", MoveKind.SHOT, "Маша"),
    ("проверка Пети", MoveKind.CHECK, "Петя"),
    ("проверка Петей", MoveKind.CHECK, "Петя"),
    ("стреляю в Олега", MoveKind.SHOT, "Олег"),
    ("проверяю Олегом", MoveKind.CHECK, "Олег"),
    ("убить Игоря", MoveKind.SHOT, "Игорь"),
    ("лечу Андрея", MoveKind.HEAL, "Андрей"),
    ("убить Печкин", MoveKind.SHOT, "Печкин 2000"),
    ("убить Печкина", MoveKind.SHOT, "Печкин 2000"),
    ("kill Кота Баюна", MoveKind.SHOT, "Кот Баюн"),
    ("убить Кота", MoveKind.SHOT, "Кот Баюн"),
    ("убить МАШУ", MoveKind.SHOT, "Маша"),
])
def test_C12_an_inflected_or_short_form_names_the_one_living_player(line: str, kind: MoveKind, nick: str) -> None:
    assert one(line) == Move(kind, nick)


def test_C12_hunt_with_a_status_after_an_inflected_name() -> None:
    move = one("охота на Машу маньяк", variant="free_hunt")
    assert isinstance(move, Move) and (move.kind, move.target, str(move.guess)) == (MoveKind.HUNT, "Маша", "maniac")


def test_C12_free_hunt_target_and_executor_may_both_be_inflected() -> None:
    move = one("убить Машу исполнитель Олегом", variant="free_hunt")
    assert move == Move(MoveKind.SHOT, "Маша", executor="Олег")


def test_C12_two_living_matches_are_not_understood_and_listed() -> None:
    m = NickMatcher(["Печкин 2000", "Печкин 3000", "Маша"])
    (item,) = parse_pm("убить Печкина", m, variant="moscow", alive=m.nicks, everyone=m.nicks)
    assert item == RejectedLine("убить Печкина", Rejection("ambiguous_name", "Печкин 2000, Печкин 3000"))


def test_C12_a_dead_player_does_not_count_as_a_match() -> None:
    m = NickMatcher(["Печкин 2000", "Печкин 3000", "Маша"])
    (item,) = parse_pm("убить Печкина", m, variant="moscow", alive=["Печкин 3000", "Маша"], everyone=m.nicks)
    assert item == Move(MoveKind.SHOT, "Печкин 3000")
    (item,) = parse_pm("убить Машу", m, variant="moscow", alive=["Печкин 3000"], everyone=m.nicks)
    assert isinstance(item, RejectedLine) and item.reason.code == "unknown_name"


@pytest.mark.parametrize("line", ["убить Печ", "убить Мар", "убить Машуля", "убить Печкин 2001", "убить К"])
def test_C12_no_fuzzy_guessing_beyond_endings_and_whole_words(line: str) -> None:
    item = one(line)
    assert isinstance(item, RejectedLine) and item.reason.code == "unknown_name", item


def test_C12_an_exact_name_still_wins_and_a_dead_exact_name_is_not_loosened() -> None:
    m = NickMatcher(["Маша", "Маши"])
    (item,) = parse_pm("убить Маши", m, variant="moscow", alive=["Маша"], everyone=m.nicks)
    assert item == RejectedLine("убить Маши", Rejection("not_alive", "Маши"))


@pytest.mark.parametrize("vote", ["Машу", "Печкин", "Пети"])
def test_M7_H3_the_vote_thread_stays_strict(vote: str) -> None:
    assert isinstance(parse_moscow_vote(vote, M, NICKS), Rejection)


N = importlib.import_module("forumbot.parse.normalize")  # the package's `normalize` is the function


@pytest.mark.parametrize("unit, head", [
    ("Машу исполнитель ", "убить "),  # every split's target needs the loose match (free hunt)
    ("Пети ", "проверка "),  # a long inflected-looking text
    ("Печкина Кота ", "охота на "),
    ("а ", "убить "),
])
def test_C12_loose_matching_normalises_each_character_a_bounded_number_of_times(
        monkeypatch: pytest.MonkeyPatch, unit: str, head: str) -> None:
    """Linear, counted by work, never by time (as tests/test_parse_linear.py): at most 10 normalised characters
    per character of the PM, whatever it holds."""
    work = [0]
    real = N._letters

    def counting(text: str) -> str:
        work[0] += len(text)
        return real(text)

    monkeypatch.setattr(N, "_letters", counting)
    for size in (1000, 3000):
        text = head + unit * (size // len(unit))
        work[0] = 0
        parse_pm(text, M, variant="free_hunt", alive=NICKS, everyone=NICKS)
        assert work[0] <= 10 * len(text), (unit, size, work[0])


def test_C12_a_long_text_is_no_short_form_and_is_looked_at_no_further() -> None:
    names = LooseNames({f"Игрок{i} Длинный": f"Игрок{i} Длинный" for i in range(30)})
    assert loose_match("игрока " * 10_000, names, [f"Игрок{i} Длинный" for i in range(30)]) is None
    assert loose_match("игрока длинного", names, ["Игрок3 Длинный"]) is None  # no whole word matches
    assert loose_match("игрок3", names, ["Игрок3 Длинный"]) == "Игрок3 Длинный"  # a whole-word prefix
