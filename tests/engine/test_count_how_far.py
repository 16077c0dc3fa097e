"""Issue 30 item 5: every count post says how many votes make a majority of the alive players, each candidate's
distance to it (L-n) under every `lynch` option (R-5), and, in an interim count with the leaders tied, what the tie
would do at the deadline (R-6). Texts pinned in Russian and English.

Kit casts (tests/gamekit.py): Moscow Шериф, Дон, Маф1, Маф2, М1..М6 (10 alive: 6 make a majority); Free Hunt
Ф1..Ф3, Док, Ман, Г1..Г7 (12 alive: 7).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import Game, plain  # noqa: E402


def counts(r) -> list[str]:  # type: ignore[no-untyped-def]
    """The interim counts in the vote thread, in order."""
    return [plain(m.text) for m in r.run.messages if m.where == "vote" and "/count/" in m.key]


def final(r, n: int = 1) -> str:  # type: ignore[no-untyped-def]
    return plain(next(m.text for m in r.run.messages if m.key == f"day {n}/result"))


@pytest.mark.parametrize("language, majority, lines", [
    ("ru", "Большинство — 6 из 10.", ["Маф1 — 2 голоса: Шериф, Дон (L-4)", "М1 — 1 голос: Маф2 (L-5)"]),
    ("en", "Majority: 6 of 10.", ["Маф1 — 2 votes: Шериф, Дон (L-4)", "М1 — 1 vote: Маф2 (L-5)"]),
])
def test_issue30_item5_count_shows_the_majority_and_each_distance_under_plurality(language, majority, lines):
    """R-5 plurality (the default): the count still says how far each candidate is from a majority of the alive."""
    g = Game.moscow(language=language)
    g.vote("day 1", "+1h", "Шериф", "Маф1")
    g.vote("day 1", "+1h1m", "Дон", "Маф1")
    g.vote("day 1", "+1h2m", "Маф2", "М1")
    text = counts(g.run("day 1", "+3h"))[-1]
    assert majority in text
    for line in lines:
        assert line in text
    assert text.index(majority) < text.index(lines[0])


@pytest.mark.parametrize("language, majority, line", [
    ("ru", "Большинство — 7 из 12.", "Ф1 — 7 голосов: Ф2, Ф3, Док, Ман, Г1, Г2, Г3 (L-0)"),
    ("en", "Majority: 7 of 12.", "Ф1 — 7 votes: Ф2, Ф3, Док, Ман, Г1, Г2, Г3 (L-0)"),
])
def test_issue30_item5_final_count_under_majority_lynch_shows_L0(language, majority, line):
    """R-5 majority: the final count says the majority and that the leader reached it (L-0)."""
    g = Game.free_hunt(language=language, options={"lynch": "majority"})
    for k, voter in enumerate(["Ф2", "Ф3", "Док", "Ман", "Г1", "Г2", "Г3"]):
        g.vote("day 1", f"+1h{k}m", voter, "Ф1")
    text = final(g.run("night 1", "+1m"))
    assert majority in text and line in text


def test_issue30_item5_the_majority_is_of_the_players_alive_now():
    """After a death the count's majority follows the alive players (9 alive: 5)."""
    g = Game.moscow()
    g.pm("night 1", "+1h", "Дон", "убить М6")
    g.pm("night 1", "+1h", "Маф1", "убить М6")
    g.pm("night 1", "+1h", "Маф2", "убить М6")
    g.vote("day 2", "+1h", "Шериф", "Маф1")
    text = counts(g.run("day 2", "+3h"))[-1]
    assert "Большинство — 5 из 9." in text and "Маф1 — 1 голос: Шериф (L-4)" in text


