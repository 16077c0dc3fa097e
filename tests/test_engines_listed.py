"""Each engine is where a GM looks for it (issue 9 item 6): an entry point in pyproject.toml, a name
check-config accepts (and a misspelt one it suggests), the `forumbot init` template's comments, and the README's
engine table; the template's override example is a valid override. The engines are the rows of one table,
adapters/engines.toml (issue 27 item 2), which docs/engines.md's quick-start table writes out."""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

import pytest

from forumbot.config.types import ConfigProblems
from forumbot.config.load import load_config
from forumbot.forum.adapter import CONFERENCE
from forumbot.forum.registry import engine_class

ROOT = Path(__file__).resolve().parents[1]
ENTRY_POINTS = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["entry-points"][
    "forumbot.adapters"]
# `forumbot init`'s example, commented in English and (`--lang ru`, the default) in Russian (issue 28)
TEMPLATES = [(ROOT / "forumbot" / "examples" / name).read_text("utf-8") for name in ("forumbot.toml", "forumbot.ru.toml")]
README = (ROOT / "README.md").read_text("utf-8")
ENGINES_DOC = (ROOT / "docs" / "engines.md").read_text("utf-8")
ROWS = tomllib.loads((ROOT / "adapters" / "engines.toml").read_text("utf-8"))["engine"]
ENGINES = tuple(row["engine"] for row in ROWS)


def test_the_engines_table_has_every_engine_and_only_them():
    """Each row is an engine with its package and its entry point; each entry point but the memory forum's
    (the test forum) has its row; vBulletin and Invision, once missing here, are rows like the others."""
    assert len(set(ENGINES)) == len(ENGINES)
    assert set(ENGINES) == set(ENTRY_POINTS) - {"memory"}
    assert {"vbulletin", "invision"} <= set(ENGINES)
    for engine in ENGINES:
        assert (ROOT / "adapters" / engine / "__init__.py").is_file(), engine
        assert ENTRY_POINTS[engine].startswith(f"adapters.{engine}."), engine


def _quick_start_table() -> str:
    lines = ["| engine | `engine =` | thread URL looks like | default flood limits (s) |", "|---|---|---|---|"]
    lines += [f"| {r['name']} | `{r['engine']}` | {r['thread_url']} | {r['flood_limits']} |" for r in ROWS]
    return "\n".join(lines) + "\n"


def test_docs_engines_quick_start_table_is_the_engines_table_written_out():
    start = ENGINES_DOC.index("| engine | `engine =` |")
    end = ENGINES_DOC.index("\n\n", start) + 1
    assert ENGINES_DOC[start:end] == _quick_start_table()


def test_the_engines_table_check_sees_a_missing_row():
    """The check above can fail: a table without vBulletin's row is not the one docs/engines.md shows."""
    global ROWS
    kept = ROWS
    try:
        ROWS = [r for r in kept if r["engine"] != "vbulletin"]
        assert _quick_start_table() not in ENGINES_DOC
    finally:
        ROWS = kept


def _conference_table() -> str:
    lines = ["| engine | the conference here | why |", "|---|---|---|"]
    lines += [f"| {r['name']} | {r['conference']} | {r['conference_note']} |" for r in ROWS]
    return "\n".join(lines) + "\n"


def test_m15_docs_engines_conference_table_is_the_engines_table_and_the_adapters_declare_it():
    """M-15: the per-engine conference docs/engines.md shows is adapters/engines.toml's, and an engine is listed
    with the conversation exactly when its adapter declares CONFERENCE (else game start runs the relay)."""
    start = ENGINES_DOC.index("| engine | the conference here |")
    end = ENGINES_DOC.index("\n\n", start) + 1
    assert ENGINES_DOC[start:end] == _conference_table()
    for row in ROWS:
        cls = engine_class(row["engine"])
        assert cls is not None, row["engine"]
        assert row["conference"] == ("conversation" if CONFERENCE in cls.CAPABILITIES else "relay"), row["engine"]


def test_every_engine_has_an_entry_point_that_loads():
    assert set(ENGINES) | {"memory"} <= set(ENTRY_POINTS)
    for name, target in ENTRY_POINTS.items():
        module, _, attr = target.partition(":")
        assert callable(getattr(importlib.import_module(module), attr)), name


