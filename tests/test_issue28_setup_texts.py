"""issue 28: the last config problems a Russian GM read in English. The setups the rules refuse (forumbot/rules,
forumbot/engine: SetupError.told names its text), a name that cannot be a path (forumbot/names.py) and, before the
file's games say their language, a file that cannot be read (said in Russian, the games' default, then in
English). Texts pinned in both languages; the clause ids stay in them."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest

from daemon.daemon_world import config_toml, game_toml
from forumbot import replay
from forumbot.config.checks import check_setups
from forumbot.config.load import load_config
from forumbot.config.types import ConfigProblems
from forumbot.engine import draw_seats
from forumbot.errors import ConfigError, SetupError
from forumbot.texts import TABLES, get_texts

ROOT = Path(__file__).resolve().parent.parent
CLAUSE = re.compile(r"\([A-Z]-\d+\)")


def _told() -> list[tuple[str, str, str]]:
    """Every SetupError.told(key, english, ...) in forumbot: (where, key, english), read from the source."""
    found = []
    for path in sorted((ROOT / "forumbot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "told"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "SetupError"):
                key, english = (a.value for a in node.args[:2] if isinstance(a, ast.Constant))
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", str(key), str(english)))
    return found


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_issue28_each_setup_error_the_rules_raise_has_its_text_in_both_tables_the_same_english_and_clause() -> None:
    told = _told()
    assert len(told) >= 26, told
    for where, key, english in told:
        assert TABLES["en"][key] == english, where  # str(error) is the en table's text: one English
        assert _fields(TABLES["ru"][key]) == _fields(english), where
        assert CLAUSE.findall(TABLES["ru"][key]) == CLAUSE.findall(english), where


def _with(game: str, language: str) -> str:
    return config_toml(game.replace('forum = "main"', f'forum = "main"\nlanguage = "{language}"', 1))


def _setups(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "forumbot.toml"
    path.write_text(text, encoding="utf-8")
    return check_setups(load_config(path))


NINE = [(f"P{i}", "") for i in range(9)]
ELEVEN = [(f"P{i}", "") for i in range(11)]


@pytest.mark.parametrize("language, expected", [
    ("ru", ["games.g1: в «Свободную охоту» играют от 12 до 17 игроков, а здесь 11 (H-1)"]),
    ("en", ["games.g1: Free Hunt is played by 12 to 17 players, got 11 (H-1)"]),
])
def test_issue28_h1_a_free_hunt_of_the_wrong_size_is_refused_in_the_gms_language(tmp_path, language, expected):
    game = game_toml("g1", players=ELEVEN).replace('variant = "moscow"', 'variant = "free_hunt"')
    assert _setups(tmp_path, _with(game, language)) == expected


@pytest.mark.parametrize("language, expected", [
    ("ru", ["games.g1: в московском варианте ровно 10 игроков, а здесь 9 (M-1)"]),
    ("en", ["games.g1: the Moscow variant needs exactly 10 players, got 9 (M-1)"]),
])
def test_issue28_m1_a_moscow_game_of_nine_is_refused_in_the_gms_language(tmp_path, language, expected):
    assert _setups(tmp_path, _with(game_toml("g1", players=NINE), language)) == expected


@pytest.mark.parametrize("language, expected", [
    ("ru", ["games.g1: опции cast {'mafia': 5, 'don': 1} на 10 игроков нужен хотя бы один член мафии и горожан "
            "больше, чем плохих игроков (R-10)"]),
    ("en", ["games.g1: option cast {'mafia': 5, 'don': 1} with 10 players needs at least one mafia member and more "
            "town than bad players (R-10)"]),
])
def test_issue28_r10_a_cast_with_too_much_mafia_is_refused_in_the_gms_language(tmp_path, language, expected):
    game = game_toml("g1", players=[(f"P{i}", "") for i in range(10)]) + "[games.g1.options]\ncast = { mafia = 5, don = 1 }\n"
    assert _setups(tmp_path, _with(game, language)) == expected


def _free_hunt(players: list[tuple[str, str]], options: str = "") -> str:
    game = game_toml("g1", players=players).replace('variant = "moscow"', 'variant = "free_hunt"')
    return game + (f"[games.g1.options]\n{options}\n" if options else "")


def _dealt(*roles: str) -> list[tuple[str, str]]:
    return [(f"P{i}", role) for i, role in enumerate(roles)]


TWELVE = [(f"P{i}", "") for i in range(12)]
FH_FOUR_MAFIA = _dealt(*["mafia"] * 4, "doctor", *["civilian"] * 7)
MOSCOW_TWO_SHERIFFS = _dealt("mafia", "mafia", "don", "sheriff", "sheriff", *["civilian"] * 5)


# Each role by its name in the GM's language, the count after a dash («мафия — 3»): nominative, never declined,
# as the setup post's cast line (house.cast.item) and check-config's (cast.part) say roles.
@pytest.mark.parametrize("language, game, expected", [
    ("ru", _free_hunt(TWELVE, "mafia = 4"),
     "games.g1: «Свободная охота» на 12 игроков допускает состав (мафия — 3, доктор — 1, маньяк — 1) или "
     "(мафия — 3, доктор — 1), а опции просят mafia = 4 (H-1)"),
    ("en", _free_hunt(TWELVE, "mafia = 4"),
     "games.g1: Free Hunt with 12 players allows (3 mafia, 1 doctor, 1 maniac) or (3 mafia, 1 doctor); the options "
     "ask for mafia = 4 (H-1)"),
    ("ru", _free_hunt(TWELVE, "mafia = 4\nmaniac = false"),
     "games.g1: «Свободная охота» на 12 игроков допускает состав (мафия — 3, доктор — 1, маньяк — 1) или "
     "(мафия — 3, доктор — 1), а опции просят mafia = 4, maniac = false (H-1)"),
    ("ru", _free_hunt(FH_FOUR_MAFIA),
     "games.g1: «Свободная охота» на 12 игроков допускает состав (мафия — 3, доктор — 1, маньяк — 1) или "
     "(мафия — 3, доктор — 1), а задано: мафия — 4, доктор — 1, маньяк — 0 (H-1)"),
    ("en", _free_hunt(FH_FOUR_MAFIA),
     "games.g1: Free Hunt with 12 players allows (3 mafia, 1 doctor, 1 maniac) or (3 mafia, 1 doctor); given "
     "4 mafia, 1 doctor, 0 maniac (H-1)"),
    ("ru", _free_hunt(_dealt("doctor", "doctor", *[""] * 10)),
     "games.g1: в этом составе «Свободной охоты» доктор — 1, а задано 2 (H-1)"),
    ("en", _free_hunt(_dealt("doctor", "doctor", *[""] * 10)),
     "games.g1: this Free Hunt cast has 1 doctor, 2 given (H-1)"),
    ("ru", _free_hunt(_dealt("sheriff", *[""] * 11)),
     "games.g1: в варианте free_hunt нет роли: шериф (игрок P0)"),
], ids=["options-ru", "options-en", "options-as-toml-ru", "given-ru", "given-en", "partial-ru", "partial-en", "no-role-ru"])
def test_issue28_h1_a_free_hunt_cast_the_rules_refuse_names_its_roles_in_the_gms_language(tmp_path, language, game,
                                                                                         expected):
    assert _setups(tmp_path, _with(game, language)) == [expected]


CAST_TWO_MAFIA = "[games.g1.options]\ncast = { mafia = 2 }\n"


@pytest.mark.parametrize("language, game, expected", [
    ("ru", game_toml("g1", players=MOSCOW_TWO_SHERIFFS),
     "games.g1: московский состав: мирный житель — 6, шериф — 1, мафия — 2, дон мафии — 1 (M-1), а задано: "
     "мирный житель — 5, шериф — 2, мафия — 2, дон мафии — 1"),
    ("en", game_toml("g1", players=MOSCOW_TWO_SHERIFFS),
     "games.g1: the Moscow cast is 6 civilian, 1 sheriff, 2 mafia, 1 mafia Don (M-1); got 5 civilian, 2 sheriff, "
     "2 mafia, 1 mafia Don"),
    ("ru", game_toml("g1", players=_dealt("sheriff", "sheriff", *[""] * 8)),
     "games.g1: в московском составе шериф — 1, а задано 2 (M-1)"),
    ("en", game_toml("g1", players=_dealt("sheriff", "sheriff", *[""] * 8)),
     "games.g1: the Moscow cast has 1 sheriff, 2 given (M-1)"),
    ("ru", game_toml("g1", players=_dealt(*["mafia"] * 3, "sheriff", *["civilian"] * 6)) + CAST_TWO_MAFIA,
     "games.g1: опция cast задаёт состав: мирный житель — 6, шериф — 1, мафия — 2, дон мафии — 1, а задано: "
     "мирный житель — 6, шериф — 1, мафия — 3 (R-10)"),
    ("en", game_toml("g1", players=_dealt(*["mafia"] * 3, "sheriff", *["civilian"] * 6)) + CAST_TWO_MAFIA,
     "games.g1: option cast asks for 6 civilian, 1 sheriff, 2 mafia, 1 mafia Don; got 6 civilian, 1 sheriff, "
     "3 mafia (R-10)"),
    ("ru", game_toml("g1", players=_dealt("sheriff", "sheriff", *[""] * 8)) + CAST_TWO_MAFIA,
     "games.g1: в опции cast шериф — 1, а задано 2 (R-10)"),
    ("en", game_toml("g1", players=_dealt("sheriff", "sheriff", *[""] * 8)) + CAST_TWO_MAFIA,
     "games.g1: option cast has 1 sheriff, 2 given (R-10)"),
], ids=["given-ru", "given-en", "partial-ru", "partial-en", "cast-given-ru", "cast-given-en", "cast-partial-ru",
        "cast-partial-en"])
def test_issue28_m1_r10_a_moscow_cast_the_rules_refuse_names_its_roles_in_the_gms_language(tmp_path, language, game,
                                                                                         expected):
    assert _setups(tmp_path, _with(game, language)) == [expected]


def test_issue28_the_english_raised_names_each_role_as_the_config_writes_it(tmp_path):
    """str() of the error stays the English (a transcript's replay prints it): roles by their config names."""
    path = tmp_path / "forumbot.toml"
    path.write_text(_with(_free_hunt(FH_FOUR_MAFIA), "ru"), encoding="utf-8")
    with pytest.raises(SetupError) as caught:
        draw_seats(load_config(path).games["g1"].setup(seed=0, bot="bot", markup="bbcode", planned=True))
    assert str(caught.value) == ("Free Hunt with 12 players allows (3 mafia, 1 doctor, 1 maniac) or (3 mafia, 1 doctor);"
                                 " given 4 mafia, 1 doctor, 0 maniac (H-1)")


SIGNUP = '\n[games.g1.signup]\nthread = "g1/signup"\ncloses = 2026-12-10T20:00:00\nplayers = 11\n'


@pytest.mark.parametrize("language, expected", [
    ("ru", "games.g1.signup.players: 11 игроков не могут сыграть эту игру: в «Свободную охоту» играют от 12 до 17 "
           "игроков, а здесь 11 (H-1)"),
    ("en", "games.g1.signup.players: 11 players cannot play this game: Free Hunt is played by 12 to 17 players, "
           "got 11 (H-1)"),
])
def test_issue28_s2_a_sign_up_for_a_count_the_rules_refuse_is_named_in_the_gms_language(tmp_path, language, expected):
    game = game_toml("g1", players=[]).replace('variant = "moscow"', 'variant = "free_hunt"') + SIGNUP
    path = tmp_path / "forumbot.toml"
    path.write_text(_with(game, language), encoding="utf-8")
    with pytest.raises(ConfigProblems) as caught:
        load_config(path)
    assert expected in caught.value.problems


@pytest.mark.parametrize("language, expected", [
    ("ru", "forums: '../../evil' не может быть именем: от 1 до 64 символов, каждый — буква, цифра, '-' или '_' "
           "(кириллица тоже), не начиная с '-'"),
    ("en", "forums: '../../evil' cannot be a name: 1 to 64 characters, each a letter, a digit, '-' or '_' "
           "(Cyrillic letters too), not starting with '-'"),
])
def test_issue28_a_name_that_cannot_be_a_path_is_refused_in_the_gms_language(tmp_path, language, expected):
    text = _with(game_toml("g1"), language).replace("[forums.main]", '[forums."../../evil"]')
    path = tmp_path / "forumbot.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigProblems) as caught:
        load_config(path)
    assert expected in caught.value.problems


def _load_error(path: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    return str(caught.value)


def test_issue28_a_file_that_cannot_be_read_is_named_in_russian_then_english(tmp_path):
    """No game has said its language before the file is read: Russian (the games' default) and English, once each."""
    missing = tmp_path / "nope.toml"
    assert _load_error(missing) == (f"{missing}: нет такого файла (пример пишет `forumbot init`) / "
                                    "no such file (write an example with `forumbot init`)")
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("poll_seconds = = 1\n", encoding="utf-8")
    assert _load_error(bad_toml).startswith(f"{bad_toml}: не TOML / not valid TOML: Invalid value (at line 1")
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes(b"poll_seconds = 60\n# \xff\n")
    assert _load_error(latin1) == (f"{latin1}: не UTF-8: байт 0xff в строке 2 (сохраните файл в UTF-8) / "
                                   "not UTF-8: byte 0xff on line 2 (save the file as UTF-8)")


TRANSCRIPT = ROOT / "fixtures" / "transcripts" / "free_hunt_maniac_win.json"


def _transcript(language: str | None, **player: str) -> dict:
    data = json.loads(TRANSCRIPT.read_text(encoding="utf-8"))
    data.pop("language", None)
    if language is not None:
        data["language"] = language
    data["players"][0].update(player)
    return data


@pytest.mark.parametrize("language, expected", [
    (None, "игрок 'Альфа': неизвестная роль 'werewolf'; роли: civilian, sheriff, mafia, don, doctor, maniac"),
    ("ru", "игрок 'Альфа': неизвестная роль 'werewolf'; роли: civilian, sheriff, mafia, don, doctor, maniac"),
    ("en", "unknown role 'werewolf' for player 'Альфа'; roles: civilian, sheriff, mafia, don, doctor, maniac"),
    ("fr", "игрок 'Альфа': неизвестная роль 'werewolf'; роли: civilian, sheriff, mafia, don, doctor, maniac / "
           "unknown role 'werewolf' for player 'Альфа'; roles: civilian, sheriff, mafia, don, doctor, maniac"),
], ids=["unsaid", "ru", "en", "fr"])
def test_issue28_a_transcripts_unknown_role_is_said_in_its_language_else_in_russian_then_english(language, expected):
    """The transcript's language (Russian where it names none) is read before its players; one the texts do not
    know is no language: Russian then English, as a file not yet read is named."""
    data = _transcript(language, nick="Альфа", role="werewolf")
    with pytest.raises(SetupError) as caught:
        replay.parse_transcript(data)
    assert str(caught.value) == expected


def test_issue28_a_language_the_texts_do_not_have_is_named_in_russian_then_english():
    with pytest.raises(SetupError) as caught:
        replay.replay(replay.parse_transcript(_transcript("fr")))
    assert str(caught.value) == "неизвестный язык 'fr'; есть: en, ru / unknown language 'fr'; known: en, ru"


@pytest.mark.parametrize("language, expected", [
    ("ru", "неизвестный часовой пояс 'Mars/Olympus'"),
    ("en", "unknown time zone 'Mars/Olympus'"),
], ids=["ru", "en"])
def test_issue28_a_time_zone_this_machine_does_not_know_is_named_in_the_games_language(language, expected):
    """A stored game's zone the machine's tz database lacks (config and transcripts check theirs before): the
    game's language is known by then."""
    with pytest.raises(SetupError) as caught:
        get_texts(language, str, "Mars/Olympus")
    assert str(caught.value) == expected
