"""One poll cycle over every running game: read, store raw, fold, queue what is due, deliver.

Per forum the inbox is read once (it is shared by all games there); per game, under that game's lock: read
the game and vote threads, store what is new, fold *all* stored inputs up to the cycle's start, queue the due
messages, deliver. A forum error while reading stops that game's cycle before the fold, so a deadline is
never resolved on a partial read; a later cycle reads on from the stored cursors and catches up.

Where the adapter reads the header's unread-PM count off the thread pages (`shows_unread_pms`, phpBB and
MyBB), the threads are read first and the inbox only when needed (issue 8): an idle tick costs two requests,
not three. See `forumbot.cycle.inbox.Inbox` for when it is read all the same.

The tick's parts live beside it: tick_context (its Context and report), retry, tick_inbox, tick_reread (C-11),
stored_game (the inputs a fold reads) and tick_bookkeeping (what is recorded around the fold).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Sequence

from sqlalchemy import select

from forumbot.forum.adapter import CLOSE_CONVERSATION, UNREAD_PMS, ForumAdapter, ForumPost, can
from forumbot.config.types import GameConfig
from forumbot.disk import disk_problem
from forumbot.errors import FloodLimited, ForumError, FormRejected, PartlySent, SetupError
from forumbot.cycle import held_posts
from forumbot.forum import unreadable
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.pages import publish as pages
from forumbot.outbox.locks import conference_lock, lock_messages
from forumbot.outbox.store import Destination, enqueue, withhold
from forumbot.outbox.deliver import deliver
from forumbot.outbox.restore import is_behind, look_first, loses_read_pms, lost_pms_notices, note_if_behind
from forumbot.engine.results import GameRun
from forumbot.game import for_pages
from forumbot.model import GameSetup, Input
from forumbot.engine.checkpoint import Tip
from forumbot.engine.replacement import is_offer_key
from forumbot.engine.results import stale_interim
from forumbot.engine.setup import downtime_lengths
from forumbot.engine.tip import tip_holds
from forumbot.store.checkpoints import fold_with_checkpoints, load_marked_tip, mark_enqueued
from forumbot.store.models import GameRow, OutboxRow
from forumbot.store.reads import record_now
from forumbot.store.records import get_cursor, posts_digest, seen_stream, set_cursor, store_posts, topic_stream
from forumbot.store.setup_codec import setup_from_json
from forumbot.config.checks import thread_problems
from forumbot.texts import TABLES, setup_said
from forumbot.store.game import as_sent, default_fold, load_game, moot_pending
from forumbot.store.inputs import InputsChanged, Mark, StoredInputs, load_inputs
from forumbot.cycle.bookkeeping import (
    check_accounts, close_if_drained, log_overrides, record_resolutions, sync_game,
)
from forumbot.cycle.context import Context, GameOutcome, TickReport
from forumbot.cycle.inbox import Inbox
from forumbot.cycle.quiet import GameView, QuietForum
from forumbot.cycle.reread import closed_early, phase_value, reread_before_deadline, remember_phase

log = logging.getLogger("forumbot.tick")


def tick(ctx: Context) -> TickReport:
    report = TickReport()
    with ctx.sessions.begin() as session:
        running = [(g.id, g.name, g.forum_id) for g in session.scalars(
            select(GameRow).where(GameRow.status.in_(("running", "stopping"))).order_by(GameRow.name))]
    ctx.hook("after_list")
    by_forum: dict[str, list[tuple[int, str, int]]] = {}
    for game_id, name, forum in running:
        game = ctx.config.games.get(name)
        if game is None:
            log.warning("game %s is running but no longer in %s; skipped", name, ctx.config.path)
            report.games.append(GameOutcome(name, "unconfigured"))
            continue
        wrong = thread_problems(ctx.config, name)
        if wrong:  # the config changed since `game start` refused it: a config error to fix, not a crash
            outcome = GameOutcome(name, "broken")
            outcome.problem = wrong[0]
            report.broken[name] = outcome.problem
            report.games.append(outcome)
            log.error("%s", outcome.problem)
            continue
        by_forum.setdefault(game.forum, []).append((game_id, name, forum))
    for forum_name, games in by_forum.items():
        try:
            _tick_forum(ctx, forum_name, games, report)
        except Exception as e:  # a bug or a page nobody foresaw, in one forum: the other forums tick on
            done = {o.name for o in report.games}
            for _, name, _ in games:
                if name not in done:
                    _unexpected(ctx, report, GameOutcome(name, "broken"), e)
    return report


def _unexpected(ctx: Context, report: TickReport, outcome: GameOutcome, error: Exception) -> None:
    """An error no handler expected, in one game: that game is `broken` for this tick (exit 2), the others are
    played on, and the next tick tries it again (issue 17 item 21). A full or read-only disk is no bug: one
    line naming what could not be written, no traceback (issue 26 item 10)."""
    disk = disk_problem(error, ctx.config.database_url)
    outcome.state = "broken"
    outcome.problem = f"{outcome.name}: {disk}" if disk else \
        f"{outcome.name}: unexpected error: {type(error).__name__}: {error}"
    report.broken[outcome.name] = outcome.problem
    report.games.append(outcome)
    log.error("%s", outcome.problem, exc_info=None if disk else error)


def _tick_forum(ctx: Context, forum_name: str, games: list[tuple[int, str, int]], report: TickReport) -> None:
    adapter = ctx.adapters.get(forum_name)
    if isinstance(adapter, ForumError) or adapter is None:
        error = adapter or ForumError("no adapter")
        if not isinstance(error, FloodLimited):  # a login the forum asked to wait with defers the games
            report.unreachable[forum_name] = error
        report.games.extend(GameOutcome(name, "error", error=error) for _, name, _ in games)
        for game_id, name, _ in games:  # C-14: no thread of these games could be read this tick
            record_now(ctx.sessions, game_id, ctx.clock(), _grace(ctx.config.games[name]), f"forum: {error}")
        return
    forum_id = games[0][2]
    # Everything stamped before `started` is on the forum when we read; so folding up to it sees it all.
    started = ctx.clock()
    shown = can(adapter, UNREAD_PMS) and adapter.shows_unread_pms
    inbox = Inbox(forum_name, forum_id, started, report, skippable=shown)
    if not inbox.skippable:
        inbox.read(ctx, adapter)
    quiet = QuietForum(ctx, forum_id, started)
    try:
        _tick_games(ctx, adapter, forum_name, forum_id, games, started, inbox, quiet, report)
    finally:
        quiet.record()  # C-14: the quiet games' reads, together


def _tick_games(ctx: Context, adapter: ForumAdapter, forum_name: str, forum_id: int,
                games: list[tuple[int, str, int]], started: datetime, inbox: Inbox, quiet: QuietForum,
                report: TickReport) -> None:
    for game_id, name, _ in games:
        with ctx.locks.hold(f"game:{name}") as mine:
            if not mine:
                log.info("%s: another tick holds this game; skipped", name)
                report.games.append(GameOutcome(name, "locked"))
                continue
            # Another tick may have ended the game between our listing it and taking its lock: an ended game
            # is neither read nor folded nor delivered again (issue 7 item 15).
            view = quiet.view(game_id, ctx.config.games[name])  # its status and cursors, in one query
            status = view.status
            if status == "stopping":  # `game stop`: only its closing post is owed (issue 11 item 11)
                try:
                    report.games.append(_deliver_stopped(ctx, adapter, ctx.config.games[name], game_id, started))
                except Exception as e:
                    _unexpected(ctx, report, GameOutcome(name, "broken"), e)
                continue
            if status != "running":
                log.info("%s: ended meanwhile by another tick; skipped", name)
                report.games.append(GameOutcome(name, "ended"))
                continue
            outcome = GameOutcome(name, "done")
            try:
                _cycle(ctx, adapter, ctx.config.games[name], game_id, forum_id, started, inbox, outcome, quiet, view)
                first = outcome.delivery
                if first is not None and any(is_offer_key(key) for key in first.undelivered):
                    # S-4: a refused offer is an input of the game now and passes to the next of the reserve:
                    # folded and delivered in this tick, once (a refusal of that one waits a tick). Other refused
                    # PMs change nothing the fold sends, so they cost the forum no second read of the threads.
                    _cycle(ctx, adapter, ctx.config.games[name], game_id, forum_id, started, inbox, outcome, quiet)
                    outcome.delivery = first.then(outcome.delivery) if outcome.delivery else first
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
                # a stored setup the fold cannot run on stops this game only; the others are played on. Said in
                # the game's language, its GMs' (issue 28), as check-config says a setup the rules refuse
                outcome.state, outcome.problem = "broken", setup_said(e, TABLES[ctx.config.games[name].language])
                report.broken[name] = outcome.problem
                log.error("%s", e)
            except Exception as e:
                _unexpected(ctx, report, outcome, e)
                continue
            report.games.append(outcome)


def _grace(game: GameConfig) -> timedelta:
    """C-14: how far apart a game's ticks may be within one span of its reads (its `downtime_grace`): no stretch
    that could disturb a deadline hides inside a span."""
    return downtime_lengths(game.options)[0]


def _cycle(ctx: Context, adapter: ForumAdapter, game: GameConfig, game_id: int, forum_id: int,
           started: datetime, inbox: Inbox, outcome: GameOutcome, quiet: QuietForum,
           view: GameView | None = None) -> None:
    """One game's tick; `view`: its cursors as read under its lock (None: read them), and its quiet mark, which may
    spare it the fold (forumbot/cycle/quiet.py)."""
    if inbox.error is not None:
        # PMs may be missing, so no fold (it could resolve a night without its moves); and a forum that just
        # failed is not asked for more
        record_now(ctx.sessions, game_id, started, _grace(game), f"forum: {inbox.error}")  # C-14: no thread read
        raise inbox.error
    if inbox.skippable:
        adapter.unread_pms_shown()  # type: ignore[attr-defined]  # forget pages read before this game's reads
    skipped: list[unreadable.UnreadablePost] = []  # posts the reader could not read: the GMs are told
    waiting: list[tuple[str, list[ForumPost]]] = []  # players' posts a moderator bot sees held: the GMs are told
    behind = False  # an own post read that the outbox does not hold as sent: the database is behind the forum
    for topic in game.threads:  # the sign-up's own thread too (S-1), its reserve words counted in the game (S-4)
        if view is not None:
            cursor = view.cursor(topic)
        else:
            with ctx.sessions.begin() as session:
                cursor = get_cursor(session, forum_id, topic_stream(topic))
        thread = {game.game_thread: "game", game.vote_thread: "vote"}.get(topic, "signup")
        try:
            posts, new_cursor = ctx.retry(adapter, lambda: adapter.fetch_posts(topic, after=cursor))
        except ForumError as e:
            record_now(ctx.sessions, game_id, started, _grace(game), f"{thread}: {e}")  # C-14: failed ones too
            raise
        skipped.extend(unreadable.take(adapter, topic))
        bot = ctx.config.forums[game.forum].login
        posts, held = held_posts.split(posts, bot)
        waiting.append((topic, held))
        ctx.hook("after_fetch")
        digest = posts_digest(posts)
        # the same posts as the read that last stored this thread's (an adapter reads its last page again): no row
        # can change, so none is compared
        same = new_cursor == cursor and view is not None and view.seen(topic) == digest
        if (posts or new_cursor != cursor) and not same:
            with ctx.sessions.begin() as session:
                outcome.stored += store_posts(session, forum_id, posts, started, topic=topic)
                set_cursor(session, forum_id, topic_stream(topic), new_cursor)
                set_cursor(session, forum_id, seen_stream(topic), digest)
                behind |= note_if_behind(session, forum_id, game_id, posts, bot)  # issue 26 item 5
        ctx.hook("after_store")
    until = started - timedelta(seconds=ctx.config.grace_seconds)
    mark = quiet.mark(view, game, game_id, until) if view is not None and not (
        outcome.stored or behind or skipped or any(held for _, held in waiting)) else None
    # C-14: every tick's successful read, recorded as soon as the tick knows it folds (a quiet game's goes with the
    # other quiet games' at the forum's end): before the inbox is read when there is no mark, after it when a PM
    # the inbox brought (or its failure) spoils the mark
    if mark is None:
        record_now(ctx.sessions, game_id, started, _grace(game))
    pms = inbox.report.pms_stored.get(inbox.name, 0)
    inbox.before_fold(ctx, adapter, game_id, until)
    if mark is not None:
        if inbox.error is None and inbox.report.pms_stored.get(inbox.name, 0) == pms:
            quiet_outcome = quiet.quiet(game, game_id, mark, until, _grace(game))  # C-14: its read recorded too
            outcome.phase, outcome.delivery = quiet_outcome.phase, quiet_outcome.delivery
            outcome.held_back, outcome.held_until = quiet_outcome.held_back, quiet_outcome.held_until
            return
        record_now(ctx.sessions, game_id, started, _grace(game))
    if inbox.error is not None:
        raise inbox.error
    known_phase = reread_before_deadline(ctx, adapter, game, game_id, forum_id, started, until, outcome,
                                         waiting=waiting)
    saved: list[Tip] = []  # the tips this tick's folds stored
    setup, inputs, gm_commands, result, sent = _fold_stored(ctx, adapter, game_id, until, started, saved, quiet)
    if inbox.state == "skipped" and phase_value(result) != known_phase:
        # the fold would move the phase on a tick that left the inbox unread: read it, and fold again on it
        log.info("%s: the phase moves (%s); reading the inbox before it does", game.name, result.phase)
        inbox.read(ctx, adapter)
        if inbox.error is not None:
            raise inbox.error
        setup, inputs, gm_commands, result, _ = _fold_stored(ctx, adapter, game_id, until, started, saved, quiet)
    closed_at = closed_early(known_phase, result)
    if closed_at is not None:
        # C-11 for a day a GM closed early: its posts are re-read now, as at a deadline, and the fold redone
        reread_before_deadline(ctx, adapter, game, game_id, forum_id, started, until, outcome, closed_at, waiting)
        setup, inputs, gm_commands = _load(ctx, game_id, None)
        result = _fold(ctx, game_id, setup, inputs, until, started, saved=saved)
    outcome.phase = result.phase
    stale = stale_interim(result)
    with ctx.sessions.begin() as session:  # C-14: a count or reminder of a phase already over is never sent late,
        stale |= moot_pending(session, game_id, result)  # nor a night's ack still waiting (issue 28 item 9)
        withhold(session, game_id, stale)  # even one queued before its deadline while the forum was failing
        result = as_sent(session, game_id, result)
    # the fold reaches `until`; a phase opened when the bot is back after an outage (C-14) opens at `started`, the
    # tick's time (record_resolutions keeps it for the phase resolved before), and is announced now
    back = started if result.phase != "setup" and result.phase_opens == started else None
    escape = adapter.escape
    sent_posts = lambda: pages.delivered(ctx.sessions, game_id)  # noqa: E731  # the bot's posts' forum ids
    shown, open_signup = for_pages(setup, inputs, until)  # S-1..S-3: the sign-up's list, or the game it gave
    result, outcome.pages_error = pages.in_tick(ctx.config, game, shown, result, lambda: _setup_json(ctx, game_id),
                                                escape is escape_markdown, sent_posts, built=until,
                                                signup=open_signup)
    with ctx.sessions.begin() as session:
        remember_phase(session, forum_id, game_id, result, known_phase)
        sync_game(session, game_id, game, result)
        record_resolutions(session, game_id, result, started)
        log_overrides(session, result, gm_commands, game_id)
        due = [m for m in result.messages if m.at <= until or m.at == back]
        outcome.queued = enqueue(session, game_id, game.name, due, origin="core", stored=sent)
        if saved and saved[-1].until == until and not outcome.pages_error:  # with a pages error results wait
            mark_enqueued(session, game_id, until)  # (a quiet tick, which stored no tip, writes nothing)
        # the threads closed and opened at the phases resolved, after the posts due with them
        outcome.queued += enqueue(session, game_id, game.name, lock_messages(setup.options, result.resolved,
                                                                             result.phase), origin="shell")
        outcome.queued += enqueue(session, game_id, game.name, conference_lock(due, can(adapter, CLOSE_CONVERSATION)),
                                  origin="shell")  # M-15: locked after the PM that closes it
        outcome.queued += enqueue(session, game_id, game.name, unreadable.notices(
            skipped, setup.gms, setup.language, until, escape) + [m for topic, held in waiting for m in
            held_posts.notices(held, topic, setup.gms, setup.language, until, escape)], origin="shell")
        restored = is_behind(session, forum_id, game_id)
        look_first(session, forum_id, game_id, until)  # a restored database looks before it sends
        if restored and loses_read_pms(adapter):
            outcome.queued += enqueue(session, game_id, game.name, lost_pms_notices(setup.gms, setup.language, until),
                                      origin="shell")
    later = [m.at for m in result.messages if m.at > until and m.at != back]
    if later:
        outcome.held_back = len(later)
        outcome.held_until = min(later) + timedelta(seconds=ctx.config.grace_seconds)
    ctx.hook("after_outbox")
    target = Destination(game_id=game_id, game=game.name, game_thread=game.game_thread, vote_thread=game.vote_thread,
                         signup_thread=game.signup_thread,
                    subject=game.subject, shadow_to=game.shadow_recipient if game.mode == "shadow" else None,
                    gms=setup.gms, language=setup.language, escape=escape, stale=stale)
    outcome.delivery = deliver(ctx.sessions, adapter, target, until, ctx.hook)
    if outcome.delivery.sent or outcome.delivery.recovered:  # the pages link the posts just delivered
        pages.after_delivery(ctx.config, game, shown, result, lambda: _setup_json(ctx, game_id), sent_posts,
                             built=until)
    if outcome.delivery.error is not None:
        raise outcome.delivery.error
    # S-3: a cancelled sign-up ends its game too; S-6: a game of the season ended
    if (result.result.winner is not None or result.phase == "signup cancelled") and close_if_drained(ctx, game_id, until):
        # imported here: the season's standings (and the pages they are written to) load only when a game ends
        from forumbot.games.season import publish_standings

        publish_standings(ctx.sessions, ctx.config, until)
    if not outcome.pages_error:
        quiet.remember(view, game, game_id, setup, inputs, result, until, saved[-1] if saved else None)


def _setup_json(ctx: Context, game_id: int) -> str:
    with ctx.sessions.begin() as session:
        return session.get_one(GameRow, game_id).setup_json


def _fold_stored(ctx: Context, adapter: ForumAdapter, game_id: int, until: datetime,
                 started: datetime, saved: list[Tip], quiet: QuietForum):
    """The game's stored setup and inputs folded up to `until`, once the accounts its GM commands name are
    checked (the answers are stored with the PMs, so the fold is the same in a replay). The inputs are read from
    the game's tip on: only those it did not see, when the store shows those it saw unchanged (issue 19). Also
    the keys of the tip's due messages when its tick put them in the outbox: only the others are matched."""
    tip: tuple[Tip | None, Mark | None] | None = None
    enqueued = False
    if ctx.fold is default_fold:
        with ctx.sessions.begin() as session:
            stored, mark, enqueued = load_marked_tip(session, game_id)
            quiet.folding(session, game_id)  # the forum's PMs before the fold reads them, for its quiet mark
        tip = (stored, Mark.loads(mark))
    setup, inputs, gm_commands = _load(ctx, game_id, tip)
    changed, written = check_accounts(ctx, adapter, game_id, gm_commands)
    if changed:
        setup, inputs, gm_commands = _load(ctx, game_id, tip)
    elif written and isinstance(inputs, StoredInputs) and inputs.mark is not None:
        # the rows just checked were read above, each written once since: the tip's mark counts their new version
        inputs.mark = replace(inputs.mark, versions=inputs.mark.versions + written)
    sent = _tip_enqueued(ctx, game_id, setup, inputs, until, tip[0]) if tip and tip[0] and enqueued else frozenset()
    return setup, inputs, gm_commands, _fold(ctx, game_id, setup, inputs, until, started, tip, saved), sent


