"""`forumbot game export`: a stored game as a transcript (DESIGN.md, "Replay") that `forumbot replay` plays
into the same messages and result (issue 11 item 10).

The events are the inputs exactly as the daemon's fold reads them (forumbot.store.game.load_game), in its order: the
threads' posts (a removed quote as the empty quote the vote parsers see), the PMs routed to the game (the GMs'
included), each with what the store knows beyond the text: `edited_at`, `at_latest`, `deleted_at`, and two
optional fields the transcript gained for exports: `first_text` (the text first stored, when an edit changed
it, C-11) and `missing_accounts` (the accounts the forum said it lacks, the facts recorded with a GM's
`замена`). The top-level `setup_opens` is when `game start` ran (role PMs go out then, C-2); `until` is where
the game is: its end, or for a running game what a tick now would fold to. C-13: each event's `read_at` is when
the bot first read it, the top-level `resolved` when it resolved each phase, so a replay gives each deadline only
the inputs read before it; an event read after its phase was resolved carries `late` (the phase it missed). A game ended by `game stop` has
`stopped`: when and why (`--reason`, "" when none was given), so replay ends it with the same closing post.
C-14: `resolved` also says when the bot was back after an outage that swallowed a whole phase (that phase opened
then); `unsent` lists the keys of the interim counts and reminders the bot never sent because it reached them
only after their phase was resolved, so replay leaves them out too; `reads` lists each tick's read of the game's
threads (`{"at": …, "ok": true|false}`, false when any thread failed), so a replay knows the deadlines the bot
could not read the forum before (the no-show waiver and the gap named).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.config.types import Config
from forumbot.errors import ConfigError, ForumbotError
from forumbot.model import Input
from forumbot.store.models import GameRow
from forumbot.game import run
from forumbot.pages.publish import delivered, frozen_url, page_title
from forumbot.store.game import load_game, unsent
from forumbot.texts import TABLES, gm_language


def export_game(sessions: sessionmaker[Session], config: Config, name: str, now: datetime) -> dict[str, Any]:
    if name not in config.games:
        # the fold routes PMs by the game's config (threads, GMs), so a game dropped from it cannot be read back
        t = TABLES[gm_language([g.language for g in config.games.values()])]
        raise ConfigError(t["export.not_configured"].format(name=name, path=config.path))
    with sessions.begin() as session:
        game = session.scalar(select(GameRow).where(GameRow.name == name))
        if game is None:
            raise ForumbotError(TABLES[config.games[name].language]["export.never_started"].format(name=name))
        setup, inputs, _ = load_game(session, config, game.id)
        ended_at = game.ended_at
        setup_json = game.setup_json
        game_id = game.id
        stopped = ({"at": ended_at.isoformat(), "reason": game.stop_reason or ""}
                   if game.status in ("stopping", "stopped") and ended_at else None)
    until = ended_at or now - timedelta(seconds=config.grace_seconds)

    folded = run(setup, inputs, until)
    late = {(where, i): phase for i, phase, _, where in folded.late}
    with sessions.begin() as session:
        never = sorted(unsent(session, game_id, folded))  # C-14: reached only after their phase was resolved
    s = setup.schedule
    return {
        "variant": setup.variant,
        "seed": setup.seed,
        "timezone": s.timezone,
        "start": s.start.isoformat(),
        "setup_opens": s.setup_opens.isoformat() if s.setup_opens else None,
        "day_hours": _hours(s.day), "night_hours": _hours(s.night), "runoff_hours": _hours(s.runoff),
        "options": dict(setup.options),
        "language": setup.language,
        "markup": setup.markup,
        "game_url": setup.game_url,
        "vote_url": setup.vote_url,
        "until": until.isoformat(),
        "bot": setup.bot,
        "gms": list(setup.gms),
        # the seats as they were taken at `game start`, with the roles as configured; the rest the seed draws
        # again exactly as it drew them (a replacement is a GM PM among the events, as it was in the game)
        "players": [{"nick": p.nick, **({"role": str(p.role)} if p.role else {})} for p in setup.players],
        **({"signup": _signup(setup.signup)} if setup.signup is not None else {}),
        "resolved": {phase: at.isoformat() for phase, at in s.resolved},
        # C-14: the reads of the game's threads as spans of ticks with one outcome (every thread answered or
        # not), so a replay knows which deadlines the bot could not read the forum before
        **({"reads": [{"first": r.first.isoformat(), "last": r.last.isoformat(), "ok": r.ok} for r in s.reads]}
           if s.reads else {}),
        "events": [_event(i, late.get((str(i.where), i.id))) for i in inputs],
        **({"unsent": never} if never else {}),
        **_pages(config, name, setup_json, sessions, game_id),
        **({"stopped": stopped} if stopped else {}),
    }


def _pages(config: Config, name: str, setup_json: str, sessions: sessionmaker[Session],
           game_id: int) -> dict[str, Any]:
    """How the game's pages were built, so `replay --pages` builds the same site (issue 20 item 5); `posts`:
    the forum's id of each bot post delivered in the threads, by message key, which the game page links."""
    pages, game = config.pages, config.games[name]
    url = frozen_url(setup_json)
    if pages is None or not game.publish or not url:
        return {"game": name}
    threads = {k: t for k, t in (("game", game.game_thread), ("vote", game.vote_thread)) if t.startswith("http")}
    return {"game": name, "pages": {"url": url, "threads": threads, "post_url": pages.post_url,
                                    "vote_history": pages.vote_history, "picture": pages.picture, "png": pages.png,
                                    "posts": {} if game.mode == "shadow" else delivered(sessions, game_id),
                                    **({"title": page_title(game)} if page_title(game) else {})}}


def _signup(s: Any) -> dict[str, Any]:
    """The sign-up (S-1) as a transcript writes it (docs/transcripts.md, "A sign-up")."""
    return {"opens": s.opens.isoformat(), "closes": s.closes.isoformat(), "players": s.seats,
            "close_when_full": s.close_when_full, "list_every": s.list_every / timedelta(minutes=1),
            "extend": _hours(s.extend), "refused": list(s.refused), "rules": s.rules_url,
            "offer_hours": _hours(s.offer_hours), **({"thread": s.thread} if s.thread else {})}


def _hours(span: timedelta) -> float:
    return span.total_seconds() / 3600


def _event(i: Input, late: str | None) -> dict[str, Any]:
    # the forum's id of the post or PM: the public pages link each vote to its post (issue 20 item 1)
    event: dict[str, Any] = {"at": i.at.isoformat(), "where": str(i.where), "from": i.author, "text": i.text,
                             "id": i.id}
    for name in ("edited_at", "at_latest", "deleted_at", "read_at"):
        value = getattr(i, name)
        if value is not None:
            event[name] = value.isoformat()
    if i.first_text is not None:
        event["first_text"] = i.first_text
    if i.missing_accounts:
        event["missing_accounts"] = list(i.missing_accounts)
    if late is not None:
        event["late"] = late  # C-13: read after this phase was resolved (information; the replay derives it)
    return event
