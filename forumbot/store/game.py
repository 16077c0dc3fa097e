"""A game as the store holds it: its frozen setup and the inputs that belong to it (its threads' posts and the PMs
routed to it), folded up to a moment (what a tick, `game status`, an export and a replay all read)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Callable, Iterable, Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config, GameConfig
from forumbot.engine.replacement import OFFER_KEY_PREFIX, OFFER_KEY_SUFFIX
from forumbot.engine.results import GameRun
from forumbot.model import GameSetup, Input, Where
from forumbot.engine.results import moot_acks, stale_interim
from forumbot.store.models import GameRow, OutboxRow, InputRow, ResolutionRow, SeatRow, UTCDateTime
from forumbot.store.reads import read_spans
from forumbot.store.records import REFUSED_PM
from forumbot.store.setup_codec import setup_from_json
from forumbot.game import run

Fold = Callable[[GameSetup, Sequence[Input], "datetime | None"], GameRun]


def default_fold(setup: GameSetup, inputs: Sequence[Input], until: datetime | None) -> GameRun:
    return run(setup, inputs, until)


# --- inputs for the fold ------------------------------------------------------------------------------------


def load_game(session: Session, config: Config,
              game_id: int) -> tuple[GameSetup, list[Input], list[tuple[int, Input]]]:
    """A game's frozen setup, every stored input that belongs to it (in time order), and which of them are
    PMs from its GMs (with their row ids, for the override log)."""
    row = session.get_one(GameRow, game_id)
    setup = stored_setup(session, row)
    routing = game_routing(session, config, row, setup)
    inputs, commands, _ = routing.collect(session.execute(routing.query()))
    return setup, inputs, commands


def stored_setup(session: Session, row: GameRow) -> GameSetup:
    """The game's frozen setup, with when `game start` ran and when the daemon resolved each phase."""
    setup = setup_from_json(row.setup_json, game=row.name)
    # Setup opens when `game start` ran: the role PMs go out then, not when Day 1 opens (C-2).
    # C-13: each deadline gets only the inputs read before the bot resolved it
    resolved = tuple((phase, at) for phase, at in session.execute(select(ResolutionRow.phase, ResolutionRow.resolved_at)
                     .where(ResolutionRow.game_id == row.id).order_by(ResolutionRow.resolved_at, ResolutionRow.id)))
    # C-14: each tick's read of the game's threads decides whether a deadline was disturbed
    return replace(setup, schedule=replace(setup.schedule, setup_opens=row.started_at, resolved=resolved,
                                           reads=read_spans(session, row.id)))


def unsent(session: Session, game_id: int, run: GameRun) -> frozenset[str]:
    """C-14: the keys of the interim counts and reminders of resolved phases the fold gives that were never sent
    and never will be: a tick reached them only after their phase was resolved (never in the game's outbox), or
    they were queued before it but the forum failed until then (withheld in the outbox)."""
    stale = stale_interim(run)
    moot = _with_status(session, game_id, moot_acks(run), "withheld")  # issue 28 item 9: withheld, never sent
    if not stale:
        return moot
    return moot | stale - frozenset(session.scalars(select(OutboxRow.key).where(
        OutboxRow.game_id == game_id, OutboxRow.key.in_(sorted(stale)), OutboxRow.status != "withheld")))


def moot_pending(session: Session, game_id: int, run: GameRun) -> frozenset[str]:
    """issue 28 item 9: the acknowledgements of resolved nights still waiting in the outbox: to be withheld."""
    return _with_status(session, game_id, moot_acks(run), "pending")


def _with_status(session: Session, game_id: int, keys: frozenset[str], status: str) -> frozenset[str]:
    if not keys:
        return frozenset()
    return frozenset(session.scalars(select(OutboxRow.key).where(
        OutboxRow.game_id == game_id, OutboxRow.key.in_(sorted(keys)), OutboxRow.status == status)))


def as_sent(session: Session, game_id: int, run: GameRun) -> GameRun:
    """The fold's result without its `unsent` messages: what the pages show, as `replay` of the export does."""
    gone = unsent(session, game_id, run)
    return replace(run, messages=tuple(m for m in run.messages if m.key not in gone)) if gone else run


def fold_game(sessions: sessionmaker[Session], config: Config, name: str, until: datetime,
              fold: Fold = default_fold) -> GameRun:
    """The game as the store says it is at `until` (what `game status` shows and a dispute replays)."""
    with sessions.begin() as session:
        game_id = session.scalars(select(GameRow.id).where(GameRow.name == name)).one()
        setup, inputs, _ = load_game(session, config, game_id)
    return fold(setup, inputs, until)