def _tip_enqueued(ctx: Context, game_id: int, setup: GameSetup, inputs: Sequence[Input], until: datetime,
                  tip: Tip) -> frozenset[str]:
    """The keys of the tip's due messages, which the tip row says its tick put in the outbox. The row is a cache:
    its flag is trusted only once the tip is this game's at or before this fold (it holds on the inputs the store
    vouched for) and the outbox has the latest of them. Any other row (restored, copied from another game or from
    ticks ahead) costs a look-up of every due message, never a message (issue 26 item 4)."""
    if not (isinstance(inputs, StoredInputs) and inputs.checked and tip_holds(setup, inputs, until, tip, True)):
        return frozenset()
    due = [m for m in tip.state.messages if m.at <= tip.until]
    if not due:
        return frozenset()
    latest = max(due, key=lambda m: m.at).key
    with ctx.sessions.begin() as session:
        there = session.scalar(select(OutboxRow.id).where(OutboxRow.game_id == game_id, OutboxRow.key == latest))
    return frozenset(m.key for m in due) if there is not None else frozenset()


def _load(ctx: Context, game_id: int, tip: tuple[Tip | None, Mark | None] | None
          ) -> tuple[GameSetup, Sequence[Input], list[tuple[int, Input]]]:
    if ctx.fold is not default_fold:  # a test's or the bench's fold is given the inputs as `load_game` reads them
        with ctx.sessions.begin() as session:
            return load_game(session, ctx.config, game_id)
    return load_inputs(ctx.sessions, ctx.config, game_id, *(tip or (None, None)))


