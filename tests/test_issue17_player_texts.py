"""Issue 17 items 5-10 and the text bits of item 15: what players read, in Russian and English.

Casts (tests/gamekit.py): Moscow Шериф, Дон, Маф1, Маф2, М1..М6; Free Hunt Ф1..Ф3, Док, Ман, Г1..Г7.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from gamekit import Game, Result, opening, plain  # noqa: E402

MAJORITY = ["Шериф", "Маф1", "Маф2", "М1", "М2", "М3", "М4", "М5", "М6"]


def pm_after(r: Result, to: str, inp) -> str:  # type: ignore[no-untyped-def]
    """The answer to a player's PM, or to a GM's command."""
    return next(plain(m.text) for m in r.run.messages if m.to == to and m.key in (f"pm/{inp.id}", f"gm/{inp.id}"))


def sheriff_and_don_dead(language: str) -> Game:
    """Night 1 the mafia shoot the Sheriff; Day 2 the town hangs the Don: nobody alive can check."""
    g = Game.moscow(language=language)
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить Шериф")
    g.votes("day 2", {v: "Дон" for v in MAJORITY if v != "Шериф"})
    return g


# ============================================================ item 5: the night post leaks no dead role (M-2)


@pytest.mark.parametrize("language, how", [
    ("ru", "Как писать: «проверка НИК», «убить НИК»."),
    ("en", "How to write them: “check NICK”, “kill NICK”."),
])
def test_M2_closed_roles_night_post_lists_the_cast_moves_after_the_checkers_died(language: str, how: str) -> None:
    r = sheriff_and_don_dead(language).run("night 2", "+1h")
    assert r.died("Шериф") == ("night 1", "mafia") and r.died("Дон") == ("day 2", "vote")
    for n in (1, 2):
        post = plain(opening(r, f"night {n}").text)
        assert how in post, post


def test_H2_open_roles_night_post_still_lists_what_the_living_can_do() -> None:
    """Free Hunt reveals roles (H-2): naming only the moves still possible leaks nothing, and stays so."""
    g = Game.free_hunt()
    voters = [n for n, _ in g.cast]
    for i, v in enumerate(voters):  # an all-way tie: nobody leaves, nobody is a no-show
        g.vote("day 1", "+1h", v, voters[(i + 1) % len(voters)])
    r = g.run("night 1", "+1h")
    assert "«охота НИК маф|маньяк»" in plain(opening(r, "night 1").text)


# ================================================ item 7: Russian grammar in PMs (C-12 amended), strict votes


@pytest.mark.parametrize("language, ack, ambiguous, vote_rejected", [
    ("ru", "Принято: выстрел. Цель — Шериф.", "ник подходит нескольким игрокам: Печкин 1, Печкин 2",
     "Не засчитано: М3 «Шерифа» — нет игрока с таким ником."),
    ("en", "Accepted: shot. Target — Шериф.", "the name fits several players: Печкин 1, Печкин 2",
     "Not counted: М3 «Шерифа» — no player by that name."),
])
def test_C12_inflected_pm_target_is_understood_and_named_the_vote_thread_stays_strict(
        language: str, ack: str, ambiguous: str, vote_rejected: str) -> None:
    g = Game.moscow(language=language)
    g.cast[4:6] = [("Печкин 1", g.cast[4][1]), ("Печкин 2", g.cast[5][1])]
    g.vote("day 1", "+1h", "М3", "Шерифа")  # M-7, H-3: the vote thread reads no inflected form
    shots = [g.pm("night 1", "+1h", m, "убить Шерифа") for m in ("Дон", "Маф1")]
    shots.append(g.pm("night 1", "+1h", "Маф2", "стреляю в Шерифа"))
    check = g.pm("night 1", "+1h", "Шериф", "проверка Печкина")
    r = g.run("day 2", "+1h")
    assert all(pm_after(r, m.author, m).startswith(ack + "\n") for m in shots)
    assert ambiguous in pm_after(r, "Шериф", check)
    assert r.died("Шериф") == ("night 1", "mafia")
    assert vote_rejected in r.text().replace("“", "«").replace("”", "»")


# ================================================== item 6: the opening post tells the players how to vote

GAME_URL, VOTE_URL = "https://forum.example.org/viewtopic.php?t=101", "https://forum.example.org/viewtopic.php?t=102"


def run_with_urls(g: Game, until: str = "day 1", offset: str = "+2h", **urls: str) -> Result:
    from dataclasses import replace

    from forumbot.game import run

    setup = replace(g.setup(), **({"game_url": GAME_URL, "vote_url": VOTE_URL} | urls))
    return Result(run(setup, g.events, g.at(until, offset)))


OPENING_MOSCOW = {
    "ru": ["Как голосовать:",
           f"Голосование — в [url={VOTE_URL}]теме голосования[/url], каждый день до срока",
           "Голос — сообщение только с ником игрока, как он написан в списке выше",
           "Голос можно сменить один раз: второй голос окончательный.",  # M-8
           "Чтобы никого не вешать, напишите «ннв».",  # M-7
           "голос на этот случай можно дать сразу, через «/»: «НИК / НИК2», «НИК / помиловать всех» или "
           "«НИК / повесить всех».",  # M-10
           "Правила этой игры:\n— Уходит набравший больше всех голосов.\n— При ничьей — перестрелка.\n"
           "— За отсутствие голоса ничего не бывает.\n— Ничья, когда живых 4 или меньше.\n"
           "— Роль выбывшего не объявляется."],
    "en": ["How to vote:",
           f"Votes go in [url={VOTE_URL}]the vote thread[/url], each day until the deadline",
           "A vote is a post holding only a player's nickname as the list above spells it",
           "A vote may be changed once: the second vote is final.",
           "To lynch nobody, write “ннв”.",
           "“NICK / NICK2”, “NICK / помиловать всех” (pardon all) or “NICK / повесить всех” (hang all).",
           "This game's rules:\n— The most votes leave.\n— A tie goes to a runoff.\n— Not voting costs nothing.\n"
           "— A draw at 4 alive or fewer.\n— A departing player's role is not announced."],
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_M7_M8_M10_the_opening_post_says_how_to_vote_and_links_the_vote_thread(language: str) -> None:
    r = run_with_urls(Game.moscow(language=language))
    first = r.run.messages[0]
    assert first.key == "setup/players"
    for line in OPENING_MOSCOW[language]:
        assert line in first.text, (line, first.text)


@pytest.mark.parametrize("language, lines", [
    ("ru", ["без пояснений, цитат и второго ника", "Голос можно менять: засчитывается последний до срока.",
            "Голоса «никого не вешать» в этой игре нет.",
            "Призыв голосовать («голосуйте за …», «давайте …») засчитывается как голос автора против себя; "
            "повторный призыв — автокилл.", "— Не проголосовавший выбывает (автокилл)."]),
    ("en", ["no explanation, quote or second name", "A vote may be changed: the latest before the deadline counts.",
            "This game has no no-lynch vote.", "a second call is an autokill.",
            "— A player who does not vote is out (autokill)."]),
])
def test_H3_H4_H5_the_free_hunt_opening_post_says_its_strict_vote(language: str, lines: list[str]) -> None:
    first = plain(run_with_urls(Game.free_hunt(language=language)).run.messages[0].text)
    for line in lines:
        assert line in first, (line, first)
    assert "«/»" not in first and "“/”" not in first  # no runoff in Free Hunt


def test_R1_R4_house_rules_change_what_the_opening_post_says() -> None:
    g = Game.moscow(options={"vote_changes": 2, "pass_words": ["ннв", "пас"], "tie": "nobody"})
    first = plain(run_with_urls(g).run.messages[0].text)
    assert "Голос можно сменить 2 раза, после этого он окончательный." in first
    assert "Чтобы никого не вешать, напишите «ннв» или «пас»." in first
    assert "— При ничьей никто не уходит." in first and "«/»" not in first


@pytest.mark.parametrize("language, line", [
    ("ru", f"Обсуждение — [url={GAME_URL}]игровая тема[/url]."),
    ("en", f"Discussion: [url={GAME_URL}]the game thread[/url]."),
])
def test_C6_vote_thread_counts_link_the_game_thread(language: str, line: str) -> None:
    g = Game.moscow(language=language)
    g.vote("day 1", "+1h", "М1", "М2")
    r = run_with_urls(g)
    counts = [m.text for m in r.run.messages if m.where == "vote"]
    assert counts and all(c.endswith(line) for c in counts), counts
    assert not any(GAME_URL in m.text for m in r.run.messages if m.where == "game")


def test_a_thread_address_that_is_no_plain_url_is_never_linked() -> None:
    """The config's address is shown escaped, never turned into markup that could carry anything else."""
    r = run_with_urls(Game.moscow(), vote_url="https://x.example/t?id=1][b]boo[/b]", game_url="javascript:alert(1)")
    first = r.run.messages[0].text
    assert "[url=" not in first and "Голосование — в теме голосования," in first
    from forumbot.markup import get_format

    assert get_format("markdown").link(VOTE_URL, "тема") == f"[тема]({VOTE_URL})"
    assert get_format("markdown").link("https://x.example/a)b", "тема") == "тема"


