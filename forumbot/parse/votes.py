"""Vote posts: Moscow day and runoff votes (M-7, M-10), Free Hunt votes and agitation (H-3, H-4)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache

from forumbot.model import Agitation, Rejection, Special, Target, Vote
from forumbot.parse.nicknames import NickMatcher
from forumbot.parse.normalize import (
    QUOTES,
    SLASH,
    Spans,
    drop_blocks,
    fold_lookalikes,
    has_text,
    keyword_form,
    keyword_words,
    normalize,
    strip_markup,
    within,
)

NO_LYNCH_WORDS: tuple[str, ...] = ("ннв",)
PARDON_ALL_WORDS: tuple[str, ...] = ("помиловать всех",)
HANG_ALL_WORDS: tuple[str, ...] = ("повесить всех",)

# H-4. A trailing "*" makes the last word a prefix, so one entry covers a word's inflections.
DEFAULT_AGITATION_MARKERS: tuple[str, ...] = (
    "голосуй*",  # голосуй, голосуйте
    "проголосуй*",
    "голосуем",
    "проголосуем",
    "давай*",  # давай, давайте
    "все на",
    "все за",
    "предлагаю",
    "предлагаем",
    "vote",
    "let's",
    "lets",
    "let us",
)

_EXCERPT = 60
_QUOTE = re.compile(r"\[quote\b|<blockquote\b", re.IGNORECASE)  # a quote left in the text (H-3)


def _forms(words: Sequence[str]) -> frozenset[str]:
    return frozenset(keyword_form(w) for w in words)


_NO_LYNCH = _forms(NO_LYNCH_WORDS)
_PARDON_ALL = _forms(PARDON_ALL_WORDS)
_HANG_ALL = _forms(HANG_ALL_WORDS)
_ALL_WORDS = _NO_LYNCH | _PARDON_ALL | _HANG_ALL
PASS_FORMS: frozenset[str] = _ALL_WORDS  # words a vote reads before any name: no alias may be one
# Parts of a post longer than this (normalised) are none of these words (see NickMatcher.key_limit).
_KEYWORD_LIMIT = 4 * max(len(word) for word in _ALL_WORDS) + 4
# A vote-thread post longer than this is no vote, whatever it holds, and is refused before it is normalised:
# NFKC expands a character up to 18-fold (U+FDFA), and every fold reads every post (issue 17 item 23).
MAX_VOTE_CHARS = 10_000
# Agitation (H-4) is looked for in this much of a post's normalised text: all of any post a forum takes (60,000
# characters), but not the million a post of U+FDFA makes.
AGITATION_LOOK = 100_000
# A vote (`TARGET / RUNOFF`, a final word) is shorter than this, normalised: a longer post is not read with the
# house rules, only refused by the variant's grammar.
HOUSE_LOOK = 1_000


def excerpt(text: str) -> str:
    """A short one-line piece of `text` to show back to its author."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 1] + "…"


def _not_a_vote(text: str) -> Rejection:
    return Rejection("not_a_vote", excerpt(text))


def _quoted(text: str) -> Rejection:
    """M-7: a quote is content, not formatting (C-4 removes tags, not what they hold), so a post with one is
    "anything else": no vote, even when the rest is a bare name (as H-3 says outright). Adapters remove quotes
    from the text and mark the post; the shell then starts its text with an empty quote."""
    return _not_a_vote(strip_markup(text))


def _one_line(stripped: str) -> str | Rejection:
    lines = [line.strip() for line in stripped.splitlines() if has_text(line)]
    if not lines:
        return Rejection("empty")
    if len(lines) > 1:
        return _not_a_vote(stripped)
    return lines[0]


def _more_than_a_name(matcher: NickMatcher, text: str) -> bool:
    """Text that is longer than any name, or holds a name with more around it (M-7, H-3)."""
    key = within(text, matcher.key_limit)
    if key is None:
        return True
    words = key.split(" ")
    if len(words) > matcher.max_words:
        return True
    return any(
        matcher.names_any(" ".join(words[i:j]))
        for i in range(len(words))
        for j in range(i + 1, len(words) + 1)
        if (i, j) != (0, len(words))
    )


