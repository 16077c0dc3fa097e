"""The lines `forumbot tick` prints: one per game it saw (issue 11 item 9)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.errors import FloodLimited, PartlySent
from forumbot.games.lookup import shown_as
from forumbot.games.status import phase_words
from forumbot.store.models import ForumRow, GameRow, OutboxRow
from forumbot.texts import get_texts


def deferred_by_flood(error: BaseException | None) -> FloodLimited | None:
    """The flood limit that stopped a delivery (the rest goes out next tick: not an outage), if it was one."""
    cause = error.cause if isinstance(error, PartlySent) else error
    return cause if isinstance(cause, FloodLimited) else None


def tick_summary(sessions: sessionmaker[Session], report) -> list[str]:
    """One line per game the tick saw (issue 11 item 9): phase, inputs stored, messages queued and sent, and
    what is stuck in its outbox now (uncertain, refused, held for approval, not deliverable)."""
    names = [o.name for o in report.games]
    with sessions.begin() as session:
        forums = dict(session.execute(select(GameRow.name, ForumRow.name).join(ForumRow, ForumRow.id == GameRow.forum_id)
                                      .where(GameRow.name.in_(names))).all())
        stuck: dict[str, dict[str, int]] = {}
        for game_name, status, count in session.execute(
                select(GameRow.name, OutboxRow.status, func.count()).join(OutboxRow, OutboxRow.game_id == GameRow.id)
                .where(GameRow.name.in_(names), OutboxRow.status.in_(("uncertain", "refused", "queued")))
                .group_by(GameRow.name, OutboxRow.status)):
            stuck.setdefault(game_name, {})[status] = count
        # times said in the game's zone (issue 17 item 13)
        rows = list(session.scalars(select(GameRow).where(GameRow.name.in_(names))))
        shown = {g.name: shown_as(g) for g in rows}
        languages = {name: language for name, (language, _) in shown.items()}
        zones = {name: zone for name, (_, zone) in shown.items()}
        waiting = dict(session.execute(
            select(GameRow.name, func.count()).join(OutboxRow, OutboxRow.game_id == GameRow.id)
            .where(GameRow.name.in_(names), OutboxRow.status.in_(("pending", "attempted")))
            .group_by(GameRow.name)).all())
    lines = []
    for o in report.games:
        # issue 28 item 1: each game's line in its GMs' language, its times as the texts write them
        voice = get_texts(languages.get(o.name, "ru"), str, zones.get(o.name, "") or "UTC").v
        t = voice.T
        d = o.delivery
        sent = t["summary.sent"].format(n=d.sent if d else 0)
        head = f"{o.name}: {phase_words(t, o.phase) if o.phase else '-'}"
        if o.state == "done":
            # PMs come through the forum's one inbox, shared by its games: the count is the forum's
            pms = report.pms_stored.get(forums.get(o.name, ""), 0)
            parts = [t["summary.stored"].format(posts=o.stored, pms=pms), t["summary.queued"].format(n=o.queued), sent]
            if d and d.recovered:
                parts.append(t["summary.recovered"].format(n=d.recovered))
            if o.held_back and o.held_until is not None:
                # a GM who runs `tick` right after `game start` would otherwise see nothing and wonder why
                parts.append(t["summary.held_back"].format(n=o.held_back, at=voice.time_s(o.held_until)))
        elif o.state == "error" and (after := deferred_by_flood(o.error)) is not None:
            # routine, not an outage: the forum's flood timer holds the rest until a later tick
            when = (t["summary.next_try"].format(seconds=f"{after.retry_after:.0f}")
                    if after.retry_after is not None else "")
            parts = [sent, t["summary.deferred"].format(n=waiting.get(o.name, 0), when=when, error=after)]
        elif o.state == "error":
            parts = [t["summary.forum_error"].format(error=o.error)]
        elif o.state == "broken":
            parts = [t["summary.not_played"].format(problem=o.problem)]
        else:
            parts = [t.get(f"summary.{o.state}", o.state)]
        if o.pages_error:
            parts.append(t["summary.pages_wait"].format(error=o.pages_error))
        held = stuck.get(o.name, {})
        if held:
            items = ", ".join(t[f"summary.stuck.{k}"].format(n=n) for k, n in sorted(held.items()))
            parts.append(t["summary.stuck"].format(items=items, game=o.name))
        lines.append(head + "; " + ", ".join(parts))
    return lines
