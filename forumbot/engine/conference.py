"""M-15: the mafia conference during Setup. It opens with the role PMs, a replacement mafia member joins it, and
it closes when Day 1 opens; nothing said in it is a move or a command.

The mode is the game's option `conference`: "conversation", one PM from the bot to every member at once, whose
replies the forum shows to all of them (the adapters send a PM with several recipients, `to` listing them); "relay",
the bot forwarding each member's `конфа ТЕКСТ` PM to the others; "none". A game without the option (a transcript
recorded before M-15) has none, so it replays as it was. Free Hunt has no conference."""

from __future__ import annotations

from datetime import datetime

from forumbot.engine.seats import nick, seat_of
from forumbot.engine.speech import pm
from forumbot.engine.work import Work
from forumbot.model import Input
from forumbot.parse.signup import says_no_notice


def mode(w: Work) -> str:
    return str(w.tb.options.get("conference", "none")) if w.tb.variant.name == "moscow" else "none"


def relay_on(w: Work) -> bool:
    return mode(w) == "relay"


def members(w: Work) -> list[str]:
    """The mafia seats still in the game (the Don included), in seat order."""
    return [sid for sid, seat in w.g.seats.items() if seat.is_mafia and seat.alive]


def closes(w: Work) -> datetime:
    """When the conference closes: when Day 1 opens, Setup's deadline as it stands (an `extend` or a resume
    during Setup moves it, C-9), not the configured start."""
    return w.g.phase.deadline if w.g.phase.kind == "setup" else w.tb.setup.schedule.start


def invite(w: Work, sid: str, at: datetime, key: str) -> None:
    """The PM that tells a mafia member how to talk to his partners, and until when (M-15)."""
    others = [nick(w, other) for other in members(w) if other != sid]
    pm(w, at, sid, w.tb.t.players.conference_open(others, closes(w)), key)


def start_conversation(w: Work, at: datetime, key: str) -> None:
    """One PM to every member at once, naming them all and when it closes: their replies to it are the
    conference (M-15). A replacement's conversation is a new one with the members as they are then."""
    nicks = [nick(w, sid) for sid in members(w)]
    if len(nicks) > 1:
        pm(w, at, ", ".join(nicks), w.tb.t.players.conference_conversation(nicks, closes(w)), key)


def open_conference(w: Work, at: datetime) -> None:
    if mode(w) == "conversation":
        start_conversation(w, at, "setup/conference")
    elif relay_on(w):
        for sid in members(w):
            invite(w, sid, at, f"setup/conference/{sid}")


def join_conference(w: Work, sid: str, at: datetime, key: str) -> None:
    """A replacement mafia member before Day 1 (C-9): a new conversation with the members as they are now, or the
    relay's invitation."""
    if mode(w) == "conversation":
        start_conversation(w, at, key)
    elif relay_on(w):
        invite(w, sid, at, key)


def conference_moved(w: Work, at: datetime, key: str) -> None:
    """Setup's deadline moved (a GM's `extend`, a resume, or their undo, C-9): the members are told where they talk
    that the conference stays open until the new time (M-15: it closes when Day 1 opens); the game thread's post
    says it only to those who read it for a new deadline. While paused there is no time to name yet."""
    if w.g.phase.kind != "setup" or w.g.paused_at is not None:
        return
    said = w.tb.t.players.conference_moved(closes(w))
    if mode(w) == "conversation":
        nicks = [nick(w, sid) for sid in members(w)]
        if len(nicks) > 1:
            pm(w, at, ", ".join(nicks), said, key)
    elif relay_on(w):
        for sid in members(w):
            pm(w, at, sid, said, f"{key}/{sid}")


def close_conference(w: Work, at: datetime) -> None:
    """Day 1 opens: the members are told, in the conference's own words, that it is closed: in the conversation
    once (to all of them), in the relay each."""
    if mode(w) == "conversation":
        nicks = [nick(w, sid) for sid in members(w)]
        if len(nicks) > 1:
            pm(w, at, ", ".join(nicks), w.tb.t.players.conference_closed(), "setup/conference-closed")
    elif relay_on(w):
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


def shared_pm(w: Work, inp: Input) -> None:
    """A PM written to the bot and others at once (a GM's was read as his command before this, engine/fold.py).
    During Setup a mafia member's is the conference conversation's talk: no move, no answer (M-15). Anyone else's
    is no move either (M-15: moves count only in PMs to the bot), but nothing a player sent is dropped silently:
    the sender is told once, for this PM, to send it to the bot alone; but a `не писать` (S-5), which counts
    however it is sent (forumbot/cycle/season.py), is acknowledged as taken."""
    sid = seat_of(w, inp.author)
    if mode(w) == "conversation" and w.g.phase.kind == "setup" and sid is not None and w.g.seats[sid].is_mafia:
        w.log.append(f"{w.g.phase.label}: PM {inp.id} from {inp.author} to the bot and others: the conference")
        return
    if says_no_notice(inp.text):
        w.log.append(f"{w.g.phase.label}: PM {inp.id} from {inp.author} to the bot and others: no season notices")
        pm(w, inp.at, sid or inp.author, w.tb.t.players.no_notice_taken(), f"pm/{inp.id}/shared")
        return
    w.log.append(f"{w.g.phase.label}: PM {inp.id} from {inp.author} to the bot and others: not read, he is told")
    pm(w, inp.at, sid or inp.author, w.tb.t.players.shared_pm_refused(), f"pm/{inp.id}/shared")
