"""What players and GMs read (issue 28 items 8 and 9): each line says what happened and what to do next.
Game stories told with tests/gamekit.py; the Moscow cast: Шериф, Дон, Маф1, Маф2, М1..М6."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gamekit import Game  # noqa: E402


def test_C9_unknown_gm_command_repeats_the_line_read_and_points_at_help():
    g = Game.moscow()
    g.gm("day 1", "+2h", "[b]повестить[/b]   М4 срочно")
    r = g.run("day 1", "+3h")
    assert r.pms("ГМ")[-1] == ("Команда не выполнена: прочитано «повестить М4 срочно» — такой команды ведущего нет. "
                               "Список команд — в ответ на «помощь».")


def test_C9_unknown_gm_command_in_english():
    g = Game.moscow(language="en")
    g.gm("day 1", "+2h", "hang М4")
    r = g.run("day 1", "+3h")
    assert r.pms("ГМ")[-1] == "Command not done: I read “hang М4”, which is no GM command. Send “help” for the list of commands."
