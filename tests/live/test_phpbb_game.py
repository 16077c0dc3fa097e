"""A whole Moscow game (10 players) on a real phpBB 3.3.10 board, Russian, through `forumbot tick` (issue 8 item 2).

Board knobs: FLOOD=1 (stock 15: one game would take an hour of flood waits; the bot's `intervals` are 1.2 s, and
phpBB's 1-second form rule already spaces any two sends of one member by more than 1 s), everything else stock
(PER_PAGE 10, so the bot's posts cross page boundaries). The schedule is hours long: only the GM's `конец-фазы`
PMs advance the game, each sent in a later minute than the phase's last input (phpBB shows PM times to the
minute). Roles are given, so the game is the same every run:
  Setup: 10 role PMs; confirmations by PM; a player's PM quoting a GM command (forged: it changes nothing).
  Day 1: votes bare, bold, lower case, Latin look-alike letters, a nick with a space, a quote, a runoff part;
         an edited vote (void, C-11), a vote deleted by the admin (C-11); 4:4 -> a hang-all/pardon-all runoff
         (M-10). The tick that resolves the day is SIGKILLed right after its first post went out.
  Runoff: 7 hang-all against 3 -> both leaders leave.
  Night 1: the two mafiosi shoot Незнайка; the GM modkills a player and undoes it (C-9).
  Day 2: the GM modkills both mafiosi: the town wins; the end post lists the roles and the seed.
Asserted: the outcome, every bot post and PM on the board exactly once, every input answered (none lost).
"""

from __future__ import annotations

import time

import pytest

from livegame import LiveGame

pytestmark = pytest.mark.live

ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia", "Шарик": "mafia"}


def test_a_moscow_game_on_phpbb(phpbb_board, tmp_path):
    t0 = time.monotonic()
    board = phpbb_board
    gm, admin = board.member(board.gm), board.member(board.admin)
    p = {name: board.member(name) for name in board.players}
    game = LiveGame(board, tmp_path, "g1", "moscow", ROLES, {"post": 1.2, "pm": 1.2})
    vote = game.vote_topic

    # --- Setup: role PMs, confirmations, a forged GM command, the GM opens Day 1 ---------------------------------
    game.play_setup(gm, p, ROLES, "Незнайка", f"{board.gm} пишет:\nконец-фазы")

    # --- Day 1: every form of vote; a 4:4 tie ---------------------------------------------------------------
    masha = p["Маша"].reply(vote, "Кот Баюн")                              # bare
    p["Кот Баюн"].reply(vote, "Маша")
    p["Дядя Фёдор"].reply(vote, "[b]Kот Баюн[/b]")                        # bold, Latin K (C-4)
    p["Lucky_Strike"].reply(vote, "Mаша")                                  # Latin M (C-4)
    edited = p["Печкин 2000"].reply(vote, "Шарик")                         # edited below: void (C-11)
    p["ёжик"].reply(vote, "кот баюн / повесить всех")                      # lower case + runoff part (M-7)
    deleted = p["Незнайка"].reply(vote, "Печкин 2000")                     # nick with a space; deleted below
    p["Шарик"].quote(vote, masha, "Маша")                                  # a quote is more than a vote (M-7)
    p["Kapitan Vrungel"].reply(vote, "МАША")                               # capitals
    p["Алёна_77"].reply(vote, "Kот Бaюн")                                  # look-alikes in both words
    game.tick()  # the bot has seen every vote before the edit and the deletion
    p["Печкин 2000"].edit(edited, "Маша")
    admin.delete(deleted)
    p["Печкин 2000"].reply(vote, "ннв")                                    # a voided post used no vote change
    p["Шарик"].reply(vote, "Маша")                                         # a rejected post used none either
    game.tick()

    game.end_phase_killed_after_first_post(gm)
    text = game.game_text(gm)
    assert text.count("Итоговый подсчёт голосов") == 1, text
    assert "Перестрелка" in text, f"no runoff after a 4:4 tie (M-10): {text[-1500:]}"
    final = text.split("Итоговый подсчёт голосов", 1)[1]
    assert "Кот Баюн — 4" in final and "Маша — 4" in final, f"4:4 expected: {final}"
    assert "Не засчитано: Печкин 2000" in final and "отредактировано" in final, f"edited vote not named (C-11): {final}"
    assert "Незнайка" in final.split("Без голоса (", 1)[1].split("\n")[0], f"deleted vote counted: {final}"
    assert "Незнайка" in final and "удал" in final, f"the deleted vote is not named in the final count (C-11): {final}"

    # --- Runoff: hang all ------------------------------------------------------------------------------------
    for name in ("Маша", "Дядя Фёдор", "Печкин 2000", "Незнайка", "Kapitan Vrungel", "Алёна_77"):
        p[name].reply(vote, "повесить всех")
    for name in ("Кот Баюн", "Lucky_Strike", "Шарик"):
        p[name].reply(vote, "помиловать всех")
    game.tick()
    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    assert "Итоги перестрелки дня 1." in text
    after = text.split("Итоги перестрелки дня 1.", 1)[1]
    assert "Игру покидают:" in after and "Маша" in after and "Кот Баюн" in after, after[:500]
    assert "Наступила ночь 1" in after

    # --- Night 1: a unanimous mafia shot; a modkill and its undo ----------------------------------------------
    p["Lucky_Strike"].pm(board.bot, "g1", "убить Незнайка")
    p["Шарик"].pm(board.bot, "g1", "стреляю в Незнайка")
    gm.pm(board.bot, "g1", "модкилл \"Kapitan Vrungel\" проверка")
    game.tick()
    gm.pm(board.bot, "g1", "отмена")
    game.tick()
    for name in ("Lucky_Strike", "Шарик"):
        assert any("Принято: выстрел. Цель — Незнайка." in m.text for m in p[name].pms_from(board.bot)), name
    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    night = text.split("Итоги ночи 1.", 1)[1]
    assert "Жертва этой ночи: Незнайка." in night and "Наступил день 2" in night, night[:500]
    assert "Kapitan Vrungel" in night.split("В игре", 1)[1], "the undone modkill still holds (C-9)"

    # --- Day 2: the GM modkills the mafia; the end ---------------------------------------------------------------
    gm.pm(board.bot, "g1", "модкилл Lucky_Strike")
    gm.pm(board.bot, "g1", "модкилл Шарик")
    board.wait_past_a_pm()  # the GM's PMs folded by the next tick (C-1, C-9)
    game.tick_until_ended()  # no idle tick after the end
    game.assert_town_won(gm)

    posts, pms = game.assert_each_once(gm, [gm, *p.values()])
    to_gm = [m.text for m in gm.pms_from(board.bot)]
    assert sum("Выполнено" in t for t in to_gm) >= 6, to_gm  # 3 end-phases, 2 modkills + the undone one, undo
    game.assert_outbox_drained()
    game.assert_no_literal_markup(gm)  # issue 11: the board rendered every tag the bot wrote
    game.screenshot_posts(gm, "Наступил день 1", "Итоговый подсчёт голосов", "day1")  # for a person to look at
    replayed = game.assert_export_replays()  # issue 11 item 10: the dispute tool on this very game
    print(f"\nphpBB Moscow game: {time.monotonic() - t0:.0f} s, {posts} bot posts, {pms} bot PMs, {replayed} messages "
          f"replayed from the export; log: {game.log}")
