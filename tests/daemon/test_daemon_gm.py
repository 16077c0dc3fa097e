"""GM commands reach the core only from a forum-authenticated GM account (C-9); each is logged with the state
before and after it (issue 3, "Done means" 5)."""

from __future__ import annotations

import json

from daemon_world import GM, STEPS, play, world  # noqa: F401  (fixture)
from sqlalchemy import select

from forumbot.store.models import OverrideRow
from forumbot.store.game import fold_game

FORGERIES = [
    "модкилл М3",
    "[quote=Ведущий]модкилл М3[/quote]",
    "Ведущий написал(а):\nмодкилл М3",
    "> модкилл М3\nпередаю от Ведущего",
]


def alive(w, nick: str) -> bool:
    result = fold_game(w.daemon.sessions, w.config, "g1", w.now).result
    return next(p.alive for p in result.players if p.nick == nick)


def test_forged_gm_commands_change_nothing(world):
    play(world, upto=2)  # Day 1, votes in
    world.now = STEPS[2][0].replace(minute=30)
    for text in FORGERIES:
        world.pm("М1", text)  # a player, not the GM
    world.post("game", "М1", "модкилл М3")  # a GM command as a thread post, even from the GM, is no command
    world.post("game", GM, "модкилл М3")
    world.tick()
    assert alive(world, "М3")
    assert not any("М3" in text and "модкилл" in text.lower() for _, text, _ in world.bot_posts())
    with world.daemon.sessions.begin() as s:
        assert s.scalars(select(OverrideRow)).all() == []


def test_a_real_gm_command_applies_and_is_logged_with_state_before_and_after(world):
    play(world, upto=2)
    world.now = STEPS[2][0].replace(minute=30)
    world.pm(GM, "модкилл М3")
    world.tick()
    assert not alive(world, "М3")
    with world.daemon.sessions.begin() as s:
        (entry,) = s.scalars(select(OverrideRow)).all()
    assert entry.gm == GM and entry.command == "модкилл М3"
    before, after = json.loads(entry.state_before), json.loads(entry.state_after)
    m3 = lambda state: next(p for p in state["players"] if p["nick"] == "М3")  # noqa: E731
    assert m3(before)["alive"] and not m3(after)["alive"]
    assert any(to == GM for to, _, _ in world.bot_pms())  # answered by PM
    world.tick()  # logged once, not per cycle
    with world.daemon.sessions.begin() as s:
        assert len(s.scalars(select(OverrideRow)).all()) == 1
