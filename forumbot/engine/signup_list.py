"""The sign-up's list at a moment (S-2) and the GMs' commands on it (S-3, C-9): who holds a place, who is in
the reserve, whose join was refused. The list is a function of the posts and effective commands up to that
moment, so an undo is a fold without the command (engine/signup.py) and a post deleted by then is never made."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from forumbot import parse
from forumbot.engine.signup_values import SignupDraft, SignupSetup, Standing
from forumbot.model import Input, Message, Where
from forumbot.parse.signup import (
    AddPlayer, CloseSignup, RemovePlayer, SignupStatus, SignupUndo, parse_signup_command, signup_word,
)

def _find(names: Sequence[str], nick: str) -> str | None:
    """A name in the list as a GM wrote it: the account itself (case aside), else by C-4's folding."""
    exact = [n for n in names if parse.account_key(n) == parse.account_key(nick)]
    if exact:
        return exact[0]
    folded = [n for n in names if parse.normalize(n) == parse.normalize(nick)]
    return folded[0] if len(folded) == 1 else None


def standing(setup: SignupSetup, posts: Sequence[Input], orders: Sequence[Input], at: datetime,
             through: bool = True) -> Standing:
    """The list from the events stamped before `at` (at it too when `through`): a post counts by its text as
    first read (edits ignored) unless it was deleted by `at`; the author is the account (C-3)."""
    refused_keys = {parse.account_key(r) for r in setup.refused}
    places: list[str] = []
    subs: list[str] = []
    refused: list[str] = []
    events = sorted([(p.at, 0, n, p) for n, p in enumerate(posts)] + [(o.at, 1, n, o) for n, o in enumerate(orders)],
                    key=lambda e: e[:3])
    for stamped, kind, _, inp in events:
        if stamped > at or (stamped == at and not through):
            break
        if stamped < setup.opens:  # before the sign-up opened: talk
            continue
        if kind == 0:
            if inp.deleted_at is not None and inp.deleted_at <= at:
                continue
            word = signup_word(inp.first_text if inp.first_text is not None else inp.text)
            who = inp.author.strip()
            if word is None:
                continue
            if parse.account_key(who) in refused_keys and word != "leave":
                if who not in refused:
                    refused.append(who)
                continue
        else:
            cmd = parse_signup_command(inp.text)
            if not isinstance(cmd, (AddPlayer, RemovePlayer)):
                continue
            word = "join" if isinstance(cmd, AddPlayer) else "leave"
            who = cmd.nick if isinstance(cmd, AddPlayer) else (_find(places + subs, cmd.nick) or cmd.nick)
        key = parse.account_key(who)
        places = [p for p in places if parse.account_key(p) != key] if word != "join" else places
        subs = [p for p in subs if parse.account_key(p) != key]
        if word == "join" and all(parse.account_key(p) != key for p in places):
            places.append(who)
        elif word == "reserve":
            subs.append(who)
    n = setup.seats
    return Standing(tuple(places[:n]), tuple(places[n:] + subs), tuple(refused), n)


def signup_command(d: SignupDraft, order: Input, posts: Sequence[Input], orders: Sequence[Input],
                   voided: dict[str, str]) -> tuple[str, object] | None:
    """A GM's PM during the sign-up, answered and audited (C-9). Returns what the fold does next: ("undo", the
    id of the command an `отмена` takes back: fold again without it) or ("close", the list: `закрыть набор`)."""
    t, s = d.t, d.setup
    effective = [o for o in orders if o.id not in voided]
    mine = effective.index(order)
    before = standing(s, posts, effective[:mine], order.at)
    cmd = parse_signup_command(order.text)
    key = f"gm/{order.id}"
    if isinstance(cmd, SignupStatus):
        _answer(d, order, t.signup.status(before, s, d.closes), key)
        return None
    if isinstance(cmd, SignupUndo):
        if order.id in voided.values():
            undone = next(o for o in orders if voided.get(o.id) == order.id)
            _answer(d, order, t.signup.undone(undone.text), key)
            return None
        earlier = [o for o in effective[:mine] if d.told.get(o.id) == "done"
                   and isinstance(parse_signup_command(o.text), (AddPlayer, RemovePlayer))]
        if not earlier:
            _answer(d, order, t.signup.refused("nothing_to_undo"), key)
            return None
        voided[earlier[-1].id] = order.id
        return ("undo", earlier[-1].id)
    if not isinstance(cmd, (AddPlayer, RemovePlayer, CloseSignup)):
        _answer(d, order, t.gm.command_rejected(cmd), key)
        return None
    refusal = _refusal(d, cmd, before)
    if refusal is not None:
        d.told[order.id] = "refused"
        _answer(d, order, t.signup.refused(refusal), key)
        return None
    d.told[order.id] = "done"
    if isinstance(cmd, RemovePlayer):
        cmd = RemovePlayer(_find(before.players + before.reserve, cmd.nick) or cmd.nick)  # as the list shows it
    after = standing(s, posts, effective[:mine + 1], order.at)
    d.commands.append((order.id, before.line(), after.line()))
    d.log.append(f"override by {order.author} at {order.at.isoformat()}: {' '.join(order.text.split())}; "
                 f"before: {before.line()}; after: {after.line()}")
    _answer(d, order, t.signup.done(cmd, after, s, d.closes), key)
    return ("close", after) if isinstance(cmd, CloseSignup) else None


def _answer(d: SignupDraft, order: Input, text: str, key: str) -> None:
    d.messages[key] = Message(at=order.at, where=Where.PM, to=order.author, text=text, key=key)


def _refusal(d: SignupDraft, cmd: AddPlayer | RemovePlayer | CloseSignup, now: Standing) -> str | None:
    names = now.players + now.reserve
    if isinstance(cmd, CloseSignup):
        return "signup_short" if len(now.players) < now.seats else None
    if isinstance(cmd, RemovePlayer):
        return None if _find(names, cmd.nick) is not None else "not_signed_up"
    key = parse.account_key(cmd.nick)
    if key in {parse.account_key(g) for g in d.setup.gms} or key == parse.account_key(d.setup.bot):
        return "new_taken"
    return "already_signed_up" if any(parse.account_key(n) == key for n in now.players) else None
