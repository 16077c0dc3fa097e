"""When a game's waiting PMs go out, at the forum's own pace for a new PM: `game status` says it (issue 18).

On XenForo a new conversation waits floodCheckLengthDiscussion (180 s stock): a 12-player Setup's role PMs take
36 minutes, one a tick under cron, and the GM should know when to tell the players the last will have arrived."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Mapping

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from forumbot.config.types import Config
from forumbot.errors import ConfigError
from forumbot.store.models import ForumRow, GameRow, OutboxRow
from forumbot.forum.registry import profile_for
from forumbot.texts.voice import Voice

SHOWN_FROM = 60.0  # seconds between two new PMs from which the line is worth a GM's attention


def pm_eta_line(session: Session, config: Config, game: GameRow, now: datetime | None, t: Mapping[str, str],
                voice: Voice) -> str | None:
    """The line for `game status`, or None when no PM waits or the forum's pace is quick or unknown. The
    forum table's `intervals` win over the engine's; the stored session's last new PM starts the count. An
    upper bound where some PMs are replies inside a kept conversation (XenForo: 30 s)."""
    waiting = session.scalar(select(func.count()).where(
        OutboxRow.game_id == game.id, OutboxRow.status == "pending", OutboxRow.where == "pm")) or 0
    cfg = config.games.get(game.name)
    forum_cfg = config.forums.get(cfg.forum) if cfg is not None else None
    if not waiting or now is None or forum_cfg is None:
        return None

    try:
        profile = profile_for(forum_cfg.engine)
        limits = dict(profile.limits) if profile is not None else {}
    except ConfigError:
        return None
    limits.update(forum_cfg.extra.get("intervals") or {})
    pace = float(limits.get("pm_start") or max((v for k, v in limits.items() if "pm" in k.split("+")), default=0))
    if pace < SHOWN_FROM:
        return None
    jar = session.scalar(select(ForumRow.cookies).where(ForumRow.name == forum_cfg.name))
    try:
        last = float((json.loads(jar or "{}").get("last_action") or {}).get("pm_start", 0))
    except (ValueError, TypeError, AttributeError):
        last = 0.0
    first = max(now.timestamp(), last + pace)
    eta = datetime.fromtimestamp(first + (waiting - 1) * pace, timezone.utc).replace(microsecond=0)
    # to the second, as `game start` says the first tick's time: the PMs go out minutes apart
    ahead = voice.ahead(eta, now)
    return t["gs.pm_eta"].format(waiting=waiting, pace=f"{pace:.0f}",
                                 at=voice.time_s(eta) + (f" ({ahead})" if ahead else ""))
