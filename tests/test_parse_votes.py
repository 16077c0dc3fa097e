"""Vote posts: Moscow (M-7, M-10) and Free Hunt (H-3, H-4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.model import REJECTION_CODES, Agitation, Rejection, Special, Vote
from forumbot.parse import (
    DEFAULT_AGITATION_MARKERS,
    NickMatcher,
    parse_hunt_vote,
    parse_moscow_vote,
    parse_runoff_vote,
)

NICKS = ["Вася", "Петя", "Кот Баюн", "AC/DC", "Маша", "Let's Go", "Сера"]
DEAD = "Маша"
ALIVE = [n for n in NICKS if n != DEAD]
M = NickMatcher(NICKS, {"Котик": "Кот Баюн"})


def moscow(text: str) -> Vote | Rejection:
    return parse_moscow_vote(text, M, ALIVE)


def hunt(text: str, markers=DEFAULT_AGITATION_MARKERS) -> Vote | Agitation | Rejection:
    return parse_hunt_vote(text, M, ALIVE, markers)


# --- M-7 ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "post, vote",
    [
        ("Вася", Vote("Вася")),
        ("[b]ВАСЯ[/b]", Vote("Вася")),
        ("вася!", Vote("Вася")),
        ("ннв", Vote(Special.NO_LYNCH)),
        ("ННВ.", Vote(Special.NO_LYNCH)),
        ("Котик", Vote("Кот Баюн")),
        ("Cepa", Vote("Сера")),  # Latin look-alikes
        ("Вася / Петя", Vote("Вася", "Петя")),
        ("Вася/Петя", Vote("Вася", "Петя")),
        ("Кот Баюн / помиловать всех", Vote("Кот Баюн", Special.PARDON_ALL)),
        ("ннв / повесить всех", Vote(Special.NO_LYNCH, Special.HANG_ALL)),
        ("Вася / ПОМИЛОВАТЬ   ВСЕХ", Vote("Вася", Special.PARDON_ALL)),
        ("Вася / пoмилoвaть вcex", Vote("Вася", Special.PARDON_ALL)),  # Latin o, a, c, e, x
        ("[i]Вася[/i] / [b]Петя[/b]", Vote("Вася", "Петя")),
        ("\n\nВася\n\n", Vote("Вася")),
    ],
)
def test_M7_vote_forms(post: str, vote: Vote) -> None:
    assert moscow(post) == vote


def test_M7_C4_dangling_slash_is_surrounding_punctuation() -> None:
    assert moscow("Вася /") == Vote("Вася")
    assert moscow("/ Вася") == Vote("Вася")


def test_M7_nickname_with_a_slash() -> None:
    assert moscow("AC/DC") == Vote("AC/DC")
    assert moscow("AC/DC / Вася") == Vote("AC/DC", "Вася")
    assert moscow("Вася / AC/DC") == Vote("Вася", "AC/DC")


@pytest.mark.parametrize(
    "post, code",
    [
        ("", "empty"),
        ("[b][/b]", "empty"),
        ("[img]https://x.example/a.png[/img]", "empty"),
        ("Вася\nПетя", "not_a_vote"),
        ("Вася\nпотому что он мафия", "not_a_vote"),
        ("Вася потому что он мафия", "not_a_vote"),
        ("голосую за Васю потому что", "not_a_vote"),
        ("Вася Петя", "not_a_vote"),
        ("Вася, Петя", "not_a_vote"),
        ("помиловать всех", "not_a_vote"),
        ("повесить всех / Вася", "not_a_vote"),
        ("Вася / Петя / Кот Баюн", "not_a_vote"),
        ("Маша", "not_alive"),
        ("Васяя", "unknown_name"),
        ("Васяя / Петя", "unknown_name"),
        ("Маша / Петя", "not_alive"),
        ("Вася / Маша", "not_alive"),
        ("Вася / ннв", "bad_runoff_part"),
        ("Вася / Петяя", "bad_runoff_part"),
        ("Вася / помиловать", "bad_runoff_part"),
    ],
)
def test_M7_everything_else_is_rejected(post: str, code: str) -> None:
    result = moscow(post)
    assert isinstance(result, Rejection)
    assert result.code == code


def test_M7_rejection_details() -> None:
    assert moscow("Маша") == Rejection("not_alive", "Маша")
    assert moscow("Васяя") == Rejection("unknown_name", "Васяя")
    assert moscow("Вася / Петяя") == Rejection("bad_runoff_part", "Петяя")
    assert moscow("Вася потому что") == Rejection("not_a_vote", "Вася потому что")
    long = moscow("Вася " + "очень " * 30)
    assert long.code == "not_a_vote" and len(long.detail) <= 60


@pytest.mark.parametrize("post", [
    "[quote][/quote]Вася",  # the shell's mark for a post whose quote the adapter removed
    '[quote="Петя"]Петя[/quote]\nВася',
    "[quote]Вася[/quote]",
    "<blockquote>Петя</blockquote>Вася",
])
def test_M7_a_post_with_a_quote_is_not_a_vote(post: str) -> None:
    """M-7 "anything else is not a vote": a quote is content, not formatting, so a quote and a bare name is
    no vote, as in Free Hunt (H-3); the same in a runoff (M-10)."""
    assert moscow(post).code == "not_a_vote"
    assert parse_runoff_vote(post, M, ALIVE, ["Вася", "Петя"]).code == "not_a_vote"
    assert parse_runoff_vote(post, M, ALIVE, None).code == "not_a_vote"
    assert hunt(post).code == "not_a_vote"


def test_M7_ambiguous_name_rejected() -> None:
    m = NickMatcher(["Сера", "Cepa"])
    assert parse_moscow_vote("Cеpa", m, ["Сера", "Cepa"]) == Rejection("ambiguous_name", "Сера, Cepa")


# --- M-10 ---------------------------------------------------------------------------------------------


def test_M10_hang_all_runoff_takes_only_hang_or_pardon() -> None:
    assert parse_runoff_vote("повесить всех", M, ALIVE, None) == Vote(Special.HANG_ALL)
    assert parse_runoff_vote("[b]Помиловать всех![/b]", M, ALIVE, None) == Vote(Special.PARDON_ALL)
    for post in ("Вася", "ннв", "Вася / Петя", "повесить"):
        assert parse_runoff_vote(post, M, ALIVE, None).code == "not_a_hang_all_vote", post


def test_M10_leaders_runoff_takes_only_a_leader() -> None:
    leaders = ["Вася", "Петя"]
    assert parse_runoff_vote("вася", M, ALIVE, leaders) == Vote("Вася")
    assert parse_runoff_vote("Петя", M, ALIVE, leaders) == Vote("Петя")
    assert parse_runoff_vote("Кот Баюн", M, ALIVE, leaders) == Rejection("not_alive", "Кот Баюн")
    for post in ("ннв", "Вася / Петя", "помиловать всех", "повесить всех"):
        assert parse_runoff_vote(post, M, ALIVE, leaders).code == "not_a_vote", post
    assert parse_runoff_vote("", M, ALIVE, leaders) == Rejection("empty")
    assert parse_runoff_vote("Вася\nПетя", M, ALIVE, leaders).code == "not_a_vote"


def test_M10_leader_who_died_is_not_a_vote_target() -> None:
    assert parse_runoff_vote("Маша", M, ALIVE, ["Вася", "Маша"]) == Rejection("not_alive", "Маша")


# --- H-3 ----------------------------------------------------------------------------------------------


def test_H3_a_vote_is_one_alive_nickname() -> None:
    assert hunt("Вася") == Vote("Вася")
    assert hunt("[b]кот баюн[/b]") == Vote("Кот Баюн")
    assert hunt("Let's Go") == Vote("Let's Go")  # a name holding a marker is still a name


@pytest.mark.parametrize(
    "post",
    [
        "Вася, потому что молчит",
        "Вася\nон мафия",
        "Вася Петя",
        "Вася / Петя",
        "ннв",
        "Кот Баюн ибо",
        "> Вася\nПетя",
    ],
)
def test_H3_explanations_quotes_and_second_names_rejected(post: str) -> None:
    assert hunt(post).code == "not_a_vote"


def test_H3_name_rejections() -> None:
    assert hunt("Маша") == Rejection("not_alive", "Маша")
    assert hunt("Васяя") == Rejection("unknown_name", "Васяя")
    assert hunt("") == Rejection("empty")


# --- H-4 ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "post, marker",
    [
        ("Голосуйте за Васю!", "голосуй*"),
        ("голосуй за Петю", "голосуй*"),
        ("Проголосуйте Вася", "проголосуй*"),
        ("голосуем Вася", "голосуем"),
        ("проголосуем за Васю", "проголосуем"),
        ("Давайте Васю", "давай*"),
        ("давай Петю", "давай*"),
        ("Все на Васю", "все на"),
        ("ВСЁ НА Васю", "все на"),
        ("все за Петю", "все за"),
        ("предлагаю Васю", "предлагаю"),
        ("Vote Вася", "vote"),
        ("let's Вася", "let's"),
        ("Let’s go Вася", "let's"),
        ("lets Петя", "lets"),
        ("Вася\nголосуйте", "голосуй*"),
        ("[b]ГОЛОСУЙТЕ[/b] Вася", "голосуй*"),
        ("гoлocуйтe Вася", "голосуй*"),  # Latin look-alikes in the marker
    ],
)
def test_H4_agitation_markers(post: str, marker: str) -> None:
    assert hunt(post) == Agitation(marker)


@pytest.mark.parametrize(
    "post",
    ["голосую за Васю", "Вася", "проголосую за Петю", "все Петя", "навсегда", "давно Вася", "votes"],
)
def test_H4_markers_are_whole_words(post: str) -> None:
    assert not isinstance(hunt(post), Agitation)


def test_H4_plain_vote_for_is_only_a_rejected_post() -> None:
    assert hunt("голосую за Васю").code == "not_a_vote"


def test_H4_markers_are_data_extendable_per_game() -> None:
    markers = (*DEFAULT_AGITATION_MARKERS, "агитирую", "вперёд за")
    assert hunt("агитирую Вася", markers) == Agitation("агитирую")
    assert hunt("вперед за Васю", markers) == Agitation("вперёд за")
    assert hunt("агитирую Вася") != Agitation("агитирую")


def test_H4_prefix_marker_covers_inflections() -> None:
    assert hunt("голосуйте-ка", ("голосуй*",)) == Agitation("голосуй*")
    assert hunt("голосую", ("голосуй*",)) != Agitation("голосуй*")
    assert hunt("все заголосуйте", ("все за",)) != Agitation("все за")
    assert hunt("все заодно", ("все за*",)) == Agitation("все за*")


def test_H4_agitation_is_checked_before_the_name() -> None:
    assert hunt("голосуйте Маша") == Agitation("голосуй*")  # dead name does not matter


# --- any text -----------------------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "Вася",
        "Кот Баюн",
        "AC/DC",
        "ннв",
        "/",
        " / ",
        "помиловать всех",
        "голосуйте",
        "[b]",
        "[/b]",
        "<br>",
        "\n",
        " ",
    ]
)
_POSTS = st.lists(st.one_of(_PIECES, st.text(max_size=5)), max_size=8).map("".join)


@given(_POSTS)
@settings(max_examples=300)
def test_M7_H3_any_post_gives_a_vote_or_a_known_rejection(post: str) -> None:
    for result in (
        moscow(post),
        hunt(post),
        parse_runoff_vote(post, M, ALIVE, None),
        parse_runoff_vote(post, M, ALIVE, ["Вася", "AC/DC"]),
    ):
        assert isinstance(result, Vote | Agitation | Rejection)
        if isinstance(result, Rejection):
            assert result.code in REJECTION_CODES


# --- R-2..R-4 (issue 12): the house rules read around the variant's grammar, from the post's markup

from forumbot.parse import house_vote  # noqa: E402


def _base(text: str):
    return Vote(text.strip()) if text.strip() in ("Маша", "Петя") else Rejection("unknown_name", text)


@pytest.mark.parametrize("markup", [
    "[b]Маша[/b]", '<strong class="text-strong">Маша</strong>', '<span style="font-weight: bold;" class="mycode_b">Маша</span>',
    "<b>Маша</b>",
])
def test_R3_bold_as_each_engine_renders_it(markup):
    assert house_vote(markup, _base, vote_format="bold") == (Vote("Маша"), False)
    assert house_vote(markup.replace("Маша", "Маша") + " ", _base, vote_format="bold")[0] == Vote("Маша")


@pytest.mark.parametrize("markup", [
    "[color=purple]Маша[/color]", '<span style="color: purple;" class="bbc_color">Маша</span>',
    '<span style="color: Purple">Маша</span>', '<font color="purple">Маша</font>',
])
def test_R3_colour_as_each_engine_renders_it(markup):
    assert house_vote(markup, _base, vote_format="color", vote_colors=["purple"]) == (Vote("Маша"), False)
    assert house_vote(markup, _base, vote_format="color", vote_colors=["red"])[0] == Rejection("not_colored", "red")


def test_R3_plain_or_half_bold_is_refused():
    assert house_vote("Маша", _base, vote_format="bold")[0].code == "not_bold"
    assert house_vote("[b]Ма[/b]ша", _base, vote_format="bold")[0].code == "not_bold"
    assert house_vote('<span style="background-color: red">Маша</span>', _base, vote_format="color",
                      vote_colors=["red"])[0].code == "not_colored"


def test_R3_both_parts_of_a_moscow_vote_in_bold():
    seen = []
    house_vote("[b]Маша[/b] / [b]Петя[/b]", lambda t: seen.append(t) or Vote("Маша"), vote_format="bold")
    assert seen == ["Маша / Петя"]


def test_R2_final_word_outside_the_bold():
    assert house_vote("[b]Маша[/b] окончательно", _base, final_word="окончательно", vote_format="bold") == (Vote("Маша"), True)
    assert house_vote("Маша окончательно", _base) == (Rejection("unknown_name", "Маша окончательно"), False)


def test_R4_pass_words():
    assert house_vote("Пас", _base, pass_words=["пас"]) == (Vote(Special.NO_LYNCH), False)
    assert house_vote("ннв", lambda t: Vote(Special.NO_LYNCH), pass_words=["пас"])[0].code == "not_a_vote"
