"""A post's text and HTML read at a cost bounded by the page, not by what one author typed (issue 17 item 23).

A post of a few MB of small elements (`[b]x[/b]` pasted 250,000 times) cost 3-6 s per page read, in the Python
walk of clean_text and the serialisation of inner_html, on every read of its page while it stands. No post a
forum's own length limit lets through (phpBB's 60,000 characters hold at most some 7,500 such elements) comes
near MAX_POST_ELEMENTS; one over it is read as its plain text only, through libxml2's own string(), capped at
MAX_POST_TEXT characters: never a vote (over 10,000 characters, or without the formatting a house rule asks for),
still a post of its author's at its time.
"""

from __future__ import annotations

import logging
from itertools import islice

from lxml import etree

from adapters.html.dom import clean_text, inner_html, text

log = logging.getLogger(__name__)

MAX_POST_ELEMENTS = 20_000
MAX_POST_TEXT = 60_000


def more_elements_than(el: etree._Element, limit: int) -> bool:
    """Whether the subtree of `el` holds more than `limit` elements, counting no further than that."""
    return next(islice(el.iter(), limit, None), None) is not None  # the (limit + 1)-th, the root included


def post_content(body: etree._Element, skip: set[etree._Element]) -> tuple[str, str]:
    """(text, html) of a post's body: clean_text and inner_html, or for a body over MAX_POST_ELEMENTS elements
    its plain text, white space collapsed and capped, and no HTML."""
    if not more_elements_than(body, MAX_POST_ELEMENTS):
        return clean_text(body, skip=skip), inner_html(body)
    plain = " ".join(text(body)[: 4 * MAX_POST_TEXT].split())[:MAX_POST_TEXT]
    log.warning("a post of over %d elements is read as its plain text only (%d characters kept)",
                MAX_POST_ELEMENTS, len(plain))
    return plain, ""
