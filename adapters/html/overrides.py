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

from lxml import etree

from adapters.html.dom import css, matches
from adapters.html.profile import HtmlProfile, frozen_map
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
            if not wrong and part == "selectors" and name == "page_end":
                wrong = _page_end(value, profile)
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
        changes[part] = frozen_map({**getattr(profile, part), **values})
    return replace(profile, **changes)


# The most a selector override may hold (issue 17 item 21): the engines' own are under 140 characters and 5
# alternatives; 5,000 alternatives compiled to an XPath libxml2 stops on with "Recursion limit exceeded".
MAX_SELECTOR_CHARS = 1000
MAX_SELECTOR_ALTERNATIVES = 32


def _selector(value: Any, _old: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return f"expected a CSS selector, got {value!r}"
    if len(value) > MAX_SELECTOR_CHARS or value.count(",") >= MAX_SELECTOR_ALTERNATIVES:
        return (f"a selector of at most {MAX_SELECTOR_CHARS} characters and {MAX_SELECTOR_ALTERNATIVES} "
                f"alternatives, got {len(value)} characters and {value.count(',') + 1} alternatives")
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
        fields = list(Formatter().parse(value))
        extra = _placeholders(value) - _placeholders(old)
    except ValueError as e:
        return f"not a URL template: {value!r} ({e})"
    # "{topic:>100000000}" built 100 MB URLs (issue 17 item 21): a placeholder is a bare name, filled as is
    shaped = [f"{{{f}{'!' + c if c else ''}{':' + spec if spec else ''}}}" for _, f, spec, c in fields
              if f is not None and (spec or c or not f.isidentifier())]
    if shaped:
        return (f"{', '.join(shaped)}: a placeholder is a bare name such as {{topic}}, without a format spec, "
                "conversion, attribute or index")
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


_SKELETON = etree.fromstring("<html><head></head><body><div></div></body></html>", etree.HTMLParser())


def _page_end(value: str, profile: HtmlProfile) -> str | None:
    """`page_end` is the element an engine prints after the posts and rows (its footer): a page cut short lacks
    it. One matching <html> or <body> ("body", "html", "*") matches a cut page too, which then passes as whole
    (issue 17 item 21, issue 26 item 9): refused, not warned about."""
    hit = sorted({el.tag for el in matches(value, _SKELETON) if el.tag in ("html", "body")})
    if not hit:
        return None
    return (f"{value!r} matches the page's <{hit[0]}>, which a page cut short has too (cut pages would pass as "
            "whole); allowed: a selector of an element printed after the posts and rows, matching neither <html> "
            f"nor <body>, such as the {profile.engine} profile's {profile.selectors['page_end']!r}")
