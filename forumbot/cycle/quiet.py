"""A quiet game costs nothing (issue 27 item 7): a game whose threads, inbox and outbox brought nothing new since
its last full tick, and whose next deadline, reminder or count has not come, is neither loaded nor folded.

A full tick that ends well leaves the game a mark (a cursor row): the fingerprint of what its fold reads from the
store after the tick's own writes (forumbot/store/quiet.py), the moment it reached, the earliest later moment at
which a fold from its tip would do anything with no new input (a deadline, a reminder, an interim count, an edit or
a late input stamped after it, a message held back), and what the tick reported (its phase, its messages held
back). A later tick that reads the game's threads and finds the same posts as the last read stored (their digest,
forumbot/store/records.py), no post held for a moderator and none unreadable, no note that the database is behind
the forum, no PM stored for the forum since, and the same fingerprint before that moment, takes the game's report
from the mark: the full tick would fold from the same tip to the same result, store nothing, queue nothing the
outbox lacks and deliver nothing. Its reads are still recorded (C-14), with the other quiet games' in one
statement once the forum's games are done. One query per forum gives every game's fingerprint; one per game
(its status and cursors, under its lock) replaces the status check the tick made anyway.

No mark is left, so every tick is a full one, for a game in its sign-up (S-1..S-3), a game that ended, a game
with public pages (they are rebuilt each tick), and under a fold a test or the bench put in the context."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Sequence

from sqlalchemy.orm import Session

from forumbot.config.types import GameConfig
from forumbot.cycle.context import Context, GameOutcome
from forumbot.engine.checkpoint import Tip
from forumbot.engine.fold import resumed
from forumbot.engine.results import GameRun
from forumbot.engine.table import make_table
from forumbot.engine.timeline import next_timed
from forumbot.model import GameSetup, Input
from forumbot.outbox.restore import BEHIND, behind_stream
from forumbot.outbox.store import Delivery
from forumbot.store.checkpoints import load_tip
from forumbot.store.game import default_fold
from forumbot.store.quiet import ForumRows, forum_pms, forum_rows, game_view, quiet_stream
from forumbot.store.reads import record_reads
from forumbot.store.records import seen_stream, set_cursor, topic_stream


@dataclass(frozen=True)
class QuietMark:
    """What a game's last full tick left for the next (the module's doc)."""

    fingerprint: str
    until: datetime  # the moment its fold reached
    next_at: datetime | None  # the earliest later moment a fold would do anything at; None: never
    phase: str
    later: tuple[datetime, ...]  # the times of its messages after `until` (held back, or sent as the bot was back)

    def dumps(self) -> str:
        return json.dumps([self.fingerprint, self.until.isoformat(), self.next_at and self.next_at.isoformat(),
                           self.phase, [at.isoformat() for at in self.later]], ensure_ascii=False)

    @staticmethod
    def loads(text: str | None) -> "QuietMark | None":
        try:
            fingerprint, until, next_at, phase, later = json.loads(text or "")
            return QuietMark(str(fingerprint), datetime.fromisoformat(until),
                             datetime.fromisoformat(next_at) if next_at else None, str(phase),
                             tuple(datetime.fromisoformat(at) for at in later))
        except (ValueError, TypeError):
            return None

    def holds(self, until: datetime) -> bool:
        """Whether a fold up to `until` would do nothing the mark's tick did not (no new input assumed)."""
        return self.until <= until and (self.next_at is None or until < self.next_at)


@dataclass(frozen=True)
class GameView:
    """A game as its tick finds it under its lock: its status and its cursors (one query)."""

    status: str | None
    cursors: dict[str, str]

    def cursor(self, topic: str) -> str | None:
        return self.cursors.get(topic_stream(topic))

    def seen(self, topic: str) -> str | None:
        return self.cursors.get(seen_stream(topic))


def next_moment(state_at: datetime, tip_pending: Sequence[datetime], late: Sequence[datetime],
                result: GameRun, until: datetime, timed: datetime | None) -> datetime | None:
    """The earliest moment after the tip at which a fold would do anything with no new input."""
    found = [at for at in (*tip_pending, *late) if at > state_at]
    found += [m.at for m in result.messages if m.at > until]
    found += [at for at in (timed, result.next_deadline) if at is not None]  # C-11: the re-read at the deadline
    return min(found, default=None)


def config_key(ctx: Context) -> str:
    """The config as one value: a game's routing, options and threads all come from it."""
    return hashlib.sha256(repr(ctx.config).encode()).hexdigest()