def _fold(ctx: Context, game_id: int, setup: GameSetup, inputs: Sequence[Input], until: datetime, started: datetime,
          tip: tuple[Tip | None, Mark | None] | None = None, saved: list[Tip] | None = None) -> GameRun:
    """The fold, from the game's tip or its latest stored checkpoint that still matches its inputs (issue 19
    item 3); a fold a test or the bench put in the context is called as it is. `started`: the tick's time, when
    the bot is back for a phase it resolves (C-14)."""
    if ctx.fold is not default_fold:
        return ctx.fold(setup, inputs, until)
    if saved is not None:
        saved.clear()  # only the last fold's tip is the one the tick queues the messages of
    marked = inputs if isinstance(inputs, StoredInputs) else StoredInputs(list(inputs), None)
    fold = lambda given: fold_with_checkpoints(  # noqa: E731
        ctx.sessions, game_id, setup, given, until, tip=tip[0] if tip else None, tip_loaded=tip is not None,
        checked=given.checked, mark=given.mark.dumps() if given.mark else None, saved=saved, now=started)
    try:
        return fold(marked)
    except InputsChanged:  # another tick changed a row the tip saw meanwhile: the game is read whole
        log.info("game %s: its stored inputs changed during the fold; read again whole", game_id)
        return fold(marked.whole())


