"""issue 28 item 15: docs/config.md documents the `[pages]` table, every key the code reads
(forumbot/config/pages.py KEYS), each with its type and the default the code uses."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from forumbot.config.pages import KEYS, PagesConfig

CONFIG_MD = Path(__file__).resolve().parents[2] / "docs" / "config.md"


def _pages_rows() -> dict[str, list[str]]:
    text = CONFIG_MD.read_text(encoding="utf-8")
    match = re.search(r"^## `\[pages\]`\n(.*?)(?=^## )", text, re.M | re.S)
    assert match, "docs/config.md has no `[pages]` section"
    rows = {}
    for line in match.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def _as_toml(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f'`"{value}"`'


def test_every_pages_key_is_documented_with_type_and_default() -> None:
    rows = _pages_rows()
    assert set(rows) == KEYS
    for key, (kind, default, meaning) in rows.items():
        assert kind and default and meaning, key


def test_the_documented_defaults_are_the_codes() -> None:
    rows = _pages_rows()
    for field in dataclasses.fields(PagesConfig):
        default = "required" if field.default is dataclasses.MISSING else _as_toml(field.default)
        assert rows[field.name][1].startswith(default), (field.name, rows[field.name][1], default)


def test_the_example_names_the_dashboard_file_for_what_the_ticks_write_into_it() -> None:
    """The ticks write the dashboard file as JSON (forumbot/pages/dashboard.py: `forumbot dashboard` and
    `/_dashboard` read the last tick from it). `forumbot init`'s example named it dashboard.html, so a GM opened
    it in a browser and read raw JSON (issue 28 XenForo walk-through)."""
    from forumbot.config.checks import example_config

    (line,) = [x for x in example_config().splitlines() if re.match(r"#? ?dashboard = ", x)]
    assert re.match(r'#? ?dashboard = "[^"]+\.json"', line), line
    row = _pages_rows()["dashboard"]
    assert "JSON" in row[2], row
