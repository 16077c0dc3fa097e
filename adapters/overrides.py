"""Board overrides: a forum table's `[forums.NAME.profile]` changes profile selectors, URL templates, message
patterns and pacing limits by name, so a board with a custom style is served by configuration (issue 9 item 5).

    [forums.main.profile.selectors]
    post = "div.my-post[id^='p']"
    [forums.main.profile.limits]
    post = 45

Only names the engine's profile has are accepted; `override_problems` names each wrong one in one line.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from string import Formatter
from typing import Any, Mapping

from adapters.html import css
from adapters.profiles import HtmlProfile, _ro
from forumbot.options import closest

PARTS = ("selectors", "urls", "messages", "limits")


def override_problems(profile: HtmlProfile, table: Any, where: str = "profile") -> list[str]:
    """One line per problem: an unknown part or name (with the closest valid one), bad CSS, a bad regex, a URL
    template with a placeholder the engine does not fill, a limit that is not a number of seconds."""
    if not isinstance(table, Mapping):
        return [f"{where}: expected a table with {', '.join(PARTS)}, got {table!r}"]
    problems: list[str] = []
    for part, names in table.items():
        if part not in PARTS:
            problems.append(f"{where}.{part}: unknown part{closest(part, PARTS)} (known: {', '.join(PARTS)})")
            continue
        if not isinstance(names, Mapping):
            problems.append(f"{where}.{part}: expected a table of names, got {names!r}")
            continue
        known: Mapping[str, Any] = getattr(profile, part)
        for name, value in names.items():
            at = f"{where}.{part}.{name}"
            if name not in known:
                problems.append(f"{at}: the {profile.engine} profile has no {part[:-1]} {name!r}"
                                f"{closest(name, known)}")
                continue
            wrong = _CHECKS[part](value, known[name])
            if wrong:
                problems.append(f"{at}: {wrong}")
    return problems


def apply_overrides(profile: HtmlProfile, table: Mapping[str, Mapping[str, Any]]) -> HtmlProfile:
    """The profile with the table's values in place of its own; ValueError naming each problem if any."""
    problems = override_problems(profile, table)
    if problems:
        raise ValueError("; ".join(problems))
    changes: dict[str, Any] = {}
    for part, names in table.items():
        values = {k: (float(v) if part == "limits" else v) for k, v in names.items()}
        changes[part] = _ro({**getattr(profile, part), **values})
    return replace(profile, **changes)


def _selector(value: Any, _old: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return f"expected a CSS selector, got {value!r}"
    try:
        css(value)
    except Exception as e:  # cssselect raises SelectorSyntaxError or ExpressionError, both unrelated to ValueError
        return f"not a CSS selector lxml can use: {value!r} ({type(e).__name__}: {e})"
    return None


def _placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in Formatter().parse(template) if field}


def _url(value: Any, old: str) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return f"expected a URL template, got {value!r}"
    try:
        extra = _placeholders(value) - _placeholders(old)
    except ValueError as e:
        return f"not a URL template: {value!r} ({e})"
    if extra:
        allowed = ", ".join("{" + p + "}" for p in sorted(_placeholders(old))) or "none"
        return f"{', '.join('{' + p + '}' for p in sorted(extra))} is not filled in here (this URL gets: {allowed})"
    return None


def _message(value: Any, _old: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return f"expected a regular expression, got {value!r}"
    try:
        re.compile(value)
    except re.error as e:
        return f"not a regular expression: {value!r} ({e})"
    return None


def _limit(value: Any, _old: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= 3600:
        return f"expected seconds from 0 to 3600, got {value!r}"
    return None


_CHECKS = {"selectors": _selector, "urls": _url, "messages": _message, "limits": _limit}
