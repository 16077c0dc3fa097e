"""`forumbot replay`: a whole game from a transcript (DESIGN.md, "Replay"), through the memory forum adapter.

The transcript's posts and PMs are written into a MemoryForum, read back through the adapter interface as a
daemon would read them, folded by `game.run`, and the messages are delivered to the same forum.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Sequence
from zoneinfo import ZoneInfo

from forumbot.config.types import MAX_PHASE_HOURS
from forumbot.config.load import describe_bad_utf8, read_utf8
from forumbot.errors import SetupError, TranscriptError
from forumbot.engine.downtime import tick_spans
from forumbot.engine.results import GameRun
from forumbot.engine.signup_values import SignupSetup
from forumbot.game import as_played, drawn_string, run, stop_message
from forumbot.model import GameSetup, Input, PlayerSpec, ReadSpan, Role, Schedule, Where
from forumbot.names import name_problem
from forumbot.rules import get_variant
from forumbot.rules.house import configure, defaults
from forumbot.options import option_problems
from forumbot.texts import said_in
from forumbot.forum.registry import MemoryForum

TOPICS = {Where.GAME: "game", Where.VOTE: "vote", Where.SIGNUP: "signup"}


@dataclass(frozen=True)
class Transcript:
    setup: GameSetup
    events: tuple[Input, ...]
    until: datetime | None
    links: dict[str, str] = field(default_factory=dict)  # event id -> the forum's id (`game export` keeps it)
    game: str = ""  # the game's name, from `game export`
    pages: dict[str, Any] = field(default_factory=dict)  # how its pages were built, from `game export`
    stopped: "Stopped | None" = None  # ended by `forumbot game stop` (written by `game export`)
    unsent: frozenset[str] = frozenset()  # C-14: keys of interim counts and reminders never sent (`game export`)


@dataclass(frozen=True)
class Stopped:
    at: datetime
    reason: str


# where an event may be (docs/transcripts.md): the threads (the sign-up's own too, S-1), a PM to the bot alone,
# one to the bot and others (M-15, a CC), a PM of the bot's the forum refused to deliver (S-4)
_EVENT_WHERE = ("game", "vote", "signup", "pm", "shared", "undelivered")


def load(path: str | Path) -> Transcript:
    try:
        raw = json.loads(read_utf8(Path(path)))
    except OSError as e:
        raise TranscriptError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise TranscriptError(f"{path}: {describe_bad_utf8(e)}") from None
    except json.JSONDecodeError as e:
        raise TranscriptError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    return parse_transcript(raw)


def parse_transcript(raw: Any) -> Transcript:
    if not isinstance(raw, dict):
        raise TranscriptError("a transcript is a JSON object")
    f = _Fields(raw, "transcript")
    timezone = f.string("timezone", "Europe/Moscow")
    try:
        ZoneInfo(timezone)
    except (KeyError, ValueError):
        raise TranscriptError(f"transcript: unknown time zone {timezone!r}") from None
    schedule = Schedule(
        start=f.time("start"),
        day=timedelta(hours=f.hours("day_hours", 24)),
        night=timedelta(hours=f.hours("night_hours", 12)),
        runoff=timedelta(hours=f.hours("runoff_hours", 12)),
        timezone=timezone,
        setup_opens=f.time("setup_opens", optional=True),  # optional: when roles go out (`game start`, C-2)
        resolved=_resolved(f.get("resolved", {}, dict)),  # optional: when the bot resolved each phase (C-13)
        reads=_reads(f.get("reads", [], list)),  # optional: each tick's read of the threads (C-14)
    )
    options = dict(f.get("options", {}, dict))
    # early transcripts put the language among the options; it is the setup's own field. Read before the
    # players: a role it does not know is said in it (issue 28), in Russian then English where it is none known
    language = f.string("language", options.pop("language", "ru"))
    players = []
    for n, p in enumerate(f.get("players", [], list) if "signup" in raw else f.list("players"), 1):
        pf = _Fields(p, f"players[{n}]")
        role = pf.string("role", None)
        if role is not None and role not in Role.__members__.values():
            raise SetupError(said_in(language, "setup.unknown_role", role=role, nick=pf.string("nick"),
                                     known=", ".join(Role)))
        nick = pf.string("nick")
        if not nick.strip():
            raise TranscriptError(f"players[{n}]: empty nick")
        players.append(PlayerSpec(nick, Role(role) if role else None))
    variant = f.string("variant")
    problems = option_problems(variant, options)
    if problems:
        raise TranscriptError("transcript: " + "; ".join(problems))
    for name, value in options.items():
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str):
                _check_text(text, f"transcript: options.{name}")
    markup = f.string("markup", "bbcode")
    if markup not in ("bbcode", "markdown"):
        raise TranscriptError(f"transcript: markup must be bbcode or markdown, not {markup!r}")
    setup = GameSetup(
        variant=variant,
        seed=f.get("seed", 0, int),
        schedule=schedule,
        players=tuple(players),
        bot=f.string("bot", "forumbot"),
        gms=tuple(f.names("gms")),
        options=options,
        language=language,
        markup=markup,
        game_url=f.string("game_url", ""),
        vote_url=f.string("vote_url", ""),
    )
    events = []
    links: dict[str, str] = {}
    for n, e in enumerate(f.list("events"), 1):
        ef = _Fields(e, f"events[{n}]")
        where = ef.string("where")
        if where not in _EVENT_WHERE:
            raise TranscriptError(f"events[{n}]: where must be {', '.join(_EVENT_WHERE)}, not {where!r}")
        at, latest = ef.time("at"), ef.time("at_latest", optional=True)
        forum_id = ef.get("id", None, (str, int))
        if forum_id is not None:
            links[f"e{n}"] = str(forum_id)
        if latest is not None and latest < at:
            raise TranscriptError(f"events[{n}]: at_latest {ef.obj['at_latest']!r} is before at")
        events.append(Input(
            at=at, where=Where(where), author=ef.string("from"), text=ef.string("text"),
            edited_at=ef.time("edited_at", optional=True), id=f"e{n}", at_latest=latest,
            deleted_at=ef.time("deleted_at", optional=True),
            # optional, written by `game export`: the text first stored before an edit changed it (C-11), and the
            # accounts the forum said it lacks (recorded with a GM's `замена`)
            first_text=ef.string("first_text", None), missing_accounts=tuple(ef.names("missing_accounts")),
            read_at=ef.time("read_at", optional=True),  # when the bot first read it (C-13)
        ))
    pages = f.get("pages", {}, dict) or {}
    until = f.time("until", optional=True)
    stopped = None
    if raw.get("stopped") is not None:
        sf = _Fields(raw["stopped"], "stopped")
        stopped = Stopped(sf.time("at"), sf.string("reason", ""))
        if until is not None and until != stopped.at:
            raise TranscriptError(f"transcript: stopped.at {sf.obj['at']!r} is not `until` {f.obj['until']!r}: "
                                  "a stopped game is played up to its stop")
        until = stopped.at
    game = f.string("game", "")
    if "game" in raw and (problem := name_problem(game)) is not None:
        # it names the folder `replay --pages` writes: a transcript from anyone must stay inside the folder given
        raise TranscriptError(f"transcript: game: {problem}")
    unsent = frozenset(f.names("unsent"))  # optional, from `game export`: message keys never sent (C-14)
    if raw.get("signup") is not None:
        if players:
            raise TranscriptError("transcript: a game takes its players from `signup` or from `players`, not both")
        setup = replace(setup, signup=_signup(raw["signup"], setup))
    return Transcript(setup, tuple(events), until, links, game, pages, stopped, unsent)


def _signup(raw: Any, setup: GameSetup) -> SignupSetup:
    """A transcript's `signup` object (S-1..S-3; docs/transcripts.md): the sign-up run in the game thread, or in
    its own (`thread`, whose posts are the events `"where": "signup"`)."""
    f = _Fields(raw, "signup")
    seats = f.get("players", 10, int)
    list_every = f.get("list_every", 60, (int, float))
    extend = f.get("extend", 24, (int, float))
    offer_hours = f.get("offer_hours", 6, (int, float))
    if not 0 < list_every <= MAX_PHASE_HOURS * 60 or not 0 <= extend <= MAX_PHASE_HOURS or not 1 <= seats <= 100:
        raise TranscriptError("signup: players from 1 to 100, list_every more than 0 minutes, extend 0 hours or more")
    if not 0 < offer_hours <= MAX_PHASE_HOURS:
        raise TranscriptError("signup: offer_hours more than 0 hours (S-4)")
    house = configure(get_variant(setup.variant), setup.options).house.summary(defaults(setup.variant))
    return SignupSetup(
        variant=setup.variant, seats=seats, house=tuple(house), opens=f.time("opens"), closes=f.time("closes"),
        close_when_full=f.get("close_when_full", False, bool), list_every=timedelta(minutes=list_every),
        extend=timedelta(hours=extend), refused=tuple(f.names("refused")), gms=setup.gms, bot=setup.bot,
        start=setup.schedule.start, rules_url=f.string("rules", ""), language=setup.language, markup=setup.markup,
        timezone=setup.schedule.timezone, offer_hours=timedelta(hours=offer_hours), thread=f.string("thread", ""),
    )


def _resolved(raw: dict) -> tuple[tuple[str, datetime], ...]:
    f = _Fields(raw, "resolved")
    return tuple(sorted(((str(phase), f.time(phase)) for phase in raw), key=lambda r: r[1]))


def _reads(raw: list) -> tuple[ReadSpan, ...]:
    """C-14: `reads`, a list of spans {"first": time, "last": time, "ok": true|false}, each a run of ticks with
    one outcome (`game export`); an item {"at": time, "ok": …} is one tick's read, as exports wrote them before
    the spans, and still reads as it did."""
    spans, ticks = [], []
    for n, item in enumerate(raw, 1):
        f = _Fields(item, f"reads[{n}]")
        if "at" in item:
            ticks.append((f.time("at"), f.get("ok", _REQUIRED, bool)))
            continue
        first, last = f.time("first"), f.time("last")
        if last < first:
            raise TranscriptError(f"reads[{n}]: 'last' is before 'first'")
        spans.append(ReadSpan(first, last, f.get("ok", _REQUIRED, bool)))
    return tuple(sorted([*spans, *tick_spans(ticks)], key=lambda span: (span.first, span.last)))


_REQUIRED = object()  # a field's default meaning "the transcript must have it"


class _Fields:
    """Reads one JSON object's fields, failing with the field's path and what was wrong."""

    def __init__(self, obj: Any, where: str) -> None:
        if not isinstance(obj, dict):
            raise TranscriptError(f"{where}: expected an object")
        self.obj, self.where = obj, where

    def get(self, name: str, default: Any, kind: type | tuple[type, ...]) -> Any:
        if name not in self.obj or self.obj[name] is None:
            if default is _REQUIRED:
                raise TranscriptError(f"{self.where}: missing field {name!r}")
            return default
        value = self.obj[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kind) or (bool not in kinds and isinstance(value, bool)):
            wanted = "a number" if float in kinds else " or ".join(k.__name__ for k in kinds)
            raise TranscriptError(f"{self.where}: field {name!r} must be {wanted}, got {type(value).__name__}")
        if isinstance(value, str):
            _check_text(value, f"{self.where}: field {name!r}")
        return value

    def names(self, name: str) -> list[str]:
        """A list of non-empty account names (empty when absent)."""
        value = self.get(name, [], list)
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                raise TranscriptError(f"{self.where}: {name}[{i}] must be a non-empty name, got {item!r}")
            _check_text(item, f"{self.where}: {name}[{i}]")
        return value

    def string(self, name: str, default: Any = _REQUIRED) -> Any:
        return self.get(name, default, str)

    def list(self, name: str) -> list:
        return self.get(name, _REQUIRED, list)

    def hours(self, name: str, default: float) -> float:
        value = self.get(name, default, (int, float))
        if not math.isfinite(value) or not 0 < value <= MAX_PHASE_HOURS:
            raise TranscriptError(f"{self.where}: {name} must be more than 0 and at most {MAX_PHASE_HOURS} hours, "
                                  f"got {value!r}")
        return float(value)

    def time(self, name: str, optional: bool = False) -> Any:
        text = self.get(name, None if optional else _REQUIRED, str)
        if text is None:
            return None
        try:
            at = datetime.fromisoformat(text)
        except ValueError:
            raise TranscriptError(f"{self.where}: {name} {text!r} is not an ISO 8601 time") from None
        if at.tzinfo is None:
            raise TranscriptError(f"{self.where}: {name} {text!r} has no UTC offset")
        if not 2000 <= at.year <= 2999:
            raise TranscriptError(f"{self.where}: {name} {text!r}: the year must be from 2000 to 2999")
        return at


def _check_text(value: str, what: str) -> None:
    # JSON can spell half of a UTF-16 pair ("\ud800"); no forum can show it, and UTF-8 cannot store it
    bad = next((c for c in value if "\ud800" <= c <= "\udfff"), None)
    if bad is not None:
        raise TranscriptError(f"{what} holds a lone surrogate U+{ord(bad):04X}, not a character")




def replay(transcript: Transcript) -> tuple[GameRun, MemoryForum]:
    """Run the transcript through the memory forum; returns the fold's result and the forum as it ends."""
    setup = transcript.setup
    forum = MemoryForum(bot=setup.bot)
    # an undelivered PM (S-4) is no item of the forum: the store knew it from the outbox; the others go through it
    through = [e for e in transcript.events if e.where is not Where.UNDELIVERED]
    for e in through:
        if e.where in (Where.PM, Where.SHARED):
            forum.add_pm(e.author, e.text, e.at, latest=e.at_latest, shared=e.where is Where.SHARED)
        else:
            forum.add_post(TOPICS[e.where], e.author, e.text, e.at, e.edited_at, latest=e.at_latest)
    # A deletion is known from the transcript, as the daemon knows it from its store (C-11): the post is read
    # back, then marked.
    # So are the other facts a forum page does not show: the text first seen, the accounts found missing.
    known = {e.id: e for e in transcript.events}
    inputs = [replace(i, deleted_at=known[i.id].deleted_at, first_text=known[i.id].first_text,
                      missing_accounts=known[i.id].missing_accounts, read_at=known[i.id].read_at)
              if i.id in known else i
              for i in _as_events(_read_back(forum), through, transcript.events)]
    result = run(setup, inputs, transcript.until)
    if transcript.unsent:  # C-14: the daemon reached them only after their phase was resolved
        result = replace(result, messages=tuple(m for m in result.messages if m.key not in transcript.unsent))
    if transcript.stopped is not None:
        result = _stopped(as_played(setup, inputs, transcript.stopped.at), result, transcript.stopped)
    if transcript.pages.get("url"):
        # the posts as the game's ticks sent them: linked to its pages (issue 20 item 4)
        # imported here: only a transcript with pages loads pages/ (and its store and HTTP modules); replay stays pure
        from forumbot.pages.commands import transcript_pages
        from forumbot.pages.publish import decorate

        pages = transcript_pages(transcript, result, transcript.game or "game")
        if pages.setup.signup is None:  # a sign-up's posts link no page (S-2)
            result = replace(result, messages=decorate(pages, result.messages, setup.markup == "markdown", True))
    clock_at = [setup.schedule.start]
    forum.clock = lambda: clock_at[0]
    for msg in result.messages:
        clock_at[0] = msg.at
        text = msg.text
        if msg.where is Where.PM:
            forum.send_pm(msg.to or "", "forumbot", text)
        else:
            forum.reply(TOPICS[msg.where], text)
    return result, forum


