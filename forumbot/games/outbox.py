"""`forumbot outbox`: a game's stuck messages listed, and one retried or dropped by its key."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.errors import ForumbotError
from forumbot.games.lookup import game_row
from forumbot.store.models import GameRow, OutboxRow


# --- the outbox by hand ------------------------------------------------------------------------------------

STUCK = ("pending", "attempted", "uncertain", "refused", "queued")


def stuck_messages(sessions: sessionmaker[Session], config: Config, name: str) -> list[tuple[str, ...]]:
    """(status, key, where to, first line, last error) of every message not delivered (nor dropped)."""
    with sessions.begin() as session:
        game = game_row(session, config, name)
        rows = list(session.scalars(select(OutboxRow).where(
            OutboxRow.game_id == game.id, OutboxRow.status.in_(STUCK)).order_by(OutboxRow.due_at, OutboxRow.id)))
        return [(r.status, r.key, _where(r), _first_line(r.text), r.last_error or "") for r in rows]


def outbox_retry(sessions: sessionmaker[Session], config: Config, name: str, key: str) -> str:
    """Send a stuck message again with the next tick. An uncertain PM or a post held for approval may then
    reach the forum twice: that is the operator's call, and the answer says so."""
    with sessions.begin() as session:
        game = game_row(session, config, name)
        if game.status not in ("running", "stopping"):
            raise ForumbotError(f"game {name!r} is {game.status}: no tick delivers its messages any more")
        row = _row(session, game, key)
        _not_withheld(row, name)
        if row.status in ("sent", "pending"):
            raise ForumbotError(f"{name}: {key} is {row.status}; there is nothing to retry")
        was = row.status
        row.status, row.last_error, row.batch = "pending", None, None
    warning = {"uncertain": " It may already have gone out once: check the forum, or it may arrive twice.",
               "queued": " A moderator may still approve the first copy: it may appear twice.",
               "attempted": " It is sent without looking for it on the forum first."}.get(was, "")
    return f"{name}: {key} ({was}) is sent again with the next tick.{warning}"


def outbox_drop(sessions: sessionmaker[Session], config: Config, name: str, key: str) -> str:
    with sessions.begin() as session:
        game = game_row(session, config, name)
        row = _row(session, game, key)
        _not_withheld(row, name)
        if row.status in ("sent", "dropped"):
            raise ForumbotError(f"{name}: {key} is {row.status}; there is nothing to drop")
        was, row.status = row.status, "dropped"
    return f"{name}: {key} ({was}) dropped; it will never be sent"


def _row(session: Session, game: GameRow, key: str) -> OutboxRow:
    row = session.scalar(select(OutboxRow).where(OutboxRow.game_id == game.id, OutboxRow.key == key))
    if row is None:
        raise ForumbotError(f"{game.name}: no message with key {key!r} in the outbox "
                            f"(see `forumbot outbox {game.name}`)")
    return row


def _not_withheld(row: OutboxRow, name: str) -> None:
    """C-14: a withheld row stays so: `game export` lists it as never sent, and the next tick would withhold a
    retried one again."""
    if row.status == "withheld":
        raise ForumbotError(f"{name}: {row.key} is withheld: an interim count or reminder of a phase already "
                            "resolved is never sent late (C-14), and it was not sent")


def _where(row: OutboxRow) -> str:
    return f"PM to {row.to}" if row.where == "pm" else f"{row.where} thread"


def _first_line(text: str, width: int = 80) -> str:
    line = next((l.strip() for l in text.splitlines() if l.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"
