"""`game start` records a seed and the draw commitment; the commitment the players see is the documented one."""

from __future__ import annotations

import hashlib
from pathlib import Path

from daemon_world import CAST, STEPS, world  # noqa: F401  (fixture)
from sqlalchemy import select

from forumbot.config.load import load_config
from forumbot.config.checks import check_setups
from forumbot.games.start import commitment
from forumbot.store.models import GameRow, SeatRow

REPO = Path(__file__).parent.parent.parent


def test_commitment_is_posted_with_the_player_list_and_is_the_documented_hash(world):
    started = world.start(seed=8264019513)
    world.now = STEPS[0][0]
    world.tick()
    # deploy/README.md: sha256(SEED + ":" + "nick=role,..."), seats in config order, nicknames at the start
    documented = hashlib.sha256(("8264019513:" + ",".join(f"{n}={r}" for n, r in CAST)).encode()).hexdigest()
    assert started.commitment == documented == commitment(started.seed, [n for n, _ in CAST], dict(CAST))
    (player_list, *_) = [text for _, text, _ in world.bot_posts("g1/game")]
    assert documented in player_list
    with world.daemon.sessions.begin() as s:
        game = s.scalar(select(GameRow))
        assert (game.seed, game.commitment) == (8264019513, documented)
        assert [(x.nick, x.role) for x in s.scalars(select(SeatRow).order_by(SeatRow.seat_no))] == CAST


def test_a_started_game_keeps_its_setup_when_the_config_changes(world):
    world.start()
    text = world.config_path.read_text(encoding="utf-8").replace("М6", "Новичок")
    world.config_path.write_text(text, encoding="utf-8")
    world.config = load_config(world.config_path)
    world.restart()
    world.now = STEPS[0][0]
    world.tick()
    recipients = {to for to, _, _ in world.bot_pms()}
    assert "М6" in recipients and "Новичок" not in recipients


def test_the_deploy_example_config_is_valid():
    config = load_config(REPO / "deploy" / "forumbot.toml")
    assert check_setups(config) == []
    assert config.database_url.startswith("postgresql")


def test_the_game_ends_reveals_the_seed_and_stops_being_ticked(world):
    from daemon_world import GM, play

    from forumbot.games.status import game_status

    play(world, upto=2, seed=9081726354)
    world.now = STEPS[2][0].replace(minute=40)
    for mafioso in ("Дон", "Маф1", "Маф2"):
        world.pm(GM, f"модкилл {mafioso}")
    world.tick()
    final = world.bot_posts("g1/game")[-1][1]
    assert "9081726354" in final and "Маф2" in final  # the seed and every role are out
    status = game_status(world.daemon.sessions, world.config, "g1")
    assert status.startswith("g1: окончена") and "ждут" not in status
    assert world.tick().games == []  # an ended game is not read any more


def test_game_status_says_a_paused_game_is_paused_C9(world):
    """`game status` of a game a GM paused (C-9: `пауза`, no deadline runs): it says so, instead of a phase
    line that silently lost its deadline (a GM's walk-through read «phase: day 1; alive (10)» and could not tell
    why the day had no end); `продолжить` brings the deadline back."""
    from daemon_world import GM, play

    from forumbot.games.status import game_status

    play(world, upto=2)
    world.now = STEPS[2][0].replace(minute=40)
    world.pm(GM, "пауза")
    world.tick()
    status = game_status(world.daemon.sessions, world.config, "g1", world.now)
    phase = next(line for line in status.splitlines() if line.startswith("фаза: "))
    assert phase.startswith("фаза: день 1, на паузе по команде ведущего (срок не идёт до «продолжить»);"), phase
    world.now = world.now.replace(minute=50)
    world.pm(GM, "продолжить")
    world.tick()
    status = game_status(world.daemon.sessions, world.config, "g1", world.now)
    phase = next(line for line in status.splitlines() if line.startswith("фаза: "))
    assert phase.startswith("фаза: день 1, до ") and "пауз" not in phase, phase
