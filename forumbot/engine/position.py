"""A game position in one line, like a chess FEN (issue 19 item 5, issue 27 item 4): a clause is tested as one
step on a prepared position instead of a replay from Setup.

    p = Position.parse("moscow night 3 | Шериф=sheriff Дон=don Маф1=mafia Маф2=mafia М1 М2 ~М3 | misfires 2")
    p.advance()                    # to the open phase's deadline: one resolution
    assert p.game.winner == "town"

Sections are separated by " | ":
- first: the variant and the open phase (`moscow day 2`, `free_hunt night 1`, `moscow runoff 1`);
- second: the seats in order, `NICK=ROLE` (civilian when no role is given), `~NICK` for a seat already out;
  in this and every section of words (not `pms`) a `_` stands for a space (`Кот_Баюн`);
- then any of: `votes A>B C>D` (vote-thread posts of the open day or runoff, in order, as the players wrote
  them), `pms A:убить М1, Шериф:проверка Дон` (PMs of the open phase, comma-separated), `misfires N` (M-6's
  streak), `agitations NICK=N ...` (H-4's count this game), `leaders A,B` (a runoff's), `maniac_last NICK`
  (H-8), `options k=v ...` (house rules, values as JSON: `final_word="окончательно"`).

The position is a `Table` and a `Game`, the Game built by the engine's own functions: Setup opened (`opened`),
the seats confirmed (and those listed out, dead), the phase opened at its place in the plain schedule
(`PLAIN_START`, one `PLAIN_DAY` and one `PLAIN_NIGHT` a round); the listed posts and PMs are then `step`s
through the engine's own parsers, so what is tested is the rule, not a stub.

`line()` writes a position back, `Position.of(table, game)` takes any Game (one a fold reached). The line holds
what the open phase's count and resolution read, not how the game got there (earlier days, how each seat
died, the times): `line()` refuses, with the reason, a Game whose open phase reads more than it can write
(`PositionError`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from forumbot.engine.day import runoff_rules
from forumbot.engine.fold import opened
from forumbot.engine.phases import open_phase
from forumbot.engine.state import TEAM_SHOT, Game, freeze, thaw
from forumbot.engine.step import advance, step
from forumbot.engine.table import Table, make_table
from forumbot.engine.work import Work
from forumbot.model import GameSetup, Input, Message, MoveKind, PlayerSpec, Role, Schedule, Special, Vote, Where
from forumbot.parse.moves import MOVE_WORDS, HUNT_STATUS_WORDS
from forumbot.parse.votes import NO_LYNCH_WORDS
from forumbot.rules.ballots import VotePost

PLAIN_START = datetime(2026, 12, 1, 10, 0, tzinfo=timezone(timedelta(hours=3)))
PLAIN_DAY, PLAIN_NIGHT, PLAIN_RUNOFF = timedelta(hours=24), timedelta(hours=12), timedelta(hours=12)
PHASES = ("day", "night", "runoff")
SECTIONS = ("votes", "pms", "misfires", "agitations", "leaders", "maniac_last", "options")  # in line()'s order
_WORD = re.compile(r"[^\s|>,:=~/]+")  # a nickname or a vote word the line can hold
_MOVE_WORDS = {kind: MOVE_WORDS[kind][0] for kind in (MoveKind.CHECK, MoveKind.SHOT, MoveKind.HEAL, MoveKind.HUNT)}
_GUESS_WORDS = {role: word for word, role in reversed(list(HUNT_STATUS_WORDS.items()))}  # the first word of each


class PositionError(ValueError):
    """A line that is no position, or a Game the line cannot write (the message says which part)."""


@dataclass
class Position:
    table: Table
    game: Game
    opens: datetime  # when the open phase opened: `input` times from here
    inputs_made: int = field(default=0)

    @classmethod
    def parse(cls, line: str) -> "Position":
        head, seats, *rest = [part.strip() for part in line.split(" | ")] + [""]
        variant, kind, n = _head(head)
        sections = {part.split(" ", 1)[0]: (part.split(" ", 1) + [""])[1] for part in rest if part}
        if unknown := sorted(set(sections) - set(SECTIONS)):
            raise PositionError(f"unknown section {unknown[0]!r}; the sections are {', '.join(SECTIONS)}")
        cast, out = _seats(seats)
        try:
            options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in sections.get("options", "").split())}
        except ValueError as e:
            raise PositionError(f"options: each is key=JSON ({e})") from None
        setup = GameSetup(variant=variant, seed=1, players=tuple(cast), bot="Бот", gms=("ГМ",), options=options,
                          schedule=Schedule(PLAIN_START, PLAIN_DAY, PLAIN_NIGHT, PLAIN_RUNOFF, "Europe/Moscow"))
        table = make_table(setup)
        if kind == "runoff" and not table.variant.has_runoff:
            raise PositionError(f"{variant} has no runoff")
        game, _ = opened(table, PLAIN_START)
        w = Work(table, thaw(game))
        g = w.g
        for seat in g.seats.values():
            seat.confirmed = True
            seat.alive = seat.nick not in out
        opens = PLAIN_START + (n - 1) * (PLAIN_DAY + PLAIN_NIGHT) + (PLAIN_DAY if kind != "day" else timedelta())
        g.clock = opens
        open_phase(w, kind, n, opens)
        g.misfires = int(sections.get("misfires") or 0)
        for pair in sections.get("agitations", "").split():
            nick, _, count = pair.partition("=")
            g.agitations[_spaced(nick)] = int(count)
        if sections.get("leaders"):
            g.leaders = tuple(_spaced(sid) for sid in sections["leaders"].split(","))
            g.hang_all = runoff_rules(w).runoff_is_hang_all(len([s for s in g.seats.values() if s.alive]))
        g.maniac_last = _spaced(sections.get("maniac_last", "")) or None
        p = cls(table, freeze(g), opens)
        for vote in sections.get("votes", "").split():
            voter, _, target = vote.partition(">")
            p.step(p.input(Where.VOTE, _spaced(voter), _spaced(target)))
        for pm in filter(None, (x.strip() for x in sections.get("pms", "").split(","))):
            author, _, text = pm.partition(":")
            p.step(p.input(Where.PM, author, text))
        return p

    @classmethod
    def of(cls, table: Table, game: Game) -> "Position":
        """The position of a Game a fold reached (its `line()` refuses what the line cannot write)."""
        return cls(table, game, game.phase.opens)

    def line(self) -> str:
        """The position as one line: `Position.parse(p.line())` has the same count, moves and seats."""
        g, setup = self.game, self.table.setup
        _writable(g)
        seats = " ".join(("~" if not s.alive else "") + _word(sid) + ("" if s.role is Role.CIVILIAN else f"={s.role}")
                         for sid, s in g.seats.items())
        sections = {
            "votes": " ".join(_vote(post) for post in {"day": g.posts, "runoff": g.runoff_posts}.get(g.phase.kind, ())),
            "pms": ", ".join(_moves(g)),
            "misfires": str(g.misfires) if g.misfires else "",
            "agitations": " ".join(f"{_word(sid)}={n}" for sid, n in g.agitations.items() if n),
            "leaders": ",".join(_word(sid) for sid in g.leaders) if g.phase.kind == "runoff" else "",
            "maniac_last": _word(g.maniac_last) if g.maniac_last else "",
            "options": " ".join(f"{k}={_option(k, v)}" for k, v in setup.options.items()),
        }
        head = f"{setup.variant} {g.phase.kind} {g.phase.number}"
        return " | ".join([head, seats] + [f"{name} {text}" for name, text in sections.items() if text])

    def input(self, where: Where, author: str, text: str, minutes: int | None = None) -> Input:
        """An input one minute after the previous one (or `minutes` after the phase opened)."""
        self.inputs_made += 1
        at = self.opens + timedelta(minutes=self.inputs_made if minutes is None else minutes)
        return Input(at, where, author, text, id=f"p{self.inputs_made}")

    def step(self, inp: Input) -> list[Message]:
        """`forumbot.engine.step` on the position's Game: the new Game kept, the messages sent returned."""
        self.game, sent, _ = step(self.table, self.game, inp)
        return list(sent)

    def advance(self) -> list[Message]:
        """Resolve the open phase at its deadline."""
        self.game, sent, _ = advance(self.table, self.game, self.game.phase.deadline)
        return list(sent)


