"""What the bot says, and under which outbox key: every message a step sends goes through here."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from forumbot.engine.work import Work
from forumbot.model import Message, Where
from forumbot.rules.house import defaults


def post(w: Work, at: datetime, where: Where, text: str, key: str) -> None:
    emit(w, Message(at, where, None, text, key))


def pm(w: Work, at: datetime, to: str, text: str, key: str, moot_after: str = "") -> None:
    """A PM to a seat (by its id: the account playing it now gets it) or to an account by name; `moot_after`: the
    phase after whose resolution it is never sent (Message)."""
    seats = w.g.seats
    emit(w, Message(at, Where.PM, seats[to].nick if to in seats else to, text, key, moot_after))


def pm_account(w: Work, at: datetime, account: str, text: str, key: str) -> None:
    """A PM to an account by name, never to the seat a name may also key (a seat keeps its first nick as its id:
    the account a `замена` unseated must not be read as the seat's new holder)."""
    emit(w, Message(at, Where.PM, account, text, key))


def to_gms(w: Work, at: datetime, text: str, key: str) -> None:
    for gm in w.tb.gms:
        pm(w, at, gm, text, f"{key}/{gm}")
    if not w.tb.gms:
        w.log.append(text)


def post_opening(w: Work, at: datetime, text: str, key: str) -> None:
    """Issue 11 item 6: a phase opening at a deadline is announced in the post with that deadline's results,
    so a board's flood limit or MyBB's merging of consecutive posts cannot split or delay them."""
    last = next((m for m in reversed(w.messages.values()) if m.where is Where.GAME), None)
    if last is None or last.at != at or not last.key.endswith("/result"):
        post(w, at, Where.GAME, text, key)
        return
    w.messages[last.key] = replace(last, text=w.tb.t.v.post(last.text, text))


def emit(w: Work, msg: Message) -> None:
    key = msg.key
    n = 1
    while key in w.messages:
        n += 1
        key = f"{msg.key}#{n}"
    w.messages[key] = replace(msg, key=key)


def house_summary(w: Work, only: frozenset[str] | None = None) -> list[tuple[str, object]]:
    """The house rules in force that differ from the variant's clauses (RULES.md R), for the texts."""
    summary = w.tb.variant.house.summary(defaults(w.tb.variant.name))
    return [(k, v) for k, v in summary if only is None or k in only]


def how_to_vote(w: Work) -> list[str]:
    v = w.tb.variant
    return w.tb.t.guide.how_to_vote(v.vote_grammar == "strict", v.house, v.has_runoff, w.tb.setup.vote_url)


def rules_in_force(w: Work) -> list[tuple[str, object]]:
    """The day's and the game's rules as this game plays them, the variant's own included (a default game's
    players were told none, issue 17 item 6); the vote's own rules are in `how_to_vote`."""
    house = w.tb.variant.house
    rules: list[tuple[str, object]] = [(name, getattr(house, name))
                                       for name in ("lynch", "tie", "no_show", "draw_at", "open_roles")]
    return rules + [(k, v) for k, v in house_summary(w) if k in ("cast", "post_minimum")]
