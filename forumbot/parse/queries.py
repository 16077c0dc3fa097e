"""A player's question to the bot by PM (C-15) and a mafia member's conference line (M-15): what the PM is
before it is read as moves (C-12). Pure: no I/O."""

from __future__ import annotations

import re
from typing import Literal

from forumbot.parse.normalize import keyword_form, strip_markup

Query = Literal["count", "my_vote", "role"]

# C-15: the whole PM is the question (case, ё and formatting aside, C-4)
WORDS: dict[str, Query] = {
    "подсчёт": "count", "count": "count",
    "мой голос": "my_vote", "my vote": "my_vote",
    "роль": "role", "role": "role",
}
QUERIES = {keyword_form(word): query for word, query in WORDS.items()}
# M-15: `конфа ТЕКСТ` / `conf ТЕКСТ`, the keyword as the PM's first word; the rest is forwarded as written
_CONFERENCE = re.compile(r"\s*(?:\[[^\]\n]{0,40}\]\s*)*(конфа|conf)(?:\[/[^\]\n]{0,40}\])*(?=[\s:,.!-]|$)[\s:,.!-]*",
                         re.IGNORECASE)


def parse_query(text: str) -> Query | None:
    """The question this PM asks (C-15), or None when it is not one of them, word for word."""
    if len(text) > 200:
        return None
    return QUERIES.get(keyword_form(strip_markup(text)))


def conference_line(text: str) -> str | None:
    """M-15: what a PM starting with `конфа`/`conf` says to the partners (may be ""), or None when it does not."""
    found = _CONFERENCE.match(text)
    return text[found.end():].strip() if found else None
