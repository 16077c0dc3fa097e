"""A seat changing hands (C-9 `замена`), and S-4's reserve: a GM's `замена НИК` without a new name offers the seat
by PM to the first of the reserve; `принимаю` within `signup.offer_hours` makes the replacement as `замена OLD NEW`
makes it, `нет` or silence passes the offer to the next. The reserve and the open offers are one value,
`Game.reserve` (signup_values.Reserve): an undo of the `замена НИК` folds again without it, the offer gone."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from forumbot import parse
from forumbot.engine.conference import join_conference
from forumbot.engine.phases import role_pm
from forumbot.engine.seats import seat_of
from forumbot.engine.signup_values import Offer, ReserveSetup
from forumbot.engine.speech import pm, pm_account, post, to_gms
from forumbot.engine.work import Work
from forumbot.model import Input, Replace, Where
from forumbot.parse.signup import offer_answer, signup_word


def replace_account(w: Work, cmd: Replace, at: datetime, cmd_id: str) -> str | None:
    """The seat `cmd.old` plays goes to the account `cmd.new`, with its role PM, announced (C-9)."""
    g = w.g
    new = parse.account_key(cmd.new)
    if seat_of(w, cmd.new) is not None or new in w.tb.gm_accounts or new == w.tb.bot:
        return "new_taken"
    sid = g.accounts.pop(cmd.old)
    old = g.seats[sid].nick
    g.seats[sid].nick = cmd.new
    g.accounts[cmd.new] = sid
    pm(w, at, sid, role_pm(w, sid, choose_don=False, replacing=old), f"gm/{cmd_id}/role")
    # the account that played the seat is told it is out of the game (issue 28): the post alone may pass it by
    pm_account(w, at, old, w.tb.t.guide.you_are_replaced(cmd.new), f"gm/{cmd_id}/unseated")
    if g.phase.kind == "setup" and g.seats[sid].is_mafia:  # M-15: he joins the conference
        join_conference(w, sid, at, f"gm/{cmd_id}/conference")
    post(w, at, Where.GAME, w.tb.t.gm.replaced(old, cmd.new), f"gm/{cmd_id}/post")
    return None


def reserve_order(w: Work) -> list[str]:
    """S-4: the sign-up's reserve, then who posted a reserve word in the game thread, in order, less who posted a
    leave word after (S-1's words: one who comes back is last); never a player of this game (alive, dead or
    replaced), a GM or the bot."""
    setup: ReserveSetup | None = w.tb.setup.reserve  # type: ignore[assignment]
    order = list(setup.names if setup else ())
    for word, name in w.g.reserve.moves:
        key = parse.account_key(name)
        order = [n for n in order if parse.account_key(n) != key] if word == "leave" else order
        if word == "reserve" and all(parse.account_key(n) != key for n in order):
            order.append(name)
    g = w.g
    taken = {parse.account_key(n) for n in (*g.seats, *g.accounts, *(s.nick for s in g.seats.values()))}
    taken |= set(w.tb.gm_accounts) | {w.tb.bot}
    kept: list[str] = []
    for name in order:
        if parse.account_key(name) not in taken:
            taken.add(parse.account_key(name))
            kept.append(name)
    return kept


def reserve_post(w: Work, inp: Input) -> bool:
    """S-4: a reserve word posted in the sign-up's thread (the game thread, or its own, S-1) by one who plays no
    seat puts him in the reserve; a leave word by one in the reserve takes him off it, and a seat offered to him
    passes to the next."""
    reserve: ReserveSetup | None = w.tb.setup.reserve  # type: ignore[assignment]
    if reserve is None or inp.where is not reserve.where or seat_of(w, inp.author) is not None:
        return False
    word = signup_word(inp.text)
    g, key = w.g, parse.account_key(inp.author)
    in_reserve = key in {parse.account_key(n) for n in reserve_order(w)}
    if word == "reserve":
        if not in_reserve:
            g.reserve = replace(g.reserve, moves=(*g.reserve.moves, ("reserve", inp.author)))
            w.log.append(f"{g.phase.label}: {inp.author} joined the reserve ({inp.id})")
        return True
    if word != "leave" or not in_reserve:
        return False
    g.reserve = replace(g.reserve, moves=(*g.reserve.moves, ("leave", inp.author)))
    w.log.append(f"{g.phase.label}: {inp.author} left the reserve ({inp.id})")
    if (offer := offer_to(w, inp.author)) is not None:
        _pass_on(w, offer, "left", inp.at)
    return True


def offer_seat(w: Work, old: str, at: datetime, cmd_id: str) -> str | None:
    """A GM's `замена НИК` (S-4): the seat offered to the first of the reserve, or why not (nothing changed)."""
    if w.tb.setup.reserve is None:
        return "no_reserve"
    sid = w.g.accounts[old]
    if any(o.seat == sid for o in w.g.reserve.offers):
        return "offer_open"
    base = Offer(sid, old, "", at, cmd_id)
    name = _next_name(w, base)
    if name is None:
        return "reserve_empty"
    _offer(w, base, name, at)
    return None


