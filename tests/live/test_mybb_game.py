"""A whole Free Hunt game (12 players) on a real MyBB 1.8.37 board through `forumbot tick` (issue 8 item 2).

Board knobs: POST_FLOOD=2 and PM_FLOOD=2 (stock 60 s each: a game would take an hour; the bot's `intervals` are
3 s), MIN_MSG=1 (stock 5 refuses the vote "Маша"), MERGE_MINS stock (60): MyBB merges a member's post into his own last post of the thread when nobody posted
in between, so the bot's consecutive posts (the setup post and Day 1's opening, a final count and the night's
opening) become one post holding several markers; the adapter sees the merge (a pid not newer than the last) and
the test checks that every marker is on the board once. Players never post twice in a row here (a merged vote
is an edited post: void, C-11). The schedule is hours long: only the GM's `конец-фазы` PMs advance the game,
each folded by the next tick (the board's time format shows seconds, conftest.EXACT_TIMES). Roles are given:
  Setup: 12 role PMs, confirmations by PM, a forged GM command from a player (changes nothing).
  Day 1: votes bare, bold, a nick with a space, a Latin look-alike, an explanation and a quote (rejected, H-3),
         an agitation (a vote against its author, H-4), an edit (void, C-11), a deletion by the admin (C-11),
         and a no-show: Мурзик is autokilled, so nobody leaves by vote (H-5, H-6). The tick that resolves
         the day is SIGKILLed right after its first post went out.
  Night 1: the mafia shoot Маша and the doctor heals her; the maniac kills Кот Баюн; Дядя Фёдор hunts Kolya_95
         (mafia: right guess); the GM modkills ёжик and undoes it (C-9).
  Day 2: the GM modkills the last mafioso and the maniac: the town wins; the end post lists roles and the seed.
Asserted: the outcome, every bot post and PM on the board exactly once, every input answered (none lost).
"""

from __future__ import annotations

import time

import pytest

from livegame import LiveGame

pytestmark = pytest.mark.live

ROLES = {"Lucky_Strike": "mafia", "Kolya_95": "mafia", "Мурзик": "mafia", "Наташа": "doctor",
         "Старый Мельник": "maniac"}


