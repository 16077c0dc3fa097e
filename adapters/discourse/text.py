"""What Discourse's JSON says, as the game reads it: a post's words from its `cooked` HTML, whether it quotes,
a username as Discourse keys it; and the post types and chunk size its API serves."""

from __future__ import annotations

import unicodedata

from adapters.html.dom import clean_text, parse, select

STRIP = ("aside.quote", "div.spoiler", "div.spoiled", "details", "pre", "code")
QUOTES = "aside.quote, blockquote"
CHUNK = 20  # Discourse serves at most about 20 posts per request
REGULAR, MODERATOR_ACTION = 1, 2  # post_type values kept; small actions (3) and whispers (4) are not posts


def cooked_text(cooked: str) -> str:
    """The words of a post: `cooked` HTML without quotes, spoilers, details and code."""
    if not cooked.strip():
        return ""
    root = parse(f"<div>{cooked}</div>")
    body = root.find(".//body")
    return clean_text(body if body is not None else root, STRIP)


def is_quoted(cooked: str) -> bool:
    """The post quotes someone: a quote box (removed from the text) or a Markdown `>` block (H-3, M-7)."""
    if "quote" not in cooked:
        return False
    root = parse(f"<div>{cooked}</div>")
    return bool(select(root, QUOTES))


def username_lower(name: str) -> str:
    """The name as Discourse keys it (User.normalize_username: NFC, then lower case). Sent so in Api-Username:
    Discourse lower-cases that header's raw bytes, which leaves a Cyrillic capital as it is."""
    return unicodedata.normalize("NFC", name).lower()