def _next_name(w: Work, base: Offer) -> str | None:
    """The first of the reserve this seat was not offered to yet, with no other seat offered to him now."""
    skip = {parse.account_key(n) for n in (*base.passed, *(o.to for o in w.g.reserve.offers))}
    return next((n for n in reserve_order(w) if parse.account_key(n) not in skip), None)


def _offer(w: Work, base: Offer, name: str, at: datetime) -> None:
    g, t = w.g, w.tb.t
    setup: ReserveSetup = w.tb.setup.reserve  # type: ignore[assignment]
    offer = replace(base, to=name, until=at + setup.offer_hours)
    g.reserve = replace(g.reserve, offers=(*g.reserve.offers, offer))
    nick, key = t.v.b(g.seats[offer.seat].nick), offer_key(offer).removesuffix("/offer")
    pm(w, at, name, t.v._("reserve.offer", nick=nick, until=t.v.time(offer.until)), offer_key(offer))
    to_gms(w, at, t.v._("reserve.offered", nick=nick, to=t.v.b(name), until=t.v.time(offer.until)), f"{key}/offered")


def offer_to(w: Work, account: str) -> Offer | None:
    key = parse.account_key(account)
    return next((o for o in w.g.reserve.offers if parse.account_key(o.to) == key), None)


def _close(w: Work, offer: Offer) -> None:
    w.g.reserve = replace(w.g.reserve, offers=tuple(o for o in w.g.reserve.offers if o is not offer))


def _pass_on(w: Work, offer: Offer, why: str, at: datetime) -> None:
    """`нет`, silence or an offer that could not be delivered: the offer goes to the next of the reserve."""
    t = w.tb.t
    _close(w, offer)
    nick, key = t.v.b(w.g.seats[offer.seat].nick), f"reserve/{offer.command}/{len(offer.passed)}"
    told = t.v._(f"reserve.passed.{why}", to=t.v.b(offer.to), nick=nick)
    base = replace(offer, passed=(*offer.passed, offer.to))
    name = _next_name(w, base)
    to_gms(w, at, told + " " + (t.v.T["reserve.next"] if name else t.v._("reserve.empty", nick=nick)), f"{key}/passed")
    if name is not None:
        _offer(w, base, name, at)


