"""Naming players: exact after normalisation, then after look-alike folding, never fuzzy (C-4)."""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterable, Mapping
from types import MappingProxyType

from forumbot.model import Rejection
from forumbot.parse.inflect import LooseNames
from forumbot.parse.normalize import fold_lookalikes, normalize, strip_markup, within


def _keys(name: str) -> set[str]:
    # Parsers strip markup from whole posts, so a nick like "[b]Вася" is named as "Вася"; the raw form
    # is kept too for callers that hand over text with its brackets intact.
    return {key for key in (normalize(strip_markup(name)), normalize(name)) if key}


def _key_limit(keys: Iterable[str]) -> int:
    # Look-alike folding shortens a text at most fourfold (a letter that folds into one with a precomposed form
    # takes up to three marks into it: no canonical decomposition is longer than four), so a normalised text
    # longer than this names nobody.
    return 4 * max((len(key) for key in keys), default=0) + 4


class NickMatcher:
    """Turns a name as written into a canonical nickname. Immutable: derive a new one to change it."""

    def __init__(self, nicks: Iterable[str], aliases: Mapping[str, str] | None = None) -> None:
        self._nicks: tuple[str, ...] = tuple(dict.fromkeys(nicks))
        exact: dict[str, set[str]] = {}
        for nick in self._nicks:
            for key in _keys(nick):
                exact.setdefault(key, set()).add(nick)
        resolved: dict[str, str] = {}
        for alias, target in (aliases or {}).items():
            resolved[alias] = self._canonical(target, exact)
        for alias, nick in resolved.items():
            for key in _keys(alias):
                exact.setdefault(key, set()).add(nick)
        folded: dict[str, set[str]] = {}
        for key, names in exact.items():
            folded.setdefault(fold_lookalikes(key), set()).update(names)
        self._aliases = MappingProxyType(resolved)
        self._exact = {key: frozenset(names) for key, names in exact.items()}
        self._folded = {key: frozenset(names) for key, names in folded.items()}
        self._order = {nick: i for i, nick in enumerate(self._nicks)}
        self._max_words = max((key.count(" ") + 1 for key in exact), default=1)
        self._key_limit = _key_limit((*exact, *folded))
        self._loose: LooseNames | None = None

    def _canonical(self, target: str, exact: Mapping[str, set[str]]) -> str:
        if target in self._nicks:
            return target
        found = exact.get(normalize(target), set())
        if len(found) != 1:
            raise ValueError(f"alias target {target!r} is not one player")
        return next(iter(found))

    @property
    def loose(self) -> LooseNames:
        """Every nickname and alias split into words, for the inflected and short forms of PMs (C-12)."""
        if self._loose is None:
            self._loose = LooseNames({**{nick: nick for nick in self._nicks}, **self._aliases})
        return self._loose

    @property
    def nicks(self) -> tuple[str, ...]:
        return self._nicks

    @property
    def aliases(self) -> Mapping[str, str]:
        return self._aliases

    @property
    def max_words(self) -> int:
        """Most words in any nickname or alias: longer text cannot be a name."""
        return self._max_words

    @property
    def key_limit(self) -> int:
        """Normalised texts longer than this name no player (what `Spans` needs to know)."""
        return self._key_limit

    def with_aliases(self, aliases: Mapping[str, str]) -> NickMatcher:
        """A matcher with these aliases added to (or replacing) the current ones. New aliases of nicknames are
        added to this one's keys (only theirs normalised: a GM's aliases one by one cost in proportion to their
        number, not its square); anything else builds the matcher anew."""
        if any(alias in self._aliases or nick not in self._order for alias, nick in aliases.items()):
            return NickMatcher(self._nicks, {**self._aliases, **aliases})
        exact, folded = dict(self._exact), dict(self._folded)
        keys: list[str] = []
        for alias, nick in aliases.items():
            for key in _keys(alias):
                lookalike = fold_lookalikes(key)
                exact[key] = exact.get(key, frozenset()) | {nick}
                folded[lookalike] = folded.get(lookalike, frozenset()) | {nick}
                keys += (key, lookalike)
        derived = copy.copy(self)
        merged = self._aliases.copy()  # the dict's own copy: `{**proxy}` reads a mappingproxy key by key
        merged.update(aliases)
        derived._aliases = MappingProxyType(merged)
        derived._exact, derived._folded = exact, folded
        derived._max_words = max([self._max_words] + [key.count(" ") + 1 for key in keys[::2]])
        derived._key_limit = max(self._key_limit, _key_limit(keys))
        derived._loose = None
        return derived

    def with_nicks(self, nicks: Iterable[str]) -> NickMatcher:
        """A matcher over other nicks (a seat replaced), keeping the aliases whose player remains."""
        nicks = tuple(nicks)
        return NickMatcher(nicks, {a: n for a, n in self._aliases.items() if n in nicks})

    def _joined(self, names: Iterable[str]) -> str:
        return ", ".join(sorted(names, key=self._order.__getitem__))

    def _pick(self, found: frozenset[str], pool: Collection[str]) -> str | Rejection | None:
        hits = [nick for nick in found if nick in pool]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return Rejection("ambiguous_name", self._joined(hits))
        return None

    def match(self, text: str, allowed: Collection[str] | None = None) -> str | Rejection:
        """The canonical nick `text` names among `allowed` (None: everyone), or why not."""
        return self.match_key(within(text, self._key_limit), allowed, text)

    def match_key(self, key: str | None, allowed: Collection[str] | None = None, text: str = "") -> str | Rejection:
        """match() of a text already normalised (`Spans.key`: None for one too long to be a name); `text` is
        what an unknown-name rejection quotes."""
        if key is None or len(key) > self._key_limit:
            return Rejection("unknown_name", text.strip())
        if not key:
            return Rejection("empty")
        folded = fold_lookalikes(key)
        pool = set(self._nicks) if allowed is None else set(allowed) & set(self._nicks)
        others = set(self._nicks) - pool
        # C-4: a match before look-alike folding wins over one after it, even when the exact match is a
        # player who may not be named here: "Маша" for a dead Маша is not a vote for a living "Mаша".
        exact, lookalike = self._exact.get(key, frozenset()), self._folded.get(folded, frozenset())
        for found in (exact, lookalike):
            for candidates in (pool, others):
                picked = self._pick(found, candidates)
                if isinstance(picked, str) and candidates is others:
                    return Rejection("not_alive", picked)
                if picked is not None:
                    return picked
        return Rejection("unknown_name", text.strip())

    def names_any(self, text: str) -> bool:
        """Whether `text` names some player (alive or not), exactly or after folding."""
        key = within(text, self._key_limit)
        if not key:
            return False
        return len(key) <= self._key_limit and (key in self._exact or fold_lookalikes(key) in self._folded)