def test_without_thread_addresses_the_opening_post_still_says_how_to_vote() -> None:
    r = Game.moscow().run("day 1", "+1h")
    assert "Голосование — в теме голосования, каждый день" in r.posts()[0]


# ======================================= item 15: the #fb: marker of every PM is explained once, in the role PM


@pytest.mark.parametrize("language, line", [
    ("ru", "Строка вида #fb:… в конце моих сообщений — служебная метка"),
    ("en", "A line like #fb:… at the end of my messages is a tag"),
])
def test_C2_the_role_pm_explains_the_marker_and_no_other_pm_repeats_it(language: str, line: str) -> None:
    g = Game.moscow(language=language)
    g.pm("setup", "+1h", "М1", "подтверждаю")
    r = g.run("day 1", "+1h")
    pms = r.pms("М1")
    assert line in pms[0] and sum(line in p for p in pms) == 1


# ============================================= item 8: the mafia are told when their targets differ (M-5)


@pytest.mark.parametrize("language, first, second, third, status", [
    ("ru",
     "Принято: выстрел. Цель — М1.\nЦели мафии сейчас: Дон — М1; Маф1 — цели нет; Маф2 — цели нет.\n"
     "Выстрел состоится, только если все живые члены мафии назовут одну и ту же цель; иначе — несострел.",
     "Принято: выстрел. Цель — М2.\nЦели мафии сейчас: Дон — М1; Маф1 — М2; Маф2 — цели нет.\n"
     "Выстрел состоится, только если все живые члены мафии назовут одну и ту же цель; иначе — несострел.",
     "Принято: выстрел. Цель — М1.\nЦели мафии сейчас: Дон — М1; Маф1 — М1; Маф2 — М1.\n"
     "Цели совпадают: выстрел состоится, если никто их не сменит.",
     "Мафия: цели пока не совпадают (Дон — М1; Маф1 — М2; Маф2 — цели нет)."),
    ("en",
     "Accepted: shot. Target — М1.\nThe mafia's targets now: Дон — М1; Маф1 — no target; Маф2 — no target.\n"
     "The shot happens only if every living mafia member names the same target; otherwise it misfires.",
     "Accepted: shot. Target — М2.\nThe mafia's targets now: Дон — М1; Маф1 — М2; Маф2 — no target.\n"
     "The shot happens only if every living mafia member names the same target; otherwise it misfires.",
     "Accepted: shot. Target — М1.\nThe mafia's targets now: Дон — М1; Маф1 — М1; Маф2 — М1.\n"
     "The targets match: the shot happens unless one of them changes.",
     "Mafia: the targets do not match yet (Дон — М1; Маф1 — М2; Маф2 — no target)."),
])
def test_M5_each_mafia_ack_lists_the_team_targets_and_the_gm_status_shows_a_mismatch(
        language: str, first: str, second: str, third: str, status: str) -> None:
    g = Game.moscow(language=language)
    a = g.pm("night 1", "+1h", "Дон", "убить М1")
    b = g.pm("night 1", "+2h", "Маф1", "убить М2")
    asked = g.gm("night 1", "+3h", "статус")
    g.pm("night 1", "+4h", "Маф1", "убить М1")
    c = g.pm("night 1", "+5h", "Маф2", "убить М1")
    again = g.gm("night 1", "+6h", "статус")
    r = g.run("night 1", "+7h")
    assert (pm_after(r, "Дон", a), pm_after(r, "Маф1", b), pm_after(r, "Маф2", c)) == (first, second, third)
    assert status in pm_after(r, "ГМ", asked)
    assert status.split(" (")[0] not in pm_after(r, "ГМ", again)  # all three match now: nothing to show


