"""R-11 `post_minimum`: the posts each alive player owes the game thread in a day, what the counts list, the
warning, the autokill, warn-then-autokill and the reminder PM, in the fold (replay gives the same bytes)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from gamekit import HUNT_CAST, MOSCOW_CAST, Game

from forumbot.engine.activity import counted_length
from forumbot.engine.fold import play
from forumbot.options import option_problems

HUNT = [n for n, _ in HUNT_CAST]
MOSCOW = [n for n, _ in MOSCOW_CAST]


def chatty(g: Game, day: str, nicks: list[str], times: int = 2, text: str = "Я мирный, честно") -> None:
    for i in range(times):
        for n in nicks:
            g.post(day, f"+{i + 1}h", n, text)


def everyone_votes(g: Game, day: str, nicks: list[str], target: str) -> None:
    g.votes(day, {n: target for n in nicks if n != target} | ({target: nicks[0]} if target in nicks else {}))


def result_post(r, day: str) -> str:  # type: ignore[no-untyped-def]
    return next(m.text.replace("[b]", "").replace("[/b]", "") for m in r.run.messages if m.key == f"{day}/result")


def hunt(**options) -> Game:  # type: ignore[no-untyped-def]
    return Game.free_hunt(options={"post_minimum": 2, **options})


def test_r11_counts_only_game_thread_posts_of_the_day_long_enough_and_not_only_quotes():
    """R-11: vote-thread posts, posts holding only quotes after C-4 normalisation and posts shorter than
    `post_minimum_chars` do not count; each count lists the players below N with their posts."""
    g = Game.free_hunt(options={"post_minimum": 2, "post_minimum_chars": 5})
    chatty(g, "day 1", HUNT[2:])
    g.post("day 1", "+1h", HUNT[0], "Я мирный, честно")
    g.post("day 1", "+2h", HUNT[0], "[quote=Г1]Кто мафия?[/quote]")  # only a quote
    g.post("day 1", "+2h", HUNT[0], "[b] ..да! [/b]")  # «да»: 2 characters after normalisation
    g.vote("day 1", "+3h", HUNT[0], "Разговор в теме голосования")  # the vote thread
    g.post("day 1", "+1h", HUNT[1], "[quote]ага[/quote] А вот и нет")  # a quote and a reply: counts
    g.post("day 1", "+2h", HUNT[1], "Ещё одно сообщение")
    g.votes("day 1", {n: HUNT[5] for n in HUNT}, offset="+4h")
    r = g.run("day 1", "+23h")
    counts = [m.text for m in r.run.messages if m.where == "vote"]
    assert counts and all("Ниже минимума (2 сообщения в игровой теме за день) — 1: Ф1 — 1 сообщение." in c
                          for c in counts[-1:])
    assert "Ф2" not in counts[-1].split("Ниже минимума")[1]


def test_r11_counted_length_drops_quotes_formatting_and_surrounding_punctuation():
    """R-11: the length that `post_minimum_chars` is compared with is the C-4 normalised text without quotes."""
    assert counted_length("[quote=A]long quoted text[/quote]") == 0
    assert counted_length("<blockquote>x</blockquote>  ") == 0
    assert counted_length("[b]  Привет!!! [/b]") == len("привет")
    assert counted_length("[quote]a[/quote]два  слова") == len("два слова")


def test_r11_off_by_default_no_line_no_reminder():
    """R-11: `post_minimum` 0 (the default) lists nobody, reminds nobody and autokills nobody."""
    g = Game.free_hunt()
    g.votes("day 1", {n: HUNT[5] for n in HUNT})
    r = g.run("night 1", "+1h")
    assert "минимум" not in r.text().lower()
    assert not any("/remind/posts/" in k for k in r.keys())


def test_r11_warn_names_them_in_the_result_and_nothing_else_happens():
    """R-11 `warn` (the default action): the day's result names the players below N; they stay; the vote holds."""
    g = hunt()
    chatty(g, "day 1", HUNT[1:])
    g.votes("day 1", {n: "Г7" for n in HUNT if n != "Г7"} | {"Г7": "Г6"})
    r = g.run("night 1", "+1h")
    text = result_post(r, "day 1")
    assert "Предупреждение за неактивность (минимум — 2 сообщения в игровой теме за день): Ф1." in text
    assert r.alive("Ф1") and r.died("Г7") == ("day 1", "vote")


