"""C-4: formatting removal, normalisation, look-alike folding and nickname matching."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.model import Rejection
from forumbot.parse import NickMatcher, fold_lookalikes, keyword_form, normalize, strip_markup
from forumbot.parse.confusables import LOOKALIKES

# --- strip_markup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "post, text",
    [
        ("[b]Вася[/b]", "Вася"),
        ("[B][I][u]Вася[/u][/I][/B]", "Вася"),
        ("[color=red]Вася[/color]", "Вася"),
        ("[size=150]Вася[/size]", "Вася"),
        ('[url="https://forum.example/u/1"]Вася[/url]', "Вася"),
        ("[font=Arial]Кот Баюн[/font]", "Кот Баюн"),
        ("Вася[img]https://x.example/a.png[/img]", "Вася"),
        ("[IMG width=20]https://x.example/a.png[/IMG]Вася", "Вася"),
    ],
)
def test_C4_bbcode_removed_inner_text_kept(post: str, text: str) -> None:
    assert strip_markup(post) == text


@pytest.mark.parametrize(
    "post, text",
    [
        ("<b>Вася</b>", "Вася"),
        ('<span style="color:red">Вася</span>', "Вася"),
        ('<a href="/u/1">Вася</a>', "Вася"),
        ("Вася<!-- hidden -->", "Вася"),
        ('<img src="smile.gif" alt=":)">Вася', "Вася"),
        ("Кот&nbsp;Баюн &amp; Ко", "Кот\xa0Баюн & Ко"),
        ("&lt;b&gt;", "<b>"),
    ],
)
def test_C4_html_removed_entities_unescaped(post: str, text: str) -> None:
    assert strip_markup(post) == text


def test_C4_html_line_breaks_become_newlines() -> None:
    assert strip_markup("проверка Вася<br>лечу Петя<br/>x<br />y").splitlines() == [
        "проверка Вася",
        "лечу Петя",
        "x",
        "y",
    ]
    assert [ln for ln in strip_markup("<p>a</p><p>b</p>").splitlines() if ln] == ["a", "b"]


def test_C4_bracketed_non_bbcode_is_text() -> None:
    # Clan tags in Cyrillic are part of the nickname, not formatting.
    assert strip_markup("[Зло]Вася") == "[Зло]Вася"
    assert strip_markup("a < b > c") == "a < b > c"


# --- normalize --------------------------------------------------------------------------------------


def test_C4_nfkc_fullwidth_and_compatibility_forms() -> None:
    assert normalize("ＶＡＳＹＡ") == "vasya"
    assert normalize("𝐕𝐚𝐬𝐲𝐚") == "vasya"
    assert normalize("ﬁsh") == "fish"


def test_C4_casefold() -> None:
    assert normalize("ВаСя") == "вася"
    assert normalize("STRASSE") == normalize("straße")


def test_C4_yo_becomes_ye() -> None:
    assert normalize("Алёна") == normalize("АЛЁНА") == "алена"
    assert normalize("Але\u0308на") == "алена"  # decomposed ё too


@pytest.mark.parametrize(
    "ch", ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2060", "\ufeff", "\u00ad"]
)
def test_C4_zero_width_and_format_characters_removed(ch: str) -> None:
    assert normalize(f"{ch}Ва{ch}ся{ch}") == "вася"


def test_C4_white_space_runs_collapsed() -> None:
    assert normalize("  Кот \t\xa0 Баюн\n ") == "кот баюн"


@pytest.mark.parametrize("text", ["Вася!", "«Вася»", '"Вася"', "(Вася)", "...Вася...", "Вася?!", "— Вася"])
def test_C4_surrounding_punctuation_stripped(text: str) -> None:
    assert normalize(text) == "вася"


def test_C4_inner_punctuation_kept() -> None:
    assert normalize("AC/DC") == "ac/dc"
    assert normalize("Анна-Мария") == "анна-мария"


def test_C4_normalize_neither_strips_markup_nor_folds() -> None:
    assert normalize("<b>Вася</b>") == "<b>вася</b>"
    assert normalize("Сера") != normalize("Cepa")


# --- fold_lookalikes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cyrillic, latin",
    [
        ("а", "a"),
        ("о", "o"),
        ("е", "e"),
        ("р", "p"),
        ("с", "c"),
        ("у", "y"),
        ("х", "x"),
        ("ѕ", "s"),
        ("і", "i"),
        ("ј", "j"),
    ],
)
def test_C4_cyrillic_letters_fold_to_latin_twins(cyrillic: str, latin: str) -> None:
    assert fold_lookalikes(cyrillic) == latin
    # The capitals named in C-4 fold the same once normalised.
    assert keyword_form(cyrillic.upper()) == latin


@pytest.mark.parametrize("greek, latin", [("ο", "o"), ("α", "a"), ("ν", "v"), ("ι", "i"), ("ρ", "p")])
def test_C4_greek_letters_fold_to_latin_twins(greek: str, latin: str) -> None:
    assert fold_lookalikes(greek) == latin


def test_C4_digits_fold_to_letters() -> None:
    assert fold_lookalikes("0") == "o"
    assert fold_lookalikes("1") == "l"
    assert keyword_form("B0b") == keyword_form("Bob")


@pytest.mark.parametrize("cyrillic, latin", [("К", "K"), ("Н", "H"), ("М", "M"), ("Т", "T"), ("В", "B"), ("З", "3")])
def test_C4_lookalike_capitals_fold_after_case_folding(cyrillic: str, latin: str) -> None:
    """C-4 amended, issue 7 item 12: case-folding runs first, so the capitals' twins must meet in small form."""
    assert keyword_form(cyrillic) == keyword_form(latin)
    assert keyword_form(cyrillic.lower()) == keyword_form(latin)
    assert keyword_form(cyrillic + "от") == keyword_form(latin + "от")


