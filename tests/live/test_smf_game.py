"""A whole Moscow game (10 players) on a real SMF 2.1.4 board (stock English, MariaDB) through `forumbot tick`
(issue 9 "Done means", issue 8 item 2).

Moscow rather than Free Hunt: it has the runoff (M-10) and a check for each of its night roles (the Sheriff's
and the Don's, M-3, M-4) besides the shot, and 10 players rather than 12-17, which matters on SMF: its flood
timer is per IP, so every member and the bot share one.
Board knobs: SEED_POSTS=0; SPAM_WAIT=2 (stock 5: with one timer per IP for all ~80 sends of a game the stock
limit would add minutes; the bot's `intervals` are 3 s, as SMF lets go of an entry only when it is older than
the limit in whole seconds); EDIT_WAIT=0 (stock 90 s: an author's edit within it leaves no edit notice, so the
edited vote would count, C-11); and the bot's PM limit per hour (pm_spam_settings, stock "10,5,20": 20 PMs an
hour for a Regular Member) is raised to 200 through the board's settings: Setup alone sends 21 PMs (10 roles,
10 confirmations, the GM's notice). PER_PAGE stock 15: the vote thread runs over two pages.
The bot's account shows times to the second (conftest.EXACT_TIMES; stock SMF shows minutes, "Today at 04:08 PM",
as smf_stock_board does): a GM's end-phase is folded by the next tick (LiveGame.end_phase). Roles are given, so the game is the same every run:
  Setup: 10 role PMs; confirmations by PM; a player's PM quoting a GM command (forged: changes nothing, C-9).
  Day 1: votes bare, bold, Latin look-alikes (a capital A, a small p), lower case, capitals, a nick with a space,
         a runoff part; an explanation, an agitation and a quote (not votes, M-7); an edited vote (void, C-11) and
         one deleted by the GM, a Global Moderator (C-11); 4:4 -> a hang-all/pardon-all runoff (M-10). The tick
         that resolves the day is SIGKILLed right after its first post went out.
  Runoff: 7 hang-all (one from a runoff part) against 3 -> both leaders leave.
  Night 1: the Sheriff checks a mafioso, the Don checks the Sheriff (one PM with his shot), the three mafiosi
         shoot Незнайка; the GM modkills a player and undoes it (C-9). An idle tick then costs one request a
         thread and one for the inbox, and no login.
  Day 2: the GM modkills the three mafiosi: the town wins; the end post lists the roles and the seed.
Asserted: the outcome, every bot post and PM on the board exactly once, every input answered, the outbox drained.
"""

from __future__ import annotations

import time

import pytest

from board_smf import set_setting
from livegame import LiveGame

pytestmark = pytest.mark.live

ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia", "Шарик": "mafia"}


