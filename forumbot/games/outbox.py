"""`forumbot outbox`: a game's stuck messages listed, and one retried or dropped by its key."""

from __future__ import annotations

from typing import Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.errors import ForumbotError
from forumbot.games.lookup import game_row, language_of
from forumbot.store.models import GameRow, OutboxRow
from forumbot.texts import TABLES


# --- the outbox by hand ------------------------------------------------------------------------------------

STUCK = ("pending", "attempted", "uncertain", "refused", "queued")


def stuck_messages(sessions: sessionmaker[Session], config: Config, name: str) -> list[tuple[str, ...]]:
    """(status, key, where to, first line, last error) of every message not delivered (nor dropped)."""
    with sessions.begin() as session:
        game = game_row(session, config, name)
        t = TABLES[language_of(config, name, game)]
        rows = list(session.scalars(select(OutboxRow).where(
            OutboxRow.game_id == game.id, OutboxRow.status.in_(STUCK)).order_by(OutboxRow.due_at, OutboxRow.id)))
        # the status column stays the store's word: the rows are tab-separated for scripts as well as GMs
        return [(r.status, r.key, _where(r, t), _first_line(r.text), r.last_error or "") for r in rows]


def outbox_retry(sessions: sessionmaker[Session], config: Config, name: str, key: str) -> str:
    """Send a stuck message again with the next tick. An uncertain PM or a post held for approval may then
    reach the forum twice: that is the operator's call, and the answer says so."""
    with sessions.begin() as session:
        game = game_row(session, config, name)
        t = TABLES[language_of(config, name, game)]  # issue 28 item 3: the game's GMs read it in its language
        if game.status not in ("running", "stopping"):
            raise ForumbotError(t["outbox.not_running"].format(name=name, status=t.get(f"gs.status.{game.status}",
                                                                                        game.status)))
        row = _row(session, game, key, t)
        _not_withheld(row, name, t)
        if row.status in ("sent", "pending"):
            raise ForumbotError(t["outbox.nothing_to_retry"].format(name=name, key=key, status=_status(row, t)))
        was = row.status
        row.status, row.last_error, row.batch = "pending", None, None
    return t["outbox.retried"].format(name=name, key=key, was=t[f"outbox.status.{was}"],
                                      warning=t.get(f"outbox.retried.{was}", ""))


def outbox_drop(sessions: sessionmaker[Session], config: Config, name: str, key: str) -> str:
    with sessions.begin() as session:
        game = game_row(session, config, name)
        t = TABLES[language_of(config, name, game)]  # issue 28 item 3: the game's GMs read it in its language
        row = _row(session, game, key, t)
        _not_withheld(row, name, t)
        if row.status in ("sent", "dropped"):
            raise ForumbotError(t["outbox.nothing_to_drop"].format(name=name, key=key, status=_status(row, t)))
        was, row.status = row.status, "dropped"
    return t["outbox.dropped"].format(name=name, key=key, was=t[f"outbox.status.{was}"])


def _status(row: OutboxRow, t: Mapping[str, str]) -> str:
    return t.get(f"outbox.status.{row.status}", row.status)


def _row(session: Session, game: GameRow, key: str, t: Mapping[str, str]) -> OutboxRow:
    row = session.scalar(select(OutboxRow).where(OutboxRow.game_id == game.id, OutboxRow.key == key))
    if row is None:
        raise ForumbotError(t["outbox.no_key"].format(name=game.name, key=key))
    return row


def _not_withheld(row: OutboxRow, name: str, t: Mapping[str, str]) -> None:
    """C-14: a withheld row stays so: `game export` lists it as never sent, and the next tick would withhold a
    retried one again."""
    if row.status == "withheld":
        raise ForumbotError(t["outbox.withheld"].format(name=name, key=row.key))


def _where(row: OutboxRow, t: Mapping[str, str]) -> str:
    if row.where == "pm":
        return t["outbox.to_pm"].format(to=row.to)
    return t.get(f"gs.where.{row.where}", t["outbox.to_thread"].format(where=row.where))


def _first_line(text: str, width: int = 80) -> str:
    line = next((l.strip() for l in text.splitlines() if l.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"
