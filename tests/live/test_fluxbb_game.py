"""A whole Moscow game (10 players) on a real FluxBB 1.5 board (Visman's fork, Russian, PMs through "New PMS"),
through `forumbot tick` processes and adapters/punbb/forum.py (issue 9 "Done means", issue 8 item 2).

Moscow, not Free Hunt: its 10 players fit the board's seeding, and it has every role's night move (Sheriff and Don
checks, a mafia shot) and a runoff; agitation and explanations are then simply no votes (M-7).
Board knobs (conftest): POST_FLOOD=2 (stock 30 s between two posts and, apart, two PMs of a Member: a game would
take an hour of flood waits; the bot is told the same 2 s), PER_PAGE=10 (both threads cross pages),
SEED_POSTS=0. fluxbb.sh seeds the GM into Moderators (group 2: a moderator of no forum yet, so the admin deletes);
his PMs wait what the board's refusal names (New PMS still holds a moderator to 30 s).
The bot's account shows times to the second (conftest.EXACT_TIMES), so each GM `конец-фазы` is folded by the next
tick (C-1, C-9). Roles are given:
  Setup: 10 role PMs (into new dialogues); confirmations answered in them; a player's PM quoting the GM (forged).
  Day 1: votes bare, bold + Latin K, Latin e, capitals, look-alikes in both words, a nick with a space, a runoff
         part; rejected: an explanation, agitation, a quote; an edited vote (void, C-11); a vote deleted by the
         admin (C-11). 4:4 -> a hang-all/pardon-all runoff (M-10). The tick that resolves the day is SIGKILLed
         right after its first post went out.
  Runoff: 7 pardon-all against 3 -> nobody leaves.
  Night 1: the Sheriff and the Don check, the three mafiosi shoot Незнайка; the GM modkills and undoes it (C-9).
           An idle tick then costs one request per thread plus the dialogue list, and no login.
  Day 2: the GM modkills the three mafiosi: the town wins; the end post lists the roles and the seed.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing

import pytest

from livegame import LiveGame

pytestmark = pytest.mark.live

ROLES = {"Маша": "sheriff", "Lucky_Strike": "don", "Алёна_77": "mafia", "Шарик": "mafia"}
MAFIA = ("Lucky_Strike", "Алёна_77", "Шарик")


def log_lines(board) -> list[str]:  # type: ignore[no-untyped-def]
    return [ln for ln in (board.dir / "run" / "php.log").read_text(errors="replace").splitlines()
            if "] 127.0.0.1:" in ln and " [" in ln.split("127.0.0.1:", 1)[1]]


def gm_group(board) -> int:  # type: ignore[no-untyped-def]
    """The GM's group as the board stores it (read-only: the board's PHP server has the database open)."""
    database = next(board.dir.rglob("fluxbb.sqlite3"))
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        # fb_: the table prefix fluxbb.sh installs with
        return int(db.execute("SELECT group_id FROM fb_users WHERE username = ?", (board.gm,)).fetchone()[0])


def test_a_moscow_game_on_fluxbb(fluxbb_board, tmp_path):
    t0 = time.monotonic()
    board = fluxbb_board
    admin = board.member(board.admin)
    assert gm_group(board) == 2  # Moderators, as the board's notes have him: no test-side move (issue 17 item 4)
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in board.players}
    flood = float(board.env["POST_FLOOD"])
    game = LiveGame(board, tmp_path, "g1", "moscow", ROLES, {"post": flood, "pm": flood})
    vote = game.vote_topic

    # --- Setup: role PMs, confirmations, a forged GM command, the GM opens Day 1 ---------------------------------
    game.play_setup(gm, p, ROLES, "Незнайка", f"{board.gm} пишет:\nконец-фазы")

    # --- Day 1: every form of vote; a 4:4 tie between Кот Баюн and Печкин 2000 --------------------------------
    masha = p["Маша"].reply(vote, "Кот Баюн")                                # bare, a nick with a space
    p["Кот Баюн"].reply(vote, "Печкин 2000, потому что весь день молчит")    # an explanation: no vote (M-7)
    p["Кот Баюн"].reply(vote, "Печкин 2000")
    p["Дядя Фёдор"].reply(vote, "[b]Kот Баюн[/b]")                          # bold, Latin K (C-4)
    p["Lucky_Strike"].reply(vote, "Голосуйте все за Печкин 2000!")          # agitation: no vote in Moscow
    p["Lucky_Strike"].reply(vote, "пeчкин 2000")                            # lower case, Latin e (C-4)
    edited = p["Печкин 2000"].reply(vote, "Шарик")                           # edited below: void (C-11)
    p["ёжик"].reply(vote, "кот баюн / помиловать всех")                      # runoff part (M-7, M-10)
    deleted = p["Незнайка"].reply(vote, "Кот Баюн")                          # deleted below by the admin
    p["Шарик"].quote(vote, masha, "Печкин 2000")                             # a quote is more than a vote (M-7)
    p["Kapitan Vrungel"].reply(vote, "ПЕЧКИН 2000")                          # capitals
    p["Алёна_77"].reply(vote, "Kот Бaюн")                                    # look-alikes in both words
    game.tick()  # the bot has seen every vote before the edit and the deletion
    p["Печкин 2000"].edit(edited, "Кот Баюн")
    admin.delete(deleted)
    p["Печкин 2000"].reply(vote, "ннв")                                      # a voided post used no vote change
    p["Шарик"].reply(vote, "Печкин 2000")                                    # a rejected post used none either
    game.tick()

    game.end_phase_killed_after_first_post(gm)
    text = game.game_text(gm)
    assert text.count("Итоговый подсчёт голосов") == 1, text
    assert "Перестрелка" in text, f"no runoff after a 4:4 tie (M-10): {text[-1500:]}"
    final = text.split("Итоговый подсчёт голосов", 1)[1].split("Перестрелка", 1)[0]
    assert "Кот Баюн — 4" in final and "Печкин 2000 — 4" in final, f"4:4 expected: {final}"
    for name in ("Маша", "Дядя Фёдор", "ёжик", "Алёна_77"):
        assert name in final.split("Кот Баюн — 4", 1)[1].split("\n")[0], f"{name}'s vote not for Кот Баюн: {final}"
    for name in ("Кот Баюн", "Lucky_Strike", "Шарик", "Kapitan Vrungel"):
        assert name in final.split("Печкин 2000 — 4", 1)[1].split("\n")[0], f"{name}'s vote not counted: {final}"
    assert "Не засчитано: Печкин 2000" in final and "отредактировано" in final, f"edited vote not named (C-11): {final}"
    assert "Незнайка" in final.split("Без голоса (", 1)[1].split("\n")[0], f"deleted vote counted: {final}"
    assert "удалено" in final, f"the deleted vote is not named in the final count (C-11): {final}"
    notes = final.split("Не засчитано и замечания:", 1)[1]
    for name in ("Кот Баюн", "Lucky_Strike", "Шарик"):  # explanation, agitation, quote
        assert f"Не засчитано: {name}" in notes, f"{name}'s rejected post is not named: {notes}"

    # --- Runoff: pardon all --------------------------------------------------------------------------------------
    for name in ("Маша", "Дядя Фёдор", "Печкин 2000", "Незнайка", "Kapitan Vrungel", "Алёна_77"):
        p[name].reply(vote, "помиловать всех")
    for name in ("Кот Баюн", "Lucky_Strike", "Шарик"):
        p[name].reply(vote, "повесить всех")
    game.tick()
    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    assert "Итоги перестрелки дня 1." in text
    after = text.split("Итоги перестрелки дня 1.", 1)[1]
    assert "Игру покидают:" not in after.split("Наступила ночь 1", 1)[0], f"pardon-all lost (M-10): {after[:500]}"
    assert "Наступила ночь 1" in after

    # --- Night 1: every role's move; a modkill and its undo ------------------------------------------------------
    p["Маша"].pm(board.bot, "g1", "проверка Lucky_Strike")
    p["Lucky_Strike"].pm(board.bot, "g1", "проверяю Маша")
    p["Lucky_Strike"].pm(board.bot, "g1", "убить Незнайка")
    p["Алёна_77"].pm(board.bot, "g1", "стреляю в Незнайка")
    p["Шарик"].pm(board.bot, "g1", "выстрел незнайка")
    gm.pm(board.bot, "g1", "модкилл \"Kapitan Vrungel\" проверка")
    game.tick()
    gm.pm(board.bot, "g1", "отмена")
    game.tick()
    game.settle(board.engine)  # its answers out and read back, the read PMs deleted
    for name in MAFIA:
        assert any("Принято: выстрел. Цель — Незнайка." in m.text for m in p[name].pms_from(board.bot)), name
    for name, target in (("Маша", "Lucky_Strike"), ("Lucky_Strike", "Маша")):
        assert any(f"Принято: проверка. Цель — {target}." in m.text for m in p[name].pms_from(board.bot)), name

    mark = len(log_lines(board))
    game.tick()
    idle = log_lines(board)[mark:]
    assert len(idle) == 3, f"an idle tick: one request per thread plus the dialogue list, got {idle}"
    assert not any("login.php" in ln for ln in idle), f"an idle tick logged in again: {idle}"

    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    night = text.split("Итоги ночи 1.", 1)[1]
    assert "Жертва этой ночи: Незнайка." in night and "Наступил день 2" in night, night[:500]
    assert "Kapitan Vrungel" in night.split("В игре", 1)[1], "the undone modkill still holds (C-9)"
    sheriff = [m.text for m in p["Маша"].pms_from(board.bot) if "Результат проверки" in m.text]
    don = [m.text for m in p["Lucky_Strike"].pms_from(board.bot) if "Результат проверки" in m.text]
    assert sheriff and "Результат проверки: Lucky_Strike — мафия." in sheriff[-1], sheriff  # the Don is mafia (M-3)
    assert don and "Результат проверки: Маша — шериф." in don[-1], don  # the exact role (M-4)

    # --- Day 2: the GM modkills the mafia; the end ---------------------------------------------------------------
    for name in MAFIA:
        gm.pm(board.bot, "g1", f"модкилл {name}")
    board.wait_past_a_pm()  # the GM's PMs folded by the next tick (C-1, C-9)
    game.tick_until_ended()  # no idle tick after the end
    game.assert_town_won(gm)

    posts, pms = game.assert_each_once(gm, [gm, *p.values()])
    to_gm = [m.text for m in gm.pms_from(board.bot)]
    assert sum("Выполнено" in t for t in to_gm) >= 7, to_gm  # 3 end-phases, 3 modkills + the undone one, undo
    for name, member in p.items():  # every player's input was answered
        assert member.pms_from(board.bot), name
    game.assert_outbox_drained()
    print(f"\nFluxBB Moscow game: {time.monotonic() - t0:.0f} s, {posts} bot posts, {pms} bot PMs; log: {game.log}")
