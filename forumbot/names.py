"""The one rule for a name that becomes a path (issue 26 item 2): a game's name is its folder of the public pages
and part of their URLs, a forum's name part of a state file's name. A name is refused where it enters (the
configuration, a transcript, the command line). Defence in depth: `within`, the last check before the site's
one writer (pages/output.write_files) or the handshake's state file (through `inside`) writes, refuses a path that
leaves its folder."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Mapping

from forumbot.errors import UnsafeName
from forumbot.texts import TABLES

MAX_NAME_LENGTH = 64
ENGLISH = TABLES["en"]  # the command line's and a transcript's language; the config's is its GMs' (issue 28)


def name_rule(t: Mapping[str, str] = ENGLISH) -> str:
    """What a name may be, in the language of `t`."""
    return t["name.rule"].format(most=MAX_NAME_LENGTH)


NAME_RULE = name_rule()
_NAME = re.compile(r"(?!-)[\w-]{1,%d}" % MAX_NAME_LENGTH)  # \w: Unicode letters, digits and '_'


def name_problem(name: object, t: Mapping[str, str] = ENGLISH) -> str | None:
    """Why `name` cannot be a path component (in the language of `t`), or None when it can."""
    if not isinstance(name, str):
        return t["name.not_string"].format(type=type(name).__name__)
    if _NAME.fullmatch(name):
        return None
    shown = repr(name) if len(name) <= 2 * MAX_NAME_LENGTH else repr(name[:MAX_NAME_LENGTH]) + "…"
    return t["name.refused"].format(shown=shown, rule=name_rule(t))


def checked_name(name: object, where: str) -> str:
    """`name` when it follows the rule; otherwise UnsafeName naming `where` and the rule."""
    problem = name_problem(name)
    if problem is not None:
        raise UnsafeName(f"{where}: {problem}")
    return name  # type: ignore[return-value]


def inside(folder: Path, name: str, prefix: str = "", suffix: str = "") -> Path:
    """`folder/PREFIX+NAME+SUFFIX`, for a name that follows the rule."""
    return within(folder, prefix + checked_name(name, "name") + suffix)


def within(folder: Path, relative: str) -> Path:
    """`folder/relative`, refused unless it stays inside `folder`: the last check before anything is written
    (compared without following links: a folder the admin linked elsewhere is still his)."""
    path = folder / relative
    # absolute: a relative folder may be "." (the default config's own folder), whose normal form shares no
    # leading part with the names inside it
    base, target = os.path.abspath(folder), os.path.abspath(path)
    if "\0" in relative or Path(relative).is_absolute() or os.path.commonpath([base, target]) != base or target == base:
        raise UnsafeName(f"{relative!r} is not a path inside {folder}")
    return path
