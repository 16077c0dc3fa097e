"""Text normalisation for matching nicknames and keywords (C-4)."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from forumbot.parse.confusables import LOOKALIKES


@dataclass(frozen=True)
class Block:
    """Markup dropped with what it holds: `opener`, up to `head_end` when the opening tag has attributes, then
    everything to the first `closer` (the first one: blocks do not nest, as in a non-greedy regex)."""

    opener: re.Pattern[str]
    head_end: str | None
    closer: re.Pattern[str]


def _block(opener: str, head_end: str | None, closer: str) -> Block:
    return Block(re.compile(opener, re.IGNORECASE), head_end, re.compile(closer, re.IGNORECASE))


_IMG = (_block(r"\[img\b", "]", r"\[/img\]"),)
_HTML_DROP = (
    _block(r"<!--", None, r"-->"),
    _block(r"<script\b", ">", r"</script\s*>"),
    _block(r"<style\b", ">", r"</style\s*>"),
)
QUOTES = (_block(r"\[quote\b", "]", r"\[/quote\]"), _block(r"<blockquote\b", None, r"</blockquote>"))


def drop_blocks(text: str, blocks: Sequence[Block], replacement: str = "") -> str:
    """`text` with each block replaced, in one pass: linear in len(text), whatever it holds.

    A regex like `<!--.*?-->` rescans to the end of the text from every unclosed opener (`"<!--" * 8000`
    took 8 s, issue 7 item 13). Here each pattern is searched only forward from where the last search of it
    stopped, and a kind of block whose closer (or head end) is not found after an opener can have none after
    any later opener either, so it is dropped from the scan.
    """
    out: list[str] = []
    pos = 0
    # the next opener of each kind still in play; a kind with no opener left, or none that closes, leaves
    live: dict[Block, re.Match[str]] = {}
    for block in blocks:
        if (m := block.opener.search(text)) is not None:
            live[block] = m
    while live:
        block, opener = min(live.items(), key=lambda item: item[1].start())
        head = opener.end()
        if block.head_end is not None:
            head = text.find(block.head_end, head) + 1
        close = block.closer.search(text, head) if head > 0 else None
        if close is None:
            del live[block]
            continue
        out.append(text[pos : opener.start()])
        out.append(replacement)
        pos = close.end()
        for other, m in list(live.items()):
            if m.start() < pos:
                if (m := other.opener.search(text, pos)) is None:
                    del live[other]
                else:
                    live[other] = m
    out.append(text[pos:])
    return "".join(out)


# Tags that end a line in rendered HTML: a PM's lines must survive the HTML the forum serves.
_HTML_BREAK = re.compile(
    r"<br\s*/?>|</?(?:p|div|li|ul|ol|tr|table|blockquote|h[1-6])\b[^<>]*>", re.IGNORECASE
)
_HTML_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9:-]*(?:\s[^<>]*)?/?>")
_BB_BREAK = re.compile(r"\[(?:\*|br|hr)\]", re.IGNORECASE)
# A BBCode tag name is ASCII, so "[Зло]Вася" keeps its bracketed part.
_BB_TAG = re.compile(r"\[/?[a-zA-Z][a-zA-Z0-9_-]*(?:[= ][^\[\]\n]*)?\]")

# U+200B..U+200F are listed although some are Cf anyway: the rule names them, and the list survives a
# Unicode version that reclassifies one of them.
_INVISIBLE = frozenset("\u200b\u200c\u200d\u200e\u200f\u2060\ufeff")
_SPACES = re.compile(r"\s+")
_LOOKALIKES = str.maketrans(LOOKALIKES)


def strip_markup(text: str) -> str:
    """Remove BBCode and HTML formatting, keeping the text inside; images go entirely."""
    text = drop_blocks(text, _IMG)
    text = drop_blocks(text, _HTML_DROP)
    text = _HTML_BREAK.sub("\n", text)
    text = _HTML_TAG.sub("", text)
    text = _BB_BREAK.sub("\n", text)
    text = _BB_TAG.sub("", text)
    return html.unescape(text)


def _undot(decomposed: str, base: str) -> str:
    """Drop every diaeresis that sits on `base` in NFD text, whatever other marks sit there too."""
    out: list[str] = []
    current = ""
    for ch in decomposed:
        if not unicodedata.combining(ch):
            current = ch
        elif ch == "\u0308" and current == base:
            continue
        out.append(ch)
    return "".join(out)


def _visible(ch: str) -> bool:
    return ch not in _INVISIBLE and unicodedata.category(ch) != "Cf"


def _is_edge(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch).startswith("P")


def _letters(text: str) -> str:
    """normalize() up to white-space collapsing. White space stays white space and "/" stays "/", and no step
    reaches across them (NFKC composes nothing with either), so this can run piece by piece (`Spans`)."""
    # Invisible characters go first: one between a letter and its combining mark would stop NFKC
    # from composing them (and "е" + U+0308 from becoming "ё", then "е").
    text = "".join(ch for ch in text if _visible(ch))
    # ё→е is done on decomposed text: a replace on composed text would leave "е" + a stray U+0308
    # that the next NFKC composes back into "ё".
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
    text = unicodedata.normalize("NFKC", _undot(text, "е"))
    return "".join(ch for ch in text if _visible(ch))


def _trimmed(text: str) -> str:
    start, end = 0, len(text)
    while start < end and _is_edge(text[start]):
        start += 1
    while end > start and _is_edge(text[end - 1]):
        end -= 1
    return text[start:end]


def normalize(text: str) -> str:
    """C-4 normalisation, without markup removal and without look-alike folding."""
    return _trimmed(_SPACES.sub(" ", _letters(text)))


_CHUNK = 64  # how much of a run without white space `within` normalises at a time (NFKC expands up to 18-fold)
_PIECES = re.compile(r"\s+|\S+")


def _composition_seconds() -> frozenset[str]:
    """Characters that compose with the character before them although they are no combining mark (Hangul
    vowels and final consonants, a few Indic vowel signs): a text is never cut before one."""
    seconds = {chr(cp) for cp in (*range(0x1161, 0x1176), *range(0x11A8, 0x11C3))}
    for cp in range(0x30000):  # every canonical composition pairs characters of the first three planes
        parts = unicodedata.decomposition(chr(cp)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            seconds.add(chr(int(parts[1], 16)))
    return frozenset(seconds)


_SECONDS: frozenset[str] | None = None


def _cuttable_before(ch: str) -> bool:
    """Whether C-4 normalisation of a text cut before `ch` is that of the two parts joined: `ch` is visible
    and its decomposition starts with a character that nothing before it composes or reorders with."""
    global _SECONDS
    if _SECONDS is None:
        _SECONDS = _composition_seconds()
    if not _visible(ch):
        return False
    first = unicodedata.normalize("NFKD", ch)[:1] or ch
    return unicodedata.combining(first) == 0 and first not in _SECONDS and ch not in _SECONDS


def _chunks(text: str) -> Iterator[str]:
    """`text` in pieces that normalise independently: white space, and runs of the rest cut about every
    `_CHUNK` characters where `_cuttable_before` allows."""
    for m in _PIECES.finditer(text):
        piece = m.group()
        start = 0
        while len(piece) - start > _CHUNK:
            cut = start + _CHUNK
            while cut < len(piece) and not _cuttable_before(piece[cut]):
                cut += 1
            yield piece[start:cut]
            start = cut
        if start < len(piece):
            yield piece[start:]


def normalized_prefix(text: str, limit: int) -> tuple[str, bool]:
    """The start of normalize(text), a little over `limit` characters at most, and whether it is all of it,
    having normalised only about as much of `text` as that takes (issue 17 item 23: 60,000 characters of
    U+FDFA normalise to over a million)."""
    out: list[str] = []
    size = 0
    trailing = 0  # edge characters (white space, punctuation) at the end of `out`: trimmed at the very end
    for chunk in _chunks(text):
        piece = _SPACES.sub(" ", _letters(chunk))
        if not out:
            k = 0
            while k < len(piece) and _is_edge(piece[k]):
                k += 1
            piece = piece[k:]  # leading edges go, as in _trimmed
        elif piece.startswith(" ") and out[-1].endswith(" "):
            piece = piece[1:]
        if not piece:
            continue
        out.append(piece)
        size += len(piece)
        end = len(piece)
        while end > 0 and _is_edge(piece[end - 1]):
            end -= 1
        trailing = trailing + len(piece) if end == 0 else len(piece) - end
        if size - trailing > limit:
            return "".join(out)[: size - trailing], False
    return _trimmed("".join(out)), True


def within(text: str, limit: int) -> str | None:
    """normalize(text) when it is at most `limit` characters long, else None (no name, keyword or vote is
    longer), at the cost of normalising about `limit` characters of it."""
    found, whole = normalized_prefix(text, limit)
    return found if whole else None


WHITE_SPACE = r"\s"  # the cuts of `Spans`: the inside of a regex character class
SLASH = "/"


class Spans:
    """normalize() of the parts of one text between cut characters, after a single pass over the text.

    Parsers try a text's splits (each "/" of `A / B`, each word before `by`, each run of words that may be a
    nickname); normalising every candidate anew is quadratic in the text's length (issue 7 item 13). Cut
    at white space and "/", the text is normalised once, piece by piece, and `key(start, end)` gives
    normalize(text[start:end]) for `start` and `end` next to a cut (or at the text's ends), or None when
    that is longer than `limit`: no name or keyword is, so no caller needs it.
    """

    def __init__(self, text: str, cuts: str = WHITE_SPACE, limit: int = 256) -> None:
        self.limit = limit
        pieces = re.finditer(rf"[{cuts}]|[^{cuts}]+", text)
        out: list[str] = []
        size = 0
        self._at: dict[int, int] = {0: 0}
        for m in pieces:
            piece = _SPACES.sub(" ", _letters(m.group()))
            if piece.startswith(" ") and out and out[-1].endswith(" "):
                piece = piece[1:]
            if piece:
                out.append(piece)
                size += len(piece)
            self._at[m.end()] = size
        self._text = "".join(out)
        n = len(self._text)
        # first solid (not edge) character at or after i; end of the last solid one at or before i
        self._next = [n] * (n + 1)
        for i in range(n - 1, -1, -1):
            self._next[i] = self._next[i + 1] if _is_edge(self._text[i]) else i
        self._prev = [0] * (n + 1)
        for i in range(1, n + 1):
            self._prev[i] = self._prev[i - 1] if _is_edge(self._text[i - 1]) else i

    def key(self, start: int, end: int) -> str | None:
        """normalize(text[start:end]); None when longer than the limit. KeyError: not next to a cut."""
        a, b = self._next[self._at[start]], self._prev[self._at[end]]
        if b <= a:
            return ""
        return self._text[a:b] if b - a <= self.limit else None


def fold_lookalikes(text: str) -> str:
    """Fold look-alike letters and digits to one form (UTS #39 skeleton, restricted as C-4 says)."""
    # The skeleton works on decomposed text, so "ї" folds like "ï"; C-4's ё→е applies to its Latin twin ë.
    decomposed = unicodedata.normalize("NFD", text).translate(_LOOKALIKES)
    return unicodedata.normalize("NFC", _undot(decomposed, "e"))


def keyword_form(text: str) -> str:
    """The form in which keywords (ннв, move words, GM commands) are compared."""
    return fold_lookalikes(normalize(text))


_WORD = re.compile(r"\w+(?:'\w+)*")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "`": "'", "\u00b4": "'"})


def keyword_words(text: str, limit: int | None = None) -> list[str]:
    """The words of `text` in keyword form: what whole-word keyword and marker matching looks at; with a
    `limit`, those of about the first `limit` characters of its normalised form only."""
    text = text.translate(_APOSTROPHES)
    if limit is None:
        return _WORD.findall(keyword_form(text))
    return _WORD.findall(fold_lookalikes(normalized_prefix(text, limit)[0]))


def keyword_within(text: str, limit: int) -> str | None:
    """keyword_form(text) when its normalised form is at most `limit` characters long, else None."""
    key = within(text, limit)
    return fold_lookalikes(key) if key is not None else None


def has_text(text: str) -> bool:
    """normalize(text) != "", found at the first character that stays."""
    return within(text, 0) != ""
