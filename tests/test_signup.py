"""The sign-up (S-1..S-3): its words, its list, its close, extension and cancellation, the GMs' overrides, and
the game it hands its players to. The sign-up is its own pure fold (forumbot/engine/signup.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from forumbot import game
from forumbot.config.load import load_config
from forumbot.config.types import ConfigProblems
from forumbot.errors import ConfigError
from forumbot.engine.setup import commitment, draw_seats
from forumbot.engine.signup import game_setup, run_signup
from forumbot.engine.signup_values import SignupSetup
from forumbot.model import GameSetup, Input, Schedule, Where
from forumbot.parse.signup import signup_word

T0 = datetime(2026, 12, 1, 7, tzinfo=timezone.utc)  # 10:00 МСК
NAMES = [f"Игрок{i}" for i in range(1, 13)]


def setup(**kw) -> SignupSetup:
    base = dict(variant="moscow", seats=3, opens=T0, closes=T0 + timedelta(hours=48), gms=("GM",), bot="Bot")
    return SignupSetup(**{**base, **kw})


def post(hours: float, who: str, text: str, **kw) -> Input:
    return Input(at=T0 + timedelta(hours=hours), where=Where.GAME, author=who, text=text, **kw)


def gm(hours: float, text: str, who: str = "GM") -> Input:
    return Input(at=T0 + timedelta(hours=hours), where=Where.PM, author=who, text=text)


def run(inputs, until_hours: float = 200, **kw):
    return run_signup(setup(**kw), inputs, T0 + timedelta(hours=until_hours))


def keys(r) -> list[str]:
    return [m.key for m in r.messages]


@pytest.mark.parametrize("text, word", [
    ("+", "join"), ("[b]+[/b]", "join"), (" Я ", "join"), ("в игре!", "join"), ("Играю.", "join"),
    ("участвую", "join"), ("IN", "join"), ("join", "join"), ("-", "leave"), ("выхожу", "leave"),
    ("не играю", "leave"), ("out", "leave"), ("leave", "leave"), ("запас", "reserve"), ("На замену", "reserve"),
    ("sub", "reserve"), ("+1", None), ("я в игре", None), ("хочу играть", None), ("+ Петя", None), ("", None),
    ("-" * 50, None), ("привет, " * 100, None),
])
def test_s1_a_post_is_a_sign_up_word_only_when_it_holds_that_word_alone_after_c4(text, word) -> None:
    assert signup_word(text) == word


def test_s1_the_one_who_joins_is_the_account_never_a_name_in_the_text() -> None:
    r = run([post(1, "Маша", "+"), post(2, "Петя", "Игрок1"), post(3, "Маша.", "+")], seats=10)
    assert r.players == ("Маша", "Маша.")  # C-3: `Маша.` is another account; «Игрок1» is talk


def test_s1_leave_takes_him_off_and_reserve_puts_him_in_the_reserve_only() -> None:
    r = run([post(1, "A", "+"), post(2, "B", "+"), post(3, "A", "-"), post(4, "C", "запас"), post(5, "B", "sub")])
    assert (r.players, r.reserve) == ((), ("C", "B"))


def test_s1_an_edit_is_ignored_the_post_counts_by_its_text_as_first_read() -> None:
    edited = post(1, "A", "-", first_text="+", edited_at=T0 + timedelta(hours=2))
    r = run([edited, post(3, "B", "хочу", first_text=None)])
    assert r.players == ("A",)


def test_s1_a_post_gone_from_the_thread_at_the_close_counts_as_never_made() -> None:
    gone = post(1, "A", "+", deleted_at=T0 + timedelta(hours=40))
    late_gone = post(2, "B", "+", deleted_at=T0 + timedelta(hours=60))  # after the close: it stays
    r = run([gone, late_gone, post(3, "C", "+"), post(4, "D", "+")])
    assert r.state == "closed" and r.players == ("B", "C", "D")


def test_s1_refused_accounts_are_not_signed_up_and_the_list_says_so() -> None:
    r = run([post(1, "Troll", "+"), post(2, "A", "+")], refused=("troll",))
    assert r.players == ("A",)
    lists = [m.text for m in r.messages if m.key.startswith("signup/list/")]
    assert "Ведущий не принимает в эту игру: Troll." in lists[-1]


def test_s1_the_bot_and_the_gms_posting_in_the_thread_sign_nobody_up() -> None:
    r = run([post(1, "Bot", "+"), post(1, "gm", "+"), post(2, "A", "+")])
    assert r.players == ("A",)


def test_s1_the_opening_post_in_russian() -> None:
    r = run([], until_hours=1, close_when_full=True, rules_url="https://f.example/rules")
    assert r.state == "open" and keys(r) == ["signup/open"]
    assert r.messages[0].at == T0
    assert r.messages[0].text == (
        "[b]Набор в игру: московская мафия[/b]\n\n"
        "Нужно 3 игрока.\nНабор закрывается 03.12 10:00 МСК.\n"
        "Набор закроется раньше, как только наберётся нужное число игроков.\n\n"
        "[b]Как записаться:[/b]\n"
        "записаться — сообщение в этой теме только со словом «+» (или «я», «в игре», «играю», «участвую»);\n"
        "выписаться — сообщение только со словом «-» (или «выхожу», «не играю»);\n"
        "в запас, на замену выбывшим — сообщение только со словом «запас» (или «на замену»). Записывается тот, кто "
        "написал сообщение; правка сообщения ничего не меняет.\n\n"
        "Правила игры: [url=https://f.example/rules]здесь[/url].")


def test_s1_the_opening_post_in_english_names_the_house_rules_that_differ() -> None:
    r = run([], until_hours=1, language="en", house=(("lynch", "majority"),))
    text = r.messages[0].text
    assert text.startswith("[b]Sign-up: Moscow mafia[/b]\n\nWanted: 3 players.\nThe sign-up closes at 03.12 10:00")
    assert "to join, post in this thread a message holding only “+” (or “in”, “join”);" in text
    assert "\n\nHouse rules:\n— " in text


def test_s1_nothing_before_the_sign_up_opens() -> None:
    r = run([post(1, "A", "+")], until_hours=5, opens=T0 + timedelta(hours=10))
    assert r.state == "waiting" and r.messages == () and r.players == ()


def test_s2_places_go_by_post_order_the_first_n_play_the_rest_are_the_reserve() -> None:
    r = run([post(1, "A", "+"), post(2, "B", "+"), post(3, "C", "запас"), post(4, "D", "+"), post(5, "E", "+")],
            until_hours=10)
    assert (r.players, r.reserve) == (("A", "B", "D"), ("E", "C"))
    r = run([post(1, "A", "+"), post(2, "B", "+"), post(4, "D", "+"), post(5, "E", "+"), post(6, "B", "-")],
            until_hours=10)
    assert (r.players, r.reserve) == (("A", "D", "E"), ())  # the reserve's first moves up


def test_s2_the_list_is_posted_after_a_change_at_most_once_every_list_every() -> None:
    r = run([post(1, "A", "+"), post(1.2, "B", "+"), post(1.5, "C", "привет"), post(5, "C", "+")], until_hours=10)
    at = [m.at - T0 for m in r.messages if m.key.startswith("signup/list/")]
    assert at == [timedelta(hours=1), timedelta(hours=2), timedelta(hours=5)]  # B's join held to 1 h after A's
    last = r.messages[-1].text
    assert "1. [b]A[/b]\n2. [b]B[/b]\n3. [b]C[/b]" in last and "Свободно: 0 мест." in last


def test_s2_talk_changes_nothing_and_posts_no_list() -> None:
    r = run([post(1, "A", "привет"), post(2, "B", "когда начало?")], until_hours=10)
    assert keys(r) == ["signup/open"]


def test_s3_close_at_closes_with_n_players_a_post_at_the_close_is_late() -> None:
    r = run([post(1, "A", "+"), post(2, "B", "+"), post(3, "C", "+"), post(4, "D", "+"), post(48, "B", "-")])
    assert r.state == "closed" and r.ended_at == T0 + timedelta(hours=48) and r.players == ("A", "B", "C")
    closed = next(m for m in r.messages if m.key == "signup/closed")
    assert closed.at == T0 + timedelta(hours=48) and "1. [b]A[/b]\n2. [b]B[/b]\n3. [b]C[/b]" in closed.text


def test_s3_close_when_full_at_the_nth_join() -> None:
    r = run([post(1, "A", "+"), post(2, "B", "+"), post(3, "C", "+"), post(4, "D", "+")], close_when_full=True)
    assert r.state == "closed" and r.ended_at == T0 + timedelta(hours=3) and r.players == ("A", "B", "C")
    assert r.reserve == ()  # D posted after the close: the game's, not the sign-up's


def test_s3_short_at_the_close_extends_once_then_cancels_telling_the_gms() -> None:
    r = run([post(1, "A", "+")], until_hours=100, gms=("GM", "GM2"))
    assert r.state == "cancelled" and r.extended and r.closes == T0 + timedelta(hours=72)
    assert keys(r)[-6:] == ["signup/extended", "signup/extended/GM", "signup/extended/GM2", "signup/cancelled",
                            "signup/cancelled/GM", "signup/cancelled/GM2"]
    extended = next(m for m in r.messages if m.key == "signup/extended")
    assert "Не хватает 2 места: набор продлён до 04.12 10:00 МСК." in extended.text
    assert r.messages[-1].text == "Игра отменена: после продления записалось 1 из 3 (A)."


def test_s3_an_extended_sign_up_that_fills_closes_at_the_second_close() -> None:
    r = run([post(1, "A", "+"), post(50, "B", "+"), post(59, "C", "+")], extend=timedelta(hours=12))
    assert r.state == "closed" and r.ended_at == T0 + timedelta(hours=60) and r.players == ("A", "B", "C")


def test_s3_gm_add_remove_and_close_are_audited_overrides() -> None:
    r = run([post(1, "A", "+"), gm(2, "добавить Вася"), gm(3, "убрать a"), post(4, "B", "+"), post(5, "C", "+"),
             gm(6, "закрыть набор")])
    assert r.state == "closed" and r.ended_at == T0 + timedelta(hours=6) and r.players == ("Вася", "B", "C")
    assert [c[0] for c in r.commands] == ["i1", "i2", "i5"]
    assert r.commands[1][1:] == ("players A, Вася; reserve -", "players Вася; reserve -")
    answer = next(m for m in r.messages if m.key == "gm/i2")
    assert answer.to == "GM" and answer.text.startswith("Выполнено: A — вне набора.")
    assert any(line.startswith("override by GM at ") and "убрать a" in line for line in r.log)


def test_s3_a_gm_close_with_fewer_than_n_is_refused_and_changes_nothing() -> None:
    r = run([post(1, "A", "+"), gm(2, "закрыть набор")], until_hours=10)
    assert r.state == "open" and r.commands == ()
    assert next(m for m in r.messages if m.key == "gm/i1").text == (
        "Команда не выполнена: игроков меньше, чем нужно, — закрыть набор можно только с полным списком.")


def test_s3_undo_takes_a_gm_override_back_as_if_never_given() -> None:
    inputs = [post(1, "A", "+"), gm(2, "добавить Вася"), post(3, "B", "+"), gm(4, "отмена"), post(5, "C", "+")]
    r = run(inputs, until_hours=10)
    without = run([i for n, i in enumerate(inputs) if n not in (1, 3)], until_hours=10)
    assert (r.players, r.reserve) == (without.players, without.reserve) == (("A", "B", "C"), ())
    assert next(m for m in r.messages if m.key == "gm/i3").text == "Отменено: «добавить Вася», как будто её не было."
    assert next(m for m in r.messages if m.key == "gm/i1").text.startswith("Выполнено: Вася — в списке")


def test_s3_undo_with_nothing_to_undo_is_refused() -> None:
    r = run([gm(1, "отмена")], until_hours=10)
    assert r.messages[-1].text == "Команда не выполнена: отменять нечего."


def test_s3_only_a_gm_account_commands_the_sign_up() -> None:
    r = run([post(1, "A", "+"), gm(2, "добавить Вася", who="A"), gm(3, "убрать A", who="Маша")], until_hours=10)
    assert r.players == ("A",) and r.commands == ()


def test_s3_the_fold_is_pure_and_takes_its_inputs_by_time() -> None:
    inputs = [post(1, "A", "+"), gm(2, "добавить Вася"), post(3, "B", "+"), post(4, "C", "+")]
    one, two = run(inputs), run(list(reversed(inputs)))
    assert one.players == two.players and [m.text for m in one.messages] == [m.text for m in two.messages]


def test_s3_the_game_starts_with_exactly_the_signed_up_players_the_commitment_covering_them() -> None:
    r = run([post(i, name, "+") for i, name in enumerate(NAMES, 1)], seats=10, close_when_full=True)
    base = GameSetup(variant="moscow", seed=42, schedule=Schedule(start=T0 + timedelta(days=30)), players=(),
                     bot="Bot", gms=("GM",))
    started = game_setup(base, r)
    assert [p.nick for p in started.players] == NAMES[:10]
    assert started.schedule.setup_opens == T0 + timedelta(hours=10)
    assert started.schedule.start == T0 + timedelta(days=30)  # `start` a day or more after the close stands
    out = game.run(started, [], until=started.schedule.setup_opens)
    opening = next(m for m in out.messages if m.where is Where.GAME)
    drawn = {nick: seat.role for nick, seat in draw_seats(started).items()}
    assert commitment(42, drawn) in opening.text and all(name in opening.text for name in NAMES[:10])
    soon = game_setup(replace(base, schedule=Schedule(start=T0)), r)
    assert soon.schedule.start == T0 + timedelta(hours=34)  # no `start` ahead: Day 1 a day after the close


def test_s3_a_sign_up_not_closed_gives_no_game() -> None:
    r = run([post(1, "A", "+")], until_hours=10)
    with pytest.raises(ValueError):
        game_setup(GameSetup(variant="moscow", seed=1, schedule=Schedule(start=T0), players=(), bot="Bot"), r)


NABOR = "https://forum.example.org/viewtopic.php?t=41"  # a «набор» topic of its own (S-1's `signup.thread`)


def in_nabor(hours: float, who: str, text: str) -> Input:
    return Input(at=T0 + timedelta(hours=hours), where=Where.SIGNUP, author=who, text=text)


def test_s1_a_sign_up_in_its_own_thread_reads_only_that_thread_and_posts_there() -> None:
    inputs = [in_nabor(1, "A", "+"), post(2, "B", "+"), Input(T0 + timedelta(hours=3), Where.VOTE, "C", "+"),
              in_nabor(4, "D", "+"), in_nabor(5, "E", "запас")]
    r = run(inputs, thread=NABOR, until_hours=10)
    assert (r.players, r.reserve) == (("A", "D"), ("E",))  # the game thread's and the vote thread's `+` are talk
    assert {m.where for m in r.messages} == {Where.SIGNUP}  # the opening post and the lists go to the «набор»
    assert run(inputs, until_hours=10).players == ("B", "C")  # in the game thread: as before, its own unread


def test_s3_a_sign_up_in_its_own_thread_closes_there_and_the_game_uses_its_own_threads_from_the_start() -> None:
    names = [f"S{i}" for i in range(1, 11)]
    signup = setup(seats=10, closes=T0 + timedelta(hours=12), thread=NABOR)
    base = GameSetup(variant="moscow", seed=3, schedule=Schedule(start=T0 + timedelta(days=5)), players=(),
                     bot="Bot", gms=("GM",), signup=signup)
    inputs = [in_nabor(i, n, "+") for i, n in enumerate(names, 1)] + [in_nabor(11, "Поздний", "+")]
    out = game.run(base, inputs, until=T0 + timedelta(hours=13))
    assert [p.nick for p in out.result.players] == names
    signup_keys = [m.key for m in out.messages if m.key.startswith("signup/")]
    assert signup_keys and all(m.where is Where.SIGNUP for m in out.messages if m.key.startswith("signup/"))
    assert "signup/closed" in signup_keys
    game_posts = [m for m in out.messages if m.to is None and not m.key.startswith("signup/")]
    assert game_posts and all(m.where is Where.GAME for m in game_posts)  # the Setup post: the game thread


def test_s4_after_a_sign_up_in_its_own_thread_its_reserve_words_there_count_the_game_threads_do_not() -> None:
    names = [f"S{i}" for i in range(1, 11)]
    signup = setup(seats=10, closes=T0 + timedelta(hours=12), thread=NABOR)
    base = GameSetup(variant="moscow", seed=3, schedule=Schedule(start=T0 + timedelta(days=5)), players=(),
                     bot="Bot", gms=("GM",), signup=signup)
    inputs = [in_nabor(i, n, "+") for i, n in enumerate(names, 1)]
    inputs += [post(13, "Игровой", "запас"), in_nabor(14, "Набранный", "запас"), gm(15, "замена S2")]
    out = game.run(base, inputs, until=T0 + timedelta(hours=16))
    assert [m.to for m in out.messages if m.key.endswith("/offer")] == ["Набранный"]


def test_s1_the_sign_up_thread_is_stored_with_the_setup() -> None:
    from forumbot.store.setup_codec import setup_from_json, setup_to_json

    base = GameSetup(variant="moscow", seed=3, schedule=Schedule(start=T0), players=(), bot="Bot",
                     signup=setup(thread=NABOR))
    assert setup_from_json(setup_to_json(base), check=False).signup.thread == NABOR
    assert setup_from_json(setup_to_json(replace(base, signup=setup())), check=False).signup.thread == ""


CONFIG = """
[forums.main]
engine = "phpbb"
base_url = "https://forum.example.org/"
login = "Bot"
[games.autumn]
forum = "main"
variant = "{variant}"
game_thread = "https://forum.example.org/viewtopic.php?t=101"
vote_thread = "https://forum.example.org/viewtopic.php?t=102"
gms = ["GM"]
[games.autumn.signup]
closes = 2026-12-10T20:00:00
{extra}
"""


def load(tmp_path, variant: str = "moscow", extra: str = ""):
    path = tmp_path / "forumbot.toml"
    path.write_text(CONFIG.format(variant=variant, extra=extra), encoding="utf-8")
    return load_config(path)


def test_s2_the_sign_up_takes_the_casts_count_moscow_10_free_hunt_from_signup_players(tmp_path) -> None:
    game = load(tmp_path).games["autumn"]
    assert game.players == () and game.signup is not None and game.signup.seats == 10
    assert game.signup.closes == datetime(2026, 12, 10, 17, tzinfo=timezone.utc)  # read in the game's zone
    assert game.schedule.start.year == 2000  # no `start`: Day 1 a day after the close (S-3, game_setup)
    assert load(tmp_path, "free_hunt", "players = 14").games["autumn"].signup.seats == 14


@pytest.mark.parametrize("variant, extra, problem", [
    ("free_hunt", "", "games.autumn.signup.players: не задано: сколько игроков берёт набор"),
    ("free_hunt", "players = 11", "в «Свободную охоту» играют от 12 до 17 игроков, а здесь 11 (H-1)"),  # issue 28
    ("moscow", "players = 9", "в московском варианте ровно 10 игроков, а здесь 9 (M-1)"),
    ("moscow", "list_every = 0", "games.autumn.signup.list_every: должно быть больше 0"),
    ("moscow", "opens = 2026-12-11T10:00:00", "games.autumn.signup.closes: должно быть позже opens"),
    ("moscow", "close_when_ful = true", "games.autumn.signup.close_when_ful: неизвестный параметр"),
    ("moscow", 'thread = "https://forum.example.org/viewtopic.php?t=102"', "signup.thread: должна отличаться от vote_thread"),
])
def test_s1_a_bad_signup_table_is_refused_with_a_clear_error(tmp_path, variant, extra, problem) -> None:
    with pytest.raises(ConfigError) as e:
        load(tmp_path, variant, extra)
    assert problem in str(e.value)


@pytest.mark.parametrize("language, problems", [
    ("ru", ["games.autumn.signup.closes: должно быть позже opens",
            "games.autumn.signup.refused[0]: каждый — непустое имя аккаунта, а здесь ' '",
            "games.autumn.signup.thread: должна отличаться от vote_thread (голоса пишутся в своей теме, C-3): уберите "
            "строку, чтобы набирать в игровой теме, или укажите тему «набор»"]),
    ("en", ["games.autumn.signup.closes: must be after opens",
            "games.autumn.signup.refused[0]: each is a non-empty account name, got ' '",
            "games.autumn.signup.thread: must differ from vote_thread (votes live in their own thread, C-3): leave it "
            "out to sign up in the game thread, or name the «набор» topic"]),
])
def test_s1_a_signups_problems_are_named_in_the_gms_language(tmp_path, language, problems) -> None:  # type: ignore[no-untyped-def]
    """Issue 28 (stop 36's walk-through): the sign-up table's own findings were English to a Russian GM."""
    path = tmp_path / "forumbot.toml"
    text = CONFIG.format(variant="moscow", extra='opens = 2026-12-11T10:00:00\nrefused = [" "]')
    path.write_text(text.replace('forum = "main"', f'forum = "main"\nlanguage = "{language}"', 1), encoding="utf-8")
    with pytest.raises(ConfigProblems) as e:
        load_config(path)
    assert e.value.problems[:2] == problems[:2]
    text = CONFIG.format(variant="moscow", extra='thread = "https://forum.example.org/viewtopic.php?t=102"')
    path.write_text(text.replace('forum = "main"', f'forum = "main"\nlanguage = "{language}"', 1), encoding="utf-8")
    with pytest.raises(ConfigProblems) as e:
        load_config(path)
    assert problems[2] in e.value.problems


def test_s1_signup_thread_names_the_signups_own_thread_the_game_thread_itself_means_none(tmp_path) -> None:
    own = load(tmp_path, extra=f'thread = "{NABOR}"').games["autumn"]
    assert own.signup.thread == NABOR and own.signup_thread == NABOR
    assert own.threads == (own.game_thread, own.vote_thread, NABOR)  # the daemon reads all three
    same = load(tmp_path, extra='thread = "https://forum.example.org/viewtopic.php?t=101"').games["autumn"]
    assert same.signup.thread == "" and same.signup_thread == same.game_thread
    assert same.threads == (same.game_thread, same.vote_thread)


def test_s1_check_config_checks_the_sign_up_thread_like_the_others(tmp_path) -> None:
    from forumbot.config.checks import thread_problems

    config = load(tmp_path, extra='thread = "https://forum.example.org/viewforum.php?f=3"')  # a forum, no topic
    assert [p.split(":")[0] for p in thread_problems(config, "autumn")] == ["games.autumn.signup.thread"]
    assert thread_problems(load(tmp_path, extra=f'thread = "{NABOR}"'), "autumn") == []


def test_s5_the_season_table_names_configured_games_in_order(tmp_path) -> None:
    config = load(tmp_path, extra='[season]\ngames = ["autumn"]\ngap = 12\nnotify = true')
    assert config.season is not None and config.season.games == ("autumn",)
    assert config.season.gap == timedelta(hours=12) and config.season.notify
    assert config.season.next_after("autumn") is None
    assert load(tmp_path).season is None


@pytest.mark.parametrize("extra, problem", [
    # issue 28: in the GMs' language, as the rest of the table's problems (these were still English)
    ('[season]\ngames = ["spring"]', "season.games[0]: в [games] нет игры 'spring' (есть: autumn)"),
    ('[season]\ngames = ["autumn", "autumn"]', "season.games[1]: 'autumn' указана дважды"),
    ('[season]\ngames = []', "season.games: перечислите игры сезона"),
    ('[season]\ngames = ["autumn"]\ngap = -1', "season.gap: должно быть не меньше 0"),
    ('[season]\ngames = ["autumn"]\nnotfy = true', "season.notfy: неизвестный параметр"),
])
def test_s5_a_bad_season_table_is_refused_with_a_clear_error(tmp_path, extra, problem) -> None:
    with pytest.raises(ConfigError) as e:
        load(tmp_path, extra=extra)
    assert problem in str(e.value)