def test_r11_autokill_before_the_vote_revealed_like_h5():
    """R-11 `autokill`: a player below N at the deadline leaves as an autokill, his role revealed as the variant
    reveals autokills; resolved before the day's vote like H-5 (nobody leaves by vote in Free Hunt, H-6)."""
    g = hunt(post_minimum_action="autokill")
    chatty(g, "day 1", HUNT[1:])
    g.post("day 1", "+1h", "Ф1", "Одно сообщение")
    g.votes("day 1", {n: "Г7" for n in HUNT if n != "Г7"} | {"Г7": "Г6"})
    r = g.run("night 1", "+1h")
    assert r.died("Ф1") == ("day 1", "autokill")
    assert r.alive("Г7")
    text = result_post(r, "day 1")
    assert "Автокилл: Ф1 покидает игру (причина — мало сообщений в игровой теме).\nРоль: мафия.\n" \
        "Из-за автокилла по итогам голосования никто не уходит." in text


def test_r11_short_of_both_a_vote_and_posts_is_one_autokill():
    """R-11: a player short of both a vote (H-5) and posts is one autokill, with both reasons."""
    g = hunt(post_minimum_action="autokill")
    chatty(g, "day 1", HUNT[1:])
    g.votes("day 1", {n: "Г7" for n in HUNT[1:]})
    r = g.run("night 1", "+1h")
    text = result_post(r, "day 1")
    assert text.count("Автокилл: Ф1") == 1
    assert "причина — нет голоса и мало сообщений в игровой теме" in text
    assert r.died("Ф1") == ("day 1", "autokill")


def test_r11_warn_then_autokill_warns_first_then_autokills():
    """R-11 `warn_then_autokill`: the first time in a game a warning, from the second on an autokill."""
    g = Game.moscow(options={"post_minimum": 1, "post_minimum_action": "warn_then_autokill"})
    chatty(g, "day 1", MOSCOW[1:], times=1)
    g.votes("day 1", {n: "ннв" for n in MOSCOW})
    chatty(g, "day 2", MOSCOW[2:], times=1)  # Шериф short again, Дон short the first time
    g.votes("day 2", {n: "ннв" for n in MOSCOW})
    r = g.run("night 2", "+1h")
    day1, day2 = result_post(r, "day 1"), result_post(r, "day 2")
    assert "Предупреждение за неактивность (минимум — 1 сообщение в игровой теме за день): Шериф." in day1
    assert r.died("Шериф") == ("day 2", "autokill")
    assert "Автокилл: Шериф покидает игру (причина — мало сообщений в игровой теме)." in day2
    assert "Предупреждение за неактивность (минимум — 1 сообщение в игровой теме за день): Дон." in day2
    assert r.alive("Дон")


def test_r11_reminder_pm_once_before_the_deadline_only_to_those_below():
    """R-11: a player below N gets one PM `post_minimum_reminder_hours` before the deadline; others none."""
    g = hunt(post_minimum_reminder_hours=5)
    chatty(g, "day 1", HUNT[1:])
    g.votes("day 1", {n: "Г7" for n in HUNT if n != "Г7"} | {"Г7": "Г6"})
    r = g.run("night 1", "+1h")
    reminders = [m for m in r.run.messages if "/remind/posts/" in m.key]
    assert [(m.to, m.key) for m in reminders] == [("Ф1", "day 1/remind/posts/Ф1")]
    assert reminders[0].at == g.at("day 1", "+19h")
    assert "Напоминание: за этот день у вас 0 сообщений в игровой теме, а минимум — 2 сообщения." in reminders[0].text
    # a post after the reminder does not bring another one, and a game without it has none
    off = hunt(post_minimum_reminder_hours=0)
    assert not any("/remind/posts/" in k for k in off.run("night 1", "+1h").keys())


