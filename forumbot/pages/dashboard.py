"""The GM's private dashboard (issue 20 item 5): every game, its phase and next deadline, the outbox by status
with the oldest pending message's age, the stuck messages with their last error, and the last tick's result. Outbox keys and
recipients reveal roles, so it is never written under the public folder and its file is 0600."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

STUCK = ("uncertain", "refused", "queued")


def last_tick_stream(game_id: int) -> str:
    return f"game:{game_id}:lasttick"


def _outcome(o) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return {"state": o.state, "phase": o.phase, "stored": o.stored, "queued": o.queued,
            "sent": o.delivery.sent if o.delivery else 0, "error": str(o.error or o.problem or o.pages_error or "")}


def record_last_tick(sessions, now: datetime, report) -> None:  # type: ignore[no-untyped-def]
    """Each game's last tick result, kept in the store for `forumbot dashboard` and `/_dashboard` (issue 20
    item 5), with the time it first read so: a tick that does what the previous one did writes nothing."""
    from forumbot.store.models import Game
    from forumbot.store.records import get_cursor, set_cursor

    with sessions.begin() as session:
        for o in report.games:
            game = session.scalar(select(Game).where(Game.name == o.name))
            if game is None:
                continue
            stream = last_tick_stream(game.id)
            known = get_cursor(session, game.forum_id, stream)
            now_value = _outcome(o)
            if known and {k: v for k, v in json.loads(known).items() if k != "since"} == now_value:
                continue
            set_cursor(session, game.forum_id, stream, json.dumps({**now_value, "since": now.isoformat()},
                                                                   ensure_ascii=False, sort_keys=True))


def dashboard(sessions, now: datetime) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    from forumbot.store.models import Cursor, Game, OutboxRow
    from forumbot.tick import phase_stream

    games = []
    with sessions.begin() as session:
        for g in session.scalars(select(Game).order_by(Game.name)):
            phase_row = session.scalar(select(Cursor).where(Cursor.stream == phase_stream(g.id)))
            phase = json.loads(phase_row.value) if phase_row is not None and phase_row.value else {}
            tick_row = session.scalar(select(Cursor).where(Cursor.stream == last_tick_stream(g.id)))
            last = json.loads(tick_row.value) if tick_row is not None and tick_row.value else None
            counts = dict(session.execute(select(OutboxRow.status, func.count()).where(OutboxRow.game_id == g.id)
                                          .group_by(OutboxRow.status)).all())
            oldest = session.scalar(select(func.min(OutboxRow.due_at)).where(
                OutboxRow.game_id == g.id, OutboxRow.status.in_(("pending", "attempted"))))
            last_sent = session.scalar(select(func.max(OutboxRow.sent_at)).where(OutboxRow.game_id == g.id))
            stuck = [{"key": r.key, "status": r.status, "where": r.where, "to": r.to, "attempts": r.attempts,
                      "last_error": r.last_error or ""}
                     for r in session.scalars(select(OutboxRow).where(
                         OutboxRow.game_id == g.id, OutboxRow.status.in_(STUCK)).order_by(OutboxRow.due_at))]
            games.append({
                "game": g.name, "status": g.status, "mode": g.mode, "phase": phase.get("phase", ""),
                "deadline": phase.get("deadline"), "outbox": dict(sorted(counts.items())),
                "oldest_pending_seconds": int((now - oldest).total_seconds()) if oldest else None,
                "last_sent": last_sent.isoformat() if last_sent else None, "stuck": stuck, "last_tick": last,
            })
    return {"at": now.isoformat(), "games": games}


def to_text(d: dict[str, Any]) -> str:
    lines = []
    for g in d["games"]:
        outbox = ", ".join(f"{n} {k}" for k, n in g["outbox"].items()) or "empty"
        age = f"; oldest pending {g['oldest_pending_seconds']} s" if g["oldest_pending_seconds"] is not None else ""
        lines.append(f"{g['game']}: {g['status']}, {g['phase'] or '-'}"
                     + (f", next deadline {g['deadline']}" if g["deadline"] else "") + f"; outbox: {outbox}{age}")
        last = g.get("last_tick")
        if last:
            lines.append(f"  last tick: {last['state']}" + (f", {last['phase']}" if last["phase"] else "")
                         + f"; {last['stored']} stored, {last['queued']} queued, {last['sent']} sent"
                         + (f"; {last['error']}" if last["error"] else "") + f" (so since {last['since']})")
        for s in g["stuck"]:
            lines.append(f"  stuck {s['status']}: {s['key']} ({s['attempts']} attempt(s)): {s['last_error']}")
    return "\n".join(lines) or "no games started"


def write_private(path: Path, text: str) -> None:
    """The file only its owner reads: created 0600, and kept 0600 if it was there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def write_after_tick(path: Path, sessions, now: datetime, report) -> None:  # type: ignore[no-untyped-def]
    """The dashboard file after each tick, with what the tick did per game (0600; a failure only logged:
    the tick's work is done and delivered)."""
    import logging

    d = dashboard(sessions, now)
    d["last_tick"] = {o.name: _outcome(o) for o in report.games}
    try:
        write_private(path, json.dumps(d, ensure_ascii=False, indent=1) + "\n")
    except OSError as e:
        logging.getLogger(__name__).warning("cannot write the dashboard %s: %s", path, e.strerror or e)
