"""The game thread on the public pages: an activity table per day (posts per player, the first and the last) and an
ISO page per player (every post of his in the game thread, linked, by phase).

Built only from what the forum showed publicly: the game-thread posts the fold handled (never PMs; a post held for
a moderator never reaches the fold; a post seen deleted is left out), each linked to the forum, never its text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from forumbot.engine.activity import GamePost
from forumbot.engine.results import GameRun


@dataclass(frozen=True)
class ActivityRow:
    seat: str
    nick: str
    posts: int
    counted: int  # the posts the game's post minimum counts (a quote-only or too short post is shown, not counted)
    first: GamePost | None
    last: GamePost | None
    iso: str  # the player's ISO page, "" when he has no post


def public_posts(run: GameRun) -> list[GamePost]:
    """The seats' game-thread posts as the forum shows them now: a deleted one is gone from the pages too."""
    return [p for p in run.thread_posts if p.deleted_at is None]


def iso_files(run: GameRun, seats: list[str]) -> dict[str, str]:
    """Seat id -> its ISO page's file name, for each seat with a public post (named by seat number: a nickname
    never becomes a path)."""
    posting = {p.seat for p in public_posts(run)}
    return {seat: f"posts-{n}.html" for n, seat in enumerate(seats, 1) if seat in posting}


def _order(label: str) -> int:
    kind, _, n = label.partition(" ")
    return 0 if kind == "setup" else 2 * int(n) - 1 if kind in ("day", "runoff") else 2 * int(n) if n else 10 ** 6


def activity_rows(run: GameRun, number: int, players: list[dict], files: dict[str, str]) -> list[ActivityRow]:
    """Day `number`'s table: every player alive when it opened (the runoff's posts are not the day's, R-11)."""
    posts = [p for p in public_posts(run) if p.phase == f"day {number}"]
    rows = []
    for p in players:
        if p["phase"] and _order(p["phase"]) < _order(f"day {number}"):
            continue
        mine = [x for x in posts if x.seat == p["seat"]]
        rows.append(ActivityRow(p["seat"], p["nick"], len(mine), sum(x.counts for x in mine), mine[0] if mine else None,
                                mine[-1] if mine else None, files.get(p["seat"], "")))
    return rows


def iso_phases(run: GameRun, seat: str, phase_words: Callable[[str], str]) -> list[tuple[str, list[GamePost]]]:
    """The seat's public posts grouped by the phase they were written in, in order."""
    groups: dict[str, list[GamePost]] = {}
    for p in public_posts(run):
        if p.seat == seat:
            groups.setdefault(p.phase, []).append(p)
    return [(phase_words(label), posts) for label, posts in groups.items()]


def iso_pages(run: GameRun, players: list[dict], files: dict[str, str], phase_words: Callable[[str], str],
              render: Callable[[dict], bytes]) -> dict[str, bytes]:
    """File name -> the ISO page of each player with a public post (`render` fills the template)."""
    return {files[p["seat"]]: render(dict(p=p, phases=iso_phases(run, p["seat"], phase_words)))
            for p in players if p["seat"] in files}
