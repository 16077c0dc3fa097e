"""Names in PMs as Russian writes them (C-12 amended): `убить Машу` for «Маша», `Печкин` for «Печкин 2000».

Only for PMs, and only after the strict match (C-4) found nobody: the vote thread stays strict (M-7, H-3). A
form names a player when exactly one living player matches; two or more are reported, listing them. Matching is
word by word on normalised text: a word matches a nickname's word when it is that word with one common case
ending replaced (`Пети` for «Петя»), removed, or added after a consonant (`Олега`; never `Васяя`). A short
form is a whole-word prefix of one nickname (`Печкин` for «Печкин 2000»; `Печ` names nobody). Linear: the text is
looked at only up to the longest name, and each player costs a fixed number of set lookups per word.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from forumbot.model import Rejection
from forumbot.parse.normalize import fold_lookalikes, normalize, strip_markup

# The case endings C-12 names, and the nominative's last soft letters (Игорь → Игоря, Андрей → Андрея), longest
# first. A stem keeps at least two letters, so `Ия` is never reduced to one letter that many names share.
ENDINGS: tuple[str, ...] = ("ой", "ей", "ом", "ем", "а", "я", "у", "ю", "ы", "и", "е", "ь", "й")
MIN_STEM = 2
MIN_SHORT = 3


VOWELS = frozenset("аеёиоуыэюяйь")


@dataclass(frozen=True)
class Word:
    """A word as matched: itself, its stems with one ending removed, and whether an ending may be added to it
    (a Russian word ending in a consonant: Олег → Олега; never Вася → Васяя). Look-alikes folded (C-4)."""

    full: str
    cut: frozenset[str]
    takes_ending: bool


def word(text: str) -> Word:
    cut = {text[: -len(e)] for e in ENDINGS if text.endswith(e) and len(text) - len(e) >= MIN_STEM}
    last = text[-1:]
    takes = bool(last) and "а" <= last.lower() <= "я" and last.lower() not in VOWELS
    return Word(fold_lookalikes(text), frozenset(fold_lookalikes(c) for c in cut), takes)


def _same(written: Word, name: Word) -> bool:
    """The same word, or `written` is `name` with its ending removed, replaced, or (after a consonant) added."""
    return (written.full == name.full or bool(written.cut & name.cut) or written.full in name.cut
            or (name.takes_ending and name.full in written.cut))


def _words_match(written: list[Word], name: list[Word]) -> bool:
    """Every written word matches the name's word in its place; fewer written words are a whole-word prefix, of
    MIN_SHORT letters at least (a preposition, `стреляю в`, is no short form of «В Мире»)."""
    if not written or len(written) > len(name):
        return False
    if len(written) < len(name) and sum(len(w.full) for w in written) < MIN_SHORT:
        return False
    return all(_same(w, n) for w, n in zip(written, name))


class LooseNames:
    """The names a PM may name, each split into words once (a matcher builds one and keeps it)."""

    def __init__(self, names: Mapping[str, str]) -> None:
        """`names`: each nickname or alias as written -> the canonical nickname it names."""
        self.order = {nick: i for i, nick in enumerate(dict.fromkeys(names.values()))}
        self.words: list[tuple[str, list[Word]]] = []
        longest = 0
        for name, nick in names.items():
            key = normalize(strip_markup(name))
            longest = max(longest, len(key))
            self.words.append((nick, [word(w) for w in key.split(" ") if w]))
        # longer than any name in any case form names nobody: such a text is looked at no further
        self.limit = 2 * longest + 4


def loose_match(key: str | None, names: LooseNames, alive: Collection[str]) -> str | Rejection | None:
    """The living player a normalised `key` names in an inflected or short form, a rejection listing several,
    or None."""
    if not key or len(key) > names.limit:
        return None
    written = [word(w) for w in key.split(" ")]
    found: dict[str, None] = {}
    for nick, words in names.words:
        if nick in alive and nick not in found and _words_match(written, words):
            found[nick] = None
    if len(found) == 1:
        return next(iter(found))
    if found:
        return Rejection("ambiguous_name", ", ".join(sorted(found, key=names.order.__getitem__)))
    return None