def _name_rejection(
    matcher: NickMatcher, text: str, rejection: Rejection, shown: str | None = None
) -> Rejection:
    """An unknown name stays one only if the text could be a name; otherwise the post is no vote.

    `shown` is what a not-a-vote answer quotes (the whole post rather than the part that failed).
    """
    if rejection.code == "empty" or _is_pass_word(text):
        return _not_a_vote(text if shown is None else shown)
    if rejection.code == "unknown_name" and ("/" in text or _more_than_a_name(matcher, text)):
        return _not_a_vote(text if shown is None else shown)
    return rejection


def _is_pass_word(text: str) -> bool:
    key = within(text, _KEYWORD_LIMIT)
    return key is not None and fold_lookalikes(key) in _ALL_WORDS


def _too_long(text: str) -> bool:
    return len(text) > MAX_VOTE_CHARS


def _target(part: str, matcher: NickMatcher, alive: Collection[str]) -> Target | Rejection:
    return _target_key(within(part, max(matcher.key_limit, _KEYWORD_LIMIT)), matcher, alive, part)


def _target_key(key: str | None, matcher: NickMatcher, alive: Collection[str], part: str = "") -> Target | Rejection:
    if key is not None and fold_lookalikes(key) in _NO_LYNCH:
        return Special.NO_LYNCH
    return matcher.match_key(key, alive, part)


def _runoff(part: str, matcher: NickMatcher, alive: Collection[str]) -> Target | Rejection:
    return _runoff_key(within(part, max(matcher.key_limit, _KEYWORD_LIMIT)), matcher, alive, part)


def _runoff_key(key: str | None, matcher: NickMatcher, alive: Collection[str], part: str = "") -> Target | Rejection:
    form = fold_lookalikes(key) if key is not None else None
    if form in _PARDON_ALL:
        return Special.PARDON_ALL
    if form in _HANG_ALL:
        return Special.HANG_ALL
    return matcher.match_key(key, alive, part)


def _split_vote(line: str, slashes: list[int], matcher: NickMatcher, alive: Collection[str]) -> Vote | None:
    """The `TARGET / RUNOFF` reading at the first slash where both parts name something (M-7).

    Every part is normalised in one pass over the line (`Spans`), and each distinct part looked up once:
    a post of 4,000 characters `Маша/Маша/…` no longer costs a normalisation of each prefix and suffix.
    """
    if not slashes:
        return None
    spans = Spans(line, SLASH, max(matcher.key_limit, _KEYWORD_LIMIT))
    targets: dict[str | None, Target | Rejection] = {}
    runoffs: dict[str | None, Target | Rejection] = {}
    for i in slashes:
        left = spans.key(0, i)
        if left not in targets:
            targets[left] = _target_key(left, matcher, alive)
        if isinstance(targets[left], Rejection):
            continue
        right = spans.key(i + 1, len(line))
        if right not in runoffs:
            runoffs[right] = _runoff_key(right, matcher, alive)
        target, runoff = targets[left], runoffs[right]
        if not isinstance(target, Rejection) and not isinstance(runoff, Rejection):
            return Vote(target, runoff)
    return None


def _vote_line(text: str) -> str | Rejection:
    """A vote post's one line, its markup stripped; refused as too long, as a quote, or as more than one line."""
    if _too_long(text):
        return _not_a_vote(strip_markup(text))
    if _QUOTE.search(text):
        return _quoted(text)
    return _one_line(strip_markup(text))