@dataclass(frozen=True)
class Routing:
    """Which stored rows are a game's inputs (issue 7 items 1, 23): its threads' posts, and the PMs its members
    sent while it ran, stamped from its `game start` on. Whether the game is still running does not matter (item
    17), so `game status` of an ended game folds what the game really saw. Its `candidates` are the rows a query
    reads (every PM of the forum from the start); `collect` keeps the game's."""

    row: GameRow
    game: GameConfig
    where: dict[str, Where]
    members: frozenset[str]
    rivals: tuple["_Member", ...]
    gms: frozenset[str]

    def candidates(self) -> Any:
        """The rows that may be the game's inputs, as a where-clause (posts of its threads, the forum's PMs)."""
        row = self.row
        pms = InputRow.kind.in_(list(_PM_KINDS)) & _stamped_from(row.started_at)
        if row.ended_at is not None:
            pms = pms & (InputRow.posted_at <= row.ended_at)
        posts = (InputRow.kind == "post") & InputRow.topic.in_(list(self.where)) & _stamped_from(row.started_at)
        # S-4: the game's own PMs the forum refused to deliver (store_undelivered: the topic is the game's name)
        undelivered = (InputRow.kind == REFUSED_PM) & (InputRow.topic == row.name)
        return (InputRow.forum_id == row.forum_id) & (posts | pms | undelivered)

    def query(self, *more: Any) -> Any:
        """The candidates' columns a fold reads, posts first, each kind in the order the rows were stored."""
        return select(*_READ).where(self.candidates(), *more).order_by(InputRow.kind.desc(), InputRow.id)

    def key(self) -> str:
        """What the routing depends on: the same key, the same rows are routed alike."""
        rivals = sorted((m.config.name, m.config.pm_subject + _titled(m.config), sorted(m.accounts),
                         m.started_at.isoformat(), m.ended_at.isoformat() if m.ended_at else "") for m in self.rivals)
        what = (self.game.name, self.game.pm_subject + _titled(self.game), sorted(self.where.items()),
                sorted(self.members), rivals,
                sorted(self.gms), self.row.forum_id, self.row.started_at.isoformat(),
                self.row.ended_at.isoformat() if self.row.ended_at else "")
        return hashlib.sha256(repr(what).encode()).hexdigest()

    def collect(self, rows: Iterable[Any]) -> tuple[list[Input], list[tuple[int, Input]], list[Any]]:
        """The game's inputs among `rows` (of `query`), in time order, its GMs' PMs with their row ids, and every
        row read (with the version of each)."""
        inputs: list[Input] = []
        commands: list[tuple[int, Input]] = []
        rows = list(rows)
        for r in rows:
            if r.kind == "post":
                inputs.append(_input(r, self.where[r.topic]))
            elif r.kind == REFUSED_PM:
                inputs.append(_input(r, Where.UNDELIVERED))
            elif _routed_here(r, self.game, self.members, self.rivals):
                item = _input(r, _PM_KINDS[r.kind])
                inputs.append(item)
                if r.author.casefold() in self.gms:
                    commands.append((r.id, item))
        inputs.sort(key=lambda i: (i.at, i.id))
        return inputs, commands, rows


def game_routing(session: Session, config: Config, row: GameRow, setup: GameSetup) -> Routing:
    game = config.games[row.name]
    everyone = _members_by_game(session, config, row)
    members = everyone[row.id].accounts if row.id in everyone else frozenset()
    rivals = tuple(member for other, member in everyone.items() if other != row.id)
    threads = {game.signup_thread: Where.SIGNUP, game.game_thread: Where.GAME, game.vote_thread: Where.VOTE}
    return Routing(row, game, threads, members, rivals,
                   frozenset(g.casefold() for g in setup.gms))


# A PM to the bot alone, and one written to the bot and others at once (M-15's conversation, a CC: no move, but
# answered, and a GM's read as his command; engine/conference.py)
_PM_KINDS = {"pm": Where.PM, "conv": Where.SHARED}


