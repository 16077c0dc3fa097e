"""Issue 17 item 23: a post whose normalisation explodes (NFKC turns U+FDFA into 18 characters: 60,000 of them
into over a million) cost 6 s of parsing, paid again by every fold. The parsers now look at no more of the
normalised text than a name, a keyword or a vote can be (`normalize.within`), a vote-thread post over 10,000
characters is no vote (M-7, H-3), and agitation (H-4) is looked for in the first 100,000 normalised characters.

Work is counted as characters *produced* by C-4 normalisation, which no machine's speed changes."""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.model import Agitation, MoveKind, Rejection, Special, Vote
from forumbot.parse import NickMatcher, normalize, parse_hunt_vote, parse_moscow_vote, parse_pm, parse_runoff_vote
from forumbot.parse.votes import house_vote

N = importlib.import_module("forumbot.parse.normalize")
V = importlib.import_module("forumbot.parse.votes")

NICKS = ["Маша", "Петя", "Кот Баюн", "AC/DC"]
M = NickMatcher(NICKS)
BOMB = "\ufdfa"  # ARABIC LIGATURE SALLALLAHOU ALAYHE WASALLAM: 18 characters after NFKC
POST = BOMB * 60_000


@contextmanager
def produced(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    work = [0]
    real = N._letters

    def counting(text: str) -> str:
        out = real(text)
        work[0] += len(out)
        return out

    monkeypatch.setattr(N, "_letters", counting)
    yield work
    monkeypatch.setattr(N, "_letters", real)


PARSERS = {
    "moscow": lambda t: parse_moscow_vote(t, M, NICKS),
    "runoff": lambda t: parse_runoff_vote(t, M, NICKS, ["Маша", "Петя"]),
    "hang-all runoff": lambda t: parse_runoff_vote(t, M, NICKS, None),
    "hunt": lambda t: parse_hunt_vote(t, M, NICKS),
    "house rules": lambda t: house_vote(t, lambda x: parse_moscow_vote(x, M, NICKS), "final", "any", (), ["пас"])[0],
}


@pytest.mark.parametrize("text", [POST, BOMB * 9_999, (BOMB + " ") * 4_999, "Маша " + BOMB * 9_000],
                         ids=["60000", "9999", "spaced", "name first"])
@pytest.mark.parametrize("kind", sorted(PARSERS))
def test_M7_H3_a_post_that_normalises_into_a_million_characters_is_read_at_bounded_cost(monkeypatch, kind, text):
    with produced(monkeypatch) as work:
        found = PARSERS[kind](text)
    # a hang-all runoff's no-vote within the length limit says what a vote there looks like (M-10), its own code
    no_vote = {"not_a_vote", "not_a_hang_all_vote"} if kind == "hang-all runoff" else {"not_a_vote"}
    assert isinstance(found, Rejection) and found.code in no_vote
    # before: 21 normalisations of all of it (22 million characters for the 60,000-character post)
    assert work[0] <= 2 * V.AGITATION_LOOK, f"{kind}: {work[0]} characters normalised"
    if kind != "hunt":  # only agitation looks further than a name or a keyword (and a chunk past it)
        assert work[0] <= 10_000, f"{kind}: {work[0]} characters normalised"


@pytest.mark.parametrize("kind", ["moscow", "runoff", "hunt", "house rules"])
def test_M7_H3_a_vote_post_over_10000_characters_is_no_vote(kind):
    assert PARSERS[kind]("Маша" + " " * 9_996) != PARSERS[kind]("Маша" + " " * 9_997)
    assert isinstance(PARSERS[kind]("Маша" + " " * 9_997), Rejection)
    assert PARSERS[kind]("Маша" + " " * 9_996) == Vote("Маша")


def test_H4_agitation_in_a_long_post_is_still_found_within_what_is_looked_at():
    assert parse_hunt_vote("Друзья, " * 7_000 + "голосуйте за Петю", M, NICKS) == Agitation("голосуй*")
    assert parse_hunt_vote(BOMB * 10_000 + " голосуйте за Петю", M, NICKS) != Agitation("голосуй*")


def test_C12_a_pm_of_60000_characters_of_u_fdfa_is_read_at_bounded_cost(monkeypatch):
    with produced(monkeypatch) as work:
        parse_pm("убить " + POST, M, variant="free_hunt", alive=NICKS, everyone=NICKS, bare_kind=MoveKind.CHECK)
    assert work[0] <= 2 * V.AGITATION_LOOK, work[0]


def test_a_cut_rule_never_changes_what_normalisation_gives():
    """`within` normalises a text in chunks cut before characters `_cuttable_before` allows: for every such
    character of the Basic Multilingual Plane, normalising around the cut equals normalising each side."""
    befores = ["е", "e", "\u1100", "\uac00", "\u0915", "a\u0301", "ﬁ", "\u0627"]
    wrong = []
    for cp in range(0x20, 0x10000):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Cs", "Co", "Cn") or not N._cuttable_before(ch):
            continue
        for before in befores:
            if N._letters(before + ch + "\u0308") != N._letters(before) + N._letters(ch + "\u0308"):
                wrong.append((before, hex(cp)))
    assert wrong == []


TEXT = st.text(st.sampled_from("Маша е\u0308\u200bё ﬁ!.,/\u3000\t\n\ufdfa\u1100\u1161\u11a8aÁ\u0301\u0308 -"),
               max_size=400)


@settings(max_examples=300, deadline=None)
@given(TEXT, st.integers(0, 300))
def test_within_is_normalize_up_to_its_limit(text, limit):
    full = normalize(text)
    found = N.within(text, limit)
    assert found == (full if len(full) <= limit else None)
    prefix, whole = N.normalized_prefix(text, limit)
    assert full.startswith(prefix) and (prefix == full if whole else len(prefix) > limit)


def test_names_and_keywords_still_read_in_long_texts():
    assert parse_moscow_vote("  [b]Маша[/b] / помиловать  всех! ", M, NICKS) == Vote("Маша", Special.PARDON_ALL)
    assert parse_moscow_vote("ннв", M, NICKS) == Vote(Special.NO_LYNCH)
    assert M.match("К\u200bот   Баюн!") == "Кот Баюн"
    assert M.match("Кот " * 100).code == "unknown_name"
