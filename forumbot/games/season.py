"""`forumbot season standings` (S-6): a game's outcome as the standings read it, and the table as text, JSON or
CSV. The rating itself is forumbot.rules.standings; the games are folded from their exports by the command.

Only a finished game counts: one with a winner that `game stop` did not end (a stopped game has none; a game
cancelled at its sign-up never started, so it has no export). Everything read here is public once the game
ended: the roles, who died of what (the result posts said it), the seats' holders at the end."""

from __future__ import annotations

import csv
import io
import json
import logging
from datetime import datetime
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.engine.history import DayRecord
from forumbot.engine.results import GameRun
from forumbot.games.lookup import STOPPED
from forumbot.model import ROLE_TEAM, Agitation, GameSetup
from forumbot.pages.output import STANDINGS, write_site
from forumbot.pages.site import csv_cell
from forumbot.rules.standings import SIDES, GameOutcome, Row, SeatOutcome, standings
from forumbot.store.game import default_fold, load_game
from forumbot.store.models import GameRow

log = logging.getLogger(__name__)

COLUMNS = ("place", "nick", "rating", "games", "wins", "town", "mafia", "maniac", "survived", "modkills")


def outcome(name: str, setup: GameSetup, run: GameRun, stopped: bool) -> GameOutcome | None:
    """The game as S-6 reads it, or None when it counts for nothing (running, or stopped by `game stop`)."""
    result = run.result
    if stopped or run.phase == "stopped" or result.winner is None or result.ended_at is None:
        return None
    seats = []
    for p in result.players:
        cause, phase = (p.died.cause, p.died.phase) if p.died else ("", "")
        forfeited = cause == "modkill" or (cause == "autokill" and not _agitated(run, p.nick, phase))
        seats.append(SeatOutcome(p.nick, ROLE_TEAM[p.role], p.alive, cause == "modkill", forfeited))
    started = setup.schedule.setup_opens or setup.schedule.start
    return GameOutcome(name, started, result.ended_at, result.winner, tuple(seats))


def _agitated(run: GameRun, nick: str, phase: str) -> bool:
    """Whether an autokill was H-4's, for agitating (his side's result stands), not a missed vote or too few
    posts (S = 0): he made an agitation, which stood as his vote, in the vote that autokilled him."""
    for day in run.history:
        if not isinstance(day, DayRecord) or day.label != phase:
            continue
        seat = next((sid for sid, n in day.nicks.items() if n == nick), None)
        if any(p.voter == seat and isinstance(p.parsed, Agitation) and not (p.voided or p.deleted)
               for p in day.posts):
            return True
    return False


def as_json(rows: list[Row], games: list[GameOutcome]) -> str:
    """One JSON object: the games counted, in the order they ended, and the rows; the same bytes every time."""
    doc = {
        "games": [{"game": g.name, "winner": g.winner, "started": g.started.isoformat(), "ended": g.ended.isoformat()}
                  for g in sorted(games, key=lambda g: (g.ended, g.name))],
        "standings": [_row(r) for r in rows],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _row(r: Row) -> dict:
    return {
        "place": r.place, "nick": r.nick, "rating": str(r.rating), "games": r.games, "wins": r.wins,
        "sides": {str(side): {"games": r.sides[side].games, "wins": r.sides[side].wins,
                              "share": _plain(r.sides[side].share)} for side in SIDES},
        "survived": r.survived, "modkills": r.modkills, "played": list(r.played),
    }


def as_csv(rows: list[Row]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in rows:
        w.writerow([r.place, csv_cell(r.nick), r.rating, r.games, r.wins,
                    *(share(r, side) for side in SIDES), r.survived, r.modkills])
    return out.getvalue()


def as_text(rows: list[Row], games: list[GameOutcome]) -> str:
    """The table for a terminal: one row per player, columns aligned."""
    head = ["#", "player", "rating", "games", "wins", "town", "mafia", "maniac", "survived", "modkills"]
    body = [[str(r.place), r.nick, str(r.rating), str(r.games), str(r.wins),
             *(share(r, side) for side in SIDES), str(r.survived), str(r.modkills)] for r in rows]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) if i == 1 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
             .rstrip() for line in [head, *body]]
    names = ", ".join(g.name for g in sorted(games, key=lambda g: (g.ended, g.name)))
    return f"{len(games)} finished game(s){': ' + names if names else ''}\n" + "\n".join(lines) + "\n"


def share(r: Row, side: object) -> str:
    """A side's win share as "67% (2/3)", "-" when he never played that side."""
    record = r.sides[side]  # type: ignore[index]
    if record.share is None:
        return "-"
    return f"{_percent(record.share)}% ({record.wins}/{record.games})"


def _percent(share: Decimal) -> str:
    return str((share * 100).quantize(Decimal(1)))


def _plain(value: Decimal | None) -> str | None:
    return None if value is None else str(value)



def stored_outcomes(sessions: sessionmaker[Session], config: Config,
                    until: datetime) -> tuple[list[GameOutcome], GameSetup | None]:
    """The season's games as the store folds them, each up to its end (the fold `game export` writes and
    replay plays again: `forumbot season standings` reads the exports themselves, and the two give the same
    table); with the last started game's setup, whose language and zone the index takes."""
    out, last = [], None
    for name in config.season.games if config.season is not None else ():
        with sessions.begin() as session:
            row = session.scalar(select(GameRow).where(GameRow.name == name))
            if row is None or name not in config.games:
                continue  # never started (or cancelled at its sign-up): nothing to count
            setup, inputs, _ = load_game(session, config, row.id)
            stopped, ended_at = row.status in STOPPED, row.ended_at
        last = setup
        game = outcome(name, setup, default_fold(setup, inputs, ended_at or until), stopped)
        if game is not None:
            out.append(game)
    return out, last


def publish_standings(sessions: sessionmaker[Session], config: Config, until: datetime) -> list[str]:
    """When a game of the season has ended: its standings into the public folder, and the index that shows
    them. Returns the files written; a folder that cannot be written is logged (the next end writes them)."""
    if config.pages is None or config.season is None:
        return []
    games, setup = stored_outcomes(sessions, config, until)
    language, zone = (setup.language, setup.schedule.timezone) if setup else ("ru", "Europe/Moscow")
    try:
        return write_site(config.pages.folder, {STANDINGS: as_json(standings(games), games).encode()}, language, zone)
    except OSError as e:
        log.warning("season standings: cannot write under %s: %s", config.pages.folder, e.strerror or e)
        return []