@pytest.mark.parametrize("greek, latin", [("Κ", "K"), ("Η", "H"), ("Μ", "M"), ("Τ", "T"), ("Β", "B"), ("Χ", "X")])
def test_C4_greek_capitals_fold_to_latin_twins(greek: str, latin: str) -> None:
    assert keyword_form(greek) == keyword_form(latin)


@pytest.mark.parametrize("a, b", [("n", "h"), ("v", "n"), ("u", "y"), ("i", "l"), ("г", "у"), ("r", "y"), ("b", "6")])
def test_C4_capital_folding_joins_no_two_latin_letters(a: str, b: str) -> None:
    """Greek ν looks like v and its capital like N; folding both ways would make n and v one letter."""
    assert keyword_form(a) != keyword_form(b)


def test_C4_small_forms_keep_their_own_twins() -> None:
    assert keyword_form("ν") == "v"  # Greek nu: small form v, though capital Ν is N
    assert keyword_form("г") == keyword_form("r")  # Cyrillic small ghe: r, though capital Г is Γ


def test_C4_latin_e_diaeresis_folds_like_yo() -> None:
    assert keyword_form("Алëна") == keyword_form("Алёна")  # Latin ë in a Cyrillic name


def test_C4_russian_keywords_match_through_folding() -> None:
    latinised = "пoмилoвaть вcex"  # Latin o, a, c, e, x
    assert latinised != "помиловать всех"
    assert keyword_form(latinised) == keyword_form("помиловать всех")
    assert keyword_form("ННВ") == keyword_form("ннв")


def test_C4_lookalike_table_values_are_fixed_points() -> None:
    for target in LOOKALIKES.values():
        assert LOOKALIKES.get(target, target) == target
        assert unicodedata.normalize("NFKC", target).casefold() == target


