"""GameSetup to and from JSON: a game's setup is frozen in the store at `game start`.

Later edits of forumbot.toml do not change a running game (a player list or schedule edited mid-game would
rewrite history on the next fold); GM commands by PM are the way to steer it.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from forumbot.model import GameSetup, PlayerSpec, Role, Schedule


def setup_to_json(setup: GameSetup) -> str:
    s = setup.schedule
    return json.dumps({
        "variant": setup.variant,
        "seed": setup.seed,
        "schedule": {"start": s.start.isoformat(), "day_s": s.day.total_seconds(), "night_s": s.night.total_seconds(),
                     "runoff_s": s.runoff.total_seconds(), "timezone": s.timezone},
        "players": [{"nick": p.nick, "role": p.role.value if p.role else None} for p in setup.players],
        "bot": setup.bot,
        "gms": list(setup.gms),
        "options": setup.options,
        "language": setup.language,
        "markup": setup.markup,
    }, ensure_ascii=False, sort_keys=True)


def setup_from_json(text: str) -> GameSetup:
    d = json.loads(text)
    s = d["schedule"]
    return GameSetup(
        variant=d["variant"], seed=d["seed"],
        schedule=Schedule(start=datetime.fromisoformat(s["start"]), day=timedelta(seconds=s["day_s"]),
                          night=timedelta(seconds=s["night_s"]), runoff=timedelta(seconds=s["runoff_s"]),
                          timezone=s["timezone"]),
        players=tuple(PlayerSpec(p["nick"], Role(p["role"]) if p["role"] else None) for p in d["players"]),
        bot=d["bot"], gms=tuple(d["gms"]), options=d["options"], language=d["language"],
        markup=d.get("markup", "bbcode"),
    )