def parse_moscow_vote(text: str, matcher: NickMatcher, alive: Collection[str]) -> Vote | Rejection:
    """M-7: `TARGET` or `TARGET / RUNOFF`, nothing else."""
    line = _vote_line(text)
    if isinstance(line, Rejection):
        return line
    whole = _target(line, matcher, alive)
    if not isinstance(whole, Rejection):
        return Vote(whole)
    if whole.code in ("not_alive", "ambiguous_name"):
        return whole
    # A nickname may hold a slash itself ("AC/DC"), so every slash is tried as the separator.
    slashes = [i for i, ch in enumerate(line) if ch == "/"]
    split = _split_vote(line, slashes, matcher, alive)
    if split is not None:
        return split
    if not slashes:
        return _name_rejection(matcher, line, whole)
    if len(slashes) > 1:
        return _not_a_vote(line)
    left, right = line[: slashes[0]], line[slashes[0] + 1 :]
    target = _target(left, matcher, alive)
    if isinstance(target, Rejection):
        return _name_rejection(matcher, left, target, shown=line)
    runoff = _runoff(right, matcher, alive)
    assert isinstance(runoff, Rejection)
    if runoff.code in ("not_alive", "ambiguous_name"):
        return runoff
    return Rejection("bad_runoff_part", excerpt(right))


def parse_runoff_vote(
    text: str, matcher: NickMatcher, alive: Collection[str], leaders: Collection[str] | None
) -> Vote | Rejection:
    """M-10: a post during a runoff. `leaders` None: the hang-all / pardon-all runoff."""
    line = _vote_line(text)
    if isinstance(line, Rejection):
        return line
    key = within(line, _KEYWORD_LIMIT)
    form = fold_lookalikes(key) if key is not None else None
    if leaders is None:
        if form in _HANG_ALL:
            return Vote(Special.HANG_ALL)
        if form in _PARDON_ALL:
            return Vote(Special.PARDON_ALL)
        # M-10: a name or a bare «повесить» is no vote here; the reason says what one looks like
        return Rejection("not_a_hang_all_vote", excerpt(line))
    if form in _ALL_WORDS:
        return _not_a_vote(line)
    # A dead leader or a non-leader both come back as "not_alive": not someone this runoff can name.
    found = matcher.match(line, allowed=[nick for nick in leaders if nick in alive])
    if isinstance(found, Rejection):
        return _name_rejection(matcher, line, found)
    return Vote(found)


@lru_cache(maxsize=32)
def _compiled(markers: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...], bool], ...]:
    out = []
    for marker in markers:
        words = tuple(keyword_words(marker.rstrip("*")))
        if words:
            out.append((marker, words, marker.endswith("*")))
    return tuple(out)


def find_agitation(text: str, markers: Sequence[str] = DEFAULT_AGITATION_MARKERS) -> str | None:
    """The first marker (as listed) that occurs in `text` as whole words, or None (H-4)."""
    words = keyword_words(text, AGITATION_LOOK)
    for marker, needle, prefix in _compiled(tuple(markers)):
        n = len(needle)
        for i in range(len(words) - n + 1):
            window = words[i : i + n]
            if window[:-1] == list(needle[:-1]) and (
                window[-1].startswith(needle[-1]) if prefix else window[-1] == needle[-1]
            ):
                return marker
    return None


def parse_hunt_vote(
    text: str,
    matcher: NickMatcher,
    alive: Collection[str],
    markers: Sequence[str] = DEFAULT_AGITATION_MARKERS,
) -> Vote | Agitation | Rejection:
    """H-3/H-4: agitation anywhere in the post first; otherwise the post is exactly one alive player."""
    if _QUOTE.search(text):
        # H-3: a post with a quote is no vote, even a quote of a bare nickname; the author's own words
        # outside the quote may still be agitation (H-4), a quoted call is not his.
        own = strip_markup(drop_blocks(text, QUOTES, " "))
        marker = find_agitation(own, markers) if not matcher.names_any(own) else None
        return Agitation(marker) if marker is not None else _not_a_vote(strip_markup(text))
    stripped = strip_markup(text)
    if not has_text(stripped):
        return Rejection("empty")
    # A post that is just a player's name is a vote even when the name holds a marker ("Let's Go").
    if not matcher.names_any(stripped):
        marker = find_agitation(stripped, markers)
        if marker is not None:
            return Agitation(marker)
    if _too_long(stripped):
        return _not_a_vote(stripped)
    line = _one_line(stripped)
    if isinstance(line, Rejection):
        return line
    if _is_pass_word(line):
        return _not_a_vote(line)
    found = matcher.match(line, allowed=alive)
    if isinstance(found, Rejection):
        return _name_rejection(matcher, line, found)
    return Vote(found)