def test_a_moscow_game_on_smf(smf_board, tmp_path):
    t0 = time.monotonic()
    board = smf_board
    set_setting(board, "pm_spam_settings", "10,5,200")
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in board.players}
    game = LiveGame(board, tmp_path, "g1", "moscow", ROLES, {"post": 3, "pm": 3})
    vote = game.vote_topic

    # --- Setup: role PMs, confirmations, a forged GM command, the GM opens Day 1 ---------------------------------
    game.play_setup(gm, p, ROLES, "Незнайка", f"[quote author={board.gm}]конец-фазы[/quote]\nконец-фазы")

    # --- Day 1: every form of vote; a 4:4 tie between Дядя Фёдор and Алёна_77 ---------------------------------
    masha = p["Маша"].reply(vote, "Дядя Фёдор")                             # bare
    p["Кот Баюн"].reply(vote, "[b]Алёна_77[/b]")                            # bold
    p["Дядя Фёдор"].reply(vote, "Aлёна_77")                                 # Latin capital A (C-4)
    p["Lucky_Strike"].reply(vote, "Дядя Фёдоp / повесить всех")             # Latin small p; runoff part (M-7)
    p["ёжик"].reply(vote, "дядя фёдор")                                     # lower case
    edited = p["Печкин 2000"].reply(vote, "Алёна_77")                       # edited below: void (C-11)
    deleted = p["Незнайка"].reply(vote, "Печкин 2000")                      # a nick with a space; deleted below
    p["Kapitan Vrungel"].reply(vote, "Алёна_77, потому что молчит")         # an explanation: not a vote (M-7)
    p["Алёна_77"].quote(vote, masha, "Дядя Фёдор")                          # a quote: not a vote (M-7)
    p["Шарик"].reply(vote, "голосуйте за Алёна_77")                         # agitation: not a vote (M-7)
    game.tick()  # the bot has seen every vote before the edit and the deletion
    p["Печкин 2000"].edit(edited, "Дядя Фёдор")
    gm.delete(deleted)
    p["Печкин 2000"].reply(vote, "ннв")                                     # a voided post used no vote change
    p["Kapitan Vrungel"].reply(vote, "АЛЁНА_77")                            # capitals; a rejected post used none
    p["Алёна_77"].reply(vote, "Дядя Фёдор")
    p["Шарик"].reply(vote, "алёна_77")
    game.tick()

    game.end_phase_killed_after_first_post(gm)
    text = game.game_text(gm)
    assert text.count("Итоговый подсчёт голосов") == 1, text
    assert "Перестрелка" in text, f"no runoff after a 4:4 tie (M-10): {text[-1500:]}"
    final = text.split("Итоговый подсчёт голосов", 1)[1]
    assert "Дядя Фёдор — 4" in final and "Алёна_77 — 4" in final, f"4:4 expected (C-4 look-alikes): {final}"
    assert "Не засчитано: Печкин 2000" in final and "отредактировано" in final, f"edited vote not named (C-11): {final}"
    assert "Незнайка" in final.split("Без голоса (", 1)[1].split("\n")[0], f"deleted vote counted: {final}"
    assert "удалено" in final, f"the deleted vote is not named in the final count (C-11): {final}"
    for name in ("Kapitan Vrungel", "Алёна_77", "Шарик"):
        assert f"Не засчитано: {name}" in final, f"{name}'s non-vote not reported (M-7): {final}"

    # --- Runoff: hang all ------------------------------------------------------------------------------------
    for name in ("Маша", "Кот Баюн", "Печкин 2000", "Незнайка", "Kapitan Vrungel", "Шарик"):
        p[name].reply(vote, "повесить всех")
    for name in ("Дядя Фёдор", "Алёна_77", "ёжик"):
        p[name].reply(vote, "помиловать всех")
    game.tick()
    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    assert "Итоги перестрелки дня 1." in text
    after = text.split("Итоги перестрелки дня 1.", 1)[1]
    assert "Игру покидают:" in after and "Дядя Фёдор" in after and "Алёна_77" in after, after[:500]
    assert "Наступила ночь 1" in after

    # --- Night 1: both checks, a unanimous shot; a modkill and its undo; an idle tick ---------------------------
    p["Маша"].pm(board.bot, "g1", "проверяю Lucky_Strike")
    p["Кот Баюн"].pm(board.bot, "g1", "проверка Маша\nубить Незнайка")        # two moves, one PM (C-12)
    p["Lucky_Strike"].pm(board.bot, "g1", "стреляю в Незнайка")
    p["Шарик"].pm(board.bot, "g1", "убиваю Незнайка")
    gm.pm(board.bot, "g1", "модкилл \"Kapitan Vrungel\" проверка")
    game.tick()
    gm.pm(board.bot, "g1", "отмена")
    game.tick()
    assert any("Принято: проверка. Цель — Lucky_Strike." in m.text for m in p["Маша"].pms_from(board.bot))
    to_don = [m.text for m in p["Кот Баюн"].pms_from(board.bot)]
    assert any("Принято: проверка. Цель — Маша." in t for t in to_don), to_don
    assert any("Принято: выстрел. Цель — Незнайка." in t for t in to_don), to_don
    for name in ("Lucky_Strike", "Шарик"):
        assert any("Принято: выстрел. Цель — Незнайка." in m.text for m in p[name].pms_from(board.bot)), name
    game.settle(board.engine)  # its answers out and read back, the read PMs deleted
    before = board.requests_logged()
    game.tick()
    idle = board.requests_logged() - before
    assert idle == 3, f"an idle tick made {idle} requests, not one a thread plus the inbox (no login)"

    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    night = text.split("Итоги ночи 1.", 1)[1]
    assert "Жертва этой ночи: Незнайка." in night and "Наступил день 2" in night, night[:500]
    assert "Kapitan Vrungel" in night.split("В игре", 1)[1], "the undone modkill still holds (C-9)"
    sheriff = [m.text for m in p["Маша"].pms_from(board.bot) if "Результат проверки" in m.text]
    assert sheriff and "Результат проверки: Lucky_Strike — мафия." in sheriff[-1], sheriff  # M-3
    don = [m.text for m in p["Кот Баюн"].pms_from(board.bot) if "Результат проверки" in m.text]
    assert don and "Результат проверки: Маша — шериф." in don[-1], don  # M-4: the exact role

    # --- Day 2: the GM modkills the mafia; the end ---------------------------------------------------------------
    for name in ("Кот Баюн", "Lucky_Strike", "Шарик"):
        gm.pm(board.bot, "g1", f"модкилл \"{name}\"")
    board.wait_past_a_pm()  # the GM's PMs folded by the next tick (C-1, C-9)
    game.tick_until_ended()  # no idle tick after the end
    game.assert_town_won(gm)

    posts, pms = game.assert_each_once(gm, [gm, *p.values()])
    to_gm = [m.text for m in gm.pms_from(board.bot)]
    assert sum("Выполнено" in t for t in to_gm) >= 7, to_gm  # 3 end-phases, 3 modkills + the undone one, undo
    confirmed = sum(any("Роль подтверждена" in m.text for m in member.pms_from(board.bot)) for member in p.values())
    assert confirmed == len(p), "a confirmation was lost"
    game.assert_outbox_drained()
    print(f"\nSMF Moscow game: {time.monotonic() - t0:.0f} s, {posts} bot posts, {pms} bot PMs; "
          f"idle tick {idle} requests; log: {game.log}")
