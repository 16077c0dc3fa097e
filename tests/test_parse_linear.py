"""Parsing is linear in the post's length (issue 7 item 13), measured by work counted, never by time.

Every fold re-parses every stored post, so one post of `"<!--" * 8000` (8 s) or `Маша/Маша/…` (7 s for 4 KB)
slowed every tick. These tests count what the parsers do, which no machine's speed changes:
- characters put through C-4 normalisation (`normalize._letters`, which normalize() and `Spans` both use):
  a parser that normalises each prefix of a text anew does quadratic work here;
- characters scanned by the searches of `drop_blocks` (comments, scripts, images, quotes);
- anchored matches of a duration's parts.
bench/parse_worst.py prints the times for the same patterns up to the 60,000-character post limit.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.model import MoveKind, Rejection, Special, Vote
from forumbot.parse import (
    NickMatcher,
    keyword_form,
    parse_command,
    parse_duration,
    parse_hunt_vote,
    parse_moscow_vote,
    parse_pm,
    strip_markup,
)

N = importlib.import_module("forumbot.parse.normalize")  # the package's `normalize` is the function
V = importlib.import_module("forumbot.parse.votes")
C = importlib.import_module("forumbot.parse.commands")

NICKS = ["Маша", "Петя", "Кот Баюн", "AC/DC", "Вася", "Дон Корлеоне", "Сера", "Cepa"]
M = NickMatcher(NICKS, {"Котик": "Кот Баюн"})
SIZES = (1000, 3000)  # the code this replaced did 100-1000 times more work than linear at 3,000


@contextmanager
def normalised_chars(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    work = [0]
    real = N._letters

    def counting(text: str) -> str:
        work[0] += len(text)
        return real(text)

    monkeypatch.setattr(N, "_letters", counting)
    yield work
    monkeypatch.setattr(N, "_letters", real)


def rep(unit: str, prefix: str = "", suffix: str = "") -> Callable[[int], str]:
    def make(size: int) -> str:
        body = size - len(prefix) - len(suffix)
        return prefix + (unit * (body // len(unit) + 1))[:body] + suffix
    return make


def moscow(text: str) -> object:
    return parse_moscow_vote(text, M, NICKS)


def pm(text: str) -> object:
    return parse_pm(text, M, variant="free_hunt", alive=NICKS, everyone=NICKS, bare_kind=MoveKind.CHECK)


def command(text: str) -> object:
    return parse_command(text, M, everyone=NICKS, parse_vote=moscow)


WORST = [
    ("vote Маша/Маша/…", moscow, rep("Маша/")),
    ("vote Маша//…//Петя", moscow, rep("/", "Маша", "Петя")),
    ("vote Маша / / …", moscow, rep(" /", "Маша")),
    ("vote AC/DC/AC/DC…", moscow, rep("AC/DC/")),
    ("hunt vote words", lambda t: parse_hunt_vote(t, M, NICKS), rep("Кот Баюн ")),
    ("pm kill Маша by by …", pm, rep(" by", "убить Маша")),
    ("pm kill Маша ! by ! …", pm, rep(" ! by", "убить Маша")),
    ("pm kill by Маша …", pm, rep(" by Маша", "убить Маша")),
    ("pm many lines", pm, rep("убить Маша\n")),
    ("command modkill words", command, rep(" Маша", "модкилл")),
    ("command modkill ! ! …", command, rep(" !", "модкилл Маша")),
    ("command replace", command, rep(" x", "замена Маша")),
    ("command setvote ! …", command, rep(" !", "голос Маша", " ?")),
    ("command setvote Маша …", command, rep(" Маша", "голос")),
    ("command alias", command, rep(" x", "алиас", " Маша")),
]


@pytest.mark.parametrize("name, parse, make", WORST, ids=[w[0] for w in WORST])
def test_parse_normalises_each_character_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch, name: str, parse: Callable[[str], object], make: Callable[[int], str]
) -> None:
    """Issue 7 item 13: work is linear: at most 10 normalised characters per character of the post."""
    for size in SIZES:
        with normalised_chars(monkeypatch) as work:
            parse(make(size))
        assert work[0] <= 10 * size, f"{name}: {work[0]} characters normalised for a post of {size}"


class CountingPattern:
    """A compiled pattern that adds up how far its searches scan."""

    def __init__(self, pattern: re.Pattern[str], scanned: list[int]) -> None:
        self.pattern, self.scanned = pattern, scanned

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        m = self.pattern.search(text, pos)
        self.scanned[0] += (m.end() if m else len(text)) - pos
        return m


def counting_blocks(blocks: tuple[N.Block, ...], scanned: list[int]) -> tuple[N.Block, ...]:
    return tuple(N.Block(CountingPattern(b.opener, scanned), b.head_end, CountingPattern(b.closer, scanned))
                 for b in blocks)


MARKUP = ["<!--", "[img]", "[img", "<script>", "<script", "<style>", "<!-- x -->", "<script>x</script", "[quote]",
          "<blockquote>", "[img]x[/img"]


@pytest.mark.parametrize("unit", MARKUP)
def test_strip_markup_scans_each_character_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch, unit: str) -> None:
    """Issue 7 item 13: dropped blocks (comments, scripts, styles, images, quotes) are found in one forward
    scan per kind of block: an unclosed opener is not rescanned to the end of the text from each copy."""
    scanned = [0]
    monkeypatch.setattr(N, "_IMG", counting_blocks(N._IMG, scanned))
    monkeypatch.setattr(N, "_HTML_DROP", counting_blocks(N._HTML_DROP, scanned))
    monkeypatch.setattr(V, "QUOTES", counting_blocks(V.QUOTES, scanned))
    for size in SIZES:
        text = rep(unit)(size)
        # each opener pattern scans forward only; the closers at most once more over what they close
        scanned[0] = 0
        strip_markup(text)
        assert scanned[0] <= 2 * (len(N._IMG) + len(N._HTML_DROP)) * size
        scanned[0] = 0
        N.drop_blocks(text, V.QUOTES, " ")  # what a Free Hunt vote with a quote goes through (H-3)
        assert scanned[0] <= 2 * len(V.QUOTES) * size


def test_duration_parts_are_matched_where_the_last_one_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 7 item 13: `продлить 111…1` searched the rest of the text from every digit (finditer)."""
    calls: list[int] = []
    real = C._DURATION_PART

    class Anchored:
        def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
            calls.append(pos)
            return real.match(text, pos)

    monkeypatch.setattr(C, "_DURATION_PART", Anchored())
    assert parse_duration("1" * 3000) is None
    assert calls == [0]
    calls.clear()
    assert parse_duration("1д 2ч 30м") is not None
    assert calls == sorted(set(calls)) and len(calls) == 3


