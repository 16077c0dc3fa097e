"""Issue 28 (stop 36's walk-through): `forumbot init --lang ru` wrote the example's comments in English. A Russian GM
gets them in Russian, an English one in English; both files hold the same settings, set and commented out, and
both load as a valid configuration whose game speaks the language asked for."""

from __future__ import annotations

import re
import tomllib

import pytest

from forumbot.cli.main import main
from forumbot.config.checks import check_setups
from forumbot.config.load import load_config

FIRST = {"ru": "# Настройки forumbot. `forumbot check-config` проверяет их; `forumbot check-config --online` ещё и "
               "входит на форум",
         "en": "# forumbot configuration. `forumbot check-config` checks it; `forumbot check-config --online` also "
               "logs in"}
# a setting or a table left commented out (`# post_minimum = 5`, `# [pages]`), or an example line under a comment
SETTING = re.compile(r"#\s*(\[[^\]]+\]|[\w\"+]+ = )")


def _init(tmp_path, language: str) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path / f"{language}.toml"
    assert main(["init", "--lang", language, str(path)]) == 0
    return path.read_text(encoding="utf-8")


def _prose(text: str) -> list[str]:
    """The comment lines that are words to read, not a setting left out."""
    return [line for line in text.splitlines() if line.startswith("#") and not SETTING.match(line)]


def _commented(text: str) -> list[str]:
    return [m.group(1) for m in map(SETTING.match, text.splitlines()) if m]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_init_writes_the_examples_comments_in_the_gms_language(tmp_path, capsys, language: str) -> None:  # type: ignore[no-untyped-def]
    text = _init(tmp_path, language)
    assert text.startswith(FIRST[language])
    cyrillic = [bool(re.search("[а-яё]", line, re.I)) for line in _prose(text)]
    if language == "ru":
        assert all(cyrillic), [line for line, ru in zip(_prose(text), cyrillic) if not ru]
        # a setting's own comment after it, too (the values and the board names stay as TOML and the boards spell them)
        assert "poll_seconds = 300     # `forumbot run`: один цикл каждые N секунд" in text
    else:
        assert not any(re.search(r"\b(и|в|на|для|по|или)\b", line) for line in _prose(text))


def test_the_russian_and_english_examples_hold_the_same_settings(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    ru, en = _init(tmp_path, "ru"), _init(tmp_path, "en")
    assert tomllib.loads(ru)["games"]["autumn"].pop("language") == "ru"
    assert tomllib.loads(en)["games"]["autumn"].pop("language") == "en"
    same = [tomllib.loads(x) for x in (ru, en)]
    for loaded in same:
        del loaded["games"]["autumn"]["language"]
    assert same[0] == same[1]
    assert _commented(ru) == _commented(en)  # every setting left out, in the same order


@pytest.mark.parametrize("language", ["ru", "en"])
def test_what_init_writes_loads_and_passes_check_config(tmp_path, capsys, monkeypatch, language: str) -> None:  # type: ignore[no-untyped-def]
    _init(tmp_path, language)
    config = load_config(tmp_path / f"{language}.toml")
    assert config.games["autumn"].language == language and check_setups(config) == []
    monkeypatch.setenv("FORUMBOT_MAIN_PASSWORD", "x")
    assert main(["check-config", "-c", str(tmp_path / f"{language}.toml")]) == 0
