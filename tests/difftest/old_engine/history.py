"""What each day and runoff was, recorded beside the fold for the public pages (issue 20 item 1).

Kept in State, so an undo's snapshot restores it with the rest. It holds only what the vote thread shows and
what the bot announced publicly: the vote posts as read, the final tally and who died of the resolution with the
cause as posted; roles only where the variant reveals them (open roles)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

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

    @property
    def label(self) -> str:
        return f"{self.kind} {self.number}"


class HistoryMixin:
    """Engine methods that record the day before its resolution and what it announced after."""

    def _history_mark(self, at: datetime) -> DayRecord | None:
        if self.s.phase.kind not in ("day", "runoff"):
            return None
        return self._day_record(at)

    def _history_record(self, mark: DayRecord | None) -> None:
        if mark is None:
            return
        died = tuple((sid, s.died.cause if s.died else "", str(s.role) if self.variant.open_roles else "")
                     for sid, s in self.s.seats.items() if sid in mark.alive and not s.alive)
        leaders = mark.leaders if mark.kind == "runoff" else (
            tuple(self.s.leaders) if self.s.phase.kind == "runoff" else ())
        cancelled = self.s.day_modkill and (mark.kind == "runoff" or bool(self.variant.modkill_cancels_vote))
        self.s.history.append(replace(mark, deaths=died, leaders=leaders, cancelled=cancelled))

    def _day_record(self, closed: datetime | None) -> DayRecord:
        """The open day or runoff; with `closed`, its posts as its deadline's re-read will see them (C-11)."""
        ph = self.s.phase
        runoff = ph.kind == "runoff"
        posts = [replace(p) for p in (self.s.runoff_posts if runoff else self.s.posts)]
        if closed is not None:
            for p in posts:
                if p.deleted_at is not None and p.deleted_at <= closed and not isinstance(p.parsed, Agitation):
                    p.deleted = True
        if runoff:
            kept = self.s.runoff_posts
            self.s.runoff_posts = posts
            try:
                votes = self._runoff_votes()
            finally:
                self.s.runoff_posts = kept
        else:
            votes = {v: t for v, t in self._ballots(posts).final.items() if self._counts(v, t)}
        return DayRecord(
            kind=ph.kind, number=ph.number, opens=ph.opens, closed=closed,
            posts=tuple(posts),
            nicks={sid: s.nick for sid, s in self.s.seats.items()},
            alive=tuple(self._alive_ids()),
            votes={v: str(t) for v, t in votes.items()},
            leaders=tuple(self.s.leaders) if runoff else (),
            hang_all=self.s.hang_all if runoff else False,
            changes_allowed=self.variant.vote_changes,
            repeat_is_change=self.variant.house.repeat_is_change,
        )

    def _history(self) -> tuple[DayRecord, ...]:
        """The days resolved, and the open day or runoff as it stands (for `vote_history = "live"`)."""
        done = tuple(self.s.history)
        if self.s.phase.kind in ("day", "runoff"):
            return done + (self._day_record(None),)
        return done
