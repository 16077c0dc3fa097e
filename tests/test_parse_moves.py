"""C-12: the PM move grammar (and C-2 confirmations, M-12 tactical modkill, H-7 executors)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.model import REJECTION_CODES, Move, MoveKind, RejectedLine, Rejection, Role
from forumbot.parse import NickMatcher, parse_pm

NICKS = ["Вася", "Петя", "Кот Баюн", "Маша", "Stand by Me", "Дон Корлеоне", "Тихий Маньяк"]
DEAD = "Маша"
ALIVE = [n for n in NICKS if n != DEAD]
M = NickMatcher(NICKS)


def pm(text: str, variant: str = "moscow", **kw) -> list[Move | RejectedLine]:
    return parse_pm(text, M, variant=variant, alive=ALIVE, everyone=NICKS, **kw)


def one(text: str, variant: str = "moscow", **kw) -> Move | RejectedLine:
    result = pm(text, variant, **kw)
    assert len(result) == 1, result
    return result[0]


def code(text: str, variant: str = "moscow", **kw) -> str:
    result = one(text, variant, **kw)
    assert isinstance(result, RejectedLine), result
    return result.reason.code


@pytest.mark.parametrize("word", ["проверка", "проверяю", "check", "ПРОВЕРКА", "Check"])
def test_C12_check_keywords(word: str) -> None:
    assert one(f"{word} Вася") == Move(MoveKind.CHECK, "Вася")


@pytest.mark.parametrize("word", ["убить", "убиваю", "выстрел", "стреляю", "kill", "shoot", "УБИТЬ"])
def test_C12_shot_keywords(word: str) -> None:
    assert one(f"{word} Петя") == Move(MoveKind.SHOT, "Петя")


@pytest.mark.parametrize("word", ["лечу", "лечить", "лечение", "heal", "Лечу"])
def test_C12_heal_keywords(word: str) -> None:
    assert one(f"{word} Кот Баюн") == Move(MoveKind.HEAL, "Кот Баюн")


@pytest.mark.parametrize("word", ["охота", "охочусь", "hunt"])
def test_C12_hunt_keywords(word: str) -> None:
    assert one(f"{word} Вася", "free_hunt") == Move(MoveKind.HUNT, "Вася")


@pytest.mark.parametrize("word", ["дон", "don", "Дон"])
def test_C12_M1_don_nomination_keywords(word: str) -> None:
    assert one(f"{word} Петя") == Move(MoveKind.DON, "Петя")


@pytest.mark.parametrize("word", ["модкилл", "modkill", "МОДКИЛЛ"])
def test_C12_M12_tactical_modkill_alone(word: str) -> None:
    assert one(word, sender="Вася") == Move(MoveKind.MODKILL)


def test_C12_keywords_match_through_lookalikes_and_punctuation() -> None:
    assert one("прoверкa Вася") == Move(MoveKind.CHECK, "Вася")  # Latin o, a
    assert one("Проверка: Вася") == Move(MoveKind.CHECK, "Вася")
    assert one("проверка - Вася!") == Move(MoveKind.CHECK, "Вася")
    assert one("[b]убить[/b] [i]Петя[/i]") == Move(MoveKind.SHOT, "Петя")


def test_C12_nickname_with_spaces_and_in_quotes() -> None:
    assert one("проверка Кот Баюн") == Move(MoveKind.CHECK, "Кот Баюн")
    assert one('проверка "Кот Баюн"') == Move(MoveKind.CHECK, "Кот Баюн")
    assert one("проверка «кот баюн»") == Move(MoveKind.CHECK, "Кот Баюн")


def test_C12_several_moves_one_per_line() -> None:
    text = "Принял\n\nпроверка Вася<br>убить Петя\n  \nлечу Кот Баюн\nчто-то странное"
    assert pm(text) == [
        Move(MoveKind.CONFIRM),
        Move(MoveKind.CHECK, "Вася"),
        Move(MoveKind.SHOT, "Петя"),
        Move(MoveKind.HEAL, "Кот Баюн"),
        RejectedLine("что-то странное", Rejection("unknown_command", "что-то странное")),
    ]


def test_C12_empty_pm_has_no_lines() -> None:
    assert pm("") == []
    assert pm("[b][/b]\n \n") == []


# --- targets ------------------------------------------------------------------------------------------


def test_C12_M3_checks_may_name_the_dead() -> None:
    assert one("проверка Маша") == Move(MoveKind.CHECK, "Маша")


@pytest.mark.parametrize("text", ["убить Маша", "лечу Маша", "дон Маша"])
def test_C12_shots_heals_and_nominations_name_the_alive(text: str) -> None:
    assert one(text) == RejectedLine(text, Rejection("not_alive", "Маша"))


def test_C12_hunt_names_the_alive() -> None:
    assert one("охота Маша маньяк", "free_hunt") == RejectedLine(
        "охота Маша маньяк", Rejection("not_alive", "Маша")
    )


def test_C12_C4_unknown_and_ambiguous_targets() -> None:
    assert one("проверка Васяя") == RejectedLine("проверка Васяя", Rejection("unknown_name", "Васяя"))
    m = NickMatcher(["Сера", "Cepa"])
    got = parse_pm("проверка Cеpa", m, variant="moscow", alive=["Сера", "Cepa"], everyone=["Сера", "Cepa"])
    assert got == [RejectedLine("проверка Cеpa", Rejection("ambiguous_name", "Сера, Cepa"))]


def test_C12_keyword_without_a_name() -> None:
    assert one("проверка") == RejectedLine("проверка", Rejection("missing_argument", "проверка"))


# --- hunt statuses ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "status, role",
    [
        ("маф", Role.MAFIA),
        ("мафия", Role.MAFIA),
        ("mafia", Role.MAFIA),
        ("маньяк", Role.MANIAC),
        ("maniac", Role.MANIAC),
    ],
)
def test_C12_H10_hunt_status(status: str, role: Role) -> None:
    assert one(f"охота Вася {status}", "free_hunt") == Move(MoveKind.HUNT, "Вася", guess=role)
    assert one(f"hunt Кот Баюн ({status})", "free_hunt") == Move(MoveKind.HUNT, "Кот Баюн", guess=role)


def test_C12_H10_hunt_without_status_has_no_guess() -> None:
    assert one("охочусь Вася", "free_hunt") == Move(MoveKind.HUNT, "Вася", guess=None)


def test_C12_hunt_status_word_inside_a_nickname() -> None:
    assert one("охота Тихий Маньяк", "free_hunt") == Move(MoveKind.HUNT, "Тихий Маньяк")
    assert one("охота Тихий Маньяк маньяк", "free_hunt") == Move(
        MoveKind.HUNT, "Тихий Маньяк", guess=Role.MANIAC
    )
    assert one('охота "Кот Баюн" мафия', "free_hunt") == Move(MoveKind.HUNT, "Кот Баюн", guess=Role.MAFIA)


def test_C12_bad_hunt_status() -> None:
    assert one("охота Вася доктор", "free_hunt") == RejectedLine(
        "охота Вася доктор", Rejection("bad_hunt_status", "доктор")
    )


# --- executor -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["исполнитель", "by", "BY"])
def test_C12_H7_executor(word: str) -> None:
    assert one(f"убить Вася {word} Петя", "free_hunt") == Move(MoveKind.SHOT, "Вася", executor="Петя")


def test_C12_H7_executor_with_spaced_names() -> None:
    assert one("выстрел Кот Баюн by Stand by Me", "free_hunt") == Move(
        MoveKind.SHOT, "Кот Баюн", executor="Stand by Me"
    )
    assert one("выстрел Stand by Me by Кот Баюн", "free_hunt") == Move(
        MoveKind.SHOT, "Stand by Me", executor="Кот Баюн"
    )
    assert one("shoot Stand by Me", "free_hunt") == Move(MoveKind.SHOT, "Stand by Me")


def test_C12_H7_executor_must_be_alive_and_known() -> None:
    assert code("убить Вася by Маша", "free_hunt") == "bad_executor"
    assert code("убить Вася by Машка", "free_hunt") == "unknown_name"


def test_C12_executor_is_free_hunt_only() -> None:
    assert code("убить Вася by Петя", "moscow") == "unknown_command"


# --- confirm ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "подтверждаю",
        "Принял",
        "confirm",
        "Роль принял, спасибо!",
        "Приняла",
        "ok, confirmed",
        "[b]ПОДТВЕРЖДАЮ[/b]",
    ],
)
def test_C2_C12_any_line_containing_a_confirm_word(text: str) -> None:
    assert one(text) == Move(MoveKind.CONFIRM)


def test_C2_confirm_word_must_be_a_word() -> None:
    assert code("непринял") == "unknown_command"


# --- modkill ------------------------------------------------------------------------------------------


def test_C12_M12_modkill_with_own_nick() -> None:
    assert one("модкилл Вася", sender="Вася") == Move(MoveKind.MODKILL)
    assert one("modkill ВАСЯ", sender="Вася") == Move(MoveKind.MODKILL)


def test_C12_M12_modkill_naming_someone_else() -> None:
    assert one("модкилл Петя", sender="Вася") == RejectedLine(
        "модкилл Петя", Rejection("modkill_other", "Петя")
    )


def test_C12_M12_modkill_with_unknown_sender_returns_the_named_nick() -> None:
    assert one("модкилл Петя") == Move(MoveKind.MODKILL, "Петя")


# --- bare nicknames -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [MoveKind.CHECK, MoveKind.SHOT, MoveKind.HEAL, MoveKind.DON])
def test_C12_bare_nickname_is_the_only_possible_move(kind: MoveKind) -> None:
    assert one("Вася", bare_kind=kind) == Move(kind, "Вася")
    assert one("[b]кот баюн[/b]", bare_kind=kind) == Move(kind, "Кот Баюн")


def test_C12_bare_nickname_without_a_single_move_is_not_understood() -> None:
    assert one("Вася") == RejectedLine("Вася", Rejection("unknown_command", "Вася"))


def test_C12_H10_hunt_is_never_bare() -> None:
    assert one("Вася", "free_hunt", bare_kind=MoveKind.HUNT) == RejectedLine(
        "Вася", Rejection("unknown_command", "Вася")
    )


def test_C12_bare_check_may_name_the_dead_bare_heal_may_not() -> None:
    assert one("Маша", bare_kind=MoveKind.CHECK) == Move(MoveKind.CHECK, "Маша")
    assert one("Маша", bare_kind=MoveKind.HEAL) == RejectedLine("Маша", Rejection("not_alive", "Маша"))


def test_C12_bare_unknown_text_is_unknown_command() -> None:
    assert code("привет", bare_kind=MoveKind.HEAL) == "unknown_command"


def test_C12_nickname_that_starts_with_a_move_word() -> None:
    assert one("дон Корлеоне", bare_kind=MoveKind.HEAL) == Move(MoveKind.HEAL, "Дон Корлеоне")
    assert one("дон Дон Корлеоне") == Move(MoveKind.DON, "Дон Корлеоне")


_PIECES = st.sampled_from(
    [
        "проверка",
        "убить",
        "охота",
        "by",
        "маньяк",
        "модкилл",
        "Принял",
        "Вася",
        "Stand by Me",
        ":",
        '"',
        "\n",
        " ",
    ]
)


@given(st.lists(st.one_of(_PIECES, st.text(max_size=5)), max_size=10).map("".join))
@settings(max_examples=300)
def test_C12_any_pm_gives_moves_or_known_rejections(text: str) -> None:
    for variant, bare in (("moscow", None), ("free_hunt", MoveKind.SHOT)):
        for item in pm(text, variant, bare_kind=bare, sender="Вася"):
            assert isinstance(item, Move | RejectedLine)
            if isinstance(item, RejectedLine):
                assert item.reason.code in REJECTION_CODES
