"""R-11 on a real phpBB 3.3.10 board through `forumbot tick` (issue 30 item 1): a Moscow game with
`post_minimum = 1` and `post_minimum_action = "warn_then_autokill"`. The game thread is counted as the board shows
it; a game-thread post the admin deletes before the day ends is seen gone by the re-read when the GM closes the
day (C-11), so its author is warned; on Day 2 the player warned on Day 1 and still silent leaves as an autokill.
Only the GM's `конец-фазы` PMs advance the game (the schedule is hours long)."""

from __future__ import annotations

import pytest

from livegame import LiveGame

pytestmark = pytest.mark.live

ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia", "Шарик": "mafia"}
OPTIONS = 'post_minimum = 1, post_minimum_action = "warn_then_autokill", post_minimum_reminder_hours = 0'


def test_r11_post_minimum_on_phpbb(phpbb_activity_board, tmp_path):
    board = phpbb_activity_board
    gm, admin = board.member(board.gm), board.member(board.admin)
    p = {name: board.member(name) for name in board.players}
    game = LiveGame(board, tmp_path, "g1", "moscow", ROLES, {"post": 1.2, "pm": 1.2}, options=OPTIONS)
    topic, vote = game.game_topic, game.vote_topic
    game.play_setup(gm, p, ROLES, "Незнайка", "конец-фазы")

    # --- Day 1: everyone but Шарик writes in the game thread; Незнайка's only post is deleted by the admin ------
    silent, deleted_author = "Шарик", "Незнайка"
    posts = {name: p[name].reply(topic, f"Я {name}, давайте искать мафию") for name in board.players if name != silent}
    p["ёжик"].reply(topic, "[quote]Я Маша[/quote]")  # a quote only: no count, ёжик has one post already
    for name in board.players:
        p[name].reply(vote, "ннв")
    game.tick()  # the bot has read every post before the deletion (the counts go out hourly: none yet)
    admin.delete(posts[deleted_author])
    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    result = text.split("Итоговый подсчёт голосов (день 1)", 1)[1]
    below = result.split("Ниже минимума", 1)[1].split("\n")[0]
    assert f"{silent} — 0 сообщений" in below and f"{deleted_author} — 0 сообщений" in below, result[:1500]
    warning = result.split("Предупреждение за неактивность", 1)[1].split("\n")[0]
    assert silent in warning and deleted_author in warning, result[:1500]
    assert "ёжик" not in warning, warning

    # --- Night 1: no shot (a misfire); Day 2: Шарик silent again leaves as an autokill ---------------------------
    game.end_phase(gm)
    game.tick()
    for name in board.players:
        if name != silent:
            p[name].reply(topic, f"День 2, {name} на месте")
    game.tick()
    game.end_phase(gm)
    game.tick()
    text = game.game_text(gm)
    day2 = text.split("Итоги дня 2.", 1)[1]
    assert f"Автокилл: {silent} покидает игру (причина — мало сообщений в игровой теме)." in day2, day2[:800]
    game.assert_outbox_drained()
    assert game.assert_export_replays() > 0  # the export replays to the same messages (R-11 in the fold)