class QuietForum:
    """One forum's games in one tick: their fingerprints, read once (and again after a game's full tick), and the
    quiet ones' reads, recorded together at the end."""

    def __init__(self, ctx: Context, forum_id: int, started: datetime) -> None:
        self.ctx, self.forum_id, self.started = ctx, forum_id, started
        self.key = config_key(ctx)
        self._rows: ForumRows | None = None
        self.reads: list[tuple[int, timedelta]] = []
        self._pms: dict[int, tuple[tuple[int, int, int] | None, ...]] = {}  # game id -> the PMs before its fold

    def usable(self, game: GameConfig) -> bool:
        return self.ctx.fold is default_fold and (self.ctx.config.pages is None or not game.publish)

    def view(self, game_id: int, game: GameConfig) -> GameView:
        streams = [quiet_stream(game_id), behind_stream(game_id)]
        streams += [s for topic in game.threads for s in (topic_stream(topic), seen_stream(topic))]
        with self.ctx.sessions.begin() as session:
            status, cursors = game_view(session, game_id, self.forum_id, streams)
        return GameView(status, cursors)

    def mark(self, view: GameView, game: GameConfig, game_id: int, until: datetime) -> QuietMark | None:
        """The game's mark, when it says the game is quiet at `until` (the store read before this game's reads)."""
        if not self.usable(game) or view.cursors.get(behind_stream(game_id)) == BEHIND:
            return None
        mark = QuietMark.loads(view.cursors.get(quiet_stream(game_id)))
        if mark is None or not mark.holds(until):
            return None
        if self._rows is None:
            with self.ctx.sessions.begin() as session:
                self._rows = forum_rows(session, self.forum_id)
        return mark if self._rows.fingerprint(game_id, game.name, game.threads, self.key) == mark.fingerprint else None

    def quiet(self, game: GameConfig, game_id: int, mark: QuietMark, until: datetime, grace: timedelta) -> GameOutcome:
        """The report of a quiet game's tick, as its full tick would give it; its read recorded at the end."""
        self.reads.append((game_id, grace))
        outcome = GameOutcome(game.name, "done", phase=mark.phase, delivery=Delivery())
        later = [at for at in mark.later if at > until]
        if later:
            outcome.held_back = len(later)
            outcome.held_until = min(later) + timedelta(seconds=self.ctx.config.grace_seconds)
        return outcome

    def folding(self, session: Session, game_id: int) -> None:
        """A game's fold is about to load its inputs: the forum's PMs as they are then (one query), for its mark."""
        self._pms[game_id] = forum_pms(session, self.forum_id)

    def remember(self, view: GameView | None, game: GameConfig, game_id: int, setup: GameSetup,
                 inputs: Sequence[Input], result: GameRun, until: datetime, stored: Tip | None = None) -> None:
        """After a game's full tick that ended well: its mark, when the tick leaves one (else the old one goes).
        `stored`: the tip this tick stored, if it stored one (the stored row holds the same value: not read back).
        No mark either when the forum's PMs are not those the fold's load found (`folding`): another process's
        tick read the inbox meanwhile, and the mark would vouch for a PM this fold never saw."""
        pms = self._pms.pop(game_id, None)
        self._rows = None  # the tick may have written what other games' fingerprints read
        if not self.usable(game) or setup.signup is not None or result.result.winner is not None \
                or result.phase == "signup cancelled":
            if view is None or view.cursors.get(quiet_stream(game_id)):
                with self.ctx.sessions.begin() as session:
                    set_cursor(session, self.forum_id, quiet_stream(game_id), "")
            return
        with self.ctx.sessions.begin() as session:
            tip = stored if stored is not None else load_tip(session, game_id)
            if tip is None or tip.until > until or tip.seen != len(inputs):
                set_cursor(session, self.forum_id, quiet_stream(game_id), "")
                return
            late = [inp.read_at for _, inp in tip.state.missed if inp.read_at is not None]
            timed = next_timed(resumed(make_table(setup), tip.state))
            next_at = next_moment(tip.until, [q[0] for q in tip.pending], late, result, until,
                                  timed[0] if timed else None)
            rows = forum_rows(session, self.forum_id, only=(game_id, game.threads, game.name))
            if rows.pms() != pms:
                set_cursor(session, self.forum_id, quiet_stream(game_id), "")
                return
            mark = QuietMark(rows.fingerprint(game_id, game.name, game.threads, self.key), until, next_at,
                             result.phase, tuple(sorted(m.at for m in result.messages if m.at > until)))
            set_cursor(session, self.forum_id, quiet_stream(game_id), mark.dumps())

    def record(self) -> None:
        """The quiet games' reads (C-14), in one statement."""
        reads, self.reads = self.reads, []
        record_reads(self.ctx.sessions, reads, self.started)