def test_issue30_item5_a_special_vote_has_no_distance():
    """`ннв` names nobody: its line has no L-n."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "Шериф", "ннв")
    text = counts(g.run("day 1", "+3h"))[-1]
    assert "ннв (никого не вешать) — 1 голос: Шериф\n" in text


TIES = [
    ("moscow", {}, "ru", "Ничья: М1 и Маф1. Если так останется к сроку — перестрелка."),
    ("moscow", {}, "en", "Tied: М1 and Маф1. If it stays so at the deadline, a runoff."),
    ("moscow", {"tie": "nobody"}, "ru", "Ничья: М1 и Маф1. Если так останется к сроку — никто не уходит."),
    ("moscow", {"tie": "nobody"}, "en", "Tied: М1 and Маф1. If it stays so at the deadline, nobody leaves."),
    ("moscow", {"tie": "all"}, "ru", "Ничья: М1 и Маф1. Если так останется к сроку — уходят все лидеры."),
    ("moscow", {"tie": "all"}, "en", "Tied: М1 and Маф1. If it stays so at the deadline, every tied leader leaves."),
    ("moscow", {"tie": "first_reached"}, "ru",
     "Ничья: М1 и Маф1. Если так останется к сроку — уходит Маф1: он первым набрал столько голосов."),
    ("moscow", {"tie": "first_reached"}, "en",
     "Tied: М1 and Маф1. If it stays so at the deadline, Маф1 leaves: the first to reach that many votes."),
    ("moscow", {"lynch": "majority"}, "ru",
     "Ничья: М1 и Маф1. Если так останется к сроку — никто не уходит: ни у кого нет большинства."),
    ("moscow", {"lynch": "majority"}, "en",
     "Tied: М1 and Маф1. If it stays so at the deadline, nobody leaves: nobody has a majority."),
]


@pytest.mark.parametrize("variant, options, language, line", TIES)
def test_issue30_item5_R6_a_tie_says_what_it_would_do_at_the_deadline(variant, options, language, line):
    """R-6 (and R-5 majority): with the leaders tied an interim count says what the tie does at the deadline; the
    final count does not (the result follows it)."""
    g = Game(variant, list(Game.moscow().cast), options=options, language=language)
    g.vote("day 1", "+1h", "Шериф", "Маф1")
    g.vote("day 1", "+1h1m", "Дон", "М1")
    g.vote("day 1", "+1h2m", "Маф2", "Маф1")
    g.vote("day 1", "+1h3m", "М2", "М1")
    r = g.run("day 1", "+24h1m")
    assert line in counts(r)[-1]
    heads = ("Итоговый подсчёт голосов (день 1)", "Final vote count (day 1)")
    at_deadline = next(plain(m.text) for m in r.run.messages if m.where == "game" and m.text.find(heads[0]) +
                       m.text.find(heads[1]) > -2)
    assert "Большинство — 6 из 10." in at_deadline or "Majority: 6 of 10." in at_deadline
    assert "останется к сроку" not in at_deadline and "stays so at the deadline" not in at_deadline


def test_issue30_item5_no_tie_line_without_a_tie():
    g = Game.moscow()
    g.vote("day 1", "+1h", "Шериф", "Маф1")
    g.vote("day 1", "+1h1m", "Дон", "Маф1")
    g.vote("day 1", "+1h2m", "Маф2", "М1")
    assert "Ничья" not in counts(g.run("day 1", "+3h"))[-1]


def test_issue30_item5_the_count_is_one_function_of_the_moment():
    """C-15's `подсчёт` answer calls the same function: `count_text` made twice at one moment gives one text."""
    from forumbot.engine import Table, make_table  # noqa: F401  (the table the count reads)
    from forumbot.engine.counts import count_text
    from forumbot.engine.fold import folded

    g = Game.moscow()
    g.vote("day 1", "+1h", "Шериф", "Маф1")
    w = folded(g.setup(), g.events, g.at("day 1", "+2h"))
    once, again = count_text(w, final=False), count_text(w, final=False)
    assert once == again and "Большинство — 6 из 10." in plain(once) and "(L-5)" in once


@pytest.mark.parametrize("options, explained", [({}, True), ({"lynch": "majority"}, False),
                                                ({"majority_ends_day": True}, False)])
@pytest.mark.parametrize("language, why", [
    ("ru", "Для ухода оно не нужно: уходит набравший больше всех голосов; L-n — сколько голосов кандидату не "
           "хватает до большинства."),
    ("en", "None is needed: the one with the most votes leaves; L-n is how many votes a candidate lacks for a "
           "majority."),
])
def test_R5_plurality_count_says_the_majority_decides_nothing(options, explained, language, why):
    """R-5 plurality (issue 28 walk-through): the majority and L-n beside each name read as if a majority were
    needed to hang; the count says it is not. Under a majority lynch or R-12 it is, and the line stays bare."""
    g = Game.moscow(language=language, options=options)
    g.vote("day 1", "+1h", "Шериф", "Маф1")
    text = counts(g.run("day 1", "+3h"))[-1]
    assert (why in text) is explained
