"""A game's sign-up (S-1..S-3): its own small fold, before the game's, over the posts of the sign-up thread and
the GMs' PMs sent while it is open. It ends in a list of players, handed to the game's Setup as its `players`
(`game_setup`), so the game's fold, draw, commitment, undo and export stay what they are for a fixed list.

Why its own fold and not a phase of the Game (the design decision of issue 29 item 1): a Game is built from
its seats (the Table draws them, every state field is keyed by them), and a sign-up has none until it closes.
A fold of its own needs no seats, and its close is a resolution like a deadline: nothing before it is undone
(C-9) and everything after it is the game's. Its inputs are stored and replayed like the game's."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Sequence

from forumbot import parse
from forumbot.engine.signup_list import signup_command, standing
from forumbot.engine.signup_values import ReserveSetup, SignupDraft, SignupRun, SignupSetup, Standing
from forumbot.markup import escape_bbcode, escape_markdown
from forumbot.model import GameSetup, Input, Message, PlayerSpec, Where
from forumbot.texts import Texts, get_texts


def texts_for(setup: SignupSetup) -> Texts:
    escape = escape_markdown if setup.markup == "markdown" else escape_bbcode
    return get_texts(setup.language, escape, setup.timezone, setup.markup)


def run_signup(setup: SignupSetup, inputs: Sequence[Input], until: datetime) -> SignupRun:
    """The sign-up folded from its inputs (any order: taken by time, then as given) up to `until`. Pure."""
    ordered = sorted(enumerate(inputs), key=lambda pair: (pair[1].at, pair[0]))
    items = [inp if inp.id else replace(inp, id=f"i{n}") for n, inp in ordered]
    gms = frozenset(parse.account_key(g) for g in setup.gms)
    ignored = gms | {parse.account_key(setup.bot)}
    # S-1: the sign-up's own thread, when it has one; else the game's threads before the game starts
    threads = (Where.SIGNUP,) if setup.thread else (Where.GAME, Where.VOTE)
    posts = [i for i in items if i.where in threads and parse.account_key(i.author) not in ignored]
    # a GM's order CC'd to others is his order all the same (as in the game, engine/fold.py)
    orders = [i for i in items if i.where in (Where.PM, Where.SHARED) and parse.account_key(i.author) in gms]
    voided: dict[str, str] = {}  # GM command id -> the `отмена` that took it back
    answered: dict[str, Message] = {}  # what a command taken back was answered when it was given: that stays sent
    while True:  # an undo folds again without the command it undoes, as if it had never been given (C-9)
        d = SignupDraft(setup, texts_for(setup), setup.closes)
        d.messages.update(answered)
        if not _fold(d, posts, orders, until, voided):
            break
        answered = {k: m for k, m in d.messages.items() if k in {f"gm/{i}" for i in voided}}
    current = d.final or standing(setup, posts, _effective(orders, voided), until)
    messages = tuple(sorted(d.messages.values(), key=lambda m: m.at))  # stable: as said, within an instant
    return SignupRun(d.state, current.players, current.reserve, d.closes, d.ended_at, d.extended, messages,
                     tuple(d.log), tuple(d.commands))


def _effective(orders: Sequence[Input], voided: dict[str, str]) -> list[Input]:
    return [o for o in orders if o.id not in voided]


def _fold(d: SignupDraft, posts: list[Input], orders: list[Input], until: datetime, voided: dict[str, str]) -> bool:
    """One pass; True when an `отмена` took a command back (`voided` has it now): fold again."""
    s, t = d.setup, d.t
    if until < s.opens:
        return False
    d.state, d.shown = "open", Standing((), (), (), s.seats)
    _post(d, s.opens, t.signup.opening(s, d.closes), "signup/open")
    moments = sorted({p.at for p in posts if s.opens <= p.at} | {o.at for o in orders if s.opens <= o.at})
    for at in moments:
        if at > until:
            break
        _due(d, posts, orders, voided, at)
        if d.state != "open":
            return False
        for order in (o for o in orders if o.at == at and o.id not in voided):
            then = signup_command(d, order, posts, orders, voided)
            if then is not None and then[0] == "undo":
                return True
            if then is not None:
                _close(d, then[1], at)  # type: ignore[arg-type]
                return False
        now = standing(s, posts, _effective(orders, voided), at)
        if s.close_when_full and len(now.players) >= s.seats:
            _close(d, now, at)
            return False
        _maybe_list(d, now, at)
    _due(d, posts, orders, voided, until, inclusive=True)
    return False


def _due(d: SignupDraft, posts: list[Input], orders: list[Input], voided: dict[str, str], at: datetime,
         inclusive: bool = False) -> None:
    """What comes due before `at` (at it too when `inclusive`): a list post held back, the close."""
    s = d.setup
    while d.state == "open":
        pending = _list_due(d)
        close_now = d.closes <= at  # [opens, closes): a post stamped at the close is late (C-1)
        list_now = pending is not None and (pending < at or (inclusive and pending <= at))
        if list_now and (not close_now or pending < d.closes):  # type: ignore[operator]
            _maybe_list(d, standing(s, posts, _effective(orders, voided), pending), pending)  # type: ignore[arg-type]
            continue
        if not close_now:
            return
        now = standing(s, posts, _effective(orders, voided), d.closes, through=False)
        if len(now.players) >= s.seats:
            _close(d, now, d.closes)
        elif not d.extended:
            old, d.closes, d.extended = d.closes, d.closes + s.extend, True
            _post(d, old, d.t.signup.extended(now, s, d.closes), "signup/extended")
            for gm in s.gms:
                _pm(d, old, gm, d.t.signup.gm_extended(now, s, d.closes), f"signup/extended/{gm}")
        else:
            d.state, d.ended_at, d.final = "cancelled", d.closes, now
            _post(d, d.closes, d.t.signup.cancelled(now, s), "signup/cancelled")
            for gm in s.gms:
                _pm(d, d.closes, gm, d.t.signup.gm_cancelled(now, s), f"signup/cancelled/{gm}")


def _list_due(d: SignupDraft) -> datetime | None:
    """When a list post held back by `list_every` may go (S-2), if one is held back."""
    if d.listed_at is None or d.shown is None or not d.shown.held:  # the first change is listed at once
        return None
    return d.listed_at + d.setup.list_every


def _maybe_list(d: SignupDraft, now: Standing, at: datetime) -> None:
    """A list post after a change, at most once every `list_every` (S-2); a change within that is held."""
    last = d.shown
    if last is not None and last.same_list(now):
        d.shown = replace(last, held=False) if last.held and at >= _list_due(d) else last  # type: ignore[operator]
        return
    if d.listed_at is not None and at < d.listed_at + d.setup.list_every:
        d.shown = replace(last or now, held=True)
        return
    _post(d, at, d.t.signup.listing(now, d.setup, d.closes), f"signup/list/{at.isoformat()}")
    d.listed_at, d.shown = at, replace(now, held=False)


def _close(d: SignupDraft, now: Standing, at: datetime) -> None:
    d.state, d.ended_at, d.final = "closed", at, now
    _post(d, at, d.t.signup.closed(now, d.setup, day_one(d.setup, at)), "signup/closed")
    d.log.append(f"sign-up closed at {at.isoformat()} with {', '.join(now.players)}")


def _post(d: SignupDraft, at: datetime, text: str, key: str) -> None:
    d.messages[key] = Message(at=at, where=d.setup.where, to=None, text=text, key=key)


def _pm(d: SignupDraft, at: datetime, to: str, text: str, key: str) -> None:
    d.messages[key] = Message(at=at, where=Where.PM, to=to, text=text, key=key)


def day_one(setup: SignupSetup, closed: datetime) -> datetime:
    """When Day 1 opens after a close (S-3): `start` when it is still a day ahead of the close (the role PMs
    need that long to be confirmed, C-2), else a day after the close."""
    return _day_one(setup.start, closed)


def _day_one(start: datetime | None, closed: datetime) -> datetime:
    return start if start is not None and start >= closed + timedelta(hours=24) else closed + timedelta(hours=24)


def game_setup(base: GameSetup, run: SignupRun) -> GameSetup:
    """The game's Setup with exactly the signed-up players (S-3): Setup opens at the close, the roles drawn as
    for any fixed list, so the commitment covers the final list."""
    if run.state != "closed" or run.ended_at is None:
        raise ValueError(f"the sign-up is {run.state}, not closed")
    schedule = replace(base.schedule, setup_opens=run.ended_at, start=_day_one(base.schedule.start, run.ended_at))
    hours = base.signup.offer_hours if isinstance(base.signup, SignupSetup) else SignupSetup.offer_hours
    where = base.signup.where if isinstance(base.signup, SignupSetup) else Where.GAME
    reserve = ReserveSetup(run.reserve, hours, where)  # S-4: the reserve at the close goes on into the game
    return replace(base, players=tuple(PlayerSpec(nick) for nick in run.players), schedule=schedule, reserve=reserve)
