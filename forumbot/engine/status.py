"""The game as GMs see it: the status after each command, the override log's lines (C-9)."""

from __future__ import annotations

from typing import Any

from forumbot.engine.counts import ballots, known
from forumbot.engine.seats import alive_ids, alive_nicks, missing_moves, nick, target_nick, team_targets
from forumbot.engine.state import Game, State
from forumbot.engine.work import Work
from forumbot.model import Role, Vote


def status_text(w: Work, roles: bool = False) -> str:
    """The status GMs get after each command; with `roles` (their `статус`), every seat's role and whether the
    Don is chosen: GMs are trusted, the public never sees it (issue 17 item 13)."""
    g, tb = w.g, w.tb
    ph = g.phase
    votes: dict[str, str] = {}
    if ph.kind in ("day", "runoff"):
        found = ballots(w, known(w, g.runoff_posts if ph.kind == "runoff" else g.posts))  # C-13
        votes = {nick(w, v): target_nick(w, t) for v, t in found.final.items()}
    missing: list[tuple[str, str]] = []
    # night moves are owed only by night: by day or in Setup the list would name every role as missing
    for sid in (alive_ids(w) if ph.kind == "night" else ()):
        missing.extend((nick(w, sid), str(kind)) for kind in missing_moves(w, sid))
    unconfirmed = ([x.nick for x in g.seats.values() if not x.confirmed] if ph.kind == "setup" else [])
    seats = [(nick(w, sid), x.role, x.alive) for sid, x in g.seats.items()] if roles else []
    no_don = roles and Role.DON in tb.variant.roles and all(x.role is not Role.DON for x in g.seats.values())
    # M-1: the last nomination before Day 1 stands, so the GM is told whom it names, not that none was made
    nominee = nick(w, g.don_nomination) if no_don and g.don_nomination in g.seats else ""
    text = tb.t.gm.status(ph.label, ph.deadline if ph.kind != "ended" else None, g.paused_at,
                       alive_nicks(w), votes, missing, unconfirmed, seats, no_don, g.winner, nominee)
    early = majority_line(w)
    if early:
        text = tb.t.v.prose(text, early)
    if ph.kind == "night" and not tb.variant.team_shot:  # M-5: the GMs see a misfire coming (item 8)
        text = tb.t.v.prose(text, tb.t.guide.mafia_mismatch(team_targets(w)))
    return text


def majority_line(w: Work) -> str:
    """R-12: the open day's majority and when it ends the day, or that the day just over ended at majority."""
    g, t = w.g, w.tb.t
    ph = g.phase
    if ph.kind == "day" and ph.majority is not None:
        return t.v._("status.majority_pending", nick=t.v.b(nick(w, ph.majority.holder)), at=t.v.time(ph.majority.at),
                   ends=t.v.time(ph.deadline))
    last = g.history[-1] if g.history else None
    if last is not None and last.majority is not None and ph.kind in ("night", "ended") and last.kind == "day":
        return t.v._("status.ended_at_majority", phase=t.v.phase(last.label).capitalize(), nick=t.v.b(last.majority[0]),
                   at=t.v.time(last.majority[1]))
    return ""


def summary(g: State) -> dict[str, Any]:
    """The game in one line of JSON: what the override log (C-9) keeps before and after a GM command."""
    ph = g.phase
    return {
        "phase": ph.label,
        "next_deadline": None if ph.kind == "ended" or g.paused_at else ph.deadline.isoformat(),
        "winner": g.winner,
        "players": [{"nick": s.nick, "alive": s.alive, "died": s.died.phase if s.died else None}
                    for s in g.seats.values()],
    }


def state_line(g: State | Game) -> str:
    """C-9: the state an override changed, in one line of the log (a draft or a Game)."""
    ph = g.phase
    alive = [x.nick for x in g.seats.values() if x.alive]
    return (
        f"{ph.label} until {ph.deadline.isoformat()}{' (paused)' if g.paused_at else ''}, "
        f"alive {len(alive)}: {', '.join(alive)}"
    )


def describe(cmd) -> str:  # type: ignore[no-untyped-def]
    name = type(cmd).__name__.lower()
    fields = ", ".join(_field(v) for v in vars(cmd).values() if v not in ("", None))
    return f"{name} {fields}".strip()


def _field(value: object) -> str:
    # A setvote's vote reads as the GM wrote it (it may be posted to the thread when an undo re-derives it).
    if isinstance(value, Vote):
        return str(value.target) + (f" / {value.runoff}" if value.runoff is not None else "")
    return str(value)
