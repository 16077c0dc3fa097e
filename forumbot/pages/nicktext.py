"""A nickname inside a sentence of the pages (the game page's days, nights and announcements; a day page's leader,
tie and outcome): the sentence cut into its text and its long nicknames, so that the template keeps each of those
on one line at a phone's width (nick.html's `named`, base.html's `bdi.nick`) where `overflow-wrap:anywhere` broke
«Ужасно_Длинный_Ник_Игрока_Без_П|робелов» mid-word (h2, after stop 37)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

# a nickname over this many characters may be wider than a 412 px line (20 of the widest bold letters fill one,
# nick.html): only those need keeping whole; a shorter one is a word the line moves down whole
LONG = 20


class Part(NamedTuple):
    """A stretch of a sentence: its `text`, then a long `nick` (or none) and the punctuation right after it (`tail`,
    «:» or «,»), which stays on the nickname's line: a line never opens with «, М5»."""

    text: str
    nick: str = ""
    tail: str = ""


def nick_parts(text: str, nicks: Iterable[str], over: int = LONG) -> list[Part]:
    """`text` as Parts in order, joined back the same text. A nickname is found whole (not inside a longer word or
    name), the longest first, so «Игрок_Номер_Один_Длинный_2» is not read as «Игрок_Номер_Один_Длинный» and «_2»."""
    long = sorted({n for n in nicks if len(n) > over}, key=len, reverse=True)
    if not long:
        return [Part(text)]
    found = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, long)) + r")(?!\w)([^\s\w]*)")
    parts: list[Part] = []
    at = 0
    for m in found.finditer(text):
        parts.append(Part(text[at:m.start()], m.group(1), m.group(2)))
        at = m.end()
    if at < len(text) or not parts:
        parts.append(Part(text[at:]))
    return parts
