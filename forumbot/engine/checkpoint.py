"""Checkpoints at resolved deadlines (issue 19 item 3): the Game right after a deadline was resolved, what the
fold had said by then, and a digest of the inputs it saw. A later fold whose inputs before that deadline have
the same digest starts there instead of from Setup, and ends exactly where a whole fold ends (C-13 keeps the
announced past fixed; an input stored since, stamped before the deadline, changes the digest and the fold starts
from an earlier checkpoint or from Setup).

The digest covers the engine's own source too, so checkpoints written by another version are never used.

A `Tip` is the fold at the `until` the last tick reached: a tick whose inputs up to there are unchanged starts
there, so a quiet tick folds nothing and one new vote is one step (issue 19). Its digest is of the inputs
stamped by `until` (a prefix of the stored inputs, in the store's order), taken by chunks (`chain`) rather than
input by input: what stays linear is one pass over the stored inputs, not the fold."""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass, fields, replace
from datetime import datetime, timezone
from operator import attrgetter
from pathlib import Path
from typing import Any, Iterable, Sequence

from forumbot.engine.plain import PlainError, from_plain, to_plain
from forumbot.engine.state import Game, revised
from forumbot.model import GameSetup, Input, Message, ReadSpan


def _source_version() -> str:
    """A hash of the code a fold runs: the engine, rules, parsers, texts, markup, model and errors (every forumbot
    module a fold imports; tests/test_engine_checkpoints.py keeps the list whole)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for path in _sources(root):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _sources(root: Path) -> list[Path]:
    return [path for part in FOLD_PACKAGES for path in sorted((root / part).rglob("*.py"))] + \
        [root / name for name in FOLD_MODULES]


FOLD_PACKAGES = ("engine", "rules", "parse", "texts")
FOLD_MODULES = ("model.py", "markup.py", "errors.py", "__init__.py")


VERSION = _source_version()

QueueItem = tuple[datetime, int, str, Input]  # (time, index among the inputs, "input" | "edit", the input)


@dataclass(frozen=True)
class Checkpoint:
    label: str  # the phase resolved
    at: datetime  # when the fold resolved it (game time)
    digest: str  # of the setup, the engine's version and every queued input and edit before `at`
    game: Game  # right after the resolution
    messages: tuple[Message, ...]  # what the fold had said by then, keys as given
    log: tuple[str, ...]
    resolved: tuple[tuple[str, datetime], ...]
    commands: tuple[tuple[str, dict[str, Any], dict[str, Any]], ...]
    late: tuple[tuple[tuple[Any, str], tuple[str, datetime]], ...]  # C-13: ((where, id), (phase missed, stamp))
    missed: tuple[tuple[int, Input], ...]  # the late inputs among them, by queue index (to be handled when read)
    computed: tuple[tuple[str, datetime], ...] = ()  # C-13: the interim counts and reminders made (Work.computed)


TIP = "<tip>"  # a Tip's label, where a Checkpoint has the phase it resolved


@dataclass(frozen=True)
class Tip:
    """The fold at `state.at` (the `until` it reached), for the next tick to start from."""

    state: Checkpoint  # the fold at its end: `at` is its until, `digest` the tip's (`tip_digest`), label TIP
    seen: int  # how many inputs it saw: the first `seen` of the inputs it was given, each stamped by `until`
    read_by: datetime | None  # the latest time one of them was first read (C-13), None if never known
    pending: tuple[QueueItem, ...]  # queue items after `until` of those inputs (an edit, a rough GM PM's end)
    chunks: tuple[int, ...]  # where each tick's new inputs end among them (the last is `seen`), for `chain`
    chain: str  # `chain` of those inputs over `chunks`: the next tip adds its own inputs without rehashing these

    @property
    def until(self) -> datetime:
        return self.state.at


_FIELDS = attrgetter(*(f.name for f in fields(Input)))
CHUNKS = 64  # past this many, a tip hashes its inputs anew in one chunk


def seen_count(inputs: Sequence[Input], until: datetime, start: int = 0) -> int | None:
    """How many inputs are stamped by `until`, when those are a prefix (the store's order); None otherwise (no
    tip is made or used: an input's index in the fold must not move). The first `start` are known to be."""
    rest = inputs[start:]
    k = 0
    for k, inp in enumerate(rest):  # noqa: B007
        if inp.at > until:
            break
    else:
        return start + len(rest)
    return start + k if all(inp.at > until for inp in rest[k:]) else None


def trimmed(state: Checkpoint) -> Checkpoint:
    """A tip's fold without the handled inputs no undo can reach any more (C-9: an override is undone only
    before the next resolution, so only those from the earliest override since the last one on): the others are
    None, keeping every index, so a tip's size does not grow with the game's inputs."""
    g = state.game
    reach = min((o.index for o in g.overrides if o.resolutions == g.resolutions), default=len(g.inputs))
    if not reach:
        return state
    inputs = (None,) * reach + g.inputs[reach:]
    edits = tuple(e for e in g.edits if e[0] >= reach)
    return replace(state, game=revised(g, inputs=inputs, edits=edits))  # `None`s: inputs no undo reaches


def read_by(inputs: Sequence[Input]) -> datetime | None:
    return max((inp.read_at for inp in inputs if inp.read_at is not None), default=None)


def chain(inputs: Sequence[Input], chunks: Iterable[int], start: str = "", begin: int = 0) -> str:
    """A hash of every field of `inputs[begin:end]` for each chunk's end, each chunk's hash over the one before
    (`start`): each chunk's fields by their repr, so extending it costs only the new inputs."""
    h = start
    for end in chunks:
        rows = repr([_FIELDS(inp) for inp in inputs[begin:end]]).encode("utf-8", "surrogatepass")
        h = hashlib.sha256(h.encode() + rows).hexdigest()
        begin = end
    return h


def reads_by(setup: GameSetup, at: datetime | None) -> tuple[ReadSpan, ...]:
    """C-14: the read spans as recorded by `at`, each cut at `at`. The daemon only opens spans at its ticks'
    times and moves an open one's end on to later ticks, so what a fold up to `at` decided by (a deadline's, up
    to when the bot resolved it) never changes once recorded: a later tick's read changes no checkpoint or tip.
    In UTC: the digest hashes their repr, and a span's end cut at `at` would otherwise take `at`'s zone."""
    if at is None:
        return ()
    return tuple(ReadSpan(span.first.astimezone(timezone.utc), min(span.last, at).astimezone(timezone.utc), span.ok)
                 for span in setup.schedule.reads if span.first <= at)


def tip_digest(setup: GameSetup, chained: str, latest_read: datetime | None, until: datetime) -> str:
    """The digest of the setup and of the inputs a tip saw (their `chain`). Of the phases the daemon recorded as
    resolved (C-13) only those recorded before one of these inputs was read count: a later record (the tick that
    made the tip resolved that phase) makes none of them late, so it changes nothing they folded to."""
    setup = replace(setup, schedule=replace(setup.schedule, resolved=tuple(
        (label, when) for label, when in setup.schedule.resolved if latest_read is not None and when < latest_read),
        reads=reads_by(setup, until)))
    h = hashlib.sha256(VERSION.encode())
    h.update(repr(setup).encode("utf-8", "surrogatepass"))
    h.update(chained.encode())
    return h.hexdigest()


def digest(setup: GameSetup, queue: Sequence[QueueItem], at: datetime, labels: Iterable[str]) -> str:
    """The digest of the queue's items before `at` (the queue sorted as the fold sorts it), of the setup, and of
    when the bot resolved the phases `labels` (C-13): a phase the daemon resolves later changes no checkpoint."""
    done = set(labels)
    setup = replace(setup, schedule=replace(setup.schedule, resolved=tuple(
        (label, when) for label, when in setup.schedule.resolved if label in done), reads=reads_by(setup, at)))
    h = hashlib.sha256(VERSION.encode())
    h.update(repr(setup).encode("utf-8", "surrogatepass"))
    for item in queue:
        if item[0] >= at:
            break
        h.update(repr(item).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def dumps(cp: "Checkpoint | Tip") -> bytes:
    """A checkpoint for the store: its plain data (engine/plain.py, never a pickle) as JSON, compressed (a tip is
    written per busy tick, and repeats its texts: 400 GM commands' tip is 0.9 MB of JSON, 0.05 MB compressed).
    PlainError for a value with no plain form (a time zone a test patched in): the caller stores nothing."""
    return zlib.compress(json.dumps(to_plain(cp), ensure_ascii=False, separators=(",", ":")).encode(), 1)


def loads(data: bytes, kind: type = Checkpoint) -> Any:
    """A stored checkpoint (or tip), or None when it cannot be read (written by another version, or naming what
    an engine value never holds: folded from Setup)."""
    try:
        cp = from_plain(json.loads(zlib.decompress(data)))
    except (PlainError, ValueError, RecursionError, zlib.error):  # a checkpoint is a cache: fold without it
        return None
    return cp if isinstance(cp, kind) else None
