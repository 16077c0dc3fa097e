"""C-15 (players ask the bot: `подсчёт`, `мой голос`, `роль`) and M-15 (the mafia conference, relayed during
Setup): what each answers, that none changes the game, and that none tells a player what he was not told."""

from __future__ import annotations

import re

import pytest

from gamekit import MOSCOW_CAST, Game, plain

from forumbot.config.checks import example_config
from forumbot.config.load import load_config
from forumbot.engine.fold import play
from forumbot.engine.state import played
from forumbot.model import Role
from forumbot.options import option_problems
from forumbot.texts import en, ru

MAFIA = ("Дон", "Маф1", "Маф2")


def _answer(r, key: str) -> str:  # type: ignore[no-untyped-def]
    return plain(next(m.text for m in r.run.messages if m.key == key))


def _id(g: Game) -> str:
    return g.events[-1].id


# --- C-15

def test_c15_count_is_the_text_of_the_public_count_at_that_moment() -> None:
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "Дон")
    g.vote("day 1", "+1h30m", "М2", "Маф1")
    g.pm("day 1", "+2h", "М3", "Подсчёт")  # the grid's count is made at +2h too
    asked = _id(g)
    r = g.run("day 1", "+3h")
    public = next(m for m in r.run.messages if m.key.startswith("day 1/count/") and "М2" in m.text)
    answer = next(m for m in r.run.messages if m.key == f"pm/{asked}")
    assert answer.to == "М3" and answer.text == public.text


def test_c15_count_at_most_once_in_ten_minutes_later_ones_say_when_it_was_sent() -> None:
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "Дон")
    g.pm("day 1", "+2h", "М3", "count")
    first = _id(g)
    g.pm("day 1", "+2h9m", "М3", "подсчет")
    second = _id(g)
    g.pm("day 1", "+2h9m", "М4", "подсчёт")  # another player's limit is his own
    other = _id(g)
    g.pm("day 1", "+2h10m", "М3", "подсчёт")
    third = _id(g)
    r = g.run("day 1", "+3h")
    assert "Промежуточный подсчёт" in _answer(r, f"pm/{first}")
    assert _answer(r, f"pm/{second}").startswith("Подсчёт уже отправлен вам в 01.12 12:00 МСК")
    assert "Промежуточный подсчёт" in _answer(r, f"pm/{other}")
    assert "Промежуточный подсчёт" in _answer(r, f"pm/{third}")


def test_c15_no_count_by_night_or_in_setup() -> None:
    g = Game.moscow()
    g.pm("setup", "-1h", "М1", "подсчёт")
    early = _id(g)
    g.pm("night 1", "+1h", "М1", "подсчёт")
    night = _id(g)
    r = g.run("night 1", "+2h")
    assert _answer(r, f"pm/{early}") == "Голосование ещё не началось: подсчёт будет с начала дня 1."
    assert _answer(r, f"pm/{night}") == "Сейчас ночь: голосования нет, подсчёт будет днём."


def test_c15_my_vote_names_the_vote_its_post_and_the_changes_left() -> None:
    g = Game.moscow()
    g.pm("day 1", "+30m", "М1", "мой голос")
    none = _id(g)
    g.vote("day 1", "+1h", "М1", "[b]Дон[/b]")
    g.pm("day 1", "+1h5m", "М1", "Мой голос")
    one = _id(g)
    g.vote("day 1", "+2h", "М1", "Маф1")
    g.pm("day 1", "+2h5m", "М1", "my vote")
    two = _id(g)
    g.vote("day 1", "+3h", "М1", "Маф2")  # over the limit (M-8): the count keeps Маф1
    g.pm("day 1", "+3h5m", "М1", "мой голос")
    three = _id(g)
    r = g.run("day 1", "+4h")
    assert _answer(r, f"pm/{none}") == ("Засчитанного голоса у вас сейчас нет.\n"
                                        "После первого голоса его можно будет сменить: 1 раз.")
    assert _answer(r, f"pm/{one}") == "Ваш голос: Дон — сообщение от 01.12 11:00 МСК: «Дон».\nСменить голос можно ещё: 1 раз."
    assert _answer(r, f"pm/{two}") == "Ваш голос: Маф1 — сообщение от 01.12 12:00 МСК: «Маф1».\nМенять голос больше нельзя."
    assert _answer(r, f"pm/{three}") == _answer(r, f"pm/{two}")


