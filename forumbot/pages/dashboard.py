"""The GM's private dashboard (issue 20 item 5): every game, its phase and next deadline, the outbox by status
with the oldest pending message's age, the stuck messages with their last error, and the last tick's result. Outbox keys and
recipients reveal roles, so it is never written under the public folder and its file is 0600."""

from __future__ import annotations

import json
import logging
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from forumbot.config.types import Config
from forumbot.pages.dashboard_view import game_lines, said_for, tick_line
from forumbot.store.models import CursorRow, GameRow, OutboxRow
from forumbot.store.records import phase_stream

STUCK = ("uncertain", "refused", "queued")
MOSCOW = "Europe/Moscow"  # the games' default zone: a dashboard without the config knows no other


def _outcome(o) -> dict[str, Any]:
    return {"state": o.state, "phase": o.phase, "stored": o.stored, "queued": o.queued,
            "sent": o.delivery.sent if o.delivery else 0, "error": str(o.error or o.problem or o.pages_error or "")}


def last_ticks(path: Path | None) -> dict[str, dict[str, Any]]:
    """Each game's last tick result as the daemon left it in the dashboard file ([pages] dashboard): the store
    keeps no such record (a tick that fails changes nothing there)."""
    if path is None:
        return {}
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(d, dict):
        return {}
    found = d.get("last_tick")
    if not isinstance(found, dict):  # written by `forumbot dashboard -o`: per game
        found = {g.get("game"): g.get("last_tick") for g in d.get("games", []) if isinstance(g, dict)}
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, dict)}


def dashboard(sessions, now: datetime, ticks: Path | None = None,
              config: Config | None = None) -> dict[str, Any]:
    """`ticks`: the dashboard file the daemon writes after each tick, for each game's last tick result. With
    `config` (which routes a game's inputs), each game also in its GM's words (issue 28 item 14): `language`
    and `lines`, from its fold at `now`."""
    last = last_ticks(ticks)
    games = []
    with sessions.begin() as session:
        for g in session.scalars(select(GameRow).order_by(GameRow.name)):
            phase_row = session.scalar(select(CursorRow).where(CursorRow.stream == phase_stream(g.id)))
            phase = json.loads(phase_row.value) if phase_row is not None and phase_row.value else {}
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
                "deadline": phase.get("deadline"), "majority": phase.get("majority"),
                "outbox": dict(sorted(counts.items())),
                "oldest_pending_seconds": int((now - oldest).total_seconds()) if oldest else None,
                "last_sent": last_sent.isoformat() if last_sent else None, "stuck": stuck, "last_tick": last.get(g.name),
            })
            if config is not None:
                games[-1]["language"], games[-1]["timezone"], games[-1]["lines"], activity = game_lines(
                    session, config, g, games[-1], now)
                if activity is not None:  # who is below the post minimum on the open day
                    games[-1]["post_minimum"] = activity
    return {"at": now.isoformat(), "games": games}


def to_text(d: dict[str, Any]) -> str:
    """The dashboard as text: each game in its GM's words where `dashboard` had the config, else as data."""
    lines = []
    for g in d["games"]:
        if "lines" in g:
            lines += [g["lines"][0]] + ["  " + line for line in g["lines"][1:]]
            if g.get("last_tick"):
                lines.append("  " + tick_line(g["last_tick"], g["language"], g.get("timezone", MOSCOW)))
            continue
        outbox = ", ".join(f"{n} {k}" for k, n in g["outbox"].items()) or "empty"
        age = f"; oldest pending {g['oldest_pending_seconds']} s" if g["oldest_pending_seconds"] is not None else ""
        lines.append(f"{g['game']}: {g['status']}, {g['phase'] or '-'}"
                     + (f", next deadline {g['deadline']}" if g["deadline"] else "") + f"; outbox: {outbox}{age}")
        m = g.get("majority")
        if m:
            lines.append(f"  {m['day']} " + ("ended at majority" if m["ended"] else "has a majority")
                         + f": a majority for {m['nick']} since {m['at']}")
        last = g.get("last_tick")
        if last:
            lines.append(f"  last tick: {last['state']}" + (f", {last['phase']}" if last["phase"] else "")
                         + f"; {last['stored']} stored, {last['queued']} queued, {last['sent']} sent"
                         + (f"; {last['error']}" if last["error"] else "") + f" (so since {last['since']})")
        for s in g["stuck"]:
            lines.append(f"  stuck {s['status']}: {s['key']} ({s['attempts']} attempt(s)): {s['last_error']}")
    return "\n".join(lines) or said_for(_language(d), MOSCOW)("none")


def _language(d: dict[str, Any]) -> str:
    """The page's own words: its games' language (Russian unless every game is English)."""
    found = {g.get("language", "ru") for g in d["games"]}
    return "en" if found == {"en"} else "ru"


def _zone(d: dict[str, Any]) -> str:
    """The page's own time ("На 01.12 10:00 МСК"): in its games' zone when they share one, else Moscow's."""
    found = {g.get("timezone", MOSCOW) for g in d["games"]}
    return found.pop() if len(found) == 1 else MOSCOW


def to_html(d: dict[str, Any]) -> bytes:
    """`/_dashboard` as a page in the GMs' language: each game's lines (issue 28 item 14), escaped."""
    # imported here: the page's templates (Jinja2) are loaded only when the dashboard is served
    from forumbot.pages.site import env

    language = _language(d)
    said = said_for(language, _zone(d))
    games = [(g["lines"][0], g["lines"][1:] + ([tick_line(g["last_tick"], g["language"], g.get("timezone", MOSCOW))]
                                               if g.get("last_tick") else []))
             if "lines" in g else (g["game"], []) for g in d["games"]]
    at = said.words.time(datetime.fromisoformat(d["at"]))
    return env().get_template("dashboard.html").render(lang=language, title=said("title"), at=said("at", at=at),
                                                       games=games, nothing=said("none")).encode()


def write_private(path: Path, text: str) -> None:
    """The file only its owner reads: created 0600, and kept 0600 if it was there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def write_after_tick(path: Path, sessions, now: datetime, report) -> None:
    """The dashboard file after each tick, with what the tick did per game (0600; a failure only logged:
    the tick's work is done and delivered)."""
    before = last_ticks(path)
    d = dashboard(sessions, now)
    d["last_tick"] = {}
    for o in report.games:
        value = _outcome(o)
        known = before.get(o.name, {})
        same = {k: v for k, v in known.items() if k != "since"} == value and "since" in known
        d["last_tick"][o.name] = {**value, "since": known["since"] if same else now.isoformat()}
    for g in d["games"]:
        g["last_tick"] = d["last_tick"].get(g["game"], before.get(g["game"]))
    try:
        write_private(path, json.dumps(d, ensure_ascii=False, indent=1) + "\n")
    except OSError as e:
        logging.getLogger(__name__).warning("cannot write the dashboard %s: %s", path, e.strerror or e)
