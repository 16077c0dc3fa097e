"""M-15 on a real phpBB 3.3 board, through `forumbot tick`: a Moscow game's mafia talk in the conference (the
relay, by option; the conversation: test_conference_conversation_live.py) before Day 1, are told it closed when
the GM opens Day 1, and a later `конфа` is refused with that reason and reaches nobody."""

from __future__ import annotations

import pytest

from livegame import LiveGame

# after test_phpbb_restore.py on the same board (a short group: on phpbb_board, after the whole Moscow game, it made
# that the suite's longest group): that game asserts what its threads hold before this one posts
pytestmark = [pytest.mark.live, pytest.mark.group_last]

ROLES = {"Маша": "sheriff", "Кот Баюн": "don", "Lucky_Strike": "mafia", "Шарик": "mafia"}
MAFIA = ("Кот Баюн", "Lucky_Strike", "Шарик")
CLOSED = "Конференция закрыта: дальше мафия не общается."


def test_m15_the_mafia_talk_in_the_conference_before_day_one_and_are_told_it_closed(phpbb_restore_board, tmp_path):
    board = phpbb_restore_board
    bot = board.bot
    gm = board.member(board.gm)
    p = {name: board.member(name) for name in board.players}
    before = {name: {m.id for m in member.pms_from(bot)} for name, member in p.items()}  # the earlier game's PMs

    def new(name: str) -> list[str]:
        return [m.text for m in p[name].pms_from(bot) if m.id not in before[name]]

    game = LiveGame(board, tmp_path, "conf", "moscow", ROLES, {"post": 1.2, "pm": 1.2}, options='conference = "relay"')
    game.tick()
    game.settle(board.engine)  # Setup's PMs all out, however the tick paced them
    for name in MAFIA:
        assert any("Конференция мафии открыта до начала дня 1" in t for t in new(name)), (name, new(name))
    assert not any("Конференция" in t for t in new("Маша")), "a town player was told of the conference"

    p["Кот Баюн"].pm(bot, "conf", "конфа маяк: ник жирным\nубить Маша")  # the second line is no move (M-15)
    p["Маша"].pm(bot, "conf", "конфа я тоже")
    game.tick()
    for name in ("Lucky_Strike", "Шарик"):
        assert any("Конференция — Кот Баюн: маяк: ник жирным" in t for t in new(name)), (name, new(name))
    assert any("Переслано в конференцию: Lucky_Strike и Шарик." in t for t in new("Кот Баюн")), new("Кот Баюн")
    assert any("Конференция — только для мафии" in t for t in new("Маша")), new("Маша")
    assert not any("я тоже" in t for name in MAFIA for t in new(name))

    game.end_phase(gm)
    game.tick()
    assert "Наступил день 1" in game.game_text(gm)
    for name in MAFIA:
        assert sum(CLOSED in t for t in new(name)) == 1, (name, new(name))
    p["Шарик"].pm(bot, "conf", "конфа ещё одно слово")
    game.tick()
    assert sum(CLOSED in t for t in new("Шарик")) == 2, new("Шарик")  # the refusal says why
    assert not any("ещё одно слово" in t for name in ("Кот Баюн", "Lucky_Strike") for t in new(name))
    assert not any("Принято: выстрел" in t for t in new("Кот Баюн")), "a conference line was read as a move"
    game.assert_outbox_drained()
