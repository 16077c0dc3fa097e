"""M-15: the mafia conference during Setup, as a relay through the bot's PMs. It opens with the role PMs, a
replacement mafia member joins it, and it closes when Day 1 opens; nothing said in it is a move or a command.

The mode is the game's option `conference` ("relay" or "none"); a game without the option (a transcript recorded
before M-15) has none, so it replays as it was. Free Hunt has no conference."""

from __future__ import annotations

from datetime import datetime

from forumbot.engine.seats import nick
from forumbot.engine.speech import pm
from forumbot.engine.work import Work
from forumbot.model import Input


def relay_on(w: Work) -> bool:
    return w.tb.variant.name == "moscow" and w.tb.options.get("conference", "none") == "relay"


def members(w: Work) -> list[str]:
    """The mafia seats still in the game (the Don included), in seat order."""
    return [sid for sid, seat in w.g.seats.items() if seat.is_mafia and seat.alive]


def invite(w: Work, sid: str, at: datetime, key: str) -> None:
    """The PM that tells a mafia member how to talk to his partners, and until when (M-15)."""
    others = [nick(w, other) for other in members(w) if other != sid]
    pm(w, at, sid, w.tb.t.players.conference_open(others, w.tb.setup.schedule.start), key)


def open_conference(w: Work, at: datetime) -> None:
    if relay_on(w):
        for sid in members(w):
            invite(w, sid, at, f"setup/conference/{sid}")


def close_conference(w: Work, at: datetime) -> None:
    """Day 1 opens: each member is told, in the conference's own words, that it is closed."""
    if relay_on(w):
        for sid in members(w):
            pm(w, at, sid, w.tb.t.players.conference_closed(), f"setup/conference-closed/{sid}")


def relay(w: Work, inp: Input, sid: str, said: str) -> str:
    """A member's `конфа ТЕКСТ`: forwarded to every other member, signed; the answer to the sender."""
    t, seat = w.tb.t, w.g.seats[sid]
    if not seat.is_mafia:
        return t.players.conference_refused("not_member")
    if not seat.alive:
        return t.players.you_are_dead()
    if w.g.phase.kind != "setup":
        return t.players.conference_closed()
    if not said:
        return t.players.conference_refused("empty")
    others = [other for other in members(w) if other != sid]
    for other in others:
        pm(w, inp.at, other, t.players.conference_line(seat.nick, said), f"pm/{inp.id}/conference/{other}")
    return t.players.conference_sent([nick(w, other) for other in others])
