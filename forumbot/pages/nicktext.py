"""A nickname inside a sentence of the pages (the game page's days, nights and announcements; a day page's leader,
tie and outcome): the sentence cut into its text and its long nicknames, so that the template keeps each of those
on one line at a phone's width (nick.html's `named`, base.html's `bdi.nick`) where `overflow-wrap:anywhere` broke
«Ужасно_Длинный_Ник_Игрока_Без_П|робелов» mid-word (h2, after stop 37)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# a nickname over this many characters may be wider than a 412 px line (20 of the widest bold letters fill one,
# nick.html): only those need keeping whole; a shorter one is a word the line moves down whole
LONG = 20


def nick_parts(text: str, nicks: Iterable[str], over: int = LONG) -> list[tuple[str, bool]]:
    """`text` as (piece, is_a_long_nickname) in order, joined back the same text. A nickname is found whole (not
    inside a longer word or name), the longest first, so «Игрок_Номер_Один_Длинный_2» is not read as
    «Игрок_Номер_Один_Длинный» and a «2»."""
    long = sorted({n for n in nicks if len(n) > over}, key=len, reverse=True)
    if not long:
        return [(text, False)] if text else []
    found = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, long)) + r")(?!\w)")
    parts: list[tuple[str, bool]] = []
    at = 0
    for m in found.finditer(text):
        if m.start() > at:
            parts.append((text[at:m.start()], False))
        parts.append((m.group(), True))
        at = m.end()
    if at < len(text):
        parts.append((text[at:], False))
    return parts