def _deliver_stopped(ctx: Context, adapter: ForumAdapter, game: GameConfig, game_id: int,
                     now: datetime) -> GameOutcome:
    """A game ended by `game stop`: no reading, no fold; deliver what its outbox owes, then mark it stopped."""
    outcome = GameOutcome(game.name, "done", phase="stopped")
    with ctx.sessions.begin() as session:
        setup = setup_from_json(session.get_one(GameRow, game_id).setup_json, game=game.name, check=False)
    target = Destination(game_id=game_id, game=game.name, game_thread=game.game_thread, vote_thread=game.vote_thread,
                         signup_thread=game.signup_thread,
                    subject=game.subject, shadow_to=game.shadow_recipient if game.mode == "shadow" else None,
                    gms=setup.gms, language=setup.language, escape=adapter.escape)
    outcome.delivery = deliver(ctx.sessions, adapter, target, now, ctx.hook)
    if outcome.delivery.error is not None:
        outcome.state, outcome.error = "error", outcome.delivery.error
        log.error("%s: %s", game.name, outcome.error)
        return outcome
    with ctx.sessions.begin() as session:
        left = session.scalar(select(OutboxRow.id).where(
            OutboxRow.game_id == game_id, OutboxRow.status.in_(("pending", "attempted"))).limit(1))
        if left is None:
            session.get_one(GameRow, game_id).status = "stopped"
            log.info("%s: stopped, the closing post delivered", game.name)
    return outcome
