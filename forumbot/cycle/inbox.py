"""A forum's inbox in one tick: read at most once, and where the thread pages show no unread PM, maybe not at all
(issue 8)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime

from forumbot.forum.adapter import ForumAdapter
from forumbot.errors import FloodLimited, ForumError
from forumbot.outbox.restore import BEHIND, behind_stream
from forumbot.store.records import INBOX, get_cursor, phase_stream, set_cursor, store_pms
from forumbot.cycle.context import Context, TickReport

log = logging.getLogger("forumbot.tick")  # the tick's logger, as before the split: the log lines read the same


INBOX_READ = "inbox:read"  # cursor stream: when the inbox was last read (the `started` of that tick)


@dataclass
class Inbox:
    """A forum's inbox in one tick: read at most once, before the first fold that needs it.

    Where the adapter cannot skip it (`skippable` False) it is read first, before any thread, as always. Where it
    can, a game's threads are read first and the inbox is left unread only when all of these hold (issue 8):
    - every topic page the game's reads fetched in this tick shows an unread-PM count, and all show 0 (a page
      where it cannot be read means a read);
    - the inbox was read within `ctx.inbox_every` (30 min): a PM the board shows as read but the store lacks (a
      tick killed between reading and storing it, or a person reading it logged in as the bot) is still in the
      inbox, past the cursor, and is stored by the next read. So it waits at most that long, far below a day
      or night phase, and never past a deadline (below); for one request in every 30 of a once-a-minute cron;
    - the game's remembered phase has no deadline due in this fold, and is known (not the first fold);
    - the game's database is not noted behind the forum (restored from an older copy: forumbot/outbox/restore.py);
    and after the fold, if the fold moved the phase (a deadline, a GM's `конец-фазы`, a win), the inbox is read
    then and the fold redone: no phase is resolved on a fold that skipped the inbox.
    Skipping still waits for the inbox lock, so the PMs a concurrent tick has just read are stored first."""

    name: str
    forum_id: int
    started: datetime
    report: TickReport
    skippable: bool
    state: str = "unread"  # unread | skipped | read
    error: ForumError | None = None

    def read(self, ctx: Context, adapter: ForumAdapter) -> None:
        """Read and store it now (once a tick); a failure is recorded, and raised to each game that needs it."""
        if self.state == "read" or self.error is not None:
            return
        try:
            stored = _read_inbox(ctx, adapter, self.name, self.forum_id, self.started)
        except ForumError as e:
            self.error = e
            if isinstance(e, FloodLimited):  # the forum is there and asked us to wait: the games are deferred
                log.info("%s: reading the inbox deferred by the forum: %s", self.name, e)
                return
            self.report.unreachable[self.name] = e
            log.error("%s: reading the inbox failed: %s", self.name, e)
            return
        self.state = "read"
        self.report.pms_stored[self.name] = self.report.pms_stored.get(self.name, 0) + stored
        if self.skippable:
            with ctx.sessions.begin() as session:
                set_cursor(session, self.forum_id, INBOX_READ, self.started.isoformat())

    def before_fold(self, ctx: Context, adapter: ForumAdapter, game_id: int, until: datetime) -> None:
        """After a game's threads are read: read the inbox, unless it may be skipped for this fold."""
        shown = adapter.unread_pms_shown() if self.skippable else None  # type: ignore[attr-defined]
        if self.state == "read" or self.error is not None:
            return
        why = self._why_read(ctx, game_id, until, shown)
        if why:
            log.debug("%s: reading the inbox (%s)", self.name, why)
            self.read(ctx, adapter)
            return
        with ctx.locks.hold(f"inbox:{self.name}", wait=ctx.inbox_wait) as mine:
            if not mine:  # another tick has been reading it for a minute: read it ourselves, which says why
                self.read(ctx, adapter)
                return
        self.state = "skipped"
        log.debug("%s: the thread pages show no unread PM; inbox not read", self.name)

    def _why_read(self, ctx: Context, game_id: int, until: datetime, shown: int | None) -> str:
        if shown is None:
            return "the pages show no unread-PM count"
        if shown:
            return f"{shown} unread"
        with ctx.sessions.begin() as session:
            last_read = get_cursor(session, self.forum_id, INBOX_READ)
            known = get_cursor(session, self.forum_id, phase_stream(game_id))
            behind = get_cursor(session, self.forum_id, behind_stream(game_id)) == BEHIND
        if behind:  # the PMs read since the database's copy are read, not unread: the header shows none of them
            return "the database is behind the forum"
        if last_read is None or self.started - datetime.fromisoformat(last_read) >= ctx.inbox_every:
            return f"not read for {ctx.inbox_every}"
        if not known:
            return "the game's phase is not known yet"
        deadline = json.loads(known).get("deadline")
        if deadline and datetime.fromisoformat(deadline) <= until:
            return "a deadline is due"
        return ""


def _read_inbox(ctx: Context, adapter: ForumAdapter, forum_name: str, forum_id: int, now: datetime) -> int:
    # The inbox is shared by every game on the forum; wait for a concurrent reader rather than skip, so that
    # every PM sent before `now` is stored before this tick folds.
    with ctx.locks.hold(f"inbox:{forum_name}", wait=ctx.inbox_wait) as mine:
        if not mine:
            raise ForumError(f"{forum_name}: the inbox is locked by another tick for over {ctx.inbox_wait:.0f} s")
        with ctx.sessions.begin() as session:
            cursor = get_cursor(session, forum_id, INBOX)
        pms, new_cursor = ctx.retry(adapter, lambda: adapter.fetch_pms(after=cursor))
        ctx.hook("after_fetch")
        stored = 0
        if pms or new_cursor != cursor:
            with ctx.sessions.begin() as session:
                stored = store_pms(session, forum_id, pms, now)
                set_cursor(session, forum_id, INBOX, new_cursor)
        ctx.hook("after_store")
        return stored
