"""GameSetup to and from JSON: a game's setup is frozen in the store at `game start`.

Later edits of forumbot.toml do not change a running game (a player list or schedule edited mid-game would
rewrite history on the next fold); GM commands by PM are the way to steer it.

A stored setup is checked as it is loaded, by the same option checks the config uses: a game started before a
check existed (or from a database edited by hand) may hold a value that would hang or crash every fold
(`vote_count_minutes = 0`), and is refused with one line naming the value, for that game only.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta
from typing import Any, Mapping

from forumbot.engine.signup_values import SignupSetup
from forumbot.errors import SetupError
from forumbot.model import GameSetup, PlayerSpec, Role, Schedule
from forumbot.options import option_problems
from forumbot.texts import TABLES

# the config's bound on a phase (config.MAX_PHASE_HOURS): longer overflows date arithmetic
MAX_PHASE_SECONDS = 24 * 365 * 3600


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
        "game_url": setup.game_url,
        "vote_url": setup.vote_url,
        **({"signup": _signup_to_json(setup.signup)} if isinstance(setup.signup, SignupSetup) else {}),
    }, ensure_ascii=False, sort_keys=True)


def _signup_to_json(s: SignupSetup) -> dict:
    """The sign-up (S-1), frozen with the rest at `game start`."""
    return {"variant": s.variant, "seats": s.seats, "opens": s.opens.isoformat(), "closes": s.closes.isoformat(),
            "close_when_full": s.close_when_full, "list_every_s": s.list_every.total_seconds(),
            "extend_s": s.extend.total_seconds(), "refused": list(s.refused), "gms": list(s.gms), "bot": s.bot,
            "start": s.start.isoformat() if s.start else None, "house": [list(h) for h in s.house],
            "rules_url": s.rules_url, "language": s.language, "markup": s.markup, "timezone": s.timezone,
            "offer_hours_s": s.offer_hours.total_seconds(), **({"thread": s.thread} if s.thread else {})}


def _signup_from_json(d: dict) -> SignupSetup:
    return SignupSetup(
        variant=d["variant"], seats=d["seats"], opens=datetime.fromisoformat(d["opens"]),
        closes=datetime.fromisoformat(d["closes"]), close_when_full=d["close_when_full"],
        list_every=timedelta(seconds=d["list_every_s"]), extend=timedelta(seconds=d["extend_s"]),
        refused=tuple(d["refused"]), gms=tuple(d["gms"]), bot=d["bot"],
        start=datetime.fromisoformat(d["start"]) if d["start"] else None,
        house=tuple((name, tuple(value) if isinstance(value, list) else value) for name, value in d["house"]),
        rules_url=d["rules_url"], language=d["language"], markup=d["markup"], timezone=d["timezone"],
        offer_hours=timedelta(seconds=d.get("offer_hours_s", 6 * 3600)),  # S-4; a setup stored before it: 6 h
        thread=d.get("thread", ""))  # S-1: the sign-up's own thread; stored before it or none: the game thread


def setup_from_json(text: str, *, game: str = "", check: bool = True) -> GameSetup:
    """The stored setup of `game` (named in errors). With `check`, a value the fold cannot run on is a
    SetupError naming it; without, only the decoding is checked (routing reads other games' players). The errors
    are in the game's own language, its GMs' (issue 28), Russian where even that cannot be read."""
    d: Any = None
    try:
        d = json.loads(text)
        t, where = _said(d, game)
        s = d["schedule"]
        lengths = {key: s[key] for key in ("day_s", "night_s", "runoff_s")}
        if check:
            _check_lengths(where, lengths, t)
        setup = GameSetup(
            variant=d["variant"], seed=d["seed"],
            schedule=Schedule(start=datetime.fromisoformat(s["start"]), day=timedelta(seconds=lengths["day_s"]),
                              night=timedelta(seconds=lengths["night_s"]),
                              runoff=timedelta(seconds=lengths["runoff_s"]), timezone=s["timezone"]),
            players=tuple(PlayerSpec(p["nick"], Role(p["role"]) if p["role"] else None) for p in d["players"]),
            bot=d["bot"], gms=tuple(d["gms"]), options=d["options"], language=d["language"],
            markup=d.get("markup", "bbcode"), game_url=d.get("game_url", ""), vote_url=d.get("vote_url", ""),
            signup=_signup_from_json(d["signup"]) if d.get("signup") is not None else None,
        )
    except SetupError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as e:
        t, where = _said(d, game)
        raise SetupError(t["setup.unreadable"].format(where=where, error=f"{type(e).__name__}: {e}")) from None
    if check:
        if not isinstance(setup.options, dict):
            raise SetupError(t["setup.options_table"].format(where=where, got=repr(setup.options)))
        problems = option_problems(setup.variant, setup.options, where="options", t=t)
        if problems:
            raise SetupError(t["setup.not_played"].format(where=where, problems="; ".join(problems)))
    return setup


def _said(d: Any, game: str) -> tuple[Mapping[str, str], str]:
    """The texts of the stored game's language (Russian, the default, where it cannot be read) and the words
    naming the setup in them."""
    language = d.get("language") if isinstance(d, dict) else None
    t = TABLES[language] if isinstance(language, str) and language in TABLES else TABLES["ru"]
    return t, t["setup.stored.game"].format(game=game) if game else t["setup.stored"]


def _check_lengths(where: str, lengths: dict, t: Mapping[str, str]) -> None:
    for key, value in lengths.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0 < value <= MAX_PHASE_SECONDS:
            raise SetupError(t["setup.length"].format(where=where, key=key, most=MAX_PHASE_SECONDS, got=repr(value)))
