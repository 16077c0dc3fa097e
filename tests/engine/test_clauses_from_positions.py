"""Clause tests written from a position (issue 27 item 4): each rule where it acts, one step or one resolution on
a position written in one line (`forumbot.engine.position`), where the story from Setup in test_rules_*.py
replays days and nights that only add noise. The count is read with `tally` as the engine computes it."""

from __future__ import annotations

from forumbot.engine import Position, tally
from forumbot.model import Special, Where

MOSCOW = "Шериф=sheriff Дон=don Маф1=mafia Маф2=mafia М1 М2 М3 М4 М5 М6"
HUNT = "Ф1=mafia Ф2=mafia Ф3=mafia Док=doctor Ман=maniac Г1 Г2 Г3 Г4 Г5 Г6 Г7"


def _count(p: Position) -> dict[str, object]:
    return dict(tally(p.table, p.game))


def test_C3_a_dead_players_post_and_a_vote_for_a_dead_player_are_no_votes():
    p = Position.parse(f"moscow day 2 | {MOSCOW.replace('М6', '~М6')} | votes М6>Дон М1>М6 М2>Дон")
    assert _count(p) == {"М2": "Дон"}


def test_M7_a_runoff_part_rides_with_the_day_vote_and_ннв_is_a_vote():
    p = Position.parse(f"moscow day 2 | {MOSCOW} | votes М1>Дон/М2 М2>ннв")
    assert _count(p) == {"М1": "Дон", "М2": Special.NO_LYNCH}
    assert p.game.posts[0].parsed.runoff == "М2"


def test_M8_the_second_valid_vote_is_final_and_a_third_is_ignored():
    p = Position.parse(f"moscow day 2 | {MOSCOW} | votes М1>Дон М1>Маф1 М1>М2")
    assert _count(p) == {"М1": "Маф1"}


def test_M9_on_day_1_a_lone_vote_among_ннв_pardons_its_target():
    p = Position.parse(f"moscow day 1 | {MOSCOW} | votes М1>Дон М2>ннв М3>ннв")
    p.advance()
    assert p.game.seats["Дон"].alive and p.game.phase.label == "night 1"


def test_M9_on_day_2_a_single_vote_is_enough():
    p = Position.parse(f"moscow day 2 | {MOSCOW} | votes М1>Дон М2>ннв М3>ннв")
    p.advance()
    assert not p.game.seats["Дон"].alive and p.game.seats["Дон"].died.cause == "vote"


def test_M10_a_tie_opens_a_runoff_among_the_leaders_when_an_odd_number_is_alive():
    p = Position.parse(f"moscow day 2 | {MOSCOW.replace('М6', '~М6')} | votes М1>Дон М2>М3 М4>Дон М5>М3")
    p.advance()
    assert p.game.phase.label == "runoff 2" and set(p.game.leaders) == {"Дон", "М3"} and not p.game.hang_all


def test_M10_with_an_even_number_alive_a_majority_for_hang_all_eliminates_every_leader():
    seats = MOSCOW.replace("М5", "~М5").replace("М6", "~М6")
    p = Position.parse(f"moscow runoff 2 | {seats} | leaders Дон,М3")
    assert p.game.hang_all
    for voter in ("М1", "М2", "М4", "Шериф", "Маф1"):
        p.step(p.input(Where.VOTE, voter, "повесить всех"))
    p.advance()
    assert not p.game.seats["Дон"].alive and not p.game.seats["М3"].alive


def test_M5_a_mafia_member_who_sent_nothing_makes_the_shot_a_misfire():
    p = Position.parse(f"moscow night 2 | {MOSCOW} | pms Дон:убить М1, Маф1:убить М1")
    p.advance()
    assert p.game.seats["М1"].alive and p.game.misfires == 1


def test_C7_the_town_wins_when_the_day_takes_the_last_mafia():
    seats = "Шериф=sheriff Дон=don ~Маф1=mafia ~Маф2=mafia М1 М2 М3 ~М4 ~М5 ~М6"
    p = Position.parse(f"moscow day 3 | {seats} | votes М1>Дон М2>Дон Шериф>Дон")
    p.advance()
    assert p.game.winner == "town"


def test_H6_a_vote_for_a_player_modkilled_later_that_day_counts_for_nobody():
    p = Position.parse(f"free_hunt day 2 | {HUNT} | votes Г1>Г2 Г3>Ф1")
    p.step(p.input(Where.PM, "ГМ", "модкилл Г2"))
    assert _count(p) == {"Г3": "Ф1"}


def test_H7_the_executor_must_be_an_alive_mafia_member():
    p = Position.parse(f"free_hunt night 1 | {HUNT} | pms Ф1:убить Г1 исполнитель Г2")
    assert not p.game.moves.by_player
    p.step(p.input(Where.PM, "Ф1", "убить Г1 исполнитель Ф3"))
    assert [m.executor for m in p.game.moves.by_player.values()] == ["Ф3"]


def test_H7_the_team_shot_stands_when_its_sender_dies_if_the_executor_lives():
    p = Position.parse(f"free_hunt night 1 | {HUNT} | pms Ф1:убить Г1 исполнитель Ф2")
    p.step(p.input(Where.PM, "ГМ", "модкилл Ф1"))
    p.advance()
    assert not p.game.seats["Г1"].alive and p.game.seats["Г1"].died.cause == "mafia"


def test_H8_the_maniac_may_not_shoot_last_nights_target_and_may_choose_again():
    p = Position.parse(f"free_hunt night 2 | {HUNT} | maniac_last Г5 | pms Ман:убить Г5")
    assert not p.game.moves.by_player
    p.step(p.input(Where.PM, "Ман", "убить Г6"))
    p.advance()
    assert not p.game.seats["Г6"].alive and p.game.seats["Г5"].alive


def test_H10_a_doctor_whose_hunt_stands_cannot_heal_that_night():
    p = Position.parse(f"free_hunt night 1 | {HUNT} | pms Ф1:убить Г1, Док:лечу Г1, Док:охота Ф2")
    p.advance()
    assert not p.game.seats["Г1"].alive and not p.game.seats["Ф2"].alive  # shot unhealed; the hunt was right
