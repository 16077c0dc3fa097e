"""The fold: a whole game from its Setup and its stored inputs, in time order (DESIGN.md, "pure core").

Inputs and their edits are queued by time; each deadline gets only the inputs the bot had read when it
resolved it (C-13: Schedule.resolved, Input.read_at): one read later is stored, counted from when it was read,
and the GMs are told. `run` is what `forumbot.game.run` calls."""

from __future__ import annotations

import heapq
from dataclasses import replace
from datetime import datetime
from typing import Iterable, Sequence

from forumbot import parse
from forumbot.engine.majority import check_majority
from forumbot.engine.history import history_now
from forumbot.engine.phases import open_setup
from forumbot.engine.replacement import reserve_order
from forumbot.engine.results import GameResult, GameRun, PlayerResult
from forumbot.engine.setup import clean_input
from forumbot.engine.speech import to_gms
from forumbot.engine.checkpoint import Checkpoint, QueueItem, digest
from forumbot.engine.state import Game, Phase, State, freeze, thaw
from forumbot.engine.step import handle
from forumbot.engine.table import Table, make_table
from forumbot.engine.counts import edited
from forumbot.engine.timeline import advance_to
from forumbot.engine.work import Work
from forumbot.model import GameSetup, Input, Message, Where


def new_game(table: Table) -> State:
    """The draft of a game before Setup opens: the seats as drawn, each played by its own account."""
    start = table.setup.schedule.start
    seats = table.fresh_seats()
    return State(seats=seats, accounts={nick: nick for nick in seats}, aliases={},
                 phase=Phase("setup", 0, start, start))


def opened(table: Table, at: datetime) -> tuple[Game, tuple[Message, ...]]:
    """The Game with Setup open at `at`: the players' post and every role PM sent (C-2)."""
    w = Work(table, new_game(table))
    open_setup(w, at)
    return freeze(w.g), tuple(w.messages.values())


def run(setup: GameSetup, inputs: Sequence[Input], until: datetime | None) -> GameRun:
    """What `forumbot.game.run` returns."""
    return result(folded(setup, inputs, until))


def play(setup: GameSetup, inputs: Sequence[Input], until: datetime | None) -> tuple[Game, GameRun]:
    """The Game the fold reaches at `until`, beside what `run` returns."""
    w = folded(setup, inputs, until)
    return freeze(w.g), result(w)


def run_from(setup: GameSetup, inputs: Sequence[Input], until: datetime | None,
             checkpoints: Sequence[Checkpoint]) -> tuple[GameRun, tuple[Checkpoint, ...]]:
    """`run`, starting at the latest of `checkpoints` whose digest still matches the inputs; with the checkpoints
    of the deadlines this fold resolved (the GameRun is the same as `run`'s, whichever checkpoint it used)."""
    made: list[Checkpoint] = []
    return result(folded(setup, inputs, until, checkpoints, made)), tuple(made)


def queued(tb: Table, inputs: Sequence[Input], until: datetime | None) -> list[QueueItem]:
    """Every input and edit, in the order the fold takes them."""
    queue = queue_items(tb, enumerate(inputs))
    return [q for q in queue if q[0] <= until] if until is not None else queue


def queue_items(tb: Table, indexed: Iterable[tuple[int, Input]]) -> list[QueueItem]:
    """The queue items of these inputs (each with its index among all the fold's inputs), in fold order."""
    setup = tb.setup
    queue: list[QueueItem] = []
    opens = setup.schedule.setup_opens
    for n, inp in indexed:
        inp = clean_input(inp if inp.id else replace(inp, id=f"i{n}"))
        if inp.where is Where.SHARED and parse.account_key(inp.author) in tb.gm_accounts:
            # A GM's PM written to the bot and others (a co-GM CC'd) is his command all the same: the forum
            # authenticates its author either way, and M-15's "moves only in PMs to the bot" guards the players'
            # secrets and the conference, neither of which a GM's command is
            inp = replace(inp, where=Where.PM)
        if inp.at_latest is not None and inp.where is Where.PM and parse.account_key(inp.author) in tb.gm_accounts:
            # A GM's PM shown only to the minute (phpBB, MyBB) takes effect at the minute's end: an
            # `end-phase` must not void the players' posts made earlier in the minute it was sent.
            inp = replace(inp, at=inp.at_latest, at_latest=None)
        if opens is not None and inp.at < opens and inp.at_latest is not None and inp.at_latest >= opens:
            # C-1: a rough time straddling `game start` counts as the game's (the daemon keeps it), so it was
            # sent from the start on; its earliest instant must not move Setup back before the role PMs went
            # out, or a later fold (and a replay) would date Setup's messages otherwise than the first did
            inp = replace(inp, at=opens)
        queue.append((inp.at, n, "input", inp))
        if inp.edited_at is not None and inp.where is Where.VOTE:
            queue.append((inp.edited_at, n, "edit", inp))
    queue.sort(key=lambda q: (q[0], q[1], q[2] == "edit"))
    return queue


