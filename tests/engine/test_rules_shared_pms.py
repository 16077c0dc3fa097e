"""A PM written to the bot and others at once (M-15: moves and commands count only in PMs to the bot): a player's is
no move, and he is told once, for that PM, to send it to the bot alone, because nothing a player sent is dropped
silently; the mafia's talk in the conference conversation during Setup is not answered; a GM's is his command."""

from __future__ import annotations

from gamekit import Game, plain

from forumbot.texts import en, ru


def _answers(r, inp) -> list[str]:  # type: ignore[no-untyped-def]
    return [plain(m.text) for m in r.run.messages if m.key.startswith(f"pm/{inp.id}")]


RU = ("Это письмо адресовано не только боту, поэтому бот его не читает: ходы и команды засчитываются только в "
      "личном сообщении боту одному. Отправьте его ещё раз, без других получателей.")


def test_m15_a_night_move_cced_to_the_gm_is_no_move_and_the_sender_is_told_once() -> None:
    g = Game.moscow()
    cc = g.cc("night 1", "+1h", "Шериф", "проверка Маф1")
    r = g.run("day 2", "+1h")
    assert not any("Результат проверки" in t for t in r.pms("Шериф")), "a CC'd check was read as a move"
    assert _answers(r, cc) == [RU]
    assert [m.to for m in r.run.messages if m.key.startswith(f"pm/{cc.id}")] == ["Шериф"]
    assert any(f"PM {cc.id} from Шериф to the bot and others: not read" in line for line in r.run.log)


def test_m15_the_same_move_to_the_bot_alone_counts() -> None:
    g = Game.moscow()
    g.cc("night 1", "+1h", "Шериф", "проверка Маф1")
    g.pm("night 1", "+2h", "Шериф", "проверка Маф1")
    r = g.run("day 2", "+1h")
    assert "Результат проверки: Маф1 — мафия." in r.pms("Шериф")


def test_m15_a_question_cced_is_not_answered_as_asked_c15() -> None:
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "Дон")
    cc = g.cc("day 1", "+2h", "М1", "мой голос")
    r = g.run("day 1", "+3h")
    assert _answers(r, cc) == [RU]


def test_m15_the_mafias_talk_in_the_conference_conversation_is_not_answered() -> None:
    g = Game.moscow(options={"conference": "conversation"})
    talk = g.cc("setup", "-3h", "Маф1", "Маяк: ник жирным.")
    r = g.run("day 1", "+1h")
    assert _answers(r, talk) == [] and r.pms("Маф1")[-1:] != [RU]
    assert any(f"PM {talk.id} from Маф1 to the bot and others: the conference" in line for line in r.run.log)


def test_m15_after_the_conference_closes_a_mafia_members_cc_is_answered() -> None:
    g = Game.moscow(options={"conference": "conversation"})
    cc = g.cc("night 1", "+1h", "Дон", "проверка Шериф")
    r = g.run("day 2", "+1h")
    assert _answers(r, cc) == [RU]
    assert not any("Результат проверки" in t for t in r.pms("Дон"))


def test_m15_a_civilians_cc_during_setup_is_answered_even_with_a_conversation() -> None:
    g = Game.moscow(options={"conference": "conversation"})
    cc = g.cc("setup", "-3h", "М1", "подтверждаю")
    r = g.run("day 1", "+1h")
    assert _answers(r, cc) == [RU]


def test_m15_c9_a_gms_command_cced_to_a_co_gm_is_read_as_his_command() -> None:
    g = Game.moscow(gms=("ГМ", "ГМ2"))
    g.votes("day 1", {"М1": "М3", "М2": "М3"})
    cc = g.cc("day 1", "+2h", "ГМ", "пауза")
    r = g.run("day 2", "+1h")
    assert r.run.phase == "day 1" and r.alive("М3"), "the CC'd pause was not read"
    assert not any(t == RU for t in r.pms("ГМ"))
    assert [c[0] for c in r.run.commands] == [cc.id]


def test_m15_the_answer_in_english() -> None:
    assert en.T["pm.shared_refused"] == ("This PM went to others besides the bot, so the bot does not read it: moves "
                                         "and commands count only in a PM to the bot alone. Send it again with no "
                                         "other recipients.")
    assert ru.T["pm.shared_refused"] == RU
    g = Game.moscow(language="en")
    cc = g.cc("night 1", "+1h", "Шериф", "check Маф1")
    assert _answers(g.run("day 2", "+1h"), cc) == [en.T["pm.shared_refused"]]