def test_r11_reminder_counts_the_posts_made_before_it():
    """R-11: the reminder goes to whoever is below N at its time, not at the deadline."""
    g = hunt()
    chatty(g, "day 1", HUNT[1:])
    g.post("day 1", "+22h", "Ф1", "Первое")
    g.post("day 1", "+22h", "Ф1", "Второе")
    r = g.run("night 1", "+1h")
    assert [m.to for m in r.run.messages if "/remind/posts/" in m.key] == ["Ф1"]
    assert "Предупреждение" not in result_post(r, "day 1")


def test_r11_an_edit_never_changes_a_count():
    """R-11: a post counts by the text the bot first stored: edited to a quote only it still counts; a quote
    only edited into a long reply still does not."""
    g = hunt()
    chatty(g, "day 1", HUNT[2:])
    g.post("day 1", "+1h", "Ф1", "[quote]x[/quote]", first_text="Длинный ответ", edited_at=g.at("day 1", "+2h"))
    g.post("day 1", "+1h", "Ф1", "Второе сообщение")
    g.post("day 1", "+1h", "Ф2", "Ответ, дописанный потом", first_text="[quote]x[/quote]",
           edited_at=g.at("day 1", "+2h"))
    g.post("day 1", "+1h", "Ф2", "Второе сообщение")
    g.votes("day 1", {n: "Г7" for n in HUNT if n != "Г7"} | {"Г7": "Г6"})
    text = result_post(g.run("night 1", "+1h"), "day 1")
    assert "Ниже минимума (2 сообщения в игровой теме за день) — 1: Ф2 — 1 сообщение." in text


def test_r11_a_deleted_post_stops_counting_when_seen_gone_before_the_deadline():
    """R-11 with C-11: a post seen gone by the deadline re-read no longer counts; one deleted only after the
    deadline counts (C-13: the result stands)."""
    g = hunt()
    chatty(g, "day 1", HUNT[2:])
    deadline = g.at("day 2", "+0h") - timedelta(hours=12)
    g.post("day 1", "+1h", "Ф1", "Удалённое модератором", deleted_at=deadline)
    g.post("day 1", "+1h", "Ф1", "Второе сообщение")
    g.post("day 1", "+1h", "Ф2", "Удалённое позже", deleted_at=deadline + timedelta(minutes=5))
    g.post("day 1", "+1h", "Ф2", "Второе сообщение")
    g.votes("day 1", {n: "Г7" for n in HUNT if n != "Г7"} | {"Г7": "Г6"})
    text = result_post(g.run("night 1", "+1h"), "day 1")
    assert "Ниже минимума (2 сообщения в игровой теме за день) — 1: Ф1 — 1 сообщение." in text


def test_r11_a_runoffs_posts_do_not_count():
    """R-11: posts in a runoff (M-10) count for no day."""
    g = Game.moscow(options={"post_minimum": 1})
    chatty(g, "day 1", MOSCOW, times=1)
    g.votes("day 1", {n: ("М1" if i % 2 else "М2") for i, n in enumerate(MOSCOW)})
    runoff = g.at("night 1", "+1h")
    speech = g.post(runoff, "", "М3", "Пост в перестрелке")
    game, _ = play(g.setup(), g.events, runoff + timedelta(minutes=1))
    assert game.phase.kind == "runoff"
    runoff_post = next(p for p in game.thread_posts if p.id == speech.id)
    assert runoff_post.phase == "runoff 1" and not runoff_post.counts