def derive_lookalikes(source: str) -> dict[str, str]:
    """The look-alike table from confusables.txt under the rule in confusables.py's docstring."""
    import regex

    script = regex.compile(r"[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]")

    def allowed(c: str) -> bool:
        return c in "0123456789" or (unicodedata.category(c).startswith("L") and bool(script.fullmatch(c)))

    def norm(s: str) -> str:
        return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", s).casefold())

    skeleton = {}
    for line in source.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        src, tgt = ("".join(chr(int(x, 16)) for x in p.split()) for p in line.split(";")[:2])
        if len(src) == 1 and len(tgt) == 1 and allowed(src) and allowed(tgt):
            skeleton[src] = tgt

    def chase(c: str) -> str | None:
        """Case-fold a prototype and follow it to its own prototype until it stops moving."""
        seen = set()
        while True:
            t = norm(skeleton.get(c, c))
            if len(t) != 1 or unicodedata.normalize("NFD", t) != t:
                return None
            if t == c or t in seen:
                return t
            seen.add(c)
            c = t

    # 1. Small letters (and digits): what normalised text can hold.
    small = {}
    for src in skeleton:
        if norm(src) == src and unicodedata.normalize("NFD", src) == src:
            t = chase(src)
            if t is not None and t != src:
                small[src] = t
    # 2. Capitals that look like capitals (or digits): case-folding ran first, so their small forms must meet.
    table, merge = dict(small), {}
    for src, tgt in skeleton.items():
        if unicodedata.category(src) != "Lu" or unicodedata.normalize("NFD", src) != src:
            continue
        if not (unicodedata.category(tgt) == "Lu" or tgt.isdigit()):
            continue
        a, b = norm(src), chase(tgt)
        if len(a) != 1 or b is None:
            continue
        twin = small.get(a, a)
        if twin == b:
            continue
        if twin == a:
            table[a] = b  # the small form has no twin of its own: the capital's
        elif b.isascii() and not twin.isascii():
            merge.setdefault(twin, set()).add(b)  # its twin is no basic Latin letter: that whole class joins b
        # else both forms have a basic twin of their own (Greek ν: v, Ν: N): the small form's stays
    assert all(len(to) == 1 for to in merge.values()), merge
    joined = {rep: to.pop() for rep, to in merge.items()}
    def final(c: str) -> str:
        while (t := joined.get(table.get(c, c), table.get(c, c))) != c:
            c = t
        return c

    expected = {src: final(src) for src in [*table, *joined]}
    return {src: tgt for src, tgt in expected.items() if tgt != src}


def test_C4_lookalike_table_matches_uts39_source() -> None:
    """The table is what confusables.txt gives under the rule in confusables.py's docstring.

    confusables and regex are in the test extra (issue 7 item 25): imported outright, so a missing one fails
    the run instead of skipping the only check that the table is Unicode's."""
    from importlib.resources import files

    import confusables

    source = files(confusables).joinpath("assets/confusables.txt").read_text(encoding="utf-8-sig")
    assert LOOKALIKES == derive_lookalikes(source)


# --- properties -------------------------------------------------------------------------------------

_text = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.sampled_from("аоерсухѕіјАОЕРСУХЁёοΟ01 \t\n!?.,«»\u200b\u200d\ufeff\u0308\u0301ßİẞ"),
    ),
    max_size=40,
)


@given(_text)
@settings(max_examples=400)
def test_C4_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@given(_text)
@settings(max_examples=400)
def test_C4_fold_lookalikes_is_idempotent(text: str) -> None:
    once = fold_lookalikes(normalize(text))
    assert fold_lookalikes(once) == once
    raw_once = fold_lookalikes(text)
    assert fold_lookalikes(raw_once) == raw_once


@given(_text)
@settings(max_examples=200)
def test_C4_keyword_form_is_idempotent(text: str) -> None:
    once = keyword_form(text)
    assert keyword_form(once) == once


# --- NickMatcher ------------------------------------------------------------------------------------

