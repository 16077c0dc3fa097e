"""A response as the adapters read it (Page), decoded by the charset the server declared, never by guessing;
bytes that are UTF-8 beyond doubt are read as UTF-8 whatever the label (issue 26 item 9)."""

from __future__ import annotations

import codecs
import email.utils
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping
from urllib.parse import urljoin

from forumbot.forum.htmlparse import parse_html

# Pages are decoded by their declared charset, then handed to libxml2 as UTF-8 with that encoding forced
# (forumbot.forum.htmlparse): a meta tag naming another charset can then not make lxml misread them.

# In a page's tree, what stands where bytes did not decode in its charset (one post's damaged bytes, or a page
# in another charset): a private-use code point no forum page holds, so the checks can tell where the bytes
# were (adapters.html.pagechecks.check_charset) and the reader which posts hold them (adapters.html.extract); browsers
# show U+FFFD there, which pages also hold literally (SMF writes it for invisible characters).
UNDECODABLE = "\U0010fffd"
# Set on the root of a tree that holds UNDECODABLE: pages that decode (nearly all) are not searched for it.
UNDECODABLE_PAGE = "data-forumbot-undecodable"
_UNDECODABLE_ERRORS = "forumbot-undecodable"
def _mark_undecodable(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)  # registered for decoding only
    return UNDECODABLE, error.end


codecs.register_error(_UNDECODABLE_ERRORS, _mark_undecodable)


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)


def declared_charset(content_type: str | None, content: bytes) -> str | None:
    """The charset the server declared: the Content-Type header first, then the page's own meta tag."""
    if content_type:
        m = _HEADER_CHARSET.search(content_type)
        if m:
            return m.group(1).lower()
    meta = _META_CHARSET.search(content[:4096])
    return meta.group(1).decode("ascii").lower() if meta else None


def is_utf8_beyond_doubt(content: bytes) -> bool:
    """Bytes in UTF-8: they hold multi-byte sequences, and more of them than bytes that do not decode (none on a
    sound page; a few where one post is damaged). Text in a single-byte charset (windows-1251 Cyrillic, latin-1
    accents) almost never forms a UTF-8 sequence: each of its non-ASCII bytes would have to come in a UTF-8
    lead-and-continuation pattern, and nearly all of them do not decode."""
    if content.isascii():
        return False
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        text = content.decode("utf-8", errors=_UNDECODABLE_ERRORS)
        undecodable = text.count(UNDECODABLE)
        return sum(1 for c in text if c > "\x7f") - undecodable > undecodable
    return True


def page_charset(content_type: str | None, content: bytes) -> str:
    """The charset a page is read in: UTF-8 when its bytes are UTF-8 beyond doubt, whatever the header or meta
    tag says (a board converted to UTF-8 that kept windows-1251 in its template or server config read every
    Cyrillic name as mojibake, vBulletin among them); otherwise the declared one (header, then meta), else
    UTF-8; a name Python does not know is UTF-8 too."""
    if is_utf8_beyond_doubt(content):
        return "utf-8"
    charset = declared_charset(content_type, content) or "utf-8"
    try:
        "".encode(charset)
    except LookupError:
        return "utf-8"
    return charset


@dataclass
class Page:
    """One response, decoded. `url` is the final URL; `location` is set for an unfollowed redirect."""

    url: str
    status: int
    headers: Mapping[str, str]
    content: bytes
    charset: str
    _text: str | None = field(default=None, repr=False)
    _tree: Any = field(default=None, repr=False)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self.content.decode(self.charset, errors="replace")
        return self._text

    @property
    def location(self) -> str | None:
        loc = self.headers.get("Location")
        return urljoin(self.url, loc) if loc else None

    def tree(self) -> Any:
        """The page as an lxml tree from libxml2's HTML parser (parsed once)."""
        if self._tree is None:
            # UTF-8 as served needs no round trip through str; libxml2 given bytes that do not decode would read
            # the rest of the page as latin-1
            decodes = self.decodes()
            data = self.content if self.charset in ("utf-8", "utf8") and decodes else \
                self.content.decode(self.charset, errors=_UNDECODABLE_ERRORS).encode("utf-8")
            self._tree = parse_html(data, self.url)
            if not decodes:
                self._tree.set(UNDECODABLE_PAGE, "1")
        return self._tree

    def decodes(self) -> bool:
        """Whether every byte decodes in the page's charset (else the tree holds UNDECODABLE there)."""
        try:
            self.content.decode(self.charset)
        except UnicodeDecodeError:
            return False
        return True

    def json(self) -> Any:
        return json.loads(self.text)

    def server_time(self) -> datetime | None:
        """The server's clock from the Date header: the 'now' that relative dates on the page count from."""
        value = self.headers.get("Date")
        if not value:
            return None
        try:
            return email.utils.parsedate_to_datetime(value).astimezone(timezone.utc)
        except (TypeError, ValueError):
            return None
