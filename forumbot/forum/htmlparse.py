"""Forum pages as lxml trees, whatever one post nests (issue 17 item 17).

libxml2 stops building the tree at a nesting depth of 256 (2048 with XML_PARSE_HUGE): a post holding [b] typed
250 times, or quotes nested as deep, ended the tree inside that post, so its page lost its footer and every read
of it was "incomplete" for as long as the post stood. Here pages are parsed with `huge_tree`, and beyond 2048
the tags past a bound are dropped before parsing; then every element deeper than MAX_DEPTH has its descendants
flattened into text and is marked FLATTENED. The page reads whole; the post holding the mark cannot be read
faithfully (a quote flattened into it would read as its own words), so the reader skips that post alone and the
GMs are told (forumbot.forum.unreadable). The bound also keeps the recursive text walk far from Python's limit.
"""

from __future__ import annotations

import re
from typing import cast

from lxml import etree

# Elements deeper than this (the root <html> at depth 0) are flattened. Real posts sit at depth 10-40 on every
# engine seen, and the deepest real quote chains add a few dozen.
MAX_DEPTH = 150
# Set on an element whose descendants were flattened into its text.
FLATTENED = "data-forumbot-flattened"
# Tags kept open at most this deep when libxml2 refused the page even with huge_tree (its limit is 2048).
_CAP = 1000

_PARSER = etree.HTMLParser(recover=True, no_network=True, encoding="utf-8", huge_tree=True)
_DEEP = etree.XPath("*/" * (MAX_DEPTH - 1) + "*")
_TAG = re.compile(rb"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^>]*>")
_VOID = frozenset({b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta",
                   b"param", b"source", b"track", b"wbr"})


def parse_html(data: bytes, base_url: str | None = None) -> etree._Element:
    """`data` (UTF-8) as a tree: never cut short by nesting, no element deeper than MAX_DEPTH."""
    root = _parse(data, base_url)
    if any(e.type_name == "ERR_RESOURCE_LIMIT" for e in _PARSER.error_log):
        root = _parse(_cap_depth(data), base_url)
    for el in cast(list[etree._Element], _DEEP(root)):  # the path selects elements
        if len(el):
            etree.strip_tags(el, "*")
            el.set(FLATTENED, "1")
    return root


def _parse(data: bytes, base_url: str | None) -> etree._Element:
    # lxml takes base_url=None (no base), where lxml-stubs say str
    root = etree.fromstring(data, _PARSER, base_url=base_url) if data.strip() else None  # type: ignore[arg-type]
    return root if root is not None else etree.fromstring(b"<html></html>", _PARSER)


def _cap_depth(data: bytes) -> bytes:
    """`data` without the tags that open past depth _CAP, nor their closing tags (their text stays): linear,
    and used only on a page libxml2 would end early anyway."""
    out: list[bytes] = []
    kept: list[bool] = []  # per open tag: whether it was written
    pos = 0
    for m in _TAG.finditer(data):
        closing, name = m.group(1), m.group(2).lower()
        if name in _VOID or m.group(0).endswith(b"/>"):
            continue
        if closing:
            if kept and not kept.pop():
                out.append(data[pos:m.start()])
                pos = m.end()
            continue
        keep = len(kept) < _CAP
        kept.append(keep)
        if not keep:
            out.append(data[pos:m.start()])
            pos = m.end()
    out.append(data[pos:])
    return b"".join(out)
