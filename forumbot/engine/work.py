"""One fold's working context: the Table, the draft Game one step writes to, and what the steps said.

Nothing here outlives the fold (engine/fold.py) or the step (engine/step.py) that made it. Messages and the log
are effects, not game state: an undo's refold (C-9) is a fold on a Work of its own, whose messages are only
compared with what was told (engine/undo.py); no field here says that a fold is a refold."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from typing import Any, Callable, Iterator, Mapping

from forumbot import parse
from forumbot.engine.state import State
from forumbot.engine.table import Table
from forumbot.model import Input, Message, Where
from forumbot.rules.ballots import Tally, VotePost


@dataclass
class Work:
    tb: Table
    g: State
    messages: dict[str, Message] = field(default_factory=dict)  # by outbox key, in order
    log: list[str] = field(default_factory=list)
    # C-13: (where, input id) -> (the phase it missed, its stamp); a post and a PM may share an id
    late: dict[tuple[Where, str], tuple[str, datetime]] = field(default_factory=dict)
    resolved: list[tuple[str, datetime]] = field(default_factory=list)  # each phase resolved, with when
    # the day being resolved: seat -> why it leaves as an autokill (H-4, H-5, R-11), for its history record
    autokill_why: dict[str, str] = field(default_factory=dict)
    waived_gap: tuple[datetime, datetime] | None = None  # C-14: the day being resolved, its result post's gap
    waived_why: str = ""  # C-14: the reason of the autokills that gap waived ("no_vote", "posts", "no_vote_posts")
    # GM PM id -> the game before and after it (status.summary)
    commands: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    tallies: dict[int, tuple[list[VotePost], Tally]] = field(default_factory=dict)  # resumable counts (counts.py)
    read_latest: dict[int, tuple[list[VotePost], int, datetime | None]] = field(default_factory=dict)  # counts.py, C-13
    missed: list[tuple[int, Input]] = field(default_factory=list)  # C-13's late inputs, by queue index
    on_resolved: Callable[[datetime], None] | None = None  # the fold's checkpoint at a resolved deadline
    # C-13: a message made from the inputs at one moment (an interim count, a reminder, a GM's status) shows only
    # the posts the bot had read by then: `known_by` is that moment while it is made (None: every post)
    known_by: datetime | None = None
    # C-13: each interim count (by its key) and reminder ("remind:<phase>") made, with its game time: the daemon
    # records when it first made each (Schedule.resolved), as it does each resolution
    computed: list[tuple[str, datetime]] = field(default_factory=list)
    # C-14: when the tick folding this resolves a deadline not yet recorded as resolved (Schedule.resolved):
    # the bot is back then. None outside a tick (a replay reads the recorded times)
    now: datetime | None = None
    gm_closing: bool = False  # C-14: the open phase is being resolved by a GM's `конец-фазы` (not judged)
    # (the nicks, the aliases dict, how many aliases it had, their matcher): see matcher()
    _matcher: tuple[tuple[str, ...], Mapping[str, str], int, parse.NickMatcher] | None = None

    def matcher(self) -> parse.NickMatcher:
        """The nick matcher of the seats and aliases as they are now (rebuilt only when they changed)."""
        g = self.g
        # The draft's aliases are only added to in place (any other change makes a new dict: state.rewrite), so
        # the same dict, as long as it was, needs no new matcher; longer, only the aliases added since (a GM's
        # `алиас`) are normalised. The cache holds the dict, so its id is never another's.
        nicks, aliases = tuple(s.nick for s in g.seats.values()), g.aliases
        cached = self._matcher
        if cached is not None and cached[0] == nicks and cached[1] is aliases and cached[2] == len(aliases):
            return cached[3]
        if cached is not None and cached[0] == nicks and cached[1] is aliases and cached[2] < len(aliases):
            added = islice(aliases.items(), cached[2], None)
            matcher = cached[3].with_aliases({alias: g.seats[sid].nick for alias, sid in added})
        else:
            matcher = parse.NickMatcher(
                [s.nick for s in g.seats.values()], {alias: g.seats[sid].nick for alias, sid in g.aliases.items()})
        self._matcher = (nicks, aliases, len(aliases), matcher)
        return matcher

    @contextmanager
    def knowing(self, by: datetime | None) -> Iterator[None]:
        """Make a message from the posts read by `by` (C-13), every post if None."""
        outer, self.known_by = self.known_by, by
        try:
            yield
        finally:
            self.known_by = outer

    def current_index(self) -> int:
        """Index in g.inputs of the input being handled: the draft's last (an undo's refold holds the inputs only up
        to the one it handles, as the fold does)."""
        return len(self.g.inputs) - 1