def test_c15_my_vote_with_unlimited_changes_r1() -> None:
    g = Game.moscow(options={"vote_changes": "unlimited"})
    g.vote("day 1", "+1h", "М1", "Дон")
    g.pm("day 1", "+2h", "М1", "мой голос")
    r = g.run("day 1", "+3h")
    assert _answer(r, f"pm/{_id(g)}").endswith("Голос можно менять до срока: засчитывается последний.")


def test_c15_role_is_the_role_pm_again() -> None:
    g = Game.moscow()
    g.pm("setup", "-1h", "Маф1", "роль")
    mafioso = _id(g)
    g.pm("day 1", "+1h", "Шериф", "РОЛЬ")
    sheriff = _id(g)
    r = g.run("day 1", "+2h")
    assert _answer(r, f"pm/{mafioso}") == _answer(r, "setup/role/Маф1")
    assert _answer(r, f"pm/{sheriff}") == _answer(r, "setup/role/Шериф")


def test_c15_a_nickname_that_is_the_word_stays_a_bare_nickname_move() -> None:
    """C-12 first: with a player named «Роль», the Sheriff's bare «Роль» is his check, as before C-15."""
    cast = [("Роль", Role.CIVILIAN) if nick == "М1" else (nick, role) for nick, role in MOSCOW_CAST]
    g = Game("moscow", cast)
    g.pm("night 1", "+1h", "Шериф", "Роль")
    r = g.run("night 1", "+2h")
    assert _answer(r, f"pm/{_id(g)}").startswith("Принято: проверка")


def test_c15_role_by_day_does_not_tell_that_hunting_will_close_h12() -> None:
    """Closed roles: after four modkills two town players are left, so the next night closes hunting (H-12), which
    the Doctor is not told before that night opens; his `роль` is the role PM he was dealt, hunt included."""
    cast = [("Ф1", Role.MAFIA), ("Док", Role.DOCTOR)] + [(f"Г{i}", Role.CIVILIAN) for i in range(1, 6)]
    g = Game("free_hunt", cast, options={"cast": {"mafia": 1, "doctor": 1, "maniac": 0}, "roles": "closed"})
    for hour, nick in enumerate(("Г1", "Г2", "Г3", "Г4"), 1):
        g.gm("day 1", f"+{hour}h", f"модкилл {nick}")
    g.pm("day 1", "+6h", "Док", "роль")
    r = g.run("day 1", "+7h")
    assert r.winner is None and not r.alive("Г4")
    assert _answer(r, f"pm/{_id(g)}") == _answer(r, "setup/role/Док")
    assert "«охота НИК маф»" in _answer(r, f"pm/{_id(g)}")


def _asking(g: Game, phase: str, offset: str, who: str) -> list[str]:
    ids = []
    for text in ("подсчёт", "мой голос", "роль"):
        g.pm(phase, offset, who, text)
        ids.append(_id(g))
    return ids


def test_c15_none_of_them_changes_the_game() -> None:
    def game(asking: bool) -> Game:
        g = Game.moscow()
        g.pm("setup", "-2h", "М6", "привет")  # Setup opens at the same time in both
        g.pm("night 1", "+1h", "Шериф", "проверка Дон")
        g.votes("day 1", {"Шериф": "М2", "Дон": "М2", "Маф1": "М2", "М1": "М2", "М3": "Дон"})
        g.pm("night 1", "+1h", "Дон", "убить М1")
        g.pm("night 1", "+1h", "Маф1", "убить М1")
        g.pm("night 1", "+1h", "Маф2", "убить М1")
        if asking:  # after the others, so that every other input keeps its id
            for who in ("Шериф", "Дон", "М1"):
                _asking(g, "setup", "-1h", who)
                _asking(g, "day 1", "+2h", who)
                _asking(g, "night 1", "+2h", who)
        return g
    quiet, asked = game(False), game(True)
    until = quiet.at("day 2", "+3h")
    (g1, r1), (g2, r2) = (play(x.setup(), x.events, until) for x in (quiet, asked))
    assert played(g1) == played(g2)
    answers = {f"pm/{inp.id}" for inp in asked.events if inp.text in ("подсчёт", "мой голос", "роль")}
    assert len(answers) == 27
    assert [m for m in r2.messages if m.key not in answers] == list(r1.messages)


