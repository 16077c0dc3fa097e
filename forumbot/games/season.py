"""`forumbot season standings` (S-6): a game's outcome as the standings read it, and the table as text, JSON or
CSV. The rating itself is forumbot.rules.standings; the games are folded from their exports by the command.

Only a finished game counts: one with a winner that `game stop` did not end (a stopped game has none; a game
cancelled at its sign-up never started, so it has no export). Everything read here is public once the game
ended: the roles, who died of what (the result posts said it), the seats' holders at the end."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

from forumbot.engine.history import DayRecord
from forumbot.engine.results import GameRun
from forumbot.model import ROLE_TEAM, Agitation, GameSetup
from forumbot.rules.standings import SIDES, GameOutcome, Row, SeatOutcome
from forumbot.pages.site import csv_cell

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