# the formatting a vote must carry, read before C-4 strips it (BBCode and the HTML forums render it as).
_BOLD = re.compile(
    r"\[b\](.*?)\[/b\]|<(?:b|strong)\b[^>]*>(.*?)</(?:b|strong)>"
    r"|<span\b[^>]*font-weight:\s*(?:bold|[6-9]00)[^>]*>(.*?)</span>",
    re.IGNORECASE | re.DOTALL,
)
_COLOR = re.compile(
    r"\[colou?r=[\"']?([^\]\"']+)[\"']?\](.*?)\[/colou?r\]"
    r"|<span\b[^>]*?(?<![-\w])color:\s*([^;\"'>]+)[^>]*>(.*?)</span>"
    r"|<font\b[^>]*color=[\"']?([^\"'>\s]+)[^>]*>(.*?)</font>",
    re.IGNORECASE | re.DOTALL,
)


def _bare(text: str) -> str:
    return re.sub(r"[\s/]+", "", text)


def formatted_text(text: str, vote_format: str, colors: Collection[str]) -> str:
    """The text a post carries in the required formatting (R-3), markup stripped: bold, or one of `colors`."""
    if vote_format == "bold":
        return " ".join(strip_markup(next(g for g in m.groups() if g is not None)) for m in _BOLD.finditer(text))
    wanted = {c.strip().lower() for c in colors}
    parts = []
    for m in _COLOR.finditer(text):
        g = m.groups()
        color, inner = (g[0], g[1]) if g[0] is not None else (g[2], g[3]) if g[2] is not None else (g[4], g[5])
        if color.strip().lower() in wanted:
            parts.append(strip_markup(inner))
    return " ".join(parts)


def house_vote(
    text: str,
    base: Callable[[str], Vote | Agitation | Rejection],
    final_word: str | None = None,
    vote_format: str = "any",
    vote_colors: Collection[str] = (),
    pass_words: Collection[str] | None = None,
) -> tuple[Vote | Agitation | Rejection, bool]:
    """A vote post read with the house rules R-2..R-4 around the variant's grammar `base`; and whether it is final.

    R-2: the final word after the nickname locks the vote. R-3: the nickname must carry the formatting.
    R-4: `pass_words` (None: the variant's own) are the no-lynch vote."""
    if _QUOTE.search(text) or _too_long(text) or (final_word is None and vote_format == "any" and pass_words is None):
        return base(text), False
    plain = strip_markup(text)
    if within(plain, HOUSE_LOOK) is None:  # no vote, and too long to be worth reading closer
        return base(plain), False
    words = plain.split()
    final = False
    if final_word and len(words) > 1 and keyword_form(words[-1]) == keyword_form(final_word):
        plain, final = " ".join(words[:-1]), True
    if vote_format != "any" and normalize(plain):
        carried = normalize(formatted_text(text, vote_format, vote_colors))
        if final:  # the final word may sit outside the formatting
            carried = normalize(" ".join(w for w in carried.split() if keyword_form(w) != keyword_form(final_word or "")))
        if _bare(carried) != _bare(normalize(plain)):  # "[b]Маша[/b] / [b]Петя[/b]" carries both parts
            code = "not_bold" if vote_format == "bold" else "not_colored"
            return Rejection(code, ", ".join(vote_colors) if vote_format == "color" else excerpt(plain)), False
    if pass_words is not None:
        form = keyword_form(plain)
        if form in _forms(tuple(pass_words)):
            return Vote(Special.NO_LYNCH), final
    parsed = base(plain)
    if pass_words is not None and isinstance(parsed, Vote) and parsed.target is Special.NO_LYNCH:
        return _not_a_vote(plain), False  # "ннв" is not among this game's pass words
    return parsed, final and isinstance(parsed, Vote)
