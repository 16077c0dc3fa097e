"""A whole Moscow game on a real phpBB 3.3.10 board in which a moderator deletes the FIRST vote post of Day 1, then
the database is restored from a copy taken two ticks earlier (issue 26, "Done means"; items 3 and 5): every vote
but the deleted one counts (C-11), and nothing is sent twice (C-12): the board's threads and every member's PMs,
read back through the board, hold each of the bot's markers once.

Through `forumbot tick` processes, as under cron; the admin deletes the post through phpBB's own moderation form
(posting.php?mode=delete, as boards.py's Member does); the operator copies and puts back the SQLite file between
ticks (sqlite3's backup API, as `sqlite3 forumbot.db ".backup copy.db"` does). Lean on purpose, on a board of its
own (phpbb_restore_board, a late group: tests/live/conftest.py): seven players (an R-10 cast: the Don, one
mafioso, the sheriff); Setup only sends the roles (confirmations are the whole games' check) before the GM opens
Day 1; Day 1, the night's moves, the GM's modkill of the Don and `конец-фазы` end it."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

import pytest

from livegame import LiveGame

pytestmark = pytest.mark.live

ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia"}
PLAYERS = ["Маша", "Кот Баюн", "Lucky_Strike", "Дядя Фёдор", "ёжик", "Печкин 2000", "Незнайка"]
CAST = "cast = { mafia = 1, don = 1, sheriff = 1 }"  # 7 players


def _backup(source: Path, target: Path) -> None:
    with contextlib.closing(sqlite3.connect(source)) as src, contextlib.closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def test_a_deleted_first_vote_and_a_restored_database_on_phpbb(phpbb_restore_board, tmp_path):
    t0 = time.monotonic()
    board = phpbb_restore_board
    gm, admin = board.member(board.gm), board.member(board.admin)
    p = {name: board.member(name) for name in PLAYERS}
    # the PMs read since the copy must still be in the inbox for the restored database to read them again: with
    # delete_read_pms (the default) they are gone, and so are the GM's commands since the copy (deploy/README.md)
    game = LiveGame(board, tmp_path, "restore", "moscow", ROLES, {"post": 1.2, "pm": 1.2}, options=CAST,
                    players=PLAYERS, forum_settings="delete_read_pms = false")
    database, copy = tmp_path / "forumbot.db", tmp_path / "copy.db"
    game.tick()  # Setup: the role PMs
    game.end_phase(gm)
    game.tick()
    assert "Наступил день 1" in game.game_text(gm)

    # --- Day 1: the first vote post is deleted by the admin once the bot has read it ---------------------------
    vote = game.vote_topic
    first = p["Незнайка"].reply(vote, "Lucky_Strike")
    for name in ("Маша", "Дядя Фёдор", "ёжик", "Печкин 2000"):
        p[name].reply(vote, "Lucky_Strike")
    for name in ("Кот Баюн", "Lucky_Strike"):
        p[name].reply(vote, "Маша")
    game.tick()  # every vote read and stored
    _backup(database, copy)  # the copy: two ticks before the restore
    admin.delete(first)
    game.end_phase(gm)
    game.tick()  # Day 1 resolved
    final = game.game_text(gm).split("Итоговый подсчёт голосов", 1)[1]
    assert "Lucky_Strike — 4" in final and "Маша — 2" in final, f"every vote but the deleted one (C-11): {final}"
    assert "Незнайка" in final.split("Без голоса (", 1)[1].split("\n")[0], f"the deleted vote counted: {final}"
    assert "Наступила ночь 1" in final, final

    # --- Night 1: the moves, acknowledged by PM -------------------------------------------------------------
    p["Кот Баюн"].pm(board.bot, "restore", "убить Незнайка")
    p["Маша"].pm(board.bot, "restore", "проверка Кот Баюн")
    game.tick()
    members = [gm, *p.values()]
    posts = game.bot_posts(gm)
    pms = {m.name: sorted(pm.text for pm in m.pms_from(board.bot)) for m in members}
    for name in ("Кот Баюн", "Маша"):
        assert any("Принято" in text for text in pms[name]), f"{name}: no acknowledgement"

    # --- the database put back as it was two ticks ago ---------------------------------------------------------
    _backup(copy, database)
    assert f"{game.name}: ночь 1" in game.tick(), "the restored database did not catch up with the forum"  # the summary
    assert game.bot_posts(gm) == posts, "a post sent again after the restore"
    assert {m.name: sorted(pm.text for pm in m.pms_from(board.bot)) for m in members} == pms, \
        "a PM sent again after the restore"

    # --- the game goes on from the restored database: the GM modkills the Don, the last mafioso; the town wins ----
    gm.pm(board.bot, "restore", "модкилл \"Кот Баюн\"")
    game.end_phase(gm)  # the win is found when the night resolves
    game.tick()
    game.assert_town_won(gm)
    sent_posts, sent_pms = game.assert_each_once(gm, members)
    game.assert_outbox_drained()
    print(f"\nphpBB restore game: {time.monotonic() - t0:.0f} s, {sent_posts} bot posts, {sent_pms} bot PMs; "
          f"log: {game.log}")