def _stopped(setup: GameSetup, result: GameRun, stop: Stopped) -> GameRun:
    """The game as `game stop` ended it: the fold up to the stop, then the closing post the daemon posted."""
    players = [(p.nick, p.role, p.alive) for p in result.result.players]
    closing = stop_message(setup, players, stop.at, stop.reason, drawn_string(setup) if setup.players else "")
    return replace(result, messages=(*result.messages, closing), phase="stopped", next_deadline=None,
                   log=(*result.log, f"stopped by `forumbot game stop` at {stop.at.isoformat()}"
                        + (f": {stop.reason}" if stop.reason else "")))


def _as_events(read: list[Input], through: list[Input], events: Sequence[Input]) -> list[Input]:
    """The inputs read back, with the transcript's ids (the forum's N-th item is the N-th event it was given), and
    the undelivered PMs the forum never held, in the transcript's order."""
    if len(through) == len(events):
        return read
    named = [replace(i, id=e.id) for i, e in zip(read, through)]
    return sorted(named + [e for e in events if e.where is Where.UNDELIVERED], key=lambda i: int(i.id[1:]))


def _read_back(forum: MemoryForum) -> list[Input]:
    """Read the inputs through the adapter interface, as the daemon reads a forum.

    The memory forum numbers items in the order they were written, which is the transcript's order, so forum
    id N is event eN: message keys stay those of the transcript.
    """
    inputs: list[Input] = []
    for where, topic in TOPICS.items():
        posts, _ = forum.fetch_posts(topic)
        inputs += [Input(p.posted_at, where, p.author, p.text, p.edited_at, f"e{p.id}", at_latest=p.posted_latest)
                   for p in posts]
    pms, _ = forum.fetch_pms()
    inputs += [Input(p.sent_at, Where.SHARED if p.shared else Where.PM, p.author, p.text, None, f"e{p.id}",
                     at_latest=p.sent_latest) for p in pms]
    inputs.sort(key=lambda i: int(i.id[1:]))
    return inputs