def test_a_free_hunt_game_on_mybb(mybb_board, tmp_path):
    t0 = time.monotonic()
    board = mybb_board
    gm, admin = board.member(board.gm), board.member(board.admin)
    p = {name: board.member(name) for name in board.players}
    game = LiveGame(board, tmp_path, "g1", "free_hunt", ROLES, {"post": 3, "pm": 3})
    vote = game.vote_topic

    # --- Setup: role PMs, confirmations, a forged GM command, the GM opens Day 1 ---------------------------------
    game.play_setup(gm, p, ROLES, "Ёлка", f"{board.gm}: конец-фазы")

    # --- Day 1 ---------------------------------------------------------------------------------------------------
    masha = p["Маша"].reply(vote, "Кот Баюн")                                 # bare
    p["Кот Баюн"].reply(vote, "Маша")
    p["Дядя Фёдор"].reply(vote, "[b]Alex Smith[/b]")                         # bold, a nick with a space
    p["Lucky_Strike"].reply(vote, "Hаташа")                                   # Latin H (C-4)
    p["ёжик"].reply(vote, "Маша, потому что молчит")                          # explanation: rejected (H-3)
    p["Петя2007"].reply(vote, "голосуйте за Маша")                            # agitation: against himself (H-4)
    p["Alex Smith"].quote(vote, masha, "Кот Баюн")                            # a quote: rejected (H-3)
    edited = p["Наташа"].reply(vote, "Ёлка")                                  # edited below: void (C-11)
    deleted = p["Ёлка"].reply(vote, "Kolya_95")                               # deleted below by the admin
    p["Kolya_95"].reply(vote, "Маша")
    p["Старый Мельник"].reply(vote, "Маша")
    game.tick()  # the bot has seen every vote before the edit and the deletion
    p["Наташа"].edit(edited, "Маша")
    admin.delete(deleted)
    p["ёжик"].reply(vote, "Маша")
    p["Alex Smith"].reply(vote, "Кот Баюн")
    p["Ёлка"].reply(vote, "Kolya_95")
    p["Наташа"].reply(vote, "Ёлка")
    game.tick()

    game.end_phase(gm)
    before = game.bot_posts(gm)
    assert game.tick_killed_at("after_send") == 137, "the crash point was never reached"
    after_crash = game.bot_posts(gm)
    assert after_crash != before, "the killed tick should have sent its first post"
    game.tick()
    text = game.game_text(gm)
    assert text.count("Итоговый подсчёт голосов") == 1, text
    final = text.split("Итоговый подсчёт голосов", 1)[1]
    assert "Автокилл: Мурзик покидает игру (причина — нет голоса)." in final, f"no autokill (H-5): {final}"
    assert "Из-за автокилла по итогам голосования никто не уходит." in final, final
    assert "Агитация: Петя2007" in final, f"agitation not counted against its author (H-4): {final}"
    assert "Не засчитано: ёжик" in final and "Не засчитано: Alex Smith" in final, f"H-3 rejections: {final}"
    assert "Не засчитано: Наташа" in final and "отредактировано" in final, f"edited vote not named (C-11): {final}"
    assert "удал" in final, f"the deleted vote is not named in the final count (C-11): {final}"
    assert "нет игрока с ником «Hаташа»" not in final, f"a Latin H look-alike was rejected (C-4): {final}"
    assert "Наступила ночь 1" in text.split("Итоговый подсчёт голосов", 1)[1]

    # --- Night 1 -------------------------------------------------------------------------------------------------
    p["Lucky_Strike"].pm(board.bot, "g1", "убить Маша")
    p["Наташа"].pm(board.bot, "g1", "лечу Маша")
    p["Старый Мельник"].pm(board.bot, "g1", "убить Кот Баюн")
    p["Дядя Фёдор"].pm(board.bot, "g1", "охота Kolya_95 маф")
    gm.pm(board.bot, "g1", "модкилл ёжик проверка")
    game.tick()
    gm.pm(board.bot, "g1", "отмена")
    game.tick()
    assert any("Принято: выстрел. Цель — Маша" in m.text for m in p["Lucky_Strike"].pms_from(board.bot))
    assert any("Принято: лечение. Цель — Маша." in m.text for m in p["Наташа"].pms_from(board.bot))
    assert any("Принято: охота. Цель — Kolya_95" in m.text for m in p["Дядя Фёдор"].pms_from(board.bot))
    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    night = text.split("Итоги ночи 1.", 1)[1]
    assert "Жертва маньяка: Кот Баюн" in night and "Жертва охоты: Kolya_95" in night, night[:800]
    assert "Жертва мафии" not in night.split("Наступил день 2", 1)[0], "the doctor's heal did not hold (H-9)"
    assert "ёжик" in night.split("В игре", 1)[1], "the undone modkill still holds (C-9)"

    # --- Day 2: the GM ends it -------------------------------------------------------------------------------------
    gm.pm(board.bot, "g1", "модкилл Lucky_Strike")
    gm.pm(board.bot, "g1", "модкилл \"Старый Мельник\"")
    board.wait_past_a_pm()  # the GM's PMs folded by the next tick (C-1, C-9)
    game.tick_until_ended()  # no idle tick after the end
    game.assert_town_won(gm)

    posts, pms = game.assert_each_once(gm, [gm, *p.values()])
    game.assert_outbox_drained()
    status = game.cli("game", "status", "g1").stdout
    assert "форум склеил с предыдущим постом бота" in status, status  # issue 11 item 6
    game.assert_no_literal_markup(gm)  # issue 11: the board rendered every tag the bot wrote
    game.screenshot_posts(gm, "Наступил день 1", "Итоговый подсчёт голосов", "day1")  # for a person to look at
    replayed = game.assert_export_replays()  # issue 11 item 10: the dispute tool on this very game
    print(f"\nMyBB Free Hunt game: {time.monotonic() - t0:.0f} s, {posts} bot posts, {pms} bot PMs, {replayed} messages "
          f"replayed from the export; log: {game.log}")
