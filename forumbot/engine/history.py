"""What each day and runoff was, recorded beside the fold for the public pages (issue 20 item 1).

Kept in the Game, so an undo's saved Game has it with the rest. It holds only what the vote thread shows and
what the bot announced publicly: the vote posts as read, the final tally and who died of the resolution with the
cause as posted; roles only where the variant reveals them (open roles)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from forumbot.engine.counts import ballots, counts, runoff_votes
from forumbot.engine.seats import alive_ids
from forumbot.engine.work import Work
from forumbot.model import Agitation
from forumbot.rules.ballots import VotePost


@dataclass(frozen=True)
class DayRecord:
    kind: str  # "day" | "runoff"
    number: int
    opens: datetime
    closed: datetime | None  # None while the phase is open
    posts: tuple[VotePost, ...]  # in post order, with the flags the deadline's re-read set
    nicks: dict[str, str]  # seat id -> nick then, for every seat
    alive: tuple[str, ...]  # seat ids alive before the resolution
    votes: dict[str, str]  # final counted votes, seat id -> seat id or Special value
    leaders: tuple[str, ...] = ()  # a runoff's leaders; a day's that went to a runoff
    hang_all: bool = False
    deaths: tuple[tuple[str, str, str], ...] = ()  # (seat id, cause, role as announced or "")
    cancelled: bool = False  # M-11: a modkill cancelled the vote
    changes_allowed: int | None = None
    repeat_is_change: bool = True
    lynch: str = "plurality"  # whether a majority of the alive is what hangs
    tie: str = ""  # what a tie for most votes does (the day page says it while the day is open)
    # a GM `замена` during the phase: (seat id, its nick before, when), as the game thread announced it (C-9);
    # a post before it is the former player's, as the counts of that time named him
    renamed: tuple[tuple[str, str, datetime], ...] = ()
    # (nick, post time) of the majority that ended the day early (or will, after its delay, while open)
    majority: tuple[str, datetime] | None = None
    majority_ends_day: bool = False  # R-12: a majority of the alive ends the day, whatever R-5's lynch
    autokill_why: tuple[tuple[str, str], ...] = ()  # (seat id, why) per autokill: the result post's reason
    waived_gap: tuple[datetime, datetime] | None = None  # C-14: the outage its result post named, no-shows staying
    waived_why: str = ""  # C-14: the reason of the autokills it waived, as the result post named it

    @property
    def label(self) -> str:
        return f"{self.kind} {self.number}"


def mark(w: Work, at: datetime) -> DayRecord | None:
    """The day or runoff about to be resolved at `at`, as its deadline's re-read will see it."""
    if w.g.phase.kind not in ("day", "runoff"):
        return None
    return day_record(w, at)


def record(w: Work, marked: DayRecord | None) -> None:
    """After the resolution: the marked day with who died of it, kept in the game's history."""
    if marked is None:
        return
    g, variant = w.g, w.tb.variant
    died = tuple((sid, s.died.cause if s.died else "", str(s.role) if variant.open_roles else "")
                 for sid, s in g.seats.items() if sid in marked.alive and not s.alive)
    leaders = marked.leaders if marked.kind == "runoff" else (tuple(g.leaders) if g.phase.kind == "runoff" else ())
    cancelled = g.day_modkill and (marked.kind == "runoff" or bool(variant.modkill_cancels_vote))
    why = tuple((sid, w.autokill_why[sid]) for sid, _, _ in died if sid in w.autokill_why)
    gap, waived_why, w.autokill_why, w.waived_gap, w.waived_why = w.waived_gap, w.waived_why, {}, None, ""
    g.history.append(replace(marked, deaths=died, leaders=leaders, cancelled=cancelled, autokill_why=why,
                             waived_gap=gap, waived_why=waived_why))


def day_record(w: Work, closed: datetime | None) -> DayRecord:
    """The open day or runoff; with `closed`, its posts as its deadline's re-read will see them (C-11)."""
    g = w.g
    ph = g.phase
    runoff = ph.kind == "runoff"
    posts = list(g.runoff_posts if runoff else g.posts)
    if closed is not None:
        posts = [replace(p, deleted=True)
                 if p.deleted_at is not None and p.deleted_at <= closed and not isinstance(p.parsed, Agitation)
                 else replace(p) for p in posts]
    else:
        posts = [replace(p) for p in posts]
    if runoff:
        votes = runoff_votes(w, posts)
    else:
        votes = {v: t for v, t in ballots(w, posts).final.items() if counts(w, v, t)}
    variant = w.tb.variant
    return DayRecord(
        kind=ph.kind, number=ph.number, opens=ph.opens, closed=closed,
        posts=tuple(posts),
        nicks={sid: s.nick for sid, s in g.seats.items()},
        alive=tuple(alive_ids(w)),
        votes={v: str(t) for v, t in votes.items()},
        leaders=tuple(g.leaders) if runoff else (),
        hang_all=g.hang_all if runoff else False,
        changes_allowed=variant.vote_changes,
        repeat_is_change=variant.house.repeat_is_change,
        lynch=variant.house.lynch,
        tie=variant.house.tie,
        renamed=_renamed(w),
        majority=(g.seats[ph.majority.holder].nick, ph.majority.at) if ph.majority else None,
        majority_ends_day=variant.house.majority_ends_day and not runoff,
    )


def _renamed(w: Work) -> tuple[tuple[str, str, datetime], ...]:
    """The replacements given during the open phase, from the undo stack (C-9): each one's Game before it holds
    the nick it replaced, the next one's (or the game now) the nick after; an undone one is off the stack, as if
    never given. Only a `замена` renames a seat."""
    g = w.g
    out = []
    for k, o in enumerate(g.overrides):
        inp = g.inputs[o.index] if o.index < len(g.inputs) else None
        if o.name != "Replace" or inp is None or o.before is None or inp.at < g.phase.opens:
            continue  # (an override with no Game before it is from before this phase opened)
        later = g.overrides[k + 1].before if k + 1 < len(g.overrides) else None
        after = later if later is not None else g
        out += [(sid, seat.nick, inp.at) for sid, seat in o.before.seats.items()
                if seat.nick != after.seats[sid].nick]
    return tuple(out)


def history_now(w: Work) -> tuple[DayRecord, ...]:
    """The days resolved, and the open day or runoff as it stands (for `vote_history = "live"`)."""
    done = tuple(w.g.history)
    if w.g.phase.kind in ("day", "runoff"):
        return done + (day_record(w, None),)
    return done