def to_json(result: GameRun) -> dict:
    stopped = result.phase == "stopped"
    return {
        "messages": [
            {"at": m.at.isoformat(), "where": str(m.where), "to": m.to, "text": m.text} for m in result.messages
        ],
        "result": {
            "winner": result.result.winner,
            "ended_at": result.result.ended_at.isoformat() if result.result.ended_at else None,
            "players": [
                {
                    "nick": p.nick, "role": str(p.role), "alive": p.alive,
                    "died": {"phase": p.died.phase, "cause": p.died.cause} if p.died else None,
                }
                for p in result.result.players
            ],
        },
        "log": list(result.log),
        **({"stopped": {"at": result.messages[-1].at.isoformat()}} if stopped else {}),
    }


def to_text(result: GameRun, timezone: str) -> str:
    zone = ZoneInfo(timezone)
    out = []
    for m in result.messages:
        where = f"PM → {m.to}" if m.where is Where.PM else \
            {"game": "game thread", "vote": "vote thread", "signup": "sign-up thread"}[m.where]
        out.append(f"── {m.at.astimezone(zone):%d.%m %H:%M} · {where}\n{m.text}\n")
    r = result.result
    if result.phase == "stopped":
        at = result.messages[-1].at.astimezone(zone)
        out.append(f"== stopped by the game master ({at:%d.%m %H:%M}): no winner")
    else:
        out.append(f"== winner: {r.winner or 'none yet (game still running)'}")
    return "\n".join(out)