def test_r11_a_post_read_after_the_deadline_does_not_count_for_it():
    """R-11 with C-13: a post stamped in the day but first read after the bot resolved it counts for nothing."""
    g = hunt(post_minimum_action="autokill")
    chatty(g, "day 1", HUNT[1:])
    deadline = g.at("day 1", "+24h")
    g.post("day 1", "+1h", "Ф1", "Первое")
    g.post("day 1", "+2h", "Ф1", "Прочитано поздно", read_at=deadline + timedelta(minutes=10))
    g.votes("day 1", {n: "Г7" for n in HUNT if n != "Г7"} | {"Г7": "Г6"})
    setup = g.setup()
    from dataclasses import replace

    setup = replace(setup, schedule=replace(setup.schedule, resolved=(("day 1", deadline + timedelta(minutes=1)),)))
    from forumbot.game import run

    r = run(setup, g.events, g.at("night 1", "+1h"))
    assert next(p for p in r.result.players if p.nick == "Ф1").died.cause == "autokill"


@pytest.mark.parametrize("options, problem", [
    ({"post_minimum": -1}, "post_minimum"),
    ({"post_minimum": 2, "post_minimum_action": "kill"}, "post_minimum_action"),
    ({"post_minimum_chars": 5}, "post_minimum_chars: only read with post_minimum"),
    ({"post_minimum": 2, "post_minimum_chars": 0}, "post_minimum_chars"),
])
def test_r11_options_refused_with_a_clear_error(options, problem):
    """R-11 / R: an unreadable value, or a companion option without the minimum, is refused by name."""
    problems = option_problems("free_hunt", options)
    assert problems and problem in problems[0]


def test_r11_texts_in_english():
    """R-11: the count's line, the warning, the autokill reason and the reminder, in English."""
    g = Game.free_hunt(options={"post_minimum": 2, "post_minimum_action": "warn_then_autokill"}, language="en")
    chatty(g, "day 1", HUNT[2:])
    g.votes("day 1", {n: "Г7" for n in HUNT if n != "Г7"} | {"Г7": "Г6"})
    chatty(g, "day 2", HUNT[2:])
    g.votes("day 2", {n: "Г6" for n in HUNT if n != "Г6"} | {"Г6": "Г5"})
    r = g.run("night 2", "+1h")
    day1, day2 = result_post(r, "day 1"), result_post(r, "day 2")
    assert "Below the minimum (2 posts in the game thread a day) — 2: Ф1 — 0 posts, Ф2 — 0 posts." in day1
    assert "Warning for inactivity (the minimum is 2 posts in the game thread a day): Ф1 and Ф2." in day1
    assert "Autokill: Ф1 leaves the game (reason: too few posts in the game thread)." in day2
    reminder = next(m.text for m in r.run.messages if m.key == "day 1/remind/posts/Ф1")
    assert reminder.startswith("Reminder: you have 0 posts in the game thread this day, and the minimum is 2 posts.")
    opening = next(m.text for m in r.run.messages if m.key == "setup/players")
    assert "At least 2 posts in the game thread a day; whoever writes fewer: a warning the first time, then an autokill" \
        in opening


def test_r11_a_day_without_a_vote_after_a_modkill_still_autokills_for_too_few_posts():
    """R-11 with M-11: a Moscow day whose vote a modkill cancelled still ends with the post minimum's autokill."""
    g = Game.moscow(options={"post_minimum": 1, "post_minimum_action": "autokill"})
    chatty(g, "day 1", MOSCOW[1:], times=1)
    g.gm("day 1", "+3h", "модкилл М6")
    g.votes("day 1", {n: "ннв" for n in MOSCOW[:-1]})
    r = g.run("night 1", "+1h")
    assert r.died("Шериф") == ("day 1", "autokill")
    text = result_post(r, "day 1")
    assert "Автокилл: Шериф покидает игру (причина — мало сообщений в игровой теме)." in text


