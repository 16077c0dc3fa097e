"""R-13: the threads the bot closes and opens between phases, owed to the forum like its posts.

A lock is no fold decision: the game plays the same whether the forum locks the thread or not. It is derived here,
in the shell, from the phases the fold resolved, as outbox rows under stable keys (`lock/vote/day 2`), so each is
performed once, durably, in its turn among the posts (the result post first, then the lock). Where is `Where.LOCK`,
`to` the thread ("vote" or "game"), `text` the action ("lock" or "unlock").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Mapping

from forumbot.model import Message, Where

LOCK, UNLOCK = "lock", "unlock"
VOTE, GAME = "vote", "game"
# M-15: the conference conversation locked after the PM that closes it; `to` is that PM's (the members' names)
CLOSE = "close"
CONFERENCE_OPENED, CONFERENCE_CLOSED = "setup/conference", "setup/conference-closed"  # engine/conference.py's keys


def _kind(label: str) -> str:
    return label.split(" ", 1)[0]


def lock_messages(options: Mapping[str, Any], resolved: Iterable[tuple[str, datetime]], phase: str) -> list[Message]:
    """The locks and unlocks owed for the phases resolved, in order (`resolved`: each phase's label with the time it
    was resolved; `phase`: the phase open now). A day (or its runoff) whose deadline led into a night, or ended the
    game, closes the vote thread; a night that led into a day opens it again; with `lock_game_thread_at_night` the
    game thread is closed for each night and opened when the night is over, even when that ends the game (the
    result is posted there). Nothing without `lock_threads`, so a game that does not ask is never touched."""
    if not options.get("lock_threads"):
        return []
    night_too = bool(options.get("lock_game_thread_at_night"))
    steps = list(resolved)
    following = [label for label, _ in steps[1:]] + [phase]
    owed: list[Message] = []
    for (label, at), after in zip(steps, following):
        was, now = _kind(label), _kind(after)
        if was in ("day", "runoff") and now in ("night", "ended"):
            owed.append(_action(at, VOTE, LOCK, label))
            if night_too and now == "night":
                owed.append(_action(at, GAME, LOCK, label))
        elif was == "night" and now in ("day", "ended"):
            if now == "day":
                owed.append(_action(at, VOTE, UNLOCK, label))
            if night_too:
                owed.append(_action(at, GAME, UNLOCK, label))
    return owed


def _action(at: datetime, thread: str, action: str, label: str) -> Message:
    return Message(at=at, where=Where.LOCK, to=thread, text=action, key=f"{action}/{thread}/{label}")


def conference_lock(messages: Iterable[Message], can_close: bool) -> list[Message]:
    """M-15: where the adapter can lock a conversation (`can_close`), the mafia's conference conversation is locked
    when the PM that closes it is due (it goes out first: a lock is delivered after the PMs due with it), so the
    members are not only told it closed but can write no more in it; so is the one a replacement before Day 1 left
    behind (its members, the replaced player among them, could write on in it). `messages`: the game's, from its
    start. No fold decision either: the engine's PMs are the same on every engine."""
    if not can_close:
        return []
    messages = list(messages)
    closing = [m for m in messages if m.key == CONFERENCE_CLOSED and m.where == Where.PM]
    if not closing:
        return []
    close = closing[0]
    owed = [Message(at=close.at, where=Where.LOCK, to=close.to, text=CLOSE, key=f"{CLOSE}/conference")]
    for m in messages:
        if m.where == Where.PM and _opens_conference(m.key) and "," in (m.to or "") and m.to != close.to:
            owed.append(Message(at=close.at, where=Where.LOCK, to=m.to, text=CLOSE, key=f"{CLOSE}/conference/{m.key}"))
    return owed


def _opens_conference(key: str) -> bool:
    """engine/conference.py's keys: Setup's conversation, and a replacement's (`gm/ID/conference`)."""
    return key == CONFERENCE_OPENED or (key.startswith("gm/") and key.endswith("/conference"))
