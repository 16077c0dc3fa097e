"""Escaping of player-supplied text for the forum's markup, so a nickname can never inject formatting or links."""

from __future__ import annotations

import re

ZWSP = "\u200b"

# A zero-width space after "[" stops every BBCode tag from parsing, and inside "://" and after "www" it stops
# magic-URL linking; C-4 normalisation removes it again, so a name copied from a bot post still matches.
_BBCODE_BREAKS = re.compile(r"\[|(?<=:)//|(?<=www)\.", re.IGNORECASE)


def escape_bbcode(text: str) -> str:
    return _BBCODE_BREAKS.sub(lambda m: m.group(0)[0] + ZWSP + m.group(0)[1:] if m.group(0) == "[" else ZWSP + m.group(0), text)


# "<" and "&" are backslash-escaped too, not written as "&lt;": renderers that escape raw HTML themselves
# (FlaskBB's mistune) would show "&lt;" literally, and CommonMark shows "\<" as "<" everywhere.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~><&])")


# Discourse linkifies bare URLs and turns "@name" into a mention that notifies; a zero-width space after
# "@", inside "://" and after "www" stops both, as it does for BBCode.
_MARKDOWN_BREAKS = re.compile(r"@|(?<=:)//|(?<=www)\\?\.", re.IGNORECASE)


def escape_markdown(text: str) -> str:
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return _MARKDOWN_BREAKS.sub(lambda m: m.group(0) + ZWSP if m.group(0) == "@" else ZWSP + m.group(0), escaped)
