"""What read wrong to Russian players in a GM's walk-through of a Moscow game on the live SMF board, from
`forumbot init` to the end (issue 28, "Done means"). Game stories told with tests/gamekit.py; the Moscow cast:
Шериф, Дон, Маф1, Маф2, М1..М6."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gamekit import DAY, START, Game, Result  # noqa: E402

from forumbot.game import run  # noqa: E402

VOTE_URL = "https://forum.example.org/viewtopic.php?t=102"


def test_M7_a_post_with_more_than_a_name_is_told_why_it_is_no_vote():
    """«Кот Баюн «голос Дядя Фёдор» — это не голос.» left the player guessing what was wrong with it."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "голос М2")
    g.vote("day 1", "+1h", "М3", "М4, М5")
    r = g.run("day 1", "+3h")
    count = r.posts("vote")[-1]
    assert "Не засчитано: М1 «голос М2» — это не голос: в голосе должен быть только ник одного игрока, " \
           "без других слов и цитат." in count
    assert "Не засчитано: М3 «М4, М5» — это не голос: в голосе должен быть только ник одного игрока" in count


def test_M7_a_post_with_more_than_a_name_is_told_why_in_english():
    g = Game.moscow(language="en")
    g.vote("day 1", "+1h", "М1", "vote М2")
    r = g.run("day 1", "+3h")
    assert "М1 “vote М2” — not a vote: a vote is one player's name alone, with no other words or quotes." \
        in r.posts("vote")[-1]


def test_C12_a_vote_sent_by_pm_in_the_day_is_pointed_at_the_vote_thread():
    """«голосую за Шарика» by PM in the day was answered «команда не распознана. Ночных ходов у вашей роли нет.»:
    nothing said that votes go in the vote thread, nor what a player may ask the bot by PM (C-15)."""
    g = Game.moscow()
    g.pm("day 1", "+1h", "М1", "голосую за М2")
    r = g.run("day 1", "+3h")
    assert r.pms("М1")[-1] == ("Не понято: «голосую за М2» — команда не распознана.\n"
                               "Голосуют в теме голосования, а не в личных сообщениях: там пишут только ник игрока. "
                               "Мне в личные сообщения можно прислать «подсчёт», «мой голос» или «роль».\n"
                               "Ночных ходов у вашей роли нет.")


def test_C12_a_vote_sent_by_pm_in_the_day_in_english():
    g = Game.moscow(language="en")
    g.pm("day 1", "+1h", "М1", "I vote М2")
    r = g.run("day 1", "+3h")
    assert ("Votes go in the vote thread, not by PM: a post with only the player's name. "
            "By PM you may ask me “count”, “my vote” or “role”.") in r.pms("М1")[-1]


def test_C12_a_pm_not_understood_at_night_says_nothing_of_votes():
    g = Game.moscow()
    g.pm("night 1", "+1h", "М1", "голосую за М2")
    r = g.run("night 1", "+3h")
    assert "Голосуют" not in r.pms("М1")[-1]


def test_C15_my_vote_names_the_post_not_counted_and_why():
    """«мой голос» after a post that was no vote said only «Засчитанного голоса у вас сейчас нет.»: the player
    could not tell whether his post was read at all."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2, М3")
    g.pm("day 1", "+2h", "М1", "мой голос")
    r = g.run("day 1", "+3h")
    answer = r.pms("М1")[-1]
    assert answer.startswith("Засчитанного голоса у вас сейчас нет.\n"
                             "Не засчитано ваше сообщение от 01.12 11:00 МСК: «М2, М3» — это не голос: ")
    assert answer.endswith("После первого голоса его можно будет сменить: 1 раз.")


def test_C15_my_vote_names_a_later_post_not_counted_beside_the_vote():
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2")
    g.vote("day 1", "+2h", "М1", "Мурзик")
    g.pm("day 1", "+3h", "М1", "мой голос")
    r = g.run("day 1", "+4h")
    assert r.pms("М1")[-1] == ("Ваш голос: М2 — сообщение от 01.12 11:00 МСК: «М2».\n"
                               "Не засчитано ваше сообщение от 01.12 12:00 МСК: «Мурзик» — нет игрока с таким ником.\n"
                               "Сменить голос можно ещё: 1 раз.")


def test_C15_my_vote_names_the_post_not_counted_in_english():
    g = Game.moscow(language="en")
    g.vote("day 1", "+1h", "М1", "Мурзик")
    g.pm("day 1", "+2h", "М1", "my vote")
    r = g.run("day 1", "+3h")
    assert "Not counted: your post of " in r.pms("М1")[-1] and "“Мурзик” — no player by that name." in r.pms("М1")[-1]


def test_M10_the_runoff_post_links_the_vote_thread_as_the_day_post_does():
    """The day post linked the vote thread; the runoff's «— в теме голосования до …» did not (C-3)."""
    for language, line in (("ru", f"«помиловать всех» — в [url={VOTE_URL}]теме голосования[/url] до "),
                           ("en", f"(pardon all), in [url={VOTE_URL}]the vote thread[/url] until ")):
        g = Game.moscow(language=language)
        for who in ("М1", "М2"):  # a 2:2 tie between М3 and М4: the runoff
            g.vote("day 1", "+1h", who, "М3")
        for who in ("М5", "М6"):
            g.vote("day 1", "+1h", who, "М4")
        r = Result(run(replace(g.setup(), vote_url=VOTE_URL), g.events, START + DAY + timedelta(hours=1)))
        (opening,) = [m.text for m in r.run.messages if m.where == "game" and ("Перестрелка" in m.text
                                                                                 or "Runoff" in m.text)]
        assert line in opening, opening


def test_M10_the_runoff_post_without_a_vote_thread_address_names_it_in_words():
    g = Game.moscow()
    for who in ("М1", "М2"):
        g.vote("day 1", "+1h", who, "М3")
    for who in ("М5", "М6"):
        g.vote("day 1", "+1h", who, "М4")
    r = g.run(START + DAY + timedelta(hours=1))
    assert any("«помиловать всех» — в теме голосования до " in t for t in r.posts())


def test_C6_an_interim_count_says_until_when_the_vote_runs():
    """The interim count in the vote thread (and the one a player asks for by PM) never said when the day
    ends: the players had to scroll back to the day's opening post in the other thread."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2")
    g.pm("day 1", "+2h", "М3", "подсчёт")
    r = g.run("day 1", "+3h")
    count = r.posts("vote")[-1]
    assert count.startswith("Промежуточный подсчёт голосов (день 1)\n\nГолосование — до 02.12 10:00 МСК.\n"), count
    assert "Голосование — до 02.12 10:00 МСК." in r.pms("М3")[-1]


def test_C6_the_final_count_and_the_english_one():
    g = Game.moscow(language="en")
    g.vote("day 1", "+1h", "М1", "М2")
    r = g.run("night 1", "+1h")
    assert "Voting runs until 02.12 10:00 MSK." in r.posts("vote")[-1]
    final = next(p for p in r.posts() if p.startswith("Final vote count"))
    assert "Voting runs until" not in final