# ====================== item 10: an undone modkill gives the vote back, and the players out are told by PM


@pytest.mark.parametrize("language, undone, modkilled, back", [
    ("ru", "Отменено действие ведущего — модкилл: М1 снова в игре.\n"
           "Голосование снова идёт (день 1) — в теме голосования до 02.12 10:00 МСК.",
     "Ведущий вывел вас из игры (модкилл).\nПричина: флуд.\nПоследнего слова нет; ходы и голоса больше не принимаются.",
     "Ведущий отменил модкилл: вы снова в игре, с прежней ролью."),
    ("en", "The GM undid the last action (modkill); back in the game: М1.\n"
           "The vote is on again (day 1) — in the vote thread until 02.12 10:00 MSK.",
     "The GM has taken you out of the game (modkill).\nReason: флуд.\n"
     "No last word; moves and votes are no longer accepted.",
     "The GM has undone your modkill: you are back in the game, with your role."),
])
def test_M11_C10_an_undone_modkill_says_the_vote_is_on_and_the_player_is_told_both(
        language: str, undone: str, modkilled: str, back: str) -> None:
    g = Game.moscow(language=language)
    g.gm("day 1", "+2h", "модкилл М1 флуд")
    g.gm("day 1", "+3h", "отмена")
    g.votes("day 1", {v: "М2" for v in MAJORITY if v != "М2"}, offset="+4h")
    r = g.run("day 1", "+23h")
    assert undone in r.posts(), r.posts()
    assert r.pms("М1")[-2:] == [modkilled, back]


