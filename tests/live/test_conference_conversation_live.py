"""M-15's conversation on a real MyBB 1.8 board, through `forumbot tick`: the bot sends one PM to all the mafia
at Setup; a member's "Reply to All" reaches his partners, and the bot, which stores it apart and reads no move in
it (it answers nothing); when the GM opens Day 1 one PM to all of them says the conference is closed."""

from __future__ import annotations

import pytest

from capture_conference_pages import reply_all
from livegame import LiveGame

# after the side board's other checks (test_locks_live.py is the group's last too): a game of its own, whose
# PMs those checks' games never read (each game reads the PMs from its own start)
pytestmark = [pytest.mark.live, pytest.mark.group_last]

ROLES = {"Наташа": "sheriff", "Lucky_Strike": "don", "Kolya_95": "mafia", "Мурзик": "mafia"}
MAFIA = ("Lucky_Strike", "Kolya_95", "Мурзик")
CLOSED = "Конференция закрыта: дальше мафия не общается."


def test_m15_mybb_the_mafia_talk_by_reply_to_all_and_the_bot_reads_no_move_in_it(mybb_side_board, tmp_path):
    board = mybb_side_board
    bot = board.bot
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in (*MAFIA, "Наташа")}
    before = {name: {m.id for m in member.pms_from(bot)} for name, member in p.items()}

    def new(name: str) -> list:  # type: ignore[type-arg]
        return [m for m in p[name].pms_from(bot) if m.id not in before[name]]

    players = [*ROLES, *[n for n in board.players if n not in ROLES]][:10]  # the Moscow cast is 10 (M-1)
    game = LiveGame(board, tmp_path, "conv", "moscow", ROLES, {"post": 3, "pm": 3},
                    options='conference = "conversation"', players=players)
    game.tick()
    game.settle(board.engine)
    opened = {name: [m for m in new(name) if "Конференция мафии: " in m.text] for name in MAFIA}
    assert all(len(found) == 1 for found in opened.values()), opened
    assert not any("Конференция" in m.text for m in new("Наташа")), "a town player was told of the conference"

    reply_all(p["Lucky_Strike"], "mybb", opened["Lucky_Strike"][0].id, "маяк: ник жирным\nубить Наташа")
    board.wait_past_a_pm()
    answered = len(new("Lucky_Strike"))
    game.settle(board.engine)
    for name in ("Kolya_95", "Мурзик"):
        assert any("маяк: ник жирным" in m.text for m in p[name].pms_from("Lucky_Strike")), name
    assert len(new("Lucky_Strike")) == answered, "the bot answered a reply in the conversation"

    game.end_phase(gm)
    game.settle(board.engine)
    assert "Наступил день 1" in game.game_text(gm)
    for name in MAFIA:
        assert sum(CLOSED in m.text for m in new(name)) == 1, (name, [m.text for m in new(name)])
    assert not any("Принято" in m.text for m in new("Lucky_Strike")), "a conference line was read as a move"
    game.assert_outbox_drained()