CANARIES = {"Шериф": "КАНАРЕЙКА-ШЕРИФ", "Дон": "КАНАРЕЙКА-ДОН", "Маф1": "КАНАРЕЙКА-МАФ1"}


def test_c15_privacy_canary_nobody_is_told_what_he_was_not_told() -> None:
    """The pages' canary, asked by PM: a dead player, a mafia member, the Sheriff with his checks, pending night
    moves and the Don's nomination. No answer holds another player's PM, a role he was not told, a check result
    or a move not yet resolved; the count answered is the public count."""
    g = Game("moscow", [(n, None if r in (Role.DON, Role.MAFIA) else r) for n, r in MOSCOW_CAST], seed=3)
    g.pm("setup", "-2h", "Маф1", f"дон Маф2\n{CANARIES['Маф1']}")  # the Don's nomination, pending until Day 1
    g.votes("day 1", {"Шериф": "М2", "М1": "М2", "М3": "М2", "М4": "М2", "М5": "М2", "М6": "М2"})
    g.pm("night 1", "+1h", "Шериф", f"проверка Маф1\n{CANARIES['Шериф']}")  # a check, its result at night's end
    for who in MAFIA:
        g.pm("night 1", "+1h", who, f"убить М1\n{CANARIES.get(who, '')}")  # a pending shot
    g.vote("day 2", "+1h", "М3", "Маф1")
    asked: dict[str, tuple[str, list[str]]] = {}
    for phase, offset in (("setup", "-1h"), ("day 1", "+3h"), ("night 1", "+2h"), ("day 2", "+3h")):
        for who in ("М2", "М1", "Маф2", "Маф1", "Шериф", "Дон", "М3"):  # М2 hanged on Day 1, М1 shot at night
            asked[f"{phase} {who}"] = (who, _asking(g, phase, offset, who))
    r = g.run("day 2", "+4h")
    assert r.alive("Шериф") and not r.alive("М2") and not r.alive("М1")
    assert any(CANARIES["Шериф"] in m.text for m in r.run.messages)  # the canary reached a PM: it could fail
    public = {plain(m.text) for m in r.run.messages if m.where == "vote"}
    check = _answer(r, "night 1/check/Шериф")
    for label, (who, ids) in asked.items():
        count, vote, role = (_answer(r, f"pm/{i}") for i in ids)
        said = "\n".join((count, vote, role))
        for author, canary in CANARIES.items():
            assert author == who or canary not in said, (label, canary)
        assert check not in said, label  # the Sheriff's result is in no answer, his own included: it is no question
        if "Промежуточный" in count:
            assert count in public or count.split("\n\nОбсуждение")[0] in public, label
        told_role = [plain(m.text) for m in r.run.messages if m.to == who and m.key.startswith("setup/role/")][0]
        if label.startswith("setup") or who != "Маф2":  # his role as dealt: never the nomination before Day 1
            assert role.split("\n")[0] == told_role.split("\n")[0], label
        else:  # the Don chosen at Day 1's opening (M-1), as he was told then
            assert role.startswith("Ваша роль: дон мафии.") and _answer(r, "setup/don/Маф2").startswith("Дон мафии — Маф2")
        if who not in MAFIA:  # a town player's role PM names no mafia member (its example moves in «» aside)
            assert not [n for n in MAFIA if n in re.sub(r"«[^»]*»", "", role)], label
            assert "мафи" not in role.casefold(), label


# --- M-15

def _conference(**kw) -> Game:  # type: ignore[no-untyped-def]
    return Game.moscow(options={"conference": "relay", **kw})


