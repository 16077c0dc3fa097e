"""The tip (issue 19): a tick starts where the last one stopped. `run_tipped` is `run` up to `until`, from the
stored `Tip` when every input it saw is unchanged, else from the latest checkpoint that still matches (or Setup).

- A quiet tick (no new input, nothing due between the tip's `until` and this one) folds nothing: the GameRun is
  the tip's, and the tip stands as it is (nothing to store, so a quiet tick writes nothing).
- A tick with new inputs folds only those, from the tip, and makes the next tip.
- An input stored late, stamped by the tip's `until`, changes the tip's digest: the tip is not used (C-13: the
  checkpoints and their digests decide what was announced; the fold from them is the whole fold).

The GameRun is always what `run(setup, inputs, until)` gives (tests/test_engine_tip.py).

`checked`: the caller vouches that the first `tip.seen` inputs are the ones the tip saw, unchanged (the store
compares their rows' versions in one query, forumbot/store/inputs.py): then neither the tip's check nor the new
tip reads them, and `inputs` may load them only when asked (a deadline's checkpoint digests them all). A tip
keeps only the handled inputs an undo can still reach (`checkpoint.trimmed`)."""

from __future__ import annotations

import heapq
from datetime import datetime
from typing import Callable, Sequence

from forumbot.engine.checkpoint import (CHUNKS, TIP, Checkpoint, QueueItem, Tip, chain, read_by, seen_count,
                                       tip_digest, trimmed)
from forumbot.engine.fold import (checkpoint_at, drain, late_items, queue_items, result, resumed,
                                  folded, queued, snapshot)
from forumbot.engine.results import GameRun
from forumbot.engine.table import make_table
from forumbot.engine.timeline import next_timed
from forumbot.engine.work import Work
from forumbot.model import GameSetup, Input


def tip_holds(setup: GameSetup, inputs: Sequence[Input], until: datetime, tip: Tip | None,
              checked: bool = False) -> bool:
    """Whether a fold up to `until` may start at `tip`: it is not later, and the inputs it saw are the first of
    `inputs`, unchanged (`checked`: the caller vouches for that), and the only ones stamped by its `until`."""
    if tip is None or tip.until > until:
        return False
    if checked:
        if len(inputs) < tip.seen or any(inp.at <= tip.until for inp in inputs[tip.seen:]):
            return False
        chained = tip.chain
    else:
        if seen_count(inputs, tip.until) != tip.seen:
            return False
        chained = chain(inputs, tip.chunks)
    return chained == tip.chain and tip_digest(setup, chained, tip.read_by, tip.until) == tip.state.digest


def run_tipped(setup: GameSetup, inputs: Sequence[Input], until: datetime, tip: Tip | None,
               checkpoints: Callable[[], Sequence[Checkpoint]],
               checked: bool = False, now: datetime | None = None
               ) -> tuple[GameRun, tuple[Checkpoint, ...], Tip | None]:
    """`run` from `tip` when it holds, else from the checkpoints (asked for only then). Returns the GameRun, the
    checkpoints of the deadlines this fold resolved, and the new tip (None: keep the one there is). `now`: the
    tick's time (C-14, Work.now)."""
    made: list[Checkpoint] = []
    if tip is not None and tip_holds(setup, inputs, until, tip, checked):
        return _from_tip(setup, inputs, until, tip, made, checked, now)
    w = folded(setup, inputs, until, checkpoints(), made, now)
    seen = seen_count(inputs, until)
    pending = () if seen is None else tuple(q for q in queue_items(w.tb, enumerate(inputs[:seen])) if q[0] > until)
    return result(w), tuple(made), _tip(w, inputs, until, seen, pending, None)


def _from_tip(setup: GameSetup, inputs: Sequence[Input], until: datetime, tip: Tip, made: list[Checkpoint],
              checked: bool, now: datetime | None) -> tuple[GameRun, tuple[Checkpoint, ...], Tip | None]:
    tb = make_table(setup)
    w = resumed(tb, tip.state)
    w.now = now
    items = list(tip.pending) + queue_items(tb, enumerate(inputs[tip.seen:], start=tip.seen))
    heap = [(at, n, what == "edit", what, inp) for at, n, what, inp in items if at <= until]
    heap += late_items(tip.state, tip.until, until, False)
    timed = next_timed(w)
    if not heap and (timed is None or timed[0] > until):
        return result(w), (), None  # nothing to fold: the tip's game is the game at `until` too
    heapq.heapify(heap)
    queue: list[QueueItem] = []

    def resolved(at: datetime) -> None:  # a checkpoint's digest is over every input before it: queued only now
        if not queue:
            queue.extend(queued(tb, inputs, until))
        made.append(checkpoint_at(w, queue, at))

    w.on_resolved = resolved
    drain(w, heap, until)
    seen = seen_count(inputs, until, tip.seen)  # the tip's inputs are stamped by its until, so by this one
    pending = tuple(q for q in items if q[0] > until and seen is not None and q[1] < seen)
    return result(w), tuple(made), _tip(w, inputs, until, seen, pending, tip, checked)


def _tip(w: Work, inputs: Sequence[Input], until: datetime, seen: int | None, pending: tuple[QueueItem, ...],
         old: Tip | None, checked: bool = False) -> Tip | None:
    """The tip at `until`; from `old` (which held), only the inputs it had not seen are hashed (all of them anew
    past CHUNKS chunks, unless the caller vouched for the old ones: then they are never read)."""
    if seen is None:
        return None
    if old is not None and seen >= old.seen and (len(old.chunks) < CHUNKS or checked):
        new = inputs[old.seen:seen]
        chunks = old.chunks + ((seen,) if new else ())
        chained = chain(inputs, chunks[len(old.chunks):], old.chain, old.seen)
        latest = max((t for t in (old.read_by, read_by(new)) if t is not None), default=None)
    else:
        chunks = (seen,) if seen else ()
        chained, latest = chain(inputs, chunks), read_by(inputs[:seen])
    state = snapshot(w, TIP, until, tip_digest(w.tb.setup, chained, latest, until))
    return Tip(trimmed(state), seen, latest, pending, chunks, chained)