@pytest.mark.parametrize("language, hanged, killed", [
    ("ru", "По итогам голосования вы покидаете игру.\nПоследнее слово — одно сообщение в игровой теме до "
           "02.12 22:00 МСК.\nОбъявление — в игровой теме.",
     "Этой ночью вы погибли и покидаете игру.\nПоследнее слово — одно сообщение в игровой теме до 03.12 19:00 МСК.\n"
     "Объявление — в игровой теме."),
    ("en", "The vote has taken you out of the game.\nYour last word: one post in the game thread until 02.12 22:00 MSK."
           "\nThe announcement is in the game thread.",
     "You were killed tonight and are out of the game.\nYour last word: one post in the game thread until "
     "03.12 19:00 MSK.\nThe announcement is in the game thread."),
])
def test_C8_M14_a_hanged_or_night_killed_player_is_told_by_pm(language: str, hanged: str, killed: str) -> None:
    g = Game.moscow(language=language)
    g.votes("day 1", {v: "М1" for v in MAJORITY if v != "М1"})
    for m in ("Дон", "Маф1", "Маф2"):
        g.pm("night 1", "+1h", m, "убить М2")
    r = g.run("day 2", "+1h")
    assert r.died("М1") == ("day 1", "vote") and r.pms("М1")[-1] == hanged
    assert r.died("М2") == ("night 1", "mafia") and r.pms("М2")[-1] == killed
    keys = r.keys()
    assert keys.index("day 1/out/М1") > keys.index("day 1/result")  # the thread post is the notice of record


# ================================ item 9: a GM `голос` is his, and the rejected post it replaced is named so


@pytest.mark.parametrize("language, line, note", [
    ("ru", "М2 — 1 голос: М1 (голос засчитан ведущим)", "Заменено голосом ведущего: М1 «я за М2»."),
    ("en", "М2 — 1 vote: М1 (vote recorded by the GM)", "Replaced by the GM's vote: М1 “я за М2”."),
])
def test_C9_a_gm_vote_is_named_as_recorded_by_the_gm_never_as_not_counted(language: str, line: str, note: str) -> None:
    g = Game.moscow(language=language)
    g.vote("day 1", "+1h", "М1", "я за М2")
    g.gm("day 1", "+2h", "голос М1 М2")
    g.vote("day 1", "+3h", "М1", "тоже не голос")  # after the GM's vote: still an ordinary rejected post
    r = g.run("day 1", "+4h")
    count = plain([m.text for m in r.run.messages if m.where == "vote"][-1])
    assert line in count and note in count, count
    assert "«я за М2» —" not in count and "“я за М2” —" not in count  # not also listed as «not a vote»
    assert ("«тоже не голос» —" if language == "ru" else "“тоже не голос” —") in count


# ============================== item 15: an edit quoted with its first text; a deleted agitation; a draw's why