def test_m15_setup_opens_the_conference_for_every_mafia_member_naming_when_it_closes() -> None:
    r = _conference().run("day 1", "+1h")
    for who in MAFIA:
        text = _answer(r, f"setup/conference/{who}")
        others = [n for n in MAFIA if n != who]
        assert text.startswith(f"Конференция мафии открыта до начала дня 1 (01.12 10:00 МСК). Партнёры: "
                               f"{others[0]} и {others[1]}.")
    assert not any(m.key.startswith("setup/conference/") and m.to not in MAFIA for m in r.run.messages)


def test_m15_a_members_conf_pm_is_forwarded_signed_and_acknowledged() -> None:
    g = _conference()
    g.pm("setup", "-1h", "Маф1", "конфа: маяк — [b]жирный[/b] ник")
    r = g.run("day 1", "+1h")
    sent = {m.to: m.text for m in r.run.messages if m.key.startswith(f"pm/{_id(g)}/conference/")}
    assert set(sent) == {"Дон", "Маф2"}
    assert all(text == "Конференция — [b]Маф1[/b]: маяк — [\u200bb]жирный[\u200b/b] ник" for text in sent.values())
    assert _answer(r, f"pm/{_id(g)}") == "Переслано в конференцию: Дон и Маф2."


def test_m15_nothing_said_in_the_conference_is_a_move_or_a_nomination() -> None:
    def game(line: str) -> Game:
        g = Game("moscow", [(n, None if r in (Role.DON, Role.MAFIA) else r) for n, r in MOSCOW_CAST],
                 options={"conference": "relay"}, seed=5)
        g.pm("setup", "-1h", "Маф1", line)
        return g
    plain_game, talking = game("подтверждаю"), game("конфа дон Маф2\nубить М1\nподтверждаю")
    until = plain_game.at("day 2", "+1h")
    (g1, r1), (g2, _) = (play(x.setup(), x.events, until) for x in (plain_game, talking))
    assert g2.don_nomination is None and not g2.moves.by_player and not g2.seats["Маф1"].confirmed
    assert g1.seats["Маф1"].confirmed
    assert [m.text for m in r1.messages if m.where == "game"] == \
        [m.text for m in play(talking.setup(), talking.events, until)[1].messages if m.where == "game"]


def test_m15_it_closes_when_day_one_opens_and_a_later_conf_is_refused_with_that_reason() -> None:
    g = _conference()
    g.pm("day 1", "+1h", "Дон", "конфа ещё слово")
    r = g.run("day 1", "+2h")
    for who in MAFIA:
        closed = next(m for m in r.run.messages if m.key == f"setup/conference-closed/{who}")
        assert plain(closed.text) == "Конференция закрыта: дальше мафия не общается." and closed.to == who
        assert closed.at == g.at("day 1", "+0h")
    assert _answer(r, f"pm/{_id(g)}") == "Конференция закрыта: дальше мафия не общается."
    assert not any(m.key.startswith(f"pm/{_id(g)}/conference/") for m in r.run.messages)


def test_m15_a_non_member_is_refused_and_nothing_is_forwarded() -> None:
    g = _conference()
    g.pm("setup", "-1h", "М1", "конфа я свой")
    r = g.run("day 1", "+1h")
    assert _answer(r, f"pm/{_id(g)}") == "Конференция — только для мафии: ваше сообщение никому не переслано."
    assert not any("я свой" in m.text for m in r.run.messages if m.to != "М1")


def test_m15_a_replacement_mafia_member_before_day_one_joins_the_conference() -> None:
    g = _conference()
    g.gm("setup", "-3h", "замена Маф2 Новый")
    g.pm("setup", "-2h", "Новый", "конфа я на замене")
    new = _id(g)
    g.pm("setup", "-1h", "Дон", "конфа привет")
    don = _id(g)
    g.pm("setup", "-1h", "Маф2", "конфа я ещё тут")  # the old account plays no seat
    r = g.run("day 1", "+1h")
    invite = next(m for m in r.run.messages if m.key.endswith("/conference") and m.key.startswith("gm/"))
    assert invite.to == "Новый" and "Партнёры: Дон и Маф1" in plain(invite.text)
    assert {m.to for m in r.run.messages if m.key.startswith(f"pm/{new}/conference/")} == {"Дон", "Маф1"}
    assert {m.to for m in r.run.messages if m.key.startswith(f"pm/{don}/conference/")} == {"Маф1", "Новый"}
    assert not any("я ещё тут" in m.text for m in r.run.messages)
    assert any(m.key == "setup/conference-closed/Маф2" and m.to == "Новый" for m in r.run.messages)


