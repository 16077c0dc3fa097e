"""Text normalisation for matching nicknames and keywords (C-4)."""

from __future__ import annotations

import html
import re
import unicodedata

from forumbot.parse.confusables import LOOKALIKES

_IMG = re.compile(r"\[img\b[^\]]*\].*?\[/img\]", re.IGNORECASE | re.DOTALL)
_HTML_DROP = re.compile(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
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
    text = _IMG.sub("", text)
    text = _HTML_DROP.sub("", text)
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


def normalize(text: str) -> str:
    """C-4 normalisation, without markup removal and without look-alike folding."""
    # Invisible characters go first: one between a letter and its combining mark would stop NFKC
    # from composing them (and "е" + U+0308 from becoming "ё", then "е").
    text = "".join(ch for ch in text if _visible(ch))
    # ё→е is done on decomposed text: a replace on composed text would leave "е" + a stray U+0308
    # that the next NFKC composes back into "ё".
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
    text = unicodedata.normalize("NFKC", _undot(text, "е"))
    text = "".join(ch for ch in text if _visible(ch))
    text = _SPACES.sub(" ", text)
    start, end = 0, len(text)
    while start < end and _is_edge(text[start]):
        start += 1
    while end > start and _is_edge(text[end - 1]):
        end -= 1
    return text[start:end]


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


def keyword_words(text: str) -> list[str]:
    """The words of `text` in keyword form: what whole-word keyword and marker matching looks at."""
    return _WORD.findall(keyword_form(text.translate(_APOSTROPHES)))
