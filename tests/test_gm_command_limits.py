"""C-9, C-10 (issue 17 item 22): what a GM command puts into a post or PM is capped and refused with the cap;
an alias that a vote would read as a pass word, an extension under a minute and a name that shows nothing are
refused. A refused command changes nothing and its answer says why, in Russian and in English."""

from __future__ import annotations

from datetime import timedelta

import pytest

from forumbot.model import Alias, Extend, Modkill, Rejection, Replace, Say
from gamekit import Game, opening
from test_parse_commands import cmd

REFUSED = {"ru": "Команда не выполнена: {why}.", "en": "Command not done: {why}."}
WORDS = {
    "ru": {"modkill": "модкилл", "say": "сказать", "replace": "замена", "setvote": "голос", "alias": "алиас",
           "extend": "продлить"},
    "en": {"modkill": "modkill", "say": "say", "replace": "replace", "setvote": "setvote", "alias": "alias",
           "extend": "extend"},
}
LONG = "Ш" * 10_001


def _answer(g: Game, when: str = "+2h") -> tuple[list[str], list[str]]:
    r = g.run("day 1", when)
    return r.pms("ГМ"), r.posts()


@pytest.mark.parametrize(
    "lang, why",
    [("ru", "причина модкилла длиннее 500 знаков"), ("en", "the modkill reason is longer than 500 characters")],
)
def test_C10_a_modkill_reason_over_500_characters_is_refused(lang: str, why: str) -> None:
    g = Game.moscow(language=lang)
    g.gm("day 1", "+1h", f"{WORDS[lang]['modkill']} М1 {'п' * 501}")
    pms, posts = _answer(g)
    assert pms[-1] == REFUSED[lang].format(why=why)
    r = g.run("day 1", "+2h")
    assert r.alive("М1") and not any("п" * 100 in p for p in posts)


def test_C10_a_modkill_reason_of_500_characters_is_posted() -> None:
    g = Game.moscow()
    g.gm("day 1", "+1h", f"модкилл М1 {'п' * 500}")
    r = g.run("day 1", "+2h")
    assert not r.alive("М1") and any("п" * 500 in p for p in r.posts())


@pytest.mark.parametrize(
    "lang, why",
    [("ru", "текст для «сказать» длиннее 10000 знаков"), ("en", "the text to “say” is longer than 10000 characters")],
)
def test_C9_say_over_10000_characters_is_refused(lang: str, why: str) -> None:
    g = Game.moscow(language=lang)
    g.gm("day 1", "+1h", f"{WORDS[lang]['say']} {LONG}")
    g.gm("day 1", "+1h30m", f"{WORDS[lang]['say']} {LONG[:10_000]}")
    pms, posts = _answer(g)
    assert REFUSED[lang].format(why=why) in pms
    assert not any(LONG in p for p in posts)
    assert sum(LONG[:10_000] in p for p in posts) == 1  # the one of exactly 10,000 went out


@pytest.mark.parametrize("lang, why", [("ru", "аргумент длиннее 200 знаков"), ("en", "an argument is longer than 200 characters")])
@pytest.mark.parametrize("command", ["replace", "setvote", "alias"])
def test_C9_other_arguments_over_200_characters_are_refused(lang: str, why: str, command: str) -> None:
    g = Game.moscow(language=lang)
    text = {"replace": f"М1 {'Н' * 201}", "setvote": f"М1 {'Н' * 201}", "alias": f"{'Н' * 201} М1"}[command]
    g.gm("day 1", "+1h", f"{WORDS[lang][command]} {text}")
    pms, posts = _answer(g)
    assert pms[-1] == REFUSED[lang].format(why=why)
    assert not any("Н" * 201 in p for p in posts) and all(len(pm) < 300 for pm in pms)


def test_C9_a_megabyte_gm_command_is_refused_without_quoting_it() -> None:
    page = "Вася " + "х" * 1_000_000
    for text in (f"модкилл {page}", f"замена {page}", f"голос {page}", f"алиас {page}", f"продлить {page}"):
        found = cmd(text)
        assert isinstance(found, Rejection) and len(found.detail) <= 3, text


