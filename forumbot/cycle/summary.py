"""The lines `forumbot tick` prints: one per game it saw (issue 11 item 9)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from forumbot.errors import FloodLimited, PartlySent
from forumbot.games.lookup import zone_of
from forumbot.localtime import local
from forumbot.store.models import ForumRow, GameRow, OutboxRow


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
        zones = {g.name: zone_of(g) for g in session.scalars(select(GameRow).where(GameRow.name.in_(names)))}
        waiting = dict(session.execute(
            select(GameRow.name, func.count()).join(OutboxRow, OutboxRow.game_id == GameRow.id)
            .where(GameRow.name.in_(names), OutboxRow.status.in_(("pending", "attempted")))
            .group_by(GameRow.name)).all())
    lines = []
    for o in report.games:
        d = o.delivery
        head = f"{o.name}: {o.phase or '-'}"
        if o.state == "done":
            # PMs come through the forum's one inbox, shared by its games: the count is the forum's
            pms = report.pms_stored.get(forums.get(o.name, ""), 0)
            parts = [f"{o.stored} post(s) and {pms} PM(s) stored", f"{o.queued} message(s) queued",
                     f"{d.sent if d else 0} sent"]
            if d and d.recovered:
                parts.append(f"{d.recovered} found already on the forum")
            if o.held_back and o.held_until is not None:
                # a GM who runs `tick` right after `game start` would otherwise see nothing and wonder why
                parts.append(f"{o.held_back} more due from {local(o.held_until, zones.get(o.name, ''))} "
                             f"(grace_seconds)")
        elif o.state == "error" and (after := deferred_by_flood(o.error)) is not None:
            # routine, not an outage: the forum's flood timer holds the rest until a later tick
            owed = waiting.get(o.name, 0)
            when = f", next try in {after.retry_after:.0f} s" if after.retry_after is not None else ""
            parts = [f"{d.sent if d else 0} sent", f"deferred: {owed} message(s) wait for the forum's flood "
                     f"limit{when} ({after})"]
        elif o.state == "error":
            parts = [f"forum error: {o.error}"]
        elif o.state == "broken":
            parts = [f"not played: {o.problem}"]
        else:
            parts = [{"locked": "skipped: another tick holds it", "ended": "skipped: ended meanwhile",
                      "unconfigured": "skipped: no longer in the config"}.get(o.state, o.state)]
        if o.pages_error:
            parts.append(f"the posts showing a picture wait: {o.pages_error}")
        held = stuck.get(o.name, {})
        if held:
            words = {"uncertain": "maybe not delivered", "refused": "refused by the forum",
                     "queued": "awaiting a moderator"}
            parts.append("stuck: " + ", ".join(f"{n} {words[k]}" for k, n in sorted(held.items()))
                         + f" (see `forumbot outbox {o.name}`)")
        lines.append(head + "; " + ", ".join(parts))
    return lines