def folded(setup: GameSetup, inputs: Sequence[Input], until: datetime | None,
           checkpoints: Sequence[Checkpoint] = (), made: list[Checkpoint] | None = None,
           now: datetime | None = None) -> Work:
    """The fold up to `until`; `now`: the tick's time, when a tick folds (C-14, Work.now)."""
    tb = make_table(setup)
    queue = queued(tb, inputs, until)
    start = next((cp for cp in sorted(checkpoints, key=lambda c: c.at, reverse=True)
                  if (until is None or cp.at <= until)
                  and digest(setup, queue, cp.at, (label for label, _ in cp.resolved)) == cp.digest), None)
    if start is None:
        w = Work(tb, new_game(tb))
        open_setup(w, min([setup.schedule.setup_opens or setup.schedule.start] + [q[0] for q in queue]))
        heap = [(at, n, what == "edit", what, inp) for at, n, what, inp in queue]  # already in heap order
    else:
        w = resumed(tb, start)
        heap = [(at, n, what == "edit", what, inp) for at, n, what, inp in queue if at >= start.at]
        heap += late_items(start, start.at, until, True)
        heapq.heapify(heap)
    w.now = now
    if made is not None:
        w.on_resolved = lambda at: made.append(checkpoint_at(w, queue, at))
    drain(w, heap, until)
    return w


HeapItem = tuple[datetime, int, bool, str, Input]  # a QueueItem with "is an edit" before its kind, for the order


def late_items(cp: Checkpoint, after: datetime, until: datetime | None, inclusive: bool) -> list[HeapItem]:
    """C-13: the late inputs `cp` knows of that are read from `after` on (after it, unless `inclusive`) and by
    `until`, as heap items at their read time."""
    return [(inp.read_at, n, False, "late", replace(inp, at=inp.read_at, at_latest=None))
            for n, inp in cp.missed
            if inp.read_at is not None  # (a late input was read: always so)
            and (inp.read_at >= after if inclusive else inp.read_at > after)
            and (until is None or inp.read_at <= until)]


def drain(w: Work, heap: list[HeapItem], until: datetime | None) -> None:
    """Fold the heap's items in order, then advance to `until` (the game's end if None)."""
    tb = w.tb
    while heap:
        at, n, _, what, inp = heapq.heappop(heap)
        advance_to(w, at)
        if what == "edit":
            w.g.edits.append((len(w.g.inputs), inp))
            edited(w, inp.id, inp.author)
            check_majority(w, at)  # an edit that voids a vote may break a majority within its delay
            continue
        missed = _missed(w, inp)
        if missed is not None:
            # C-13: read after its phase was resolved and announced; it counts from when it was read on
            w.late[inp.where, inp.id] = (missed, inp.at)
            w.missed.append((n, inp))
            assert inp.read_at is not None  # late: read after its phase was resolved
            if until is None or inp.read_at <= until:
                late = replace(inp, at=inp.read_at, at_latest=None)
                heapq.heappush(heap, (late.at, n, False, "late", late))
            continue
        if what == "late":
            missed, stamped = w.late[inp.where, inp.id]
            to_gms(w, at, tb.t.gm.late_input(inp.author, str(inp.where), stamped, missed, inp.text), f"late/{inp.id}")
        w.g.inputs.append(inp)
        handle(w, inp)
    if until is None:
        until = w.g.phase.deadline if w.g.phase.kind != "ended" else w.g.ended_at
        assert until is not None  # an ended game has its end
    advance_to(w, until)


def checkpoint_at(w: Work, queue: Sequence[QueueItem], at: datetime) -> Checkpoint:
    return snapshot(w, w.resolved[-1][0], at, digest(w.tb.setup, queue, at, (label for label, _ in w.resolved)))


def snapshot(w: Work, label: str, at: datetime, key: str) -> Checkpoint:
    """The fold as it stands, as a Checkpoint (a tip's too) whose digest is `key`."""
    return Checkpoint(
        label=label, at=at, game=freeze(w.g), digest=key,
        messages=tuple(w.messages.values()), log=tuple(w.log), resolved=tuple(w.resolved),
        commands=tuple(w.commands), late=tuple(w.late.items()), missed=tuple(w.missed), computed=tuple(w.computed),
    )


def resumed(tb: Table, cp: Checkpoint) -> Work:
    w = Work(tb, thaw(cp.game))
    w.messages = {m.key: m for m in cp.messages}
    w.log, w.resolved, w.commands = list(cp.log), list(cp.resolved), list(cp.commands)
    w.late, w.missed, w.computed = dict(cp.late), list(cp.missed), list(cp.computed)
    return w


_COUNTED = (Where.GAME, Where.VOTE, Where.PM)  # what a phase's result may count: only these can be late (C-13)


def _missed(w: Work, inp: Input) -> str | None:
    """C-13: the phase this input was stamped in, if the bot had resolved it before first reading the input."""
    label = w.g.phase.label
    done = w.tb.resolved.get(label)
    if inp.where not in _COUNTED or inp.read_at is None or done is None or inp.read_at <= done \
            or (inp.where, inp.id) in w.late:
        return None
    return label


def result(w: Work) -> GameRun:
    g = w.g
    ph = g.phase
    return GameRun(
        messages=tuple(w.messages.values()),
        result=GameResult(g.winner, g.ended_at, tuple(PlayerResult(s.nick, s.role, s.alive, s.died)
                                                      for s in g.seats.values())),
        log=tuple(w.log),
        phase=ph.label,
        next_deadline=None if ph.kind == "ended" or g.paused_at else ph.deadline,
        phase_opens=ph.opens,
        resolved=tuple(w.resolved),
        computed=tuple(w.computed),
        late=tuple((i, label, stamped, str(where)) for (where, i), (label, stamped) in w.late.items()),
        commands=tuple(w.commands),
        history=history_now(w),
        thread_posts=tuple(g.thread_posts),
        reserve=None if w.tb.setup.reserve is None else tuple(reserve_order(w)),
        offers=tuple((g.seats[o.seat].nick, o.to, o.until) for o in g.reserve.offers),
    )