def test_m15_conversation_is_one_pm_to_every_member_naming_them_all_and_when_it_closes() -> None:
    r = Game.moscow(options={"conference": "conversation"}).run("day 1", "+1h")
    opened = [m for m in r.run.messages if "conference" in m.key and "closed" not in m.key]
    assert [(m.key, m.to) for m in opened] == [("setup/conference", "Дон, Маф1, Маф2")]
    assert plain(opened[0].text).startswith("Конференция мафии: Дон, Маф1 и Маф2. Ответы на это сообщение видят все "
                                            "его получатели; конференция открыта до начала дня 1 (01.12 10:00 МСК).")


def test_m15_conversation_closes_when_day_one_opens_with_one_pm_to_all_of_them() -> None:
    g = Game.moscow(options={"conference": "conversation"})
    r = g.run("day 1", "+1h")
    closed = [m for m in r.run.messages if m.key.startswith("setup/conference-closed")]
    assert [(m.key, m.to) for m in closed] == [("setup/conference-closed", "Дон, Маф1, Маф2")]
    assert closed[0].at == g.at("day 1", "+0h")
    assert plain(closed[0].text) == "Конференция закрыта: дальше мафия не общается."


def test_m15_conversation_a_replacement_gets_a_new_conversation_with_the_current_mafia() -> None:
    g = Game.moscow(options={"conference": "conversation"})
    g.gm("setup", "-3h", "замена Маф2 Новый")
    r = g.run("day 1", "+1h")
    joined = next(m for m in r.run.messages if m.key.startswith("gm/") and m.key.endswith("/conference"))
    assert joined.to == "Дон, Маф1, Новый" and "Дон, Маф1 и Новый" in plain(joined.text)
    closed = next(m for m in r.run.messages if m.key == "setup/conference-closed")
    assert closed.to == "Дон, Маф1, Новый"


def test_m15_conversation_has_no_relay_and_a_conf_pm_is_not_forwarded() -> None:
    g = Game.moscow(options={"conference": "conversation"})
    g.pm("setup", "-1h", "Маф1", "конфа привет")
    r = g.run("day 1", "+1h")
    assert not any(m.key.startswith(f"pm/{_id(g)}/conference/") for m in r.run.messages)


def test_m15_none_turns_it_off_and_conf_reads_as_before() -> None:
    for options in ({"conference": "none"}, {}):
        g = Game.moscow(options=options)
        g.pm("setup", "-1h", "Маф1", "конфа привет")
        r = g.run("day 1", "+1h")
        assert not any("onference" in m.key for m in r.run.messages)
        assert _answer(r, f"pm/{_id(g)}").startswith("Не понято: «конфа привет»")


def test_m15_the_option_is_moscow_only_and_init_writes_the_conversation(tmp_path) -> None:
    assert option_problems("moscow", {"conference": "relay"}) == []
    assert option_problems("moscow", {"conference": "chat"}) == [
        "options.conference: must be 'conversation' or 'relay' or 'none', got 'chat' (M-15)"]
    assert option_problems("moscow", {"conference": "conversation"}) == []
    assert option_problems("free_hunt", {"conference": "relay"})
    path = tmp_path / "forumbot.toml"
    path.write_text(example_config(), encoding="utf-8")
    game = load_config(path).games["autumn"]
    assert game.variant == "moscow" and game.options["conference"] == "conversation"  # `forumbot init` turns M-15 on
    path.write_text(example_config().replace('conference = "conversation"', 'conference = "none"'), encoding="utf-8")
    assert load_config(path).games["autumn"].options["conference"] == "none"