@pytest.mark.parametrize("language, option, line", [
    ("ru", "void", "Не засчитано: М3 «М4» (сначала было «М5») — сообщение отредактировано."),
    ("ru", "first_seen", "Отредактировано: М3 «М4» (сначала было «М5») — засчитан первоначальный текст."),
    ("en", "void", "Not counted: М3 “М4” (first “М5”) — the post was edited."),
])
def test_C11_an_edited_vote_is_quoted_as_it_reads_now_with_its_first_text(language: str, option: str,
                                                                          line: str) -> None:
    g = Game.moscow(language=language, options={"edited_votes": option})
    g.vote("day 1", "+1h", "М3", "М4", edited_at=Game.moscow().at("day 1", "+2h"), first_text="М5")
    r = g.run("day 1", "+3h")
    assert line in plain([m.text for m in r.run.messages if m.where == "vote"][-1])


@pytest.mark.parametrize("language, line", [
    ("ru", "Удалено из темы: Г1 «голосуем за Г2» — это агитация, она засчитана против автора и после удаления."),
    ("en", "Deleted from the thread: Г1 «голосуем за Г2» — an agitation; it counts against its author all the same."),
])
def test_H4_a_deleted_agitation_is_named_as_deleted_in_the_final_count(language: str, line: str) -> None:
    g = Game.free_hunt(language=language)
    voters = [n for n, _ in g.cast]
    g.vote("day 1", "+1h", "Г1", "голосуем за Г2", deleted_at=g.at("day 1", "+5h"))
    for i, v in enumerate(voters):
        if v != "Г1":
            g.vote("day 1", "+2h", v, voters[(i + 1) % len(voters)])
    r = g.run("night 1", "+1h")
    line = line.replace("«", "“").replace("»", "”") if language == "en" else line
    final = next(p for p in r.posts() if p.startswith(("Итоговый подсчёт", "Final vote count")))
    assert line in final, final
    assert not any(line in plain(m.text) for m in r.run.messages if m.where == "vote")  # the final count only


@pytest.mark.parametrize("language, why", [
    ("ru", "Игра окончена: ничья.\nВ игре осталось 4 игрока: по правилам этой игры это ничья."),
    ("en", "4 players left alive: by this game's rules that is a draw."),
])
def test_M13_a_draw_says_why(language: str, why: str) -> None:
    g = Game.moscow(language=language)
    for n, nick in enumerate(["Маф1", "Маф2", "М1", "М2", "М3", "М4"]):
        g.gm("day 1", f"+{n + 1}m", f"модкилл {nick}")
    r = g.run("day 1", "+1h")
    assert r.winner == "draw" and why in r.posts()[-1], r.posts()[-1]


def test_the_thread_addresses_are_frozen_with_the_setup_and_travel_through_export_and_replay() -> None:
    """Item 6: the links come from the game's config at `game start`, are stored with its setup, and a replay of
    an export posts the same links."""
    import json
    from dataclasses import replace

    from forumbot.replay import parse_transcript
    from forumbot.store.setup_codec import setup_from_json, setup_to_json

    setup = replace(Game.moscow().setup(), game_url=GAME_URL, vote_url=VOTE_URL)
    back = setup_from_json(setup_to_json(setup))
    assert (back.game_url, back.vote_url) == (GAME_URL, VOTE_URL)
    old = json.loads(setup_to_json(setup))
    del old["game_url"], old["vote_url"]  # a game started before the links: none, and no error
    assert setup_from_json(json.dumps(old)).vote_url == ""
    raw = json.loads(Path(__file__).parents[1].joinpath("forumbot/examples/moscow.json").read_text("utf-8"))
    replayed = parse_transcript(raw | {"game_url": GAME_URL, "vote_url": VOTE_URL}).setup
    assert (replayed.game_url, replayed.vote_url) == (GAME_URL, VOTE_URL)


def test_config_game_threads_become_the_setup_links(tmp_path: Path) -> None:
    from forumbot.config.load import load_config

    path = tmp_path / "forumbot.toml"
    example = Path(__file__).parents[1].joinpath("forumbot/examples/forumbot.toml").read_text("utf-8")
    path.write_text(example, "utf-8")
    game = next(iter(load_config(path).games.values()))
    setup = game.setup(1, bot="Бот")
    assert (setup.game_url, setup.vote_url) == (game.game_thread, game.vote_thread)
    assert setup.vote_url.startswith("https://")