NICKS = ["Вася", "Петя", "Кот Баюн", "Алёна", "Сера", "Cepa", "AC/DC", "Маша"]


@pytest.fixture
def matcher() -> NickMatcher:
    return NickMatcher(NICKS, {"Котик": "Кот Баюн"})


@pytest.mark.parametrize(
    "written, nick",
    [
        ("Вася", "Вася"),
        ("ВАСЯ", "Вася"),
        ("  вася!!! ", "Вася"),
        ("Ва\u200bся", "Вася"),
        ("ＶＡＳＹＡ", None),
        ("кот   баюн", "Кот Баюн"),
        ("«Кот Баюн»", "Кот Баюн"),
        ("Алена", "Алёна"),
        ("ac/dc", "AC/DC"),
    ],
)
def test_C4_nicknames_match_after_normalisation(matcher: NickMatcher, written: str, nick: str | None) -> None:
    found = matcher.match(written)
    if nick is None:
        assert found == Rejection("unknown_name", written)
    else:
        assert found == nick


def test_C4_cyrillic_latin_lookalikes_match() -> None:
    m = NickMatcher(["Сера", "Маша"])
    assert m.match("Cepa") == "Сера"  # all Latin
    assert m.match("Мaшa") == "Маша"  # Latin a


@pytest.mark.parametrize(
    "written, nick",
    [
        ("Kот Бaюн", "Кот Баюн"),  # Latin K and a
        ("Koт Баюн", "Кот Баюн"),  # Latin K and o
        ("KOT БAЮH", "Кот Баюн"),  # every capital that has a Latin twin typed in Latin
        ("kот баюн", "Кот Баюн"),  # the same, typed in small letters
        ("Hаташа", "Наташа"),  # Latin H
        ("HATAШA", "Наташа"),
        ("Mаша", "Маша"),  # Latin M
        ("Bася", "Вася"),  # Latin B
        ("3ина", "Зина"),  # digit 3 for З
    ],
)
def test_C4_lookalike_capitals_match(written: str, nick: str) -> None:
    """Issue 7 item 12: a wrong keyboard layout's capitals (`Kоля` for `Коля`) name the player."""
    m = NickMatcher(["Кот Баюн", "Наташа", "Маша", "Вася", "Зина", "Петя"])
    assert m.match(written) == nick


def test_C4_lookalike_capital_twins_still_both_nameable() -> None:
    """A match before look-alike folding wins over one after it, so `Кот` and `Kот` (Latin K) both play."""
    m = NickMatcher(["Кот", "Kот"])
    assert m.match("Кот") == "Кот"
    assert m.match("кот") == "Кот"
    assert m.match("Kот") == "Kот"
    assert m.match("KОТ") == "Kот"
    assert m.match("Kот", allowed=["Кот"]) == Rejection("not_alive", "Kот")
    assert m.match("Kот", allowed=["Кот"]) != "Кот"
    assert m.match("Koт") == Rejection("ambiguous_name", "Кот, Kот")  # Latin K and o: neither exactly


def test_C4_exact_match_beats_folded_match(matcher: NickMatcher) -> None:
    """Two players whose names fold alike can still both be named."""
    assert matcher.match("Сера") == "Сера"
    assert matcher.match("Cepa") == "Cepa"
    assert matcher.match("CEPA") == "Cepa"


def test_C4_folded_match_of_two_players_is_ambiguous(matcher: NickMatcher) -> None:
    assert matcher.match("Cеpa") == Rejection("ambiguous_name", "Сера, Cepa")  # Cyrillic е only


def test_C4_ambiguity_reported_with_candidates() -> None:
    m = NickMatcher(["Вася", "Вася!"])
    assert m.match("вася") == Rejection("ambiguous_name", "Вася, Вася!")


def test_C4_alias_matches(matcher: NickMatcher) -> None:
    assert matcher.match("котик") == "Кот Баюн"
    assert matcher.match("[Котик]".strip("[]")) == "Кот Баюн"