def test_r11_an_undone_gm_command_leaves_the_post_count_as_it_was():
    """R-11 with C-9: the posts handled again by an undo's refold are counted once, as if the command was never
    given."""
    g = hunt(post_minimum_action="autokill")
    chatty(g, "day 1", HUNT[1:], times=1)
    g.gm("day 1", "+3h", "модкилл Г7")
    g.post("day 1", "+4h", "Ф1", "Первое")
    g.gm("day 1", "+5h", "отмена")
    chatty(g, "day 1", HUNT[1:], times=1)
    g.votes("day 1", {n: "Г6" for n in HUNT if n != "Г6"} | {"Г6": "Г5"}, offset="+6h")
    r = g.run("night 1", "+1h")
    text = result_post(r, "day 1")
    assert "Ниже минимума (2 сообщения в игровой теме за день) — 1: Ф1 — 1 сообщение." in text
    assert r.died("Ф1") == ("day 1", "autokill") and r.alive("Г7")


def _majority_late_in_day_1(delay: int, language: str = "ru") -> Game:
    """Moscow, R-11 `post_minimum = 1` (reminder 3 h before the deadline), R-12 with `majority_delay`: six of ten
    vote Маф1 from +20h (the sixth at 06:05 MSK), the day's own deadline 10:00."""
    g = Game.moscow(language=language, options={"majority_ends_day": True, "majority_delay": delay, "post_minimum": 1})
    g.post("day 1", "+1h", "Шериф", "Я мирный, честно")
    for k, voter in enumerate(["Шериф", "Дон", "Маф2", "М1", "М2", "М3"]):
        g.vote("day 1", f"+20h{k}m", voter, "Маф1")
    return g


@pytest.mark.parametrize(("language", "said"), [
    ("ru", "День закончится 02.12 07:05 МСК, если большинство не распадётся, иначе — 02.12 10:00 МСК."),
    ("en", "The day ends 02.12 07:05 MSK unless the majority breaks, else 02.12 10:00 MSK."),
])
def test_r11_r12_a_reminder_during_a_majority_delay_names_both_ends(language: str, said: str) -> None:
    """R-11 with R-12 (stop 35's walk-through): a reminder sent while a majority's delay runs named the delayed end
    as the deadline, wrong once the majority broke and the day ran on. It names both: the early end if the majority
    holds, else the day's own deadline; the day then ends where the votes say."""
    g = _majority_late_in_day_1(60, language)
    r = g.run("night 1", "+1h")
    reminders = [m for m in r.run.messages if "/remind/posts/" in m.key]
    assert reminders and all(said in m.text for m in reminders), reminders[0].text
    assert next(m.at for m in r.run.messages if m.key == "day 1/result") == g.at("day 1", "+21h5m")
    g.vote("day 1", "+20h30m", "М3", "Дон")  # the majority breaks within the delay: the day runs to 10:00
    r = g.run("night 1", "+1h")
    assert next(m.at for m in r.run.messages if m.key == "day 1/result") == g.at("day 1", "+24h")
    assert all(said in m.text for m in r.run.messages if "/remind/posts/" in m.key)


def test_r11_r12_no_reminder_at_the_moment_a_majority_without_delay_ends_the_day() -> None:
    """R-12 without a delay: the majority post is the day's deadline, so a reminder due by then would go out as
    the day ends («День заканчивается 06:05», sent at 06:05): none is sent, as no vote reminder is."""
    r = _majority_late_in_day_1(0).run("night 1", "+1h")
    assert not [m for m in r.run.messages if "/remind/posts/" in m.key]
    assert "day 1/result" in r.keys()


def test_r11_the_reminder_without_a_majority_names_the_deadline_alone() -> None:
    """R-12 on but no majority: the reminder names the day's deadline only, as before."""
    g = Game.moscow(options={"majority_ends_day": True, "majority_delay": 60, "post_minimum": 1})
    r = g.run("night 1", "+1h")
    texts = [m.text for m in r.run.messages if "/remind/posts/" in m.key]
    assert texts and all(t.endswith("День заканчивается 02.12 10:00 МСК.") for t in texts)
