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


# A thread's address from the config: linked only when it is a plain http(s) URL with nothing that could close or
# extend the link's markup; anything else is shown as escaped text, never linked.
_SAFE_URL = re.compile(r"https?://[^\s\[\]()<>\"'`\\*_{}|]+", re.IGNORECASE)


def safe_url(url: str) -> str | None:
    return url if _SAFE_URL.fullmatch(url or "") else None


class Format:
    """How a post's structure is written on one markup: the bot's own formatting, around text already escaped.

    BBCode boards turn every newline into a line break, so lines stay lines; Markdown joins lines into one
    paragraph, so there every line is a paragraph or a list item."""

    name = "bbcode"

    def bold(self, text: str) -> str:
        return f"[b]{text}[/b]" if text else text

    def lines(self, lines: list[str]) -> str:
        return "\n".join(x for x in lines if x)

    def items(self, items: list[str]) -> str:
        return "\n".join(items)

    def blocks(self, blocks: list[str]) -> str:
        return "\n\n".join(b for b in blocks if b)

    def spoiler(self, tag: str, title: str, body: str) -> str:
        if tag == "spoiler":
            return f'[spoiler="{title}"]\n{body}\n[/spoiler]'
        return f"{self.bold(title)}\n{body}"

    def link(self, url: str, text: str) -> str:
        """`text` (already escaped) linked to `url`; the text alone where the URL is not a safe http(s) one."""
        return f"[url={url}]{text}[/url]" if safe_url(url) else text

    def code(self, text: str) -> str:
        # nothing is parsed inside [code] but its own closing tag, so only that one is broken
        return "[code]" + re.sub(r"\[(/code)", "[" + ZWSP + r"\1", text, flags=re.IGNORECASE) + "[/code]"


class MarkdownFormat(Format):
    name = "markdown"

    def bold(self, text: str) -> str:
        return f"**{text}**" if text else text

    def lines(self, lines: list[str]) -> str:
        return "\n\n".join(x for x in lines if x)

    def items(self, items: list[str]) -> str:
        return "\n".join(f"- {x}" for x in items)

    def spoiler(self, tag: str, title: str, body: str) -> str:
        if tag == "details":  # Discourse's bundled details plugin
            return f'[details="{title}"]\n{body}\n[/details]'
        return f"{self.bold(title)}\n\n{body}"

    def link(self, url: str, text: str) -> str:
        return f"[{text}]({url})" if safe_url(url) else text

    def code(self, text: str) -> str:
        fence = "`" * max(3, max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
        return f"{fence}\n{text}\n{fence}"


def get_format(markup: str) -> Format:
    return MarkdownFormat() if markup == "markdown" else Format()