# The columns a fold reads, as plain rows: not the stored HTML, and no ORM objects (issue 19: a Day-6 tick loads
# every input of the game, so this is most of what a tick costs beyond its fold)
_READ = (InputRow.id, InputRow.topic, InputRow.item_id, InputRow.author, InputRow.posted_at, InputRow.posted_latest,
         InputRow.first_edited_at, InputRow.deleted_at, InputRow.first_seen_at, InputRow.subject, InputRow.text,
         InputRow.first_text, InputRow.quoted, InputRow.first_quoted, InputRow.facts, InputRow.kind,
         InputRow.version)


def read_rows(session: Session, where: Any) -> list[tuple[int, Input]]:
    """The PMs `where` selects, as the fold reads them, with their row ids."""
    return [(r.id, _input(r, Where.PM)) for r in session.execute(select(*_READ).where(where).order_by(InputRow.id))]


def _stamped_from(start: datetime):
    # A rough forum time ("1 минуту назад") is stored as its earliest instant (C-1); a reply sent just after
    # `game start` may read as possibly earlier, so the game keeps whatever could have been sent from its start.
    return func.coalesce(InputRow.posted_latest, InputRow.posted_at, type_=UTCDateTime) >= start


# An empty quote: what a vote-thread post whose quote the adapter removed starts with, so the vote parsers'
# quote rule applies to it (H-3, M-7: a vote post with a quote is no vote).
QUOTE_MARK = "[quote][/quote]"


def _input(row: Any, where: Where) -> Input:
    """The Input of a row of _READ (or a RawInput)."""
    if isinstance(row, InputRow):
        row = tuple(getattr(row, column.key) for column in _READ)
    # C-11: the earliest edit time seen (forums show only the latest) and the text first stored, if it changed
    (_, _, item_id, author, posted_at, posted_latest, first_edited_at, deleted_at, first_seen_at, _, text, first_text,
     quoted, first_quoted, facts, _, _) = row  # unpacked at once: a row's attributes are looked up one by one
    if where is Where.VOTE:
        text = QUOTE_MARK + text if quoted else text
        first_text = QUOTE_MARK + first_text if first_quoted else first_text
    first = first_text if first_text != text else None
    missing = tuple(json.loads(facts).get("missing_accounts", ())) if facts else ()
    return Input(posted_at, where, author, text, first_edited_at, item_id, first, posted_latest, deleted_at, missing,
                 first_seen_at)


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


def _members_by_game(session: Session, config: Config, of: GameRow) -> dict[int, _Member]:
    """`of` and every game on its forum whose run overlaps its own (only those can compete for its PMs)."""
    overlapping = select(GameRow).where(GameRow.forum_id == of.forum_id,
                                     GameRow.ended_at.is_(None) | (GameRow.ended_at >= of.started_at))
    if of.ended_at is not None:
        overlapping = overlapping.where(GameRow.started_at <= of.ended_at)
    games = {g.id: g for g in session.scalars(overlapping)}
    nicks: dict[int, set[str]] = {}
    for game_id, game in games.items():
        setup = setup_from_json(game.setup_json, game=game.name, check=False)  # its players only
        nicks[game_id] = {n.casefold() for n in [p.nick for p in setup.players] + list(setup.gms)}
    for game_id, nick in session.execute(select(SeatRow.game_id, SeatRow.current_nick).where(SeatRow.game_id.in_(list(games)))):
        nicks[game_id].add(nick.casefold())
    # S-4: a reserve player offered a seat answers by PM (the key engine/replacement.py gives an offer)
    offered = select(OutboxRow.game_id, OutboxRow.to).where(OutboxRow.game_id.in_(list(games)),
                                                            OutboxRow.key.like(f"{OFFER_KEY_PREFIX}%{OFFER_KEY_SUFFIX}"))
    for game_id, offered_to in session.execute(offered):
        nicks[game_id].add((offered_to or "").casefold())
    members: dict[int, _Member] = {}
    for game_id, game in games.items():
        game_config = config.games.get(game.name)
        if game_config is None:
            continue
        members[game_id] = _Member(game_config, frozenset(nicks[game_id]), game.started_at, game.ended_at)
    return members


def _routed_here(row: Any, game: GameConfig, members: frozenset[str], rivals: Iterable[_Member]) -> bool:
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


def _titled(game: GameConfig) -> str:
    """The title's part of a routing key; none without one, so the keys of games stored before titles stand."""
    return f"\ntitle: {game.title}" if game.title else ""


def _names(subject: str, game: GameConfig) -> bool:
    return any(name.casefold() in subject for name in (game.name, game.readable_name, game.pm_subject, game.title)
               if name)