def _head(head: str) -> tuple[str, str, int]:
    words = head.split()
    if len(words) != 3 or words[1] not in PHASES or not words[2].isdigit() or int(words[2]) < 1:
        raise PositionError(f"the first section is `VARIANT day|night|runoff N`, not {head!r}")
    return words[0], words[1], int(words[2])


def _seats(seats: str) -> tuple[list[PlayerSpec], set[str]]:
    cast, out = [], set()
    for word in seats.split():
        nick, _, role = word.lstrip("~").partition("=")
        nick = _spaced(nick)
        try:
            cast.append(PlayerSpec(nick, Role(role) if role else Role.CIVILIAN))
        except ValueError:
            raise PositionError(f"seat {word!r}: no role {role!r}") from None
        if word.startswith("~"):
            out.add(nick)
    return cast, out


def _writable(g: Game) -> None:
    """What the open phase reads that the line has no words for."""
    cannot = [why for why, present in (
        (f"the phase is {g.phase.kind}", g.phase.kind not in PHASES), ("the game is paused", g.paused_at),
        ("an account replaced a seat", any(a != sid for a, sid in g.accounts.items())), ("aliases", g.aliases),
        ("a day modkill (M-11)", g.day_modkill), ("seats doomed (H-4)", g.doomed),
        ("the Don's nomination (M-1)", g.don_nomination), ("H-14's quiet day", g.quiet_day),
        ("unconfirmed seats", any(not s.confirmed for s in g.seats.values())),
        ("a runoff part of the day's vote (M-10)", g.phase.kind == "runoff" and any(
            isinstance(p.parsed, Vote) and p.parsed.runoff is not None for p in g.posts)),
        ("night moves by day", g.phase.kind != "night" and (g.moves.by_player or g.moves.hunts)),
    ) if present]
    if cannot:
        raise PositionError(f"the line cannot write {', '.join(cannot)}")


