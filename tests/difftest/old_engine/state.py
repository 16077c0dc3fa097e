"""The engine's state: plain dataclasses, so that a GM `undo` can restore a snapshot and re-apply what came after."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from forumbot.rules import NightMoves, Seat
from forumbot.rules.ballots import VotePost

TEAM_SHOT = ""  # Free Hunt files the mafia's one shot under this pseudo-seat (H-7)
LAST_WORD_CAUSES = frozenset({"vote", "runoff", "mafia", "maniac", "hunt", "failed_hunt"})  # C-8


@dataclass
class Phase:
    kind: str  # setup | day | runoff | night | ended
    number: int
    opens: datetime
    deadline: datetime

    @property
    def label(self) -> str:
        if self.kind in ("setup", "ended"):
            return self.kind
        return f"{self.kind} {self.number}"

    @property
    def death_label(self) -> str:
        """Deaths in a runoff belong to that day (M-10)."""
        return f"day {self.number}" if self.kind == "runoff" else self.label


@dataclass
class State:
    seats: dict[str, Seat]  # seat id -> seat, in config order
    accounts: dict[str, str]  # account nick -> seat id
    aliases: dict[str, str]  # alias -> seat id
    phase: Phase
    paused_at: datetime | None = None
    posts: list[VotePost] = field(default_factory=list)
    runoff_posts: list[VotePost] = field(default_factory=list)
    leaders: tuple[str, ...] = ()
    hang_all: bool = False
    day_modkill: bool = False  # M-11
    moves: NightMoves = field(default_factory=NightMoves)
    hunting_open: bool = True  # H-12, fixed when a night opens
    misfires: int = 0  # M-6
    agitations: Counter = field(default_factory=Counter)  # H-4, whole game
    doomed: set[str] = field(default_factory=set)  # autokilled at this day's deadline (H-4 repeat)
    maniac_last: str | None = None  # H-8
    last_words: dict[str, datetime] = field(default_factory=dict)  # seat -> deadline of an unused last word
    runoff_speakers: set[str] = field(default_factory=set)
    don_nomination: str | None = None
    quiet_day: bool = False  # H-14 stalemate count
    winner: str | None = None
    ended_at: datetime | None = None
    resolutions: int = 0
    deaths_this_phase: int = 0
    # The count schedule is game state too: an undo restores it with the rest, as if the override was never
    # given (C-9); only the clock, the time the fold has reached, stays on the Engine.
    next_count: datetime | None = None
    reminded: set[str] = field(default_factory=set)
    last_count: str = ""
    count_signature: tuple = ()  # what the last count showed, to skip re-rendering an unchanged one
    history: list = field(default_factory=list)  # DayRecord per day and runoff resolved (forumbot.engine.history)
