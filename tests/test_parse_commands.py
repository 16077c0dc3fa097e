"""C-9: GM commands by PM (DESIGN.md "GM commands"), in Russian and English."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.model import (
    REJECTION_CODES,
    Agitation,
    Alias,
    EndPhase,
    Extend,
    Modkill,
    Pause,
    Rejection,
    Replace,
    Resume,
    Say,
    SetVote,
    Special,
    Help,
    Status,
    Undo,
    Vote,
)
from forumbot.parse import NickMatcher, parse_command, parse_duration, parse_hunt_vote, parse_moscow_vote

NICKS = ["Вася", "Петя", "Кот Баюн", "Кот", "Маша"]
ALIVE = [n for n in NICKS if n != "Маша"]
M = NickMatcher(NICKS)


def moscow_vote(text: str) -> Vote | Agitation | Rejection:
    return parse_moscow_vote(text, M, ALIVE)


def cmd(text: str, parse_vote=moscow_vote):
    return parse_command(text, M, everyone=NICKS, parse_vote=parse_vote)


@pytest.mark.parametrize(
    "text, command",
    [
        ("status", Status()),
        ("статус", Status()),
        ("pause", Pause()),
        ("пауза", Pause()),
        ("resume", Resume()),
        ("продолжить", Resume()),
        ("end-phase", EndPhase()),
        ("конец-фазы", EndPhase()),
        ("конец фазы", EndPhase()),
        ("undo", Undo()),
        ("отмена", Undo()),
        ("STATUS", Status()),
        ("[b]Статус[/b]", Status()),
        ("\n\n  пауза  \nпотом продолжим", Pause()),
    ],
)
def test_C9_commands_without_arguments(text: str, command) -> None:
    assert cmd(text) == command


@pytest.mark.parametrize("word", ["modkill", "модкилл"])
def test_C9_C10_modkill(word: str) -> None:
    assert cmd(f"{word} Вася") == Modkill("Вася")
    assert cmd(f"{word} Вася мультиаккаунт") == Modkill("Вася", "мультиаккаунт")
    assert cmd(f'{word} "Кот Баюн" цитирование ведущего') == Modkill("Кот Баюн", "цитирование ведущего")


def test_C9_modkill_unquoted_takes_the_longest_name() -> None:
    assert cmd("модкилл Кот Баюн спам") == Modkill("Кот Баюн", "спам")
    assert cmd("модкилл Кот спам") == Modkill("Кот", "спам")
    assert cmd("модкилл Маша") == Modkill("Маша")  # any player, alive or not: the engine decides


def test_C9_modkill_reason_may_span_lines() -> None:
    assert cmd("modkill Вася\nпереписка в личке") == Modkill("Вася", "переписка в личке")


@pytest.mark.parametrize("word", ["replace", "замена"])
def test_C9_replace(word: str) -> None:
    assert cmd(f"{word} Вася НовыйИгрок") == Replace("Вася", "НовыйИгрок")
    assert cmd(f'{word} "Кот Баюн" Вася2') == Replace("Кот Баюн", "Вася2")
    assert cmd(f'{word} "Кот Баюн" "Новый Кот"') == Replace("Кот Баюн", "Новый Кот")
    assert cmd(f"{word} Кот Баюн Новенький") == Replace("Кот Баюн", "Новенький")


def test_C9_replace_new_account_is_not_matched() -> None:
    assert cmd("replace Вася ПЕТЯ") == Replace("Вася", "ПЕТЯ")


@pytest.mark.parametrize("word", ["extend", "продлить"])
@pytest.mark.parametrize(
    "duration, delta",
    [
        ("30m", timedelta(minutes=30)),
        ("12h", timedelta(hours=12)),
        ("1d", timedelta(days=1)),
        ("12ч", timedelta(hours=12)),
        ("30мин", timedelta(minutes=30)),
        ("1д", timedelta(days=1)),
        ("2h30m", timedelta(hours=2, minutes=30)),
        ("90 мин", timedelta(minutes=90)),
        ("1д 12ч", timedelta(days=1, hours=12)),
        ("1,5 часа", timedelta(minutes=90)),
        ("2 hours", timedelta(hours=2)),
        ("１２Ｈ", timedelta(hours=12)),
    ],
)
def test_C1_C9_extend_durations(word: str, duration: str, delta: timedelta) -> None:
    assert cmd(f"{word} {duration}") == Extend(delta)


@pytest.mark.parametrize("bad", ["30", "abc", "12 лет", "h12", "12h x", "1e5h", "nan h"])
def test_C9_bad_duration(bad: str) -> None:
    assert cmd(f"extend {bad}") == Rejection("bad_duration", bad)
    assert parse_duration(bad) is None


@pytest.mark.parametrize(
    "bad, code",
    [("0m", "duration_not_positive"), ("-1h", "duration_not_positive"), ("0.000000001м", "duration_not_positive"),
     ("30д 1м", "duration_too_long"), ("999999999д", "duration_too_long"), ("9" * 400 + "д", "duration_too_long")],
)
def test_C9_issue7_item19_absurd_extend_is_refused_with_its_reason(bad: str, code: str) -> None:
    """Issue 7 item 19: zero, negative and over-30-day extends are refused by name, never overflow a timedelta."""
    assert cmd(f"продлить {bad}") == Rejection(code, bad)
    assert parse_duration(bad) is None


def test_C9_extend_of_exactly_the_bound_is_read() -> None:
    assert cmd("extend 30d") == Extend(timedelta(days=30))


@pytest.mark.parametrize("word", ["setvote", "голос"])
def test_C9_M10_setvote(word: str) -> None:
    assert cmd(f"{word} Вася Петя") == SetVote("Вася", Vote("Петя"))
    assert cmd(f"{word} Вася ннв / помиловать всех") == SetVote(
        "Вася", Vote(Special.NO_LYNCH, Special.PARDON_ALL)
    )
    assert cmd(f'{word} "Кот Баюн" Вася') == SetVote("Кот Баюн", Vote("Вася"))
    assert cmd(f"{word} Кот Баюн Вася") == SetVote("Кот Баюн", Vote("Вася"))
    assert cmd(f"{word} Вася Кот Баюн") == SetVote("Вася", Vote("Кот Баюн"))


def test_C9_setvote_bad_vote() -> None:
    assert cmd("setvote Вася Маша") == Rejection("not_alive", "Маша")
    assert cmd("setvote Вася") == Rejection("missing_argument", "setvote")


def test_C9_H4_setvote_agitation_is_not_a_vote() -> None:
    def hunt(text: str):
        return parse_hunt_vote(text, M, ALIVE)

    assert cmd("setvote Вася голосуйте Петя", hunt) == Rejection("not_a_vote", "голосуйте Петя")
    assert cmd("setvote Вася Петя", hunt) == SetVote("Вася", Vote("Петя"))


@pytest.mark.parametrize("word", ["alias", "алиас"])
def test_C4_C9_alias(word: str) -> None:
    assert cmd(f"{word} Котик Кот Баюн") == Alias("Котик", "Кот Баюн")
    assert cmd(f'{word} "Баюн Котович" "Кот Баюн"') == Alias("Баюн Котович", "Кот Баюн")
    assert cmd(f"{word} Васёк вася") == Alias("Васёк", "Вася")


@pytest.mark.parametrize("word", ["say", "сказать"])
def test_C9_say_keeps_the_text_as_written(word: str) -> None:
    assert cmd(f"{word} Ночь наступает.") == Say("Ночь наступает.")
    assert cmd(f"{word} [b]Внимание![/b]\nВторая строка\n  с отступом") == Say(
        "[b]Внимание![/b]\nВторая строка\n  с отступом"
    )
    assert cmd(f"{word}\nтекст со следующей строки") == Say("текст со следующей строки")


def test_C9_unknown_command() -> None:
    assert cmd("помогите\nпожалуйста") == Rejection("unknown_command", "помогите")
    assert cmd("") == Rejection("empty")


@pytest.mark.parametrize(
    "text, word",
    [
        ("modkill", "modkill"),
        ("модкилл", "модкилл"),
        ("replace", "replace"),  # `replace Вася` alone offers the seat to the reserve (S-4, tests/test_reserve.py)
        ("замена", "замена"),
        ("extend", "extend"),
        ("голос", "голос"),
        ("alias Котик", "alias"),
        ("say", "say"),
        ("сказать   ", "сказать"),
    ],
)
def test_C9_missing_argument(text: str, word: str) -> None:
    assert cmd(text) == Rejection("missing_argument", word)


@pytest.mark.parametrize(
    "text", ['modkill "Кот Баюн', 'replace "Кот Баюн Вася', 'alias "Котик Кот Баюн', 'replace Вася "Новый']
)
def test_C9_unclosed_quote(text: str) -> None:
    result = cmd(text)
    assert isinstance(result, Rejection) and result.code == "quote_unclosed"


def test_C9_C4_unknown_and_ambiguous_names() -> None:
    assert cmd("modkill Васяя спам") == Rejection("unknown_name", "Васяя")
    m = NickMatcher(["Сера", "Cepa"])
    got = parse_command("modkill Cеpa", m, everyone=["Сера", "Cepa"], parse_vote=moscow_vote)
    assert got == Rejection("ambiguous_name", "Сера, Cepa")


_PIECES = st.sampled_from(
    ["modkill", "замена", "продлить", "голос", "alias", "say", '"', "«", "Кот Баюн", "Вася", "12ч", "\n", " "]
)


@given(st.lists(st.one_of(_PIECES, st.text(max_size=5)), max_size=8).map("".join))
@settings(max_examples=300)
def test_C9_any_gm_pm_gives_a_command_or_a_known_rejection(text: str) -> None:
    result = cmd(text)
    if isinstance(result, Rejection):
        assert result.code in REJECTION_CODES
    else:
        assert isinstance(
            result,
            Status | Modkill | Replace | Extend | Pause | Resume | EndPhase | SetVote | Alias | Say | Undo | Help,
        )


class _CountingMatcher(NickMatcher):
    calls = 0

    def match(self, text, allowed=None):  # type: ignore[no-untyped-def]
        type(self).calls += 1
        return super().match(text, allowed)


@pytest.mark.parametrize("command", ["модкилл Кот Баюн", "алиас длинный", "замена Кот Баюн", "голос Кот Баюн"])
def test_C9_issue7_item19_a_pasted_page_in_a_gm_command_tries_only_name_sized_splits(command: str) -> None:
    """A GM command with thousands of words tried every split as a nickname: minutes per fold, every tick.
    A name is at most as long as the longest nickname or alias, so only that many splits are tried."""
    matcher = _CountingMatcher(NICKS)
    _CountingMatcher.calls = 0
    words = " ".join(["слово"] * 5000)
    text = f"{command} {words}" if not command.startswith("алиас") else f"{command} {words} Кот Баюн"
    found = parse_command(text, matcher, everyone=NICKS, parse_vote=moscow_vote)
    assert _CountingMatcher.calls <= 2 * (2 * matcher.max_words + 2)
    # and refused by the caps of issue 17 item 22, naming the cap
    if command.startswith("модкилл"):
        assert found == Rejection("reason_too_long", "500")
    else:
        assert found == Rejection("text_too_long", "200")