@pytest.mark.parametrize(
    "lang, why",
    [("ru", "«ннв» — слово голосования, оно не может быть алиасом"),
     ("en", "“ннв” is a voting word and cannot be an alias")],
)
def test_C9_an_alias_equal_to_the_no_lynch_word_is_refused(lang: str, why: str) -> None:
    g = Game.moscow(language=lang)
    g.gm("day 1", "+1h", f"{WORDS[lang]['alias']} ннв М1")
    g.votes("day 1", {"М2": "ннв", "М3": "ннв"}, offset="+2h")
    r = g.run("night 1", "+1h")
    assert REFUSED[lang].format(why=why) in r.pms("ГМ")
    assert r.alive("М1")


@pytest.mark.parametrize("alias", ["ННВ", "[b]нНв[/b]", "помиловать всех", "Повесить   всех"])
def test_C9_an_alias_equal_to_any_pass_word_is_refused(alias: str) -> None:
    assert cmd(f'алиас "{alias}" Вася').code == "alias_reserved"


def test_R4_an_alias_equal_to_a_house_pass_word_is_refused() -> None:
    g = Game.moscow(options={"pass_words": ["пас"]})
    g.gm("day 1", "+1h", "алиас Пас М1")
    r = g.run("day 1", "+2h")
    assert r.pms("ГМ")[-1] == "Команда не выполнена: «Пас» — слово голосования, оно не может быть алиасом."
    assert cmd("алиас пасс Вася") == Alias("пасс", "Вася")  # only the word itself


@pytest.mark.parametrize(
    "lang, why",
    [("ru", "длительность «0.0000001m» меньше минуты"), ("en", "duration “0.0000001m” is less than a minute")],
)
def test_C9_extend_by_less_than_a_minute_is_refused(lang: str, why: str) -> None:
    g = Game.moscow(language=lang)
    g.gm("day 1", "+1h", f"{WORDS[lang]['extend']} 0.0000001m")
    g.gm("day 1", "+1h", f"{WORDS[lang]['extend']} 0.5m" if lang == "en" else "продлить 0,5 мин")
    r = g.run("night 1", "+1h")
    answers = [pm for pm in r.pms("ГМ") if pm.startswith(REFUSED[lang][:10])]
    assert answers[0] == REFUSED[lang].format(why=why) and len(answers) == 2
    assert opening(r, "night 1").at == g.at("day 1", "+24h")  # the deadline did not move
    assert cmd("продлить 1м") == Extend(timedelta(minutes=1))


@pytest.mark.parametrize(
    "lang, why",
    [("ru", "в имени нет ни одного видимого знака (только пробелы, невидимые символы или оформление)"),
     ("en", "the name has no visible character (only spaces, invisible characters or formatting)")],
)
@pytest.mark.parametrize("name", ['"\u200b\u200b"', "\u200b\u2060", '"\u200b \u200b"', "\u00ad", '"\ufeff"'])
def test_C9_a_replacement_by_an_invisible_name_is_refused(lang: str, why: str, name: str) -> None:
    g = Game.moscow(language=lang)
    g.gm("day 1", "+1h", f"{WORDS[lang]['replace']} М1 {name}")
    pms, posts = _answer(g)
    assert pms[-1] == REFUSED[lang].format(why=why)
    r = g.run("day 1", "+2h")
    assert [p.nick for p in r.run.result.players if p.nick == "М1"] == ["М1"]


@pytest.mark.parametrize("alias", ['"\u200b"', '"\u2063"', '"\u200d\u200c"'])
def test_C9_an_invisible_alias_is_refused(alias: str) -> None:
    assert cmd(f"алиас {alias} Вася").code == "invisible_name"


def test_C9_visible_names_and_texts_within_the_caps_still_read() -> None:
    assert cmd("замена Вася Вася\u200b2") == Replace("Вася", "Вася\u200b2")
    assert cmd(f"замена Вася {'Н' * 200}") == Replace("Вася", "Н" * 200)
    assert cmd(f"сказать {'С' * 10_000}") == Say("С" * 10_000)
    assert cmd(f"модкилл Вася {'п' * 500}") == Modkill("Вася", "п" * 500)