# --- the same answers as before --------------------------------------------------------------------


def old_drop(text: str) -> str:
    """strip_markup's block removal as it was, by non-greedy regexes (quadratic, but the reference)."""
    text = re.sub(r"\[img\b[^\]]*\].*?\[/img\]", "", text, flags=re.IGNORECASE | re.DOTALL)
    return re.sub(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", "", text, flags=re.IGNORECASE | re.DOTALL)


def old_quotes(text: str) -> str:
    return re.sub(r"\[quote\b[^\]]*\].*?\[/quote\]|<blockquote\b.*?</blockquote>", " ", text,
                  flags=re.IGNORECASE | re.DOTALL)


_SOUP = st.lists(st.sampled_from([
    "<!--", "-->", "<script", "<SCRIPT", "<scripts", "<style", ">", "</script>", "</script >", "</style>",
    "[img]", "[IMG w=1]", "[img", "]", "[/img]", "[quote]", "[quote=a]", "[/quote]", "<blockquote>",
    "</blockquote>", "Маша", " ", "/", "-", "\n",
]), max_size=25).map("".join)


@given(_SOUP)
@settings(max_examples=500)
def test_drop_blocks_removes_what_the_regexes_removed(text: str) -> None:
    assert N.drop_blocks(N.drop_blocks(text, N._IMG), N._HTML_DROP) == old_drop(text)
    assert N.drop_blocks(text, V.QUOTES, " ") == old_quotes(text)


_NAMEISH = st.lists(st.sampled_from([
    "Маша", "маша", "Mаша", "Петя", "AC", "DC", "AC/DC", "Кот", "Баюн", "Кот Баюн", "ннв", "помиловать всех",
    "повесить", "всех", "/", "/", " ", "  ", "!", "\u200b", "\u00a0", "«", "»", "x", "е\u0308",
]), max_size=12).map("".join)


@given(_NAMEISH)
@settings(max_examples=500)
def test_spans_key_is_normalize_of_the_part(text: str) -> None:
    """Normalising a text once, piece by piece, gives normalize() of every part between cuts."""
    for cuts, is_cut in ((N.SLASH, lambda c: c == "/"), (N.WHITE_SPACE, str.isspace)):
        spans = N.Spans(text, cuts, limit=10_000)
        borders = {0, len(text)} | {i for i, c in enumerate(text) if is_cut(c)} | {
            i + 1 for i, c in enumerate(text) if is_cut(c)}
        for a in borders:
            for b in borders:
                if a <= b:
                    assert spans.key(a, b) == N.normalize(text[a:b])


def old_split_vote(line: str) -> Vote | None:
    """parse_moscow_vote's slash loop as it was: every prefix and suffix normalised anew."""
    def target(part: str):  # type: ignore[no-untyped-def]
        return Special.NO_LYNCH if keyword_form(part) == keyword_form("ннв") else M.match(part, allowed=NICKS)

    def runoff(part: str):  # type: ignore[no-untyped-def]
        form = keyword_form(part)
        if form == keyword_form("помиловать всех"):
            return Special.PARDON_ALL
        if form == keyword_form("повесить всех"):
            return Special.HANG_ALL
        return M.match(part, allowed=NICKS)

    for i in [i for i, ch in enumerate(line) if ch == "/"]:
        t, r = target(line[:i]), runoff(line[i + 1 :])
        if not isinstance(t, Rejection) and not isinstance(r, Rejection):
            return Vote(t, r)
    return None


@given(_NAMEISH)
@settings(max_examples=500)
def test_M7_split_vote_reads_as_before(text: str) -> None:
    line = text.strip()
    slashes = [i for i, ch in enumerate(line) if ch == "/"]
    assert V._split_vote(line, slashes, M, NICKS) == old_split_vote(line)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Маша" + "/" * 500 + "Петя", Vote("Маша", "Петя")),
        ("AC/DC/Маша", Vote("AC/DC", "Маша")),
        ("Маша/AC/DC", Vote("Маша", "AC/DC")),
        ("ннв / помиловать всех", Vote(Special.NO_LYNCH, Special.PARDON_ALL)),
        ("Маша/" * 400, Rejection("not_a_vote", ("Маша/" * 12)[:59] + "…")),
    ],
)
def test_M7_long_vote_posts_still_read(text: str, expected: object) -> None:
    assert moscow(text) == expected


def test_C12_long_shot_line_still_reads() -> None:
    line = "убить Маша" + " !" * 500 + " by Петя"
    assert [str(m) for m in pm(line)] == [str(m) for m in pm("убить Маша by Петя")]


def test_C9_long_commands_still_read() -> None:
    # as long as the caps allow (issue 17 item 22: a reason up to 500 characters, other arguments up to 200)
    assert command("модкилл Маша" + " !" * 300) == command("модкилл Маша")
    assert command("голос Маша" + " !" * 150 + " Петя") == command("голос Маша Петя")
    assert command("алиас" + " x" * 95 + " Маша").nick == "Маша"
