"""issue 17 item 14: the project ships its own rule book, docs/rules.md, with every clause id (C-*, M-*, H-*, R-*)
that the docs, the option tables, the example config and the code cite; the README and the option tables link it,
and no document sends a reader to `../shared/RULES.md` or `DESIGN.md`, which a clone does not have."""

from __future__ import annotations

import re
from pathlib import Path

from forumbot.options import OPTIONS
from forumbot.texts import TABLES

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
CITED = re.compile(r"(?<![\w-])([CMHR]-\d+)(?!\w)")
# the clauses of each section, numbered without a gap
SECTIONS = {"C": 15, "M": 15, "H": 15, "R": 13}


def _defined() -> list[str]:
    return re.findall(r"^- \*\*([CMHR]-\d+)\b", RULES.read_text(encoding="utf-8"), re.M)


def _user_docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "forumbot" / "examples" / "forumbot.toml",
            ROOT / "forumbot" / "examples" / "forumbot.ru.toml"]


def test_rules_md_defines_every_clause_once_numbered_without_gaps():
    defined = _defined()
    assert len(defined) == len(set(defined))
    assert defined == [f"{letter}-{n}" for letter, count in SECTIONS.items() for n in range(1, count + 1)]


def test_every_clause_id_cited_anywhere_is_in_rules_md():
    defined = set(_defined())
    files = [*_user_docs(), *sorted((ROOT / "forumbot").rglob("*.py")), *sorted((ROOT / "deploy").rglob("*.md"))]
    missing = {f"{path.relative_to(ROOT)}: {cid}" for path in files if path != RULES
               for cid in CITED.findall(path.read_text(encoding="utf-8")) if cid not in defined}
    assert not missing, sorted(missing)


def test_every_option_clause_is_in_rules_md_and_the_option_tables_cite_it():
    defined = set(_defined())
    config_md = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    for name, option in OPTIONS.items():
        if option.clause:
            assert option.clause in defined, name
            row = next(line for line in config_md.splitlines() if line.startswith(f"| `{name}` |"))
            assert option.clause in row, name


def test_the_readme_and_the_option_tables_link_rules_md():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    config_md = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    assert "](docs/rules.md)" in readme and "](rules.md)" in config_md
    # the README's options table is introduced with the link
    intro = readme[:readme.index("| option | values | default |")].rstrip().rsplit("\n\n", 1)[1]
    assert "docs/rules.md" in intro


def test_no_document_points_at_files_a_clone_does_not_have():
    for path in _user_docs():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?<!docs/)(?<![\w/])RULES\.md|DESIGN\.md|shared/RULES", text), path.name


def test_rules_md_gives_the_russian_terms_players_use():
    text = RULES.read_text(encoding="utf-8")
    for key, word in TABLES["ru"].items():
        if key in {f"role.{r}" for r in ("civilian", "sheriff", "mafia", "don", "doctor", "maniac")}:
            assert word in text, key
    for term in ("ннв", "несострел", "модкилл", "перестрелка", "последнее слово", "ведущий"):
        assert term in text, term
