"""lxml helpers for HTML forum pages: compiled CSS selectors, clean text, and forms read as a browser would.

lxml.html is used on the polling path because it parses a page some 20x faster than BeautifulSoup.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable, Mapping, cast
from urllib.parse import urljoin

from lxml import etree
from lxml.cssselect import CSSSelector

from forumbot.errors import PageFormatChanged
from forumbot.forum.htmlparse import parse_html

_BLOCK = frozenset({"p", "div", "blockquote", "li", "ul", "ol", "pre", "table", "tr", "h1", "h2", "h3", "h4",
                    "details", "dl", "dt", "dd", "hr"})
_SKIP_TYPES = frozenset({"submit", "image", "button", "reset", "file"})
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")


@lru_cache(maxsize=512)
def css(selector: str) -> CSSSelector:
    return CSSSelector(selector, translator="html")


def matches(selector: str, el: etree._Element) -> list[etree._Element]:
    """What a CSS selector matches in `el`: elements (lxml types a selector's result as any XPath value)."""
    return cast(list[etree._Element], css(selector)(el))


def find(el: etree._Element, path: str, **variables: Any) -> list[etree._Element]:
    """The elements an XPath `path` that selects elements finds in `el` (typed as lxml cannot type it)."""
    return cast(list[etree._Element], el.xpath(path, **variables))


def select(el: etree._Element, selector: str) -> list[etree._Element]:
    try:
        return matches(selector, el)
    except (etree.XPathError, RecursionError, MemoryError) as e:  # a profile override lxml cannot run
        raise PageFormatChanged(f"selector {selector[:200]!r} cannot be run: {type(e).__name__}: {e}") from e


def select_one(el: etree._Element, selector: str) -> etree._Element | None:
    found = matches(selector, el)
    return found[0] if found else None


_STRING = etree.XPath("string()")


def parse(text: str, base_url: str | None = None) -> etree._Element:
    """Plain lxml elements from libxml2's HTML parser: the lxml.html element classes cost a Python lookup
    per node touched, which tripled extraction time."""
    return parse_html(text.encode("utf-8"), base_url)


def text(el: etree._Element) -> str:
    """All text inside `el` (comments excluded)."""
    return cast(str, _STRING(el))  # string() is a string


def clean_text(el: etree._Element, strip: Iterable[str] = (), skip: set[etree._Element] | None = None) -> str:
    """Visible text of `el` without the subtrees matched by `strip` (quotes, code, spoilers, signature)
    or given in `skip` (already selected page-wide, which is cheaper than selecting per post).

    Walks the tree instead of copying and deleting, so the page stays intact for other readers.
    """
    skip = set(skip or ())
    for sel in strip:
        skip.update(select(el, sel))
    parts: list[str] = []

    def walk(node: etree._Element) -> None:
        if node in skip or not isinstance(node.tag, str) or node.tag in ("script", "style"):
            return
        block = node.tag in _BLOCK or node.tag == "br"
        if block:
            parts.append("\n")
        if node.text:
            parts.append(node.text)
        for child in node:
            walk(child)
            if child.tail:
                parts.append(child.tail)
        if block:
            parts.append("\n")

    if el.text:
        parts.append(el.text)
    for child in el:
        walk(child)
        if child.tail:
            parts.append(child.tail)
    lines = (_SPACES.sub(" ", line).strip() for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)


def outer_html(el: etree._Element) -> str:
    return etree.tostring(el, encoding="unicode", method="html", with_tail=False)


def inner_html(el: etree._Element) -> str:
    out = [el.text or ""]
    out.extend(etree.tostring(c, encoding="unicode", method="html", with_tail=True) for c in el)
    return "".join(out).strip()


# --- forms ------------------------------------------------------------------------------------------------


def find_form(tree: etree._Element, selector: str, needs: str | None = None) -> etree._Element | None:
    """The first form matching `selector` that has a control named `needs` (MyBB pages carry several forms)."""
    for form in select(tree, selector):
        if needs is None or find(form, ".//*[@name=$n]", n=needs):
            return form
    return None


def form_fields(form: etree._Element) -> list[tuple[str, str]]:
    """What a browser would send without touching anything: hidden and text inputs, checked boxes,
    selected options, textareas. Submit buttons are left out; the caller adds the one it 'clicks'."""
    out: list[tuple[str, str]] = []
    for el in find(form, ".//input|.//select|.//textarea"):
        name = el.get("name")
        if not name or el.get("disabled") is not None:
            continue
        if el.tag == "input":
            kind = (el.get("type") or "text").lower()
            if kind in _SKIP_TYPES:
                continue
            if kind in ("checkbox", "radio"):
                if el.get("checked") is not None:
                    out.append((name, el.get("value", "on")))
                continue
            out.append((name, el.get("value", "")))
        elif el.tag == "textarea":
            out.append((name, el.text or ""))
        else:
            options = find(el, ".//option")
            chosen = [o for o in options if o.get("selected") is not None] or options[:1]
            for o in chosen if el.get("multiple") is not None else chosen[:1]:
                out.append((name, o.get("value", text(o))))
    return out


def submit_field(form: etree._Element, name: str) -> tuple[str, str] | None:
    """(name, value) of the submit control called `name`; the server checks it is present, not its label."""
    for el in find(form, ".//input[@name=$n]|.//button[@name=$n]", n=name):
        return name, el.get("value", "1")
    return None


def fill(fields: list[tuple[str, str]], values: Mapping[str, str]) -> list[tuple[str, str]]:
    """Overwrite known fields (first occurrence), append those the form did not have."""
    out: list[tuple[str, str]] = []
    used: set[str] = set()
    for name, value in fields:
        if name in values:
            if name in used:
                continue
            used.add(name)
            out.append((name, values[name]))
        else:
            out.append((name, value))
    out.extend((k, v) for k, v in values.items() if k not in used)
    return out


def form_action(form: etree._Element, page_url: str) -> str:
    return urljoin(page_url, form.get("action") or page_url)


def meta_refresh_url(tree: etree._Element, page_url: str) -> str | None:
    """The target of a <meta http-equiv="refresh" content="2;URL=..."> (MyBB and phpBB result pages)."""
    for meta in find(tree, "//meta[translate(@http-equiv,'REFRESH','refresh')='refresh']"):
        m = re.search(r"url\s*=\s*['\"]?([^'\"]+)", meta.get("content", ""), re.IGNORECASE)
        if m:
            return urljoin(page_url, m.group(1).strip())
    return None
