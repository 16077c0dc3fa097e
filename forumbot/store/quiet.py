"""What a game's fold reads from the store, as a few sums: the forum's rows in five grouped queries, one
fingerprint per game (issue 27 item 7).

A tick that changed nothing a game's fold reads can take that game's result from the mark its last full tick left
(forumbot/cycle/quiet.py), when the fingerprint is the same. The fingerprint covers what the fold and the tick's
bookkeeping read: the forum's PMs (any may be routed to the game), the posts of its threads and its refused PMs
(count, largest id, version sum: `inputs.version` grows at every write of a row), the forum's games and their seats
and reserve offers (PM routing, stored_game.Routing), the game's outbox by status, and its resolved phases (C-13).
It leaves out every tick's own record of its reads (C-14's read spans) and the cursors, which say where reading
stopped, not what was read."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Sequence

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from forumbot.engine.replacement import OFFER_KEY_PREFIX, OFFER_KEY_SUFFIX
from forumbot.store.models import CursorRow, GameRow, InputRow, OutboxRow, ResolutionRow, SeatRow
from forumbot.store.records import REFUSED_PM

_PM_KINDS = ("pm", "conv")
# S-4: a reserve player offered a seat answers by PM (store/game.py routes it)
_OFFER = f"{OFFER_KEY_PREFIX}%{OFFER_KEY_SUFFIX}"
# the forum's PMs among its inputs (store/records.py stores them under no topic)
_PM_ROWS = InputRow.kind.in_(_PM_KINDS) & (InputRow.topic == "")


def quiet_stream(game_id: int) -> str:
    """The cursor stream holding the game's quiet mark."""
    return f"game:{game_id}:quiet"


@dataclass(frozen=True)
class ForumRows:
    """The forum's rows a fold reads, as grouped sums (the module's doc)."""

    inputs: dict[tuple[str, str], tuple[int, int, int]]  # (kind, topic) -> (rows, largest id, version sum)
    games: tuple[tuple[Any, ...], ...]
    seats: tuple[tuple[Any, ...], ...]
    outbox: dict[int, tuple[tuple[Any, ...], ...]]  # game id -> (status, offer, rows, largest id)
    resolutions: dict[int, tuple[int, int]]  # game id -> (rows, largest id)

    def pms(self) -> tuple[tuple[int, int, int] | None, ...]:
        """The forum's PMs, as `forum_pms` reads them."""
        return _pms(self.inputs)

    def fingerprint(self, game_id: int, name: str, topics: Sequence[str], config_key: str) -> str:
        """The fingerprint of what game `game_id` (named `name`, reading `topics`) folds, under a config."""
        offers = sorted((game, *group) for game, groups in self.outbox.items() for group in groups if group[1])
        what = [config_key, self.pms(),
                [self.inputs.get(("post", topic)) for topic in topics], self.inputs.get((REFUSED_PM, name)),
                self.games, self.seats, self.outbox.get(game_id, ()), offers, self.resolutions.get(game_id)]
        return hashlib.sha256(json.dumps(what, default=str).encode()).hexdigest()


def forum_rows(session: Session, forum_id: int, only: tuple[int, Sequence[str], str] | None = None) -> ForumRows:
    """The forum's rows as `ForumRows`; `only`: (game id, its topics, its name), to read just what that game's
    fingerprint needs."""
    narrowed: ColumnElement[bool] | None = None  # the inputs read: all of the forum's
    outbox = (select(OutboxRow.game_id, OutboxRow.status, OutboxRow.key.like(_OFFER), func.count(),
                     func.max(OutboxRow.id)).join(GameRow, GameRow.id == OutboxRow.game_id)
              .where(GameRow.forum_id == forum_id))
    resolutions = (select(ResolutionRow.game_id, func.count(), func.max(ResolutionRow.id))
                   .join(GameRow, GameRow.id == ResolutionRow.game_id).where(GameRow.forum_id == forum_id))
    if only is not None:
        game_id, topics, name = only
        narrowed = _PM_ROWS | InputRow.topic.in_([*topics, name])
        outbox = outbox.where((OutboxRow.game_id == game_id) | OutboxRow.key.like(_OFFER))
        resolutions = resolutions.where(ResolutionRow.game_id == game_id)
    groups: dict[int, list[tuple[Any, ...]]] = {}
    for game, status, offer, count, last in session.execute(
            outbox.group_by(OutboxRow.game_id, OutboxRow.status, OutboxRow.key.like(_OFFER))):
        groups.setdefault(game, []).append((status, bool(offer), count, last))
    return ForumRows(
        inputs=_input_sums(session, forum_id, narrowed),
        games=tuple(tuple(r) for r in session.execute(
            select(GameRow.id, GameRow.status, GameRow.mode, GameRow.started_at, GameRow.ended_at,
                   func.length(GameRow.setup_json)).where(GameRow.forum_id == forum_id).order_by(GameRow.id))),
        seats=tuple(tuple(r) for r in session.execute(
            select(SeatRow.game_id, SeatRow.seat_no, SeatRow.nick, SeatRow.current_nick, SeatRow.role)
            .join(GameRow, GameRow.id == SeatRow.game_id).where(GameRow.forum_id == forum_id)
            .order_by(SeatRow.game_id, SeatRow.seat_no, SeatRow.id))),
        outbox={game: tuple(sorted(g, key=repr)) for game, g in groups.items()},
        resolutions={game: (count, last) for game, count, last in
                     session.execute(resolutions.group_by(ResolutionRow.game_id))},
    )


def forum_pms(session: Session, forum_id: int) -> tuple[tuple[int, int, int] | None, ...]:
    """The forum's PMs as `ForumRows.pms` gives them (rows, largest id, version sum of each kind), in one query:
    `forum_rows`' query of the inputs, narrowed to the PMs."""
    return _pms(_input_sums(session, forum_id, _PM_ROWS))


def _input_sums(session: Session, forum_id: int, narrowed: ColumnElement[bool] | None = None
                ) -> dict[tuple[str, str], tuple[int, int, int]]:
    """The forum's inputs (those `narrowed` keeps, if given) grouped: (kind, topic) -> (rows, largest id, version
    sum), in one query."""
    inputs = select(InputRow.kind, InputRow.topic, func.count(), func.max(InputRow.id),
                    func.coalesce(func.sum(InputRow.version), 0)).where(InputRow.forum_id == forum_id)
    if narrowed is not None:
        inputs = inputs.where(narrowed)
    return {(kind, topic): (count, last, int(versions)) for kind, topic, count, last, versions in
            session.execute(inputs.group_by(InputRow.kind, InputRow.topic))}


def _pms(inputs: dict[tuple[str, str], tuple[int, int, int]]) -> tuple[tuple[int, int, int] | None, ...]:
    """The PMs' sums among the forum's input sums, one entry a PM kind (None: no PM of that kind)."""
    return tuple(inputs.get((kind, "")) for kind in _PM_KINDS)


def game_view(session: Session, game_id: int, forum_id: int, streams: Sequence[str]) -> tuple[str | None, dict[str, str]]:
    """The game's status and the values of its cursor `streams`, in one query."""
    rows = session.execute(select(GameRow.status, CursorRow.stream, CursorRow.value).outerjoin(
        CursorRow, (CursorRow.forum_id == forum_id) & CursorRow.stream.in_(list(streams))).where(
        GameRow.id == game_id)).all()
    status = rows[0][0] if rows else None
    return status, {stream: value for _, stream, value in rows if stream is not None and value is not None}