def _word(nick: str) -> str:
    """A name in a section of words: a space in it written as `_` (so a name with its own `_` cannot be)."""
    if "_" in nick or not _WORD.fullmatch(nick.replace(" ", "_")):
        raise PositionError(f"the line cannot write the name {nick!r}")
    return nick.replace(" ", "_")


def _spaced(word: str) -> str:
    return word.replace("_", " ")


def _pm_name(nick: str) -> str:
    """A name in a PM (`pms`, written as the player would): anything but the section's separators."""
    if re.search(r"[,:|]", nick):
        raise PositionError(f"the line cannot write the name {nick!r} in a PM")
    return nick


def _vote(post: VotePost) -> str:
    """A vote post as `VOTER>WORD`: the words the player wrote when they are one word, else the vote's target."""
    voter, parsed, text = post.voter, post.parsed, post.text
    flags = [name for name in ("by_gm", "voided", "edited", "deleted", "final") if getattr(post, name)]
    if flags or post.deleted_at is not None or not isinstance(parsed, Vote):
        raise PositionError(f"the line cannot write {voter}'s post {text!r} ({', '.join(flags) or 'no vote'})")
    written = text.strip().replace(" ", "_")
    if "_" not in text and re.fullmatch(rf"{_WORD.pattern}(/{_WORD.pattern})?", written):
        return f"{_word(voter)}>{written}"
    words = [_target(t) for t in (parsed.target, parsed.runoff) if t is not None]
    return f"{_word(voter)}>{'/'.join(words)}"


def _target(target: str | Special) -> str:
    if target is Special.NO_LYNCH:
        return NO_LYNCH_WORDS[0]
    if isinstance(target, Special):
        raise PositionError(f"the line cannot write the vote {target} as one word")
    return _word(target)


def _moves(g: Game) -> list[str]:
    """The night moves in force as PMs (C-5), in the order they were first made."""
    pms = []
    for (sid, kind), move in g.moves.by_player.items():
        if kind not in _MOVE_WORDS or move.target is None:
            raise PositionError(f"the line cannot write {sid}'s {kind} move")
        author = move.executor if sid == TEAM_SHOT and move.executor else sid
        pms.append(f"{_pm_name(author)}:{_MOVE_WORDS[kind]} {_pm_name(move.target)}")
    for hunter, move in g.moves.hunts.items():
        guess = f" {_GUESS_WORDS[move.guess]}" if move.guess is not None else ""
        pms.append(f"{_pm_name(hunter)}:{_MOVE_WORDS[MoveKind.HUNT]} {_pm_name(move.target or '')}{guess}")
    return pms


def _option(key: str, value: object) -> str:
    written = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if re.search(r"\s|\|", written):
        raise PositionError(f"the line cannot write the option {key}={written}")
    return written