def test_C4_alias_to_a_non_player_is_refused() -> None:
    with pytest.raises(ValueError):
        NickMatcher(["Вася"], {"Котик": "Кот Баюн"})


def test_C4_alias_target_given_in_any_spelling() -> None:
    assert NickMatcher(["Кот Баюн"], {"Котик": "кот баюн"}).match("Котик") == "Кот Баюн"


def test_C4_with_aliases_is_a_new_matcher(matcher: NickMatcher) -> None:
    more = matcher.with_aliases({"Васёк": "Вася"})
    assert more.match("Васек") == "Вася"
    assert more.match("Котик") == "Кот Баюн"
    assert isinstance(matcher.match("Васек"), Rejection)


def test_C4_with_nicks_replaces_a_seat(matcher: NickMatcher) -> None:
    replaced = matcher.with_nicks(["Новый" if n == "Кот Баюн" else n for n in NICKS])
    assert replaced.match("Новый") == "Новый"
    assert replaced.match("Котик") == Rejection("unknown_name", "Котик")


def test_C4_dead_player_is_not_alive(matcher: NickMatcher) -> None:
    alive = [n for n in NICKS if n != "Петя"]
    assert matcher.match("петя", allowed=alive) == Rejection("not_alive", "Петя")
    assert matcher.match("Petя", allowed=alive) == Rejection("unknown_name", "Petя")


def test_C4_exact_name_of_a_dead_player_is_not_alive_even_beside_a_lookalike(matcher: NickMatcher) -> None:
    """A match before look-alike folding wins (C-4): naming a dead player exactly is rejected as such, never
    silently turned into a vote for a living player whose name only folds alike."""
    assert matcher.match("Cepa", allowed=["Сера"]) == Rejection("not_alive", "Cepa")
    assert matcher.match("Сера", allowed=["Сера"]) == "Сера"


def test_C4_ambiguity_only_among_allowed(matcher: NickMatcher) -> None:
    assert matcher.match("Cеpa", allowed=["Сера", "Вася"]) == "Сера"


def test_C4_empty_name(matcher: NickMatcher) -> None:
    assert matcher.match("") == Rejection("empty")
    assert matcher.match(" \u200b !! ") == Rejection("empty")


@pytest.mark.parametrize("written", ["Васяя", "Вас", "Вася Петя", "Kot Bayun"])
def test_C4_no_fuzzy_matching(matcher: NickMatcher, written: str) -> None:
    assert matcher.match(written) == Rejection("unknown_name", written)


def test_C4_bracketed_nick_named_without_its_brackets_after_stripping() -> None:
    m = NickMatcher(["[b]Вася", "[Зло]Петя"])
    assert m.match(strip_markup("[b]Вася")) == "[b]Вася"
    assert m.match(strip_markup("[Зло]Петя")) == "[Зло]Петя"


_BB = st.sampled_from(["b", "i", "u", "s", "color=red", "size=120", "url=https://x.example", "font=Arial"])
_ZW = st.sampled_from(["", "", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"])


@given(
    nick=st.sampled_from(NICKS),
    flips=st.lists(st.booleans(), min_size=12, max_size=12),
    gaps=st.lists(_ZW, min_size=12, max_size=12),
    tags=st.lists(_BB, max_size=3),
    html=st.booleans(),
)
def test_C4_decorated_nickname_still_matches(
    nick: str, flips: list[bool], gaps: list[str], tags: list[str], html: bool
) -> None:
    chars = [c.swapcase() if flip else c for c, flip in zip(nick, flips + [False] * len(nick))]
    text = "".join(c + gap for c, gap in zip(chars, gaps + [""] * len(chars)))
    for tag in tags:
        text = f"[{tag}]{text}[/{tag.split('=')[0]}]"
    if html:
        text = f"<b>{text}</b>"
    assert NickMatcher(NICKS).match(strip_markup(text)) == nick
