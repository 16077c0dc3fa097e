"""A tick loads only what is new (issue 19): a game's inputs read from the store incrementally, from its tip.

The tip (engine/tip.py) saw the game's inputs stamped by its `until`; it is stored with a `Mark` of the rows they
were read from: the largest row id among the candidates (stored_game.Routing: the game's thread posts and the
forum's PMs from its start), the count and version sum of the candidates up to that id, and a key of the routing.
The next tick checks in one query that the candidates up to that id are still as many with the same version sum
(`inputs.version` grows at every write of a row, so an edit, a deletion mark (C-11) or a row stored late (C-13)
changes the count or the sum), and then reads only the rows stored after them or stamped after the tip's
`until`. Those are the tip's new inputs; the ones it saw are loaded only when a fold asks for them (a
deadline's checkpoint digests every input), and are checked again then. Anything else (no tip, no mark, another
routing, a row changed, a new row stamped by the tip's `until`) loads the game whole, as `load_game` does.

The fold is the same either way: `StoredInputs` is the sequence `load_game` gives, loaded in two parts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Iterator, Sequence, overload

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.engine.checkpoint import Tip
from forumbot.model import GameSetup, Input
from forumbot.store.models import GameRow, InputRow
from forumbot.store.game import Routing, game_routing, stored_setup


class InputsChanged(Exception):
    """The rows a tip saw changed while a tick ran (another tick stored or edited one): load the game whole."""


@dataclass(frozen=True)
class Mark:
    """Which stored rows a tip's inputs were read from (the module's doc)."""

    last: int  # the largest candidate row id read
    count: int  # how many candidate rows have an id up to `last`
    versions: int  # the sum of their versions
    routing: str  # Routing.key() when they were read

    def dumps(self) -> str:
        return json.dumps([self.last, self.count, self.versions, self.routing])

    @staticmethod
    def loads(text: str | None) -> "Mark | None":
        try:
            last, count, versions, routing = json.loads(text or "")
            return Mark(int(last), int(count), int(versions), str(routing))
        except (ValueError, TypeError):
            return None


class StoredInputs(Sequence[Input]):
    """A game's inputs in time order: the first `start` (those a tip saw, vouched for by the store: `checked`)
    loaded only when read, the rest at once; `mark` is for the tip a fold makes from them."""

    def __init__(self, tail: list[Input], mark: Mark | None, start: int = 0,
                 load_prefix: Callable[[], list[Input]] | None = None,
                 reload: Callable[[], "StoredInputs"] | None = None) -> None:
        self.start, self.mark, self._tail = start, mark, tail
        self._load, self._reload = load_prefix, reload
        self._all: list[Input] | None = tail if load_prefix is None else None

    @property
    def checked(self) -> bool:
        """Whether the first `start` inputs are a tip's, unchanged (the store compared their rows)."""
        return self._load is not None

    def whole(self) -> "StoredInputs":
        """The game's inputs loaded anew in one piece (after InputsChanged)."""
        assert self._reload is not None
        return self._reload()

    def _every(self) -> list[Input]:
        if self._all is None:
            assert self._load is not None
            prefix = self._load()
            if len(prefix) != self.start:
                raise InputsChanged(f"{len(prefix)} inputs stamped by the tip, it saw {self.start}")
            self._all = prefix + self._tail
        return self._all

    def __len__(self) -> int:
        return self.start + len(self._tail)

    @overload
    def __getitem__(self, i: int) -> Input: ...

    @overload
    def __getitem__(self, i: slice) -> list[Input]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if self._all is None:
            if isinstance(i, slice):
                begin, end, step = i.indices(len(self))
                if step == 1 and begin >= self.start:
                    return self._tail[begin - self.start:max(begin, end) - self.start]
            elif self.start <= (i if i >= 0 else i + len(self)) < len(self):
                return self._tail[(i if i >= 0 else i + len(self)) - self.start]
        return self._every()[i]

    def __iter__(self) -> Iterator[Input]:
        return iter(self._every())


def load_inputs(sessions: sessionmaker[Session], config: Config, game_id: int, tip: Tip | None = None,
                mark: Mark | None = None) -> tuple[GameSetup, StoredInputs, list[tuple[int, Input]]]:
    """What `load_game` gives (the setup, the inputs, the GMs' PMs among them), the inputs `tip` saw loaded only
    when read if the store shows their rows unchanged since `mark`; the GMs' PMs are then those among the rest."""
    with sessions.begin() as session:
        row = session.get_one(GameRow, game_id)
        setup = stored_setup(session, row)
        routing = game_routing(session, config, row, setup)
        key = routing.key()
        if tip is not None and mark is not None and mark.routing == key:
            since = _since(sessions, session, routing, tip, mark, lambda: load_inputs(sessions, config, game_id)[1])
            if since is not None:
                return setup, since[0], since[1]
        inputs, commands, rows = routing.collect(session.execute(routing.query()))
    return setup, StoredInputs(inputs, _mark(rows, key)), commands


def _mark(rows: Sequence[Any], key: str, base: Mark | None = None) -> Mark:
    """The mark of `rows` (every candidate row read), or of `base`'s rows and the rows of `rows` after them."""
    if base is None:
        return Mark(max((r.id for r in rows), default=0), len(rows), sum(r.version for r in rows), key)
    new = [r for r in rows if r.id > base.last]
    return Mark(max([base.last] + [r.id for r in new]), base.count + len(new),
                base.versions + sum(r.version for r in new), key)


def _since(sessions: sessionmaker[Session], session: Session, routing: Routing, tip: Tip, mark: Mark,
           reload: Callable[[], StoredInputs]) -> tuple[StoredInputs, list[tuple[int, Input]]] | None:
    """The inputs after the tip's, if the rows it saw are as `mark` says and none of the others is stamped by its
    `until` (C-13: that one may belong before a deadline the tip resolved); None: load the game whole."""
    upto = InputRow.id <= mark.last
    count, versions = session.execute(select(func.count(), func.coalesce(func.sum(InputRow.version), 0))
                                      .where(routing.candidates(), upto)).one()
    if (count, versions) != (mark.count, mark.versions):
        return None
    until = tip.until
    tail, commands, rows = routing.collect(session.execute(routing.query(~upto | (InputRow.posted_at > until))))
    if any(inp.at <= until for inp in tail):
        return None
    read = [r for r in rows if r.id <= mark.last]  # the tip's rows stamped after its `until`
    read_count, read_versions = len(read), sum(r.version for r in read)

    def prefix() -> list[Input]:
        with sessions.begin() as again:
            inputs, _, seen = routing.collect(again.execute(routing.query(upto, InputRow.posted_at <= until)))
        if (len(seen) + read_count, sum(r.version for r in seen) + read_versions) != (mark.count, mark.versions):
            raise InputsChanged("a row the tip saw changed while the tick ran")
        return inputs

    return StoredInputs(tail, _mark(rows, mark.routing, mark), tip.seen, prefix, reload), commands
