"""One step on a prepared position (issue 19 item 5): a clause of each family tested as one input or one
resolution on a position written in one line (forumbot/engine/position.py), asserting on the game's state.

The full stories from Setup stay in tests/engine/test_rules_*.py; these show a rule where it acts."""

from __future__ import annotations

import json

from forumbot.engine.plain import from_plain, to_plain
from forumbot.engine.position import Position
from forumbot.model import Where

MOSCOW = "Шериф=sheriff Дон=don Маф1=mafia Маф2=mafia М1 М2 М3 М4 М5 М6"
HUNT = "Ф1=mafia Ф2=mafia Ф3=mafia Док=doctor Ман=maniac Г1 Г2 Г3 Г4 Г5 Г6 Г7"


def test_C10_M11_a_gm_modkill_by_day_kills_at_once_and_cancels_the_days_vote():
    p = Position.parse(f"moscow day 2 | {MOSCOW} | votes М1>Дон М2>Дон М3>Дон")
    sent = p.step(p.input(Where.PM, "ГМ", "модкилл М1"))
    assert not p.game.seats["М1"].alive and p.game.seats["М1"].died.cause == "modkill"
    assert p.game.day_modkill  # M-11: the day's vote is cancelled
    assert any(m.where == "game" for m in sent) and p.game.winner is None  # announced; C-7: no win yet
    p.advance()
    assert p.game.seats["Дон"].alive and p.game.phase.label == "night 2"


def test_M6_a_third_night_without_a_shot_gives_the_town_the_game():
    p = Position.parse(f"moscow night 3 | {MOSCOW} | misfires 2")
    p.advance()
    assert p.game.winner == "town" and p.game.misfires == 3


def test_M6_a_shot_on_the_third_night_resets_the_streak():
    p = Position.parse(f"moscow night 3 | {MOSCOW} | misfires 2 | pms Дон:убить М1, Маф1:убить М1, Маф2:убить М1")
    p.advance()
    assert p.game.winner is None and p.game.misfires == 0 and not p.game.seats["М1"].alive


def test_H4_a_second_agitation_in_the_game_dooms_its_author_at_the_deadline():
    p = Position.parse(f"free_hunt day 2 | {HUNT} | agitations Г1=1")
    p.step(p.input(Where.VOTE, "Г1", "голосуйте за Ф1"))
    assert p.game.agitations["Г1"] == 2 and "Г1" in p.game.doomed
    p.advance()
    assert not p.game.seats["Г1"].alive and p.game.seats["Г1"].died.cause == "autokill"


def test_R8_draw_at_four_alive_is_a_draw_and_draw_at_zero_lets_the_mafia_win():
    line = "moscow night 3 | Шериф=sheriff Дон=don Маф1=mafia ~Маф2=mafia М1 М2 ~М3 ~М4 ~М5 ~М6"
    shots = " | pms Дон:убить М1, Маф1:убить М1"
    default = Position.parse(line + shots)
    default.advance()
    assert default.game.winner == "draw"  # 4 alive: M-13's default draw_at
    no_draw = Position.parse(line + " | options draw_at=0" + shots)
    no_draw.advance()
    assert no_draw.game.winner == "mafia"  # 2 mafia, 2 town


def test_the_position_line_sets_what_it_says():
    p = Position.parse(f"moscow day 2 | {MOSCOW.replace('М6', '~М6')} | votes М1>Дон М2>ннв | misfires 1")
    assert p.game.phase.label == "day 2" and not p.game.seats["М6"].alive and p.game.misfires == 1
    assert [(post.voter, post.parsed.target) for post in p.game.posts] == [("М1", "Дон"), ("М2", "no_lynch")]


def test_issue19_step_and_advance_are_pure_the_game_given_never_changes():
    """`step(table, game, event)` and `advance(table, game, until)` return a new Game; the one given stays as it
    was (compared with a copy read back from its stored form, engine/plain.py), so a saved Game (an undo's, a checkpoint's) is a value."""
    p = Position.parse(f"moscow day 2 | {MOSCOW} | votes М1>Дон")
    given = p.game
    kept = from_plain(json.loads(json.dumps(to_plain(given))))
    p.step(p.input(Where.VOTE, "М2", "Дон"))
    p.step(p.input(Where.PM, "ГМ", "модкилл М3"))
    p.advance()
    assert given == kept and p.game != given
    assert len(given.posts) == 1 and given.seats["М3"].alive and given.phase.label == "day 2"
