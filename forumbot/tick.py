"""One poll cycle over every running game: read, store raw, fold, queue what is due, deliver.

Per forum the inbox is read once (it is shared by all games there); per game, under that game's lock: read
the game and vote threads, store what is new, fold *all* stored inputs up to the cycle's start, queue the due
messages, deliver. A forum error while reading stops that game's cycle before the fold, so a deadline is
never resolved on a partial read; a later cycle reads on from the stored cursors and catches up.

Where the adapter reads the header's unread-PM count off the thread pages (`shows_unread_pms`, phpBB and
MyBB), the threads are read first and the inbox only when needed (issue 8): an idle tick costs two requests,
not three. See `_Inbox` for when it is read all the same.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Callable, Sequence, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.adapter import ACCOUNTS, REREAD, UNREAD_PMS, ForumAdapter, can
from forumbot.config import Config, GameConfig
from forumbot.errors import (
    FloodLimited, ForumError, FormRejected, LoginRequired, PageIncomplete, PartlySent, SetupError,
)
from forumbot import unreadable
from forumbot.game import GameRun
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.model import GameSetup, Input, Rejection, Replace, Where
from forumbot.pages import publish as pages
from forumbot.parse import NickMatcher, parse_command
from forumbot.outbox import Delivery, Target, deliver, enqueue
from forumbot.store.locks import Locks
from forumbot.store.models import Cursor, Game, OutboxRow, Override, RawInput, Resolution, Seat, UTCDateTime
from forumbot.store.records import INBOX, get_cursor, mark_deleted, set_cursor, store_pms, store_posts, topic_stream
from forumbot.store.setup_codec import setup_from_json

log = logging.getLogger("forumbot.tick")

Fold = Callable[[GameSetup, Sequence[Input], "datetime | None"], GameRun]
Hook = Callable[[str], None]
T = TypeVar("T")


def default_fold(setup: GameSetup, inputs: Sequence[Input], until: datetime | None) -> GameRun:
    from forumbot.game import run

    return run(setup, inputs, until)


@dataclass
class Retry:
    """Retries with exponential back-off for ForumUnavailable; one re-login for LoginRequired.

    A page served cut short (PageIncomplete) is retried `incomplete_attempts` times only: a page that stays cut
    is rarely whole seconds later, and the full back-off (5 + 10 + 20 s) per read would stretch a cron tick;
    the next cycle reads it again (issue 7 item 6 follow-up)."""

    attempts: int = 3
    backoff: float = 5.0
    sleep: Callable[[float], None] = time.sleep
    incomplete_attempts: int = 1

    def __call__(self, adapter: ForumAdapter, call: Callable[[], T]) -> T:
        logged_in = False
        tries = 0
        while True:
            try:
                return call()
            except LoginRequired:
                if logged_in:
                    raise
                logged_in = True
                log.info("session expired; logging in again")
                adapter.login()
            except (FloodLimited, FormRejected):
                raise
            except ForumError as e:
                limit = min(self.attempts, self.incomplete_attempts) if isinstance(e, PageIncomplete) else self.attempts
                if tries >= limit or not _transient(e):
                    raise
                delay = self.backoff * 2 ** tries
                tries += 1
                log.warning("forum error (%s); retry %d of %d in %.0f s", e, tries, self.attempts, delay)
                self.sleep(delay)


def _transient(error: ForumError) -> bool:
    from forumbot.errors import ForumUnavailable

    return isinstance(error, ForumUnavailable)


@dataclass
class Context:
    config: Config
    sessions: sessionmaker[Session]
    locks: Locks
    adapters: dict[str, ForumAdapter | ForumError]  # by forum name; an error when it could not be opened
    clock: Callable[[], datetime]
    fold: Fold = default_fold
    retry: Retry = field(default_factory=Retry)
    hook: Hook = lambda point: None  # tests make it raise at a named point to simulate a crash there
    inbox_wait: float = 60.0
    inbox_every: timedelta = timedelta(minutes=30)  # the longest the inbox goes unread, whatever headers say


@dataclass
class GameOutcome:
    name: str
    state: str  # done | locked | ended (by another tick meanwhile) | error | unconfigured | broken (its setup)
    phase: str = ""
    stored: int = 0
    queued: int = 0
    delivery: Delivery | None = None
    held_back: int = 0  # messages the fold made that are younger than grace_seconds: sent by a later tick
    held_until: datetime | None = None  # the earliest of them becomes due at this moment
    error: ForumError | None = None
    problem: str = ""  # state "broken": why its stored setup was refused
    pages_error: str = ""  # why the pages could not be written: the posts showing a picture wait (issue 20)


@dataclass
class TickReport:
    games: list[GameOutcome] = field(default_factory=list)
    unreachable: dict[str, ForumError] = field(default_factory=dict)  # forum name -> the error that stopped it
    broken: dict[str, str] = field(default_factory=dict)  # game name -> why its stored setup was refused
    pms_stored: dict[str, int] = field(default_factory=dict)  # forum name -> PMs its inbox gave this tick


def tick(ctx: Context) -> TickReport:
    report = TickReport()
    with ctx.sessions.begin() as session:
        running = [(g.id, g.name, g.forum_id) for g in session.scalars(
            select(Game).where(Game.status.in_(("running", "stopping"))).order_by(Game.name))]
    ctx.hook("after_list")
    by_forum: dict[str, list[tuple[int, str, int]]] = {}
    for game_id, name, forum in running:
        game = ctx.config.games.get(name)
        if game is None:
            log.warning("game %s is running but no longer in %s; skipped", name, ctx.config.path)
            report.games.append(GameOutcome(name, "unconfigured"))
            continue
        by_forum.setdefault(game.forum, []).append((game_id, name, forum))
    for forum_name, games in by_forum.items():
        try:
            _tick_forum(ctx, forum_name, games, report)
        except Exception as e:  # a bug or a page nobody foresaw, in one forum: the other forums tick on
            done = {o.name for o in report.games}
            for _, name, _ in games:
                if name not in done:
                    _unexpected(report, GameOutcome(name, "broken"), e)
    return report


def _unexpected(report: TickReport, outcome: GameOutcome, error: Exception) -> None:
    """An error no handler expected, in one game: that game is `broken` for this tick (exit 2), the others are
    played on, and the next tick tries it again (issue 17 item 21)."""
    outcome.state, outcome.problem = "broken", f"{outcome.name}: unexpected error: {type(error).__name__}: {error}"
    report.broken[outcome.name] = outcome.problem
    report.games.append(outcome)
    log.error("%s", outcome.problem, exc_info=error)


def _tick_forum(ctx: Context, forum_name: str, games: list[tuple[int, str, int]], report: TickReport) -> None:
    adapter = ctx.adapters.get(forum_name)
    if isinstance(adapter, ForumError) or adapter is None:
        error = adapter or ForumError("no adapter")
        if not isinstance(error, FloodLimited):  # a login the forum asked to wait with defers the games
            report.unreachable[forum_name] = error
        report.games.extend(GameOutcome(name, "error", error=error) for _, name, _ in games)
        return
    forum_id = games[0][2]
    # Everything stamped before `started` is on the forum when we read; so folding up to it sees it all.
    started = ctx.clock()
    shown = can(adapter, UNREAD_PMS) and adapter.shows_unread_pms  # type: ignore[attr-defined]
    inbox = _Inbox(forum_name, forum_id, started, report, skippable=shown)
    if not inbox.skippable:
        inbox.read(ctx, adapter)
    for game_id, name, _ in games:
        with ctx.locks.hold(f"game:{name}") as mine:
            if not mine:
                log.info("%s: another tick holds this game; skipped", name)
                report.games.append(GameOutcome(name, "locked"))
                continue
            # Another tick may have ended the game between our listing it and taking its lock: an ended game
            # is neither read nor folded nor delivered again (issue 7 item 15).
            with ctx.sessions.begin() as session:
                status = session.scalar(select(Game.status).where(Game.id == game_id))
            if status == "stopping":  # `game stop`: only its closing post is owed (issue 11 item 11)
                try:
                    report.games.append(_deliver_stopped(ctx, adapter, ctx.config.games[name], game_id, started))
                except Exception as e:
                    _unexpected(report, GameOutcome(name, "broken"), e)
                continue
            if status != "running":
                log.info("%s: ended meanwhile by another tick; skipped", name)
                report.games.append(GameOutcome(name, "ended"))
                continue
            outcome = GameOutcome(name, "done")
            try:
                _cycle(ctx, adapter, ctx.config.games[name], game_id, forum_id, started, inbox, outcome)
            except ForumError as e:
                outcome.state, outcome.error = "error", e
                kind = e.cause if isinstance(e, PartlySent) else e
                if not isinstance(kind, (FloodLimited, FormRejected)):
                    report.unreachable.setdefault(forum_name, e)
                if isinstance(kind, FloodLimited):  # routine: the rest waits for a later tick, in order
                    log.info("%s: delivery deferred by the forum's flood limit: %s", name, e)
                else:
                    log.error("%s: %s", name, e)
            except SetupError as e:
                # a stored setup the fold cannot run on stops this game only; the others are played on
                outcome.state, outcome.problem = "broken", str(e)
                report.broken[name] = str(e)
                log.error("%s", e)
            except Exception as e:
                _unexpected(report, outcome, e)
                continue
            report.games.append(outcome)


INBOX_READ = "inbox:read"  # cursor stream: when the inbox was last read (the `started` of that tick)


@dataclass
class _Inbox:
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


def _cycle(ctx: Context, adapter: ForumAdapter, game: GameConfig, game_id: int, forum_id: int,
           started: datetime, inbox: _Inbox, outcome: GameOutcome) -> None:
    if inbox.error is not None:
        # PMs may be missing, so no fold (it could resolve a night without its moves); and a forum that just
        # failed is not asked for more
        raise inbox.error
    if inbox.skippable:
        adapter.unread_pms_shown()  # type: ignore[attr-defined]  # forget pages read before this game's reads
    skipped: list[unreadable.UnreadablePost] = []  # posts the reader could not read: the GMs are told
    for topic in (game.game_thread, game.vote_thread):
        with ctx.sessions.begin() as session:
            cursor = get_cursor(session, forum_id, topic_stream(topic))
        posts, new_cursor = ctx.retry(adapter, lambda: adapter.fetch_posts(topic, after=cursor))
        skipped.extend(unreadable.take(adapter, topic))
        ctx.hook("after_fetch")
        if posts or new_cursor != cursor:
            with ctx.sessions.begin() as session:
                outcome.stored += store_posts(session, forum_id, posts, started, topic=topic)
                set_cursor(session, forum_id, topic_stream(topic), new_cursor)
        ctx.hook("after_store")
    until = started - timedelta(seconds=ctx.config.grace_seconds)
    inbox.before_fold(ctx, adapter, game_id, until)
    if inbox.error is not None:
        raise inbox.error
    known_phase = _reread_before_deadline(ctx, adapter, game, game_id, forum_id, started, until, outcome)
    setup, inputs, gm_commands, result = _fold_stored(ctx, adapter, game_id, until)
    if inbox.state == "skipped" and _phase_value(result) != known_phase:
        # the fold would move the phase on a tick that left the inbox unread: read it, and fold again on it
        log.info("%s: the phase moves (%s); reading the inbox before it does", game.name, result.phase)
        inbox.read(ctx, adapter)
        if inbox.error is not None:
            raise inbox.error
        setup, inputs, gm_commands, result = _fold_stored(ctx, adapter, game_id, until)
    closed_at = _closed_early(known_phase, result)
    if closed_at is not None:
        # C-11 for a day a GM closed early: its posts are re-read now, as at a deadline, and the fold redone
        _reread_before_deadline(ctx, adapter, game, game_id, forum_id, started, until, outcome, closed_at)
        with ctx.sessions.begin() as session:
            setup, inputs, gm_commands = load_game(session, ctx.config, game_id)
        result = ctx.fold(setup, inputs, until)
    outcome.phase = result.phase
    escape = getattr(adapter, "escape", escape_bbcode)
    sent_posts = lambda: pages.delivered(ctx.sessions, game_id)  # noqa: E731  # the bot's posts' forum ids
    result, outcome.pages_error = pages.in_tick(ctx.config, game, setup, result, lambda: _setup_json(ctx, game_id),
                                                escape is escape_markdown, sent_posts)
    with ctx.sessions.begin() as session:
        _remember_phase(session, forum_id, game_id, result, known_phase)
        _sync_game(session, game_id, game, result)
        _record_resolutions(session, game_id, result, started)
        _log_overrides(session, result, gm_commands, game_id)
        due = [m for m in result.messages if m.at <= until]
        outcome.queued = enqueue(session, game_id, game.name, due, origin="core")
        outcome.queued += enqueue(session, game_id, game.name, unreadable.notices(
            skipped, setup.gms, setup.language, until, escape), origin="shell")
    later = [m.at for m in result.messages if m.at > until]
    if later:
        outcome.held_back = len(later)
        outcome.held_until = min(later) + timedelta(seconds=ctx.config.grace_seconds)
    ctx.hook("after_outbox")
    target = Target(game_id=game_id, game=game.name, game_thread=game.game_thread, vote_thread=game.vote_thread,
                    subject=game.subject, shadow_to=game.shadow_recipient if game.mode == "shadow" else None,
                    gms=setup.gms, language=setup.language, escape=escape)
    outcome.delivery = deliver(ctx.sessions, adapter, target, until, ctx.hook)
    if outcome.delivery.sent or outcome.delivery.recovered:  # the pages link the posts just delivered
        pages.after_delivery(ctx.config, game, setup, result, lambda: _setup_json(ctx, game_id), sent_posts)
    if outcome.delivery.error is not None:
        raise outcome.delivery.error
    if result.result.winner is not None:
        _close_if_drained(ctx, game_id, until)


def _setup_json(ctx: Context, game_id: int) -> str:
    with ctx.sessions.begin() as session:
        return session.get(Game, game_id).setup_json


def _fold_stored(ctx: Context, adapter: ForumAdapter, game_id: int, until: datetime):  # type: ignore[no-untyped-def]
    """The game's stored setup and inputs folded up to `until`, once the accounts its GM commands name are
    checked (the answers are stored with the PMs, so the fold is the same in a replay)."""
    with ctx.sessions.begin() as session:
        setup, inputs, gm_commands = load_game(session, ctx.config, game_id)
    if _check_accounts(ctx, adapter, game_id, gm_commands):
        with ctx.sessions.begin() as session:
            setup, inputs, gm_commands = load_game(session, ctx.config, game_id)
    return setup, inputs, gm_commands, ctx.fold(setup, inputs, until)


def _deliver_stopped(ctx: Context, adapter: ForumAdapter, game: GameConfig, game_id: int,
                     now: datetime) -> GameOutcome:
    """A game ended by `game stop`: no reading, no fold; deliver what its outbox owes, then mark it stopped."""
    outcome = GameOutcome(game.name, "done", phase="stopped")
    with ctx.sessions.begin() as session:
        setup = setup_from_json(session.get(Game, game_id).setup_json, game=game.name, check=False)
    target = Target(game_id=game_id, game=game.name, game_thread=game.game_thread, vote_thread=game.vote_thread,
                    subject=game.subject, shadow_to=game.shadow_recipient if game.mode == "shadow" else None,
                    gms=setup.gms, language=setup.language, escape=getattr(adapter, "escape", escape_bbcode))
    outcome.delivery = deliver(ctx.sessions, adapter, target, now, ctx.hook)
    if outcome.delivery.error is not None:
        outcome.state, outcome.error = "error", outcome.delivery.error
        log.error("%s: %s", game.name, outcome.error)
        return outcome
    with ctx.sessions.begin() as session:
        left = session.scalar(select(OutboxRow.id).where(
            OutboxRow.game_id == game_id, OutboxRow.status.in_(("pending", "attempted"))).limit(1))
        if left is None:
            session.get(Game, game_id).status = "stopped"
            log.info("%s: stopped, the closing post delivered", game.name)
    return outcome


# --- the re-read before a day's deadline (C-11) ---------------------------------------------------------------
#
# An ordinary cycle reads only the last page of the vote thread, so an edit of a vote post on an older page of a
# busy day would go unseen. Each fold's open phase is remembered (a cursor row, written only when it changes);
# when a cycle is about to fold past the deadline of a remembered day or runoff, it first re-reads the vote
# thread from the page holding the phase's first post, so every edit made during the phase is stored before the
# deadline is resolved. A second cursor row marks the deadline re-read: once per deadline, whatever the cycles.

_warned_no_reread: set[str] = set()


def phase_stream(game_id: int) -> str:
    return f"game:{game_id}:phase"


def reread_stream(game_id: int) -> str:
    return f"game:{game_id}:reread"


def _phase_value(result: GameRun) -> str:
    """The fold's open phase as remembered (the phase cursor's value)."""
    return json.dumps({
        "phase": result.phase,
        "opens": result.phase_opens.isoformat() if result.phase_opens else None,
        "deadline": result.next_deadline.isoformat() if result.next_deadline else None,
    }, sort_keys=True)


def _remember_phase(session: Session, forum_id: int, game_id: int, result: GameRun, known: str | None) -> None:
    value = _phase_value(result)
    if value != known:  # a quiet cycle neither writes nor asks again
        set_cursor(session, forum_id, phase_stream(game_id), value)


def _closed_early(known: str | None, result: GameRun) -> datetime | None:
    """When the remembered day or runoff is over in this fold before its scheduled deadline: when it closed (the
    next phase's opening; None when the fold went further than one phase, or the phase is not over)."""
    if not known:
        return None
    last = json.loads(known)
    if last.get("phase", "").split(" ")[0] not in ("day", "runoff") or not last.get("deadline"):
        return None
    if result.phase == last["phase"] or result.phase_opens is None:
        return None
    if result.phase_opens >= datetime.fromisoformat(last["deadline"]):
        return None  # closed at (or after) its deadline: the ordinary re-read has run
    return result.phase_opens


def _reread_before_deadline(ctx: Context, adapter: ForumAdapter, game: GameConfig, game_id: int, forum_id: int,
                            started: datetime, until: datetime, outcome: GameOutcome,
                            closed_at: datetime | None = None) -> str | None:
    """Re-read the vote thread if the remembered phase is a day or runoff about to be resolved and not re-read
    for this deadline yet; return the remembered phase (its cursor value). `closed_at`: the fold shows the phase
    closed then, before its deadline (a GM `конец-фазы`)."""
    with ctx.sessions.begin() as session:
        values = dict(session.execute(select(Cursor.stream, Cursor.value).where(
            Cursor.forum_id == forum_id, Cursor.stream.in_([phase_stream(game_id), reread_stream(game_id)]))).all())
    known, done = values.get(phase_stream(game_id)), values.get(reread_stream(game_id))
    if not known:
        return known
    last = json.loads(known)
    if last.get("phase", "").split(" ")[0] not in ("day", "runoff") or not last.get("deadline") \
            or not last.get("opens") or done == last["deadline"]:
        return known
    if closed_at is None and datetime.fromisoformat(last["deadline"]) > until:
        return known
    resolved_at = closed_at or datetime.fromisoformat(last["deadline"])
    reread = adapter.reread_from if can(adapter, REREAD) else None  # type: ignore[attr-defined]
    if reread is None:
        kind = type(adapter).__name__
        if kind not in _warned_no_reread:
            _warned_no_reread.add(kind)
            log.warning("%s: %s cannot re-read a thread; edits of vote posts on older pages may be missed (C-11)",
                        game.name, kind)
        return known
    topic = game.vote_thread
    with ctx.sessions.begin() as session:
        ids = list(session.scalars(select(RawInput.item_id).where(
            RawInput.forum_id == forum_id, RawInput.kind == "post", RawInput.topic == topic,
            RawInput.posted_at >= datetime.fromisoformat(last["opens"])).order_by(RawInput.posted_at, RawInput.id)))
    posts = ctx.retry(adapter, lambda: reread(topic, ids[0], ids)) if ids else []
    log.info("%s: %s ends at %s; re-read the vote thread from post %s (%d posts)", game.name, last["phase"],
             last["deadline"], ids[0] if ids else "-", len(posts))
    # C-11: a stored post of the phase missing from the re-read, with a later one found, was deleted. A missing
    # tail tells nothing (a read cut short), nor does an empty answer (the first post itself gone).
    seen = {p.id for p in posts}
    last_seen = max((n for n, i in enumerate(ids) if i in seen), default=-1)
    gone = [i for i in ids[:last_seen] if i not in seen]
    with ctx.sessions.begin() as session:
        outcome.stored += store_posts(session, forum_id, posts, started, topic=topic)
        outcome.stored += mark_deleted(session, forum_id, topic, gone, resolved_at)
        set_cursor(session, forum_id, reread_stream(game_id), last["deadline"])
    return known


# --- facts about accounts, recorded with the GM PM that needs them ------------------------------------------
#
# A GM `замена OLD NEW` naming an account the forum does not have would leave the seat's PMs undeliverable.
# The fold is pure, so it cannot ask the forum: the first cycle that sees such a PM asks the adapter (where it
# can tell) and records the answer with the PM (inputs.facts); the fold reads it from the Input, and every
# later fold and replay sees the same answer, whatever the forum says later.


def _check_accounts(ctx: Context, adapter: ForumAdapter, game_id: int, commands: list[tuple[int, Input]]) -> bool:
    """Record the facts of the GM PMs not checked yet; return whether any changed what the fold will read."""
    if not commands:
        return False
    ids = [row_id for row_id, _ in commands]
    with ctx.sessions.begin() as session:
        unchecked = list(session.execute(select(RawInput.id, RawInput.text).where(
            RawInput.id.in_(ids), RawInput.facts.is_(None))))
        if not unchecked:
            return False
        nicks = set(session.scalars(select(Seat.nick).where(Seat.game_id == game_id))) | set(
            session.scalars(select(Seat.current_nick).where(Seat.game_id == game_id)))
    ask = adapter.account_exists if can(adapter, ACCOUNTS) else None  # type: ignore[attr-defined]
    matcher = NickMatcher(sorted(nicks))
    facts: dict[int, dict] = {}
    for row_id, text in unchecked:
        command = parse_command(text, matcher, everyone=sorted(nicks), parse_vote=lambda words: Rejection("empty"))
        found: dict = {}
        if isinstance(command, Replace) and ask is not None:
            exists = ctx.retry(adapter, lambda: ask(command.new))
            if exists is False:
                found["missing_accounts"] = [command.new]
                log.info("replacement account %r does not exist on the forum", command.new)
        facts[row_id] = found
    with ctx.sessions.begin() as session:
        for row_id, found in facts.items():
            session.get(RawInput, row_id).facts = json.dumps(found, ensure_ascii=False, sort_keys=True)
    return any(facts.values())


# --- inputs for the fold ------------------------------------------------------------------------------------


def load_game(session: Session, config: Config,
              game_id: int) -> tuple[GameSetup, list[Input], list[tuple[int, Input]]]:
    """A game's frozen setup, every stored input that belongs to it (in time order), and which of them are
    PMs from its GMs (with their row ids, for the override log)."""
    row = session.get(Game, game_id)
    setup = setup_from_json(row.setup_json, game=row.name)
    # Setup opens when `game start` ran: the role PMs go out then, not when Day 1 opens (C-2).
    # C-13: each deadline gets only the inputs read before the bot resolved it
    resolved = tuple((phase, at) for phase, at in session.execute(select(Resolution.phase, Resolution.resolved_at)
                     .where(Resolution.game_id == game_id).order_by(Resolution.resolved_at, Resolution.id)))
    setup = replace(setup, schedule=replace(setup.schedule, setup_opens=row.started_at, resolved=resolved))
    inputs, commands = _inputs(session, config, config.games[row.name], setup, row)
    return setup, inputs, commands


def fold_game(sessions: sessionmaker[Session], config: Config, name: str, until: datetime,
              fold: Fold = default_fold) -> GameRun:
    """The game as the store says it is at `until` (what `game status` shows and a dispute replays)."""
    with sessions.begin() as session:
        game_id = session.scalar(select(Game.id).where(Game.name == name))
        setup, inputs, _ = load_game(session, config, game_id)
    return fold(setup, inputs, until)


def _inputs(session: Session, config: Config, game: GameConfig, setup: GameSetup,
            row: Game) -> tuple[list[Input], list[tuple[int, Input]]]:
    """A game's inputs are those stamped from its `game start` on (issue 7 items 1, 23): its threads' posts,
    and the PMs its members sent while it ran. Whether the game is still running does not matter (item 17),
    so `game status` of an ended game folds what the game really saw."""
    where = {game.game_thread: Where.GAME, game.vote_thread: Where.VOTE}
    inputs: list[Input] = []
    for post in session.scalars(select(RawInput).where(
            RawInput.forum_id == row.forum_id, RawInput.kind == "post", RawInput.topic.in_(list(where)),
            _stamped_from(row.started_at))):
        inputs.append(_input(post, where[post.topic]))
    everyone = _members_by_game(session, config, row)
    members = everyone[row.id].accounts if row.id in everyone else frozenset()
    rivals = [member for other, member in everyone.items() if other != row.id]
    gms = {g.casefold() for g in setup.gms}
    commands: list[tuple[int, Input]] = []
    pms = select(RawInput).where(RawInput.forum_id == row.forum_id, RawInput.kind == "pm",
                                 _stamped_from(row.started_at))
    if row.ended_at is not None:
        pms = pms.where(RawInput.posted_at <= row.ended_at)
    for pm in session.scalars(pms):
        if _routed_here(pm, game, members, rivals):
            item = _input(pm, Where.PM)
            inputs.append(item)
            if pm.author.casefold() in gms:
                commands.append((pm.id, item))
    inputs.sort(key=lambda i: (i.at, i.id))
    return inputs, commands


def _stamped_from(start: datetime):
    # A rough forum time ("1 минуту назад") is stored as its earliest instant (C-1); a reply sent just after
    # `game start` may read as possibly earlier, so the game keeps whatever could have been sent from its start.
    return func.coalesce(RawInput.posted_latest, RawInput.posted_at, type_=UTCDateTime) >= start


# An empty quote: what a vote-thread post whose quote the adapter removed starts with, so the vote parsers'
# quote rule applies to it (H-3, M-7: a vote post with a quote is no vote).
QUOTE_MARK = "[quote][/quote]"


def _input(row: RawInput, where: Where) -> Input:
    # C-11: the earliest edit time seen (forums show only the latest) and the text first stored, if it changed
    text, first_text = row.text, row.first_text
    if where is Where.VOTE:
        text = QUOTE_MARK + text if row.quoted else text
        first_text = QUOTE_MARK + first_text if row.first_quoted else first_text
    first = first_text if first_text != text else None
    missing = tuple(json.loads(row.facts).get("missing_accounts", ())) if row.facts else ()
    return Input(at=row.posted_at, where=where, author=row.author, text=text, edited_at=row.first_edited_at,
                 id=row.item_id, first_text=first, at_latest=row.posted_latest, deleted_at=row.deleted_at,
                 missing_accounts=missing, read_at=row.first_seen_at)


@dataclass(frozen=True)
class _Member:
    """A game on the forum: its config, its accounts (players, replacements, GMs; casefolded: a PM is routed
    by its forum-authenticated author, see deploy/README.md, "PM routing"), and when it ran."""

    config: GameConfig
    accounts: frozenset[str]
    started_at: datetime
    ended_at: datetime | None

    def ran_at(self, at: datetime) -> bool:
        return self.started_at <= at and (self.ended_at is None or at <= self.ended_at)


def _members_by_game(session: Session, config: Config, of: Game) -> dict[int, _Member]:
    """`of` and every game on its forum whose run overlaps its own (only those can compete for its PMs)."""
    overlapping = select(Game).where(Game.forum_id == of.forum_id,
                                     Game.ended_at.is_(None) | (Game.ended_at >= of.started_at))
    if of.ended_at is not None:
        overlapping = overlapping.where(Game.started_at <= of.ended_at)
    games = {g.id: g for g in session.scalars(overlapping)}
    nicks: dict[int, set[str]] = {}
    for game_id, game in games.items():
        setup = setup_from_json(game.setup_json, game=game.name, check=False)  # its players only
        nicks[game_id] = {n.casefold() for n in [p.nick for p in setup.players] + list(setup.gms)}
    for game_id, nick in session.execute(select(Seat.game_id, Seat.current_nick).where(Seat.game_id.in_(list(games)))):
        nicks[game_id].add(nick.casefold())
    members: dict[int, _Member] = {}
    for game_id, game in games.items():
        game_config = config.games.get(game.name)
        if game_config is None:
            continue
        members[game_id] = _Member(game_config, frozenset(nicks[game_id]), game.started_at, game.ended_at)
    return members


def _routed_here(row: RawInput, game: GameConfig, members: frozenset[str], rivals: list[_Member]) -> bool:
    author = row.author.casefold()
    if author not in members:
        return False
    # a game that did not run when the PM was sent is no rival for it (the same people play game after game)
    shared = [m.config for m in rivals if author in m.accounts and m.ran_at(row.posted_at)]
    if not shared:
        return True
    subject = (row.subject or "").casefold()
    named = [g for g in [game, *shared] if _names(subject, g)]
    return not named or game in named


def _names(subject: str, game: GameConfig) -> bool:
    return game.name.casefold() in subject or (bool(game.pm_subject) and game.pm_subject.casefold() in subject)


# --- bookkeeping after the fold -----------------------------------------------------------------------------


def _sync_game(session: Session, game_id: int, game: GameConfig, result: GameRun) -> None:
    row = session.get(Game, game_id)
    if row.mode != game.mode:
        row.mode = game.mode
    seats = list(session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat_no)))
    players = result.result.players
    if len(players) == len(seats):
        for seat, player in zip(seats, players):
            if seat.current_nick != player.nick:
                seat.current_nick = player.nick  # a replacement took the seat; its role stays
            if seat.role != str(player.role):
                seat.role = str(player.role)  # e.g. the Moscow Don chosen by the mafia during Setup (M-1)