def _config(tmp_path, forum_lines: str) -> Path:
    path = tmp_path / "forumbot.toml"
    path.write_text(f'[forums.main]\nlogin = "bot"\nbase_url = "http://127.0.0.1:1/"\n{forum_lines}\n'
                    '[games.g]\nforum = "main"\nvariant = "moscow"\ngame_thread = "1"\nvote_thread = "2"\n'
                    'gms = ["gm"]\nstart = 2026-12-01T10:00:00+03:00\n'
                    'players = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]\n', encoding="utf-8")
    return path


def _problems(path: Path) -> list[str]:
    try:
        load_config(path)
    except ConfigProblems as e:
        return e.problems
    return []


@pytest.mark.parametrize("engine", ENGINES)
def test_check_config_accepts_each_engine_name(tmp_path, engine):
    assert [p for p in _problems(_config(tmp_path, f'engine = "{engine}"')) if ".engine:" in p] == []


@pytest.mark.parametrize("typo,meant", [("xenforro", "xenforo"), ("punnbb", "punbb"), ("mybb_ru", "mybbru"),
                                        ("smff", "smf")])
def test_a_misspelt_engine_is_named_with_the_closest(tmp_path, typo, meant):
    [problem] = _problems(_config(tmp_path, f'engine = "{typo}"'))
    # in the GMs' language (the game's, Russian; issue 28)
    assert problem.startswith(f"forums.main.engine: неизвестный движок форума '{typo}' (может быть, {meant}?)")


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_template_names_every_engine_and_the_readme_table_has_a_row_each(template):
    comment = " ".join(line for line in template.splitlines() if line.startswith("#"))
    rows = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", README, re.MULTILINE)}
    for engine in ENGINES:
        assert re.search(rf"\b{engine}\b", comment), engine
        assert engine in rows, engine


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_templates_override_example_is_a_valid_override(tmp_path, template):
    lines, inside = [], False
    for line in template.splitlines():
        if line.startswith("# [forums.main.profile"):
            inside = True
        elif inside and not re.match(r"# [\w\"+]+ *=", line):
            inside = False
        if inside:
            lines.append(line[2:])
    assert len(lines) >= 8
    path = _config(tmp_path, 'engine = "phpbb"')
    path.write_text(path.read_text("utf-8").replace("[games.g]", "\n".join(lines) + "\n\n[games.g]"), "utf-8")
    config = load_config(path)
    assert set(config.forums["main"].extra["profile"]) == {"selectors", "urls", "messages", "limits"}


def test_a_new_engine_is_an_adapter_class_and_a_registry_line_only(tmp_path, monkeypatch):
    """Issue 9: adding an engine touches adapters/ and the registry, not forumbot. An engine installed only as an
    entry point is configured by what its class, built on AdapterBase, declares (issue 27 item 2): its own
    settings accepted, others refused, its markup the default, its local times read in the games' zone."""
    from forumbot.config.types import engine_traits

    package = tmp_path / "site"
    (package / "fakeboard_dist-1.0.dist-info").mkdir(parents=True)
    (package / "fakeboard_dist-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fakeboard-dist\nVersion: 1.0\n", encoding="utf-8")
    (package / "fakeboard_dist-1.0.dist-info" / "entry_points.txt").write_text(
        "[forumbot.adapters]\nfakeboard = fakeboard_mod:FakeBoard\n", encoding="utf-8")
    (package / "fakeboard_mod.py").write_text(
        "from forumbot.forum.adapter import AdapterBase\n\n\n"
        "class FakeBoard(AdapterBase):\n    settings = frozenset({'shoe_size', 'timezone_name'})\n"
        "    prints_local_times = True\n    markup = 'markdown'\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(package))
    engine_traits.cache_clear()
    try:
        config = load_config(_config(tmp_path, 'engine = "fakeboard"\nshoe_size = 44'))
        forum = config.forums["main"]
        assert forum.markup == "markdown" and forum.extra["shoe_size"] == 44
        assert forum.timezone_name == "Europe/Moscow"  # the game's zone: its pages print local times
        assert any("forums.main.hat_size" in p for p in _problems(_config(tmp_path, 'engine = "fakeboard"\nhat_size = 1')))
    finally:
        engine_traits.cache_clear()