def answer_offer(w: Work, inp: Input, offer: Offer) -> None:
    """The reserve player's PM while a seat is offered to him: `принимаю`, `нет`, or anything else (asked again)."""
    g, t = w.g, w.tb.t
    nick, key = g.seats[offer.seat].nick, f"reserve/{inp.id}"
    said = offer_answer(inp.text)
    if said is None:
        pm(w, inp.at, inp.author, t.v._("reserve.how", nick=t.v.b(nick), until=t.v.time(offer.until)), key)
    elif said == "no":
        pm(w, inp.at, inp.author, t.v.T["reserve.declined"], key)
        _pass_on(w, offer, "no", inp.at)
    elif g.accounts.get(offer.old) != offer.seat:  # the GM replaced him by hand meanwhile
        _close(w, offer)
        pm(w, inp.at, inp.author, t.v._("reserve.gone", nick=t.v.b(nick)), key)
    else:
        _close(w, offer)
        replace_account(w, Replace(offer.old, inp.author), inp.at, f"{offer.command}/accepted")
        to_gms(w, inp.at, t.v._("reserve.accepted", to=t.v.b(inp.author), nick=t.v.b(nick)), f"{key}/accepted")


def offer_key(offer: Offer) -> str:
    """The outbox key of the offer's PM: `reserve/CMD/N/offer`, N the players passed over before its recipient."""
    return f"{OFFER_KEY_PREFIX}{offer.command}/{len(offer.passed)}{OFFER_KEY_SUFFIX}"


# The outbox keys of offers begin and end so (the store selects them with SQL LIKE 'reserve/%/offer').
OFFER_KEY_PREFIX, OFFER_KEY_SUFFIX = "reserve/", "/offer"


def is_offer_key(key: str) -> bool:
    """Whether the bot's PM under this outbox key is a reserve offer (S-4), the one PM whose refusal by the forum
    changes what the game sends (the offer passes on at once); the shell asks this rather than reading keys."""
    return key.startswith(OFFER_KEY_PREFIX) and key.endswith(OFFER_KEY_SUFFIX)


def undelivered(w: Work, inp: Input) -> None:
    """The forum refused for good to deliver the bot's PM `inp.text` (its message key) to `inp.author`: when it
    was an offer still open to him (S-4: a full inbox), the offer passes to the next of the reserve at once. The
    offer is known by its recipient and its round (the key's `reserve/CMD/N/offer`, N the players passed over
    before him), not by CMD, the GM's PM id, which a replay of the export numbers anew."""
    offer = offer_to(w, inp.author) if is_offer_key(inp.text) else None
    if offer is None or inp.text.removesuffix(OFFER_KEY_SUFFIX).rpartition("/")[2] != str(len(offer.passed)):
        w.log.append(f"{w.g.phase.label}: the forum did not deliver {inp.text} to {inp.author}; the GMs were told")
        return
    w.log.append(f"{w.g.phase.label}: the forum did not deliver the offer {inp.text} to {inp.author}: passed on")
    _pass_on(w, offer, "undelivered", inp.at)


def next_lapse(w: Work) -> datetime | None:
    return min((o.until for o in w.g.reserve.offers), default=None)


def lapse(w: Work, at: datetime) -> None:
    """Offers unanswered by their time (a `принимаю` stamped at it is late, C-1) pass to the next (S-4)."""
    for offer in [o for o in w.g.reserve.offers if o.until <= at]:
        nick = w.g.seats[offer.seat].nick
        pm(w, at, offer.to, w.tb.t.v._("reserve.lapsed", nick=w.tb.t.v.b(nick)),
           f"reserve/{offer.command}/{len(offer.passed)}/lapsed")
        _pass_on(w, offer, "silent", at)


def withdrawn(w: Work, offers: tuple[Offer, ...], at: datetime, key: str) -> None:
    """An undo took back the `замена НИК` of these offers (C-9): each one still open is withdrawn, its reserve
    player told."""
    still = {(o.seat, o.to) for o in w.g.reserve.offers}
    for offer in offers:
        if (offer.seat, offer.to) not in still:
            nick = w.tb.t.v.b(w.g.seats[offer.seat].nick)
            pm(w, at, offer.to, w.tb.t.v._("reserve.withdrawn", nick=nick), f"{key}/{offer.seat}")