def _record_resolutions(session: Session, game_id: int, result: GameRun, started: datetime) -> None:
    """C-13: the phases this tick resolved, with its time: every input read by this tick was read before."""
    known = set(session.scalars(select(Resolution.phase).where(Resolution.game_id == game_id)))
    for label, _ in result.resolved:
        if label not in known:
            session.add(Resolution(game_id=game_id, phase=label, resolved_at=started))
            known.add(label)


def _log_overrides(session: Session, result: GameRun, commands: list[tuple[int, Input]], game_id: int) -> None:
    """C-9: each GM PM the fold handled, once, with the game just before and after it, read from the fold's
    result (issue 19: no fold more per command)."""
    if not commands:
        return
    logged = set(session.scalars(select(Override.input_id).where(Override.game_id == game_id)))
    states = {input_id: (before, after) for input_id, before, after in result.commands}
    for input_id, command in commands:
        if input_id in logged or command.id not in states:
            continue
        before, after = states[command.id]
        session.add(Override(game_id=game_id, input_id=input_id, gm=command.author, at=command.at,
                             command=command.text, state_before=json.dumps(before, ensure_ascii=False),
                             state_after=json.dumps(after, ensure_ascii=False)))


def _close_if_drained(ctx: Context, game_id: int, now: datetime) -> None:
    with ctx.sessions.begin() as session:
        open_rows = session.scalar(select(OutboxRow.id).where(
            OutboxRow.game_id == game_id, OutboxRow.status.in_(("pending", "attempted"))).limit(1))
        if open_rows is None:
            row = session.get(Game, game_id)
            row.status, row.ended_at = "ended", now
            log.info("%s: game over, every message delivered", row.name)
