"""C-12 amended (issue 17 item 7): in a PM a nickname may be written in an inflected Russian form or as a unique
whole-word prefix, when exactly one living player matches; the vote thread stays strict (M-7, H-3)."""

from __future__ import annotations

import time

import pytest

from forumbot.model import Move, MoveKind, RejectedLine, Rejection
from forumbot.parse import NickMatcher, parse_moscow_vote, parse_pm
from forumbot.parse.inflect import loose_match

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


def test_C12_loose_matching_is_linear_in_the_text() -> None:
    names = {f"Игрок{i} Длинный": f"Игрок{i} Длинный" for i in range(30)}
    for text in ("а " * 200_000, "Игрока " * 100_000):
        began = time.perf_counter()
        assert loose_match(text.strip(), names, list(names)) is None
        assert time.perf_counter() - began < 0.5
    began = time.perf_counter()
    parse_pm("убить " + "Машу исполнитель " * 5_000, M, variant="free_hunt", alive=NICKS, everyone=NICKS)
    assert time.perf_counter() - began < 2  # 0.3 s here, as before loose matching