def test_m15_and_c15_texts_in_both_languages() -> None:
    assert ru.T["conference.closed"] == "Конференция закрыта: дальше мафия не общается."
    assert en.T["conference.closed"] == "The conference is closed: from now on the mafia do not talk."
    g = _conference(vote_changes=1)
    g.language = "en"
    g.pm("setup", "-1h", "Маф1", "conf hello")
    conf = _id(g)
    g.vote("day 1", "+1h", "М1", "Дон")
    g.pm("day 1", "+2h", "М1", "my vote")
    vote = _id(g)
    r = g.run("day 1", "+3h")
    assert _answer(r, f"pm/{conf}") == "Forwarded to the conference: Дон and Маф2."
    assert _answer(r, f"pm/{conf}/conference/Дон") == "Conference — Маф1: hello"
    assert _answer(r, f"pm/{vote}") == "Your vote: Дон — the post of 01.12 11:00 MSK: “Дон”.\nVote changes left: 1 time."
    assert _answer(r, "setup/conference-closed/Маф2") == "The conference is closed: from now on the mafia do not talk."


MOVED = {"ru": "Начало дня 1 перенесено: конференция мафии открыта до 01.12 12:00 МСК.",
         "en": "Day 1 now begins at another time: the mafia conference stays open until 01.12 12:00 MSK."}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_m15_an_extend_in_setup_tells_the_relay_that_the_conference_stays_open_until_the_new_time(language) -> None:  # type: ignore[no-untyped-def]
    """Issue 28 (stop 36's walk-through): after `продлить` during Setup the game thread said when Day 1 opens, the
    mafia were not told their conference stays open until then (M-15: it closes when Day 1 opens)."""
    g = Game.moscow(options={"conference": "relay"}, language=language)
    g.gm("setup", "-3h", "продлить 2ч")
    extend = _id(g)
    g.pm("day 1", "+1h", "Дон", "конфа ещё открыто?")  # 11:00: Day 1 now opens at 12:00
    still = _id(g)
    r = g.run("day 1", "+3h")
    told = {m.to: plain(m.text) for m in r.run.messages if m.key.startswith(f"gm/{extend}/conference/")}
    assert told == {who: MOVED[language] for who in MAFIA}
    assert {m.to for m in r.run.messages if m.key.startswith(f"pm/{still}/conference/")} == {"Маф1", "Маф2"}
    closed = next(m for m in r.run.messages if m.key == "setup/conference-closed/Дон")
    assert closed.at == g.at("day 1", "+2h")


def test_m15_an_extend_in_setup_is_told_in_the_conference_conversation_and_a_replacement_gets_the_new_time() -> None:
    g = Game.moscow(options={"conference": "conversation"})
    g.gm("setup", "-3h", "продлить 2ч")
    extend = _id(g)
    g.gm("setup", "-2h", "замена Маф2 Новый")
    r = g.run("day 1", "+3h")
    (told,) = [m for m in r.run.messages if m.key == f"gm/{extend}/conference"]
    assert (told.to, plain(told.text)) == ("Дон, Маф1, Маф2", MOVED["ru"])
    joined = next(m for m in r.run.messages if m.key == f"gm/{_id(g)}/conference")
    assert joined.to == "Дон, Маф1, Новый"
    assert "конференция открыта до начала дня 1 (01.12 12:00 МСК)" in plain(joined.text)


def test_m15_an_extend_after_day_one_opened_tells_no_conference() -> None:
    g = Game.moscow(options={"conference": "relay"})
    g.gm("day 1", "+1h", "продлить 2ч")
    r = g.run("day 1", "+3h")
    assert not any(m.key.startswith(f"gm/{_id(g)}/conference") for m in r.run.messages)


def test_m15_an_undone_extend_in_setup_tells_the_conference_the_time_back() -> None:
    g = Game.moscow(options={"conference": "relay"})
    g.gm("setup", "-3h", "продлить 2ч")
    g.gm("setup", "-2h", "отмена")
    undo = _id(g)
    r = g.run("day 1", "+1h")
    told = {m.to: plain(m.text) for m in r.run.messages if m.key.startswith(f"undo/{undo}/conference/")}
    assert told == {who: "Начало дня 1 перенесено: конференция мафии открыта до 01.12 10:00 МСК." for who in MAFIA}
