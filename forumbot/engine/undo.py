"""C-9's undo by refold: from the Game saved before the last override, the inputs handled since are folded again
without it, a plain fold on a Work of its own (`refold`: its messages are its own, nothing marks it as a refold);
then each GM command's verdict on the refold is compared with what it was told, and only what turned out
otherwise is told, with what the command now sends (C-9 amended). An undo met while folding again (a second
undo walking back two) is an undo like any other: it undoes anew what it finds. Its refusals are checks on values: the saved Game's
deadline, the resolutions since, and the refolded Game's deadline.

Nothing is undone past a resolution, so each one settles the stack (state.py's `settled`): of what it held only
the last override's kind and resolutions stay, for the reason a later undo is refused."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice
from types import MappingProxyType
from typing import Callable, Sequence

from forumbot.engine.conference import conference_moved
from forumbot.engine.majority import check_majority
from forumbot.engine.counts import edited
from forumbot.engine.seats import nick
from forumbot.engine.speech import emit, pm, post, to_gms
from forumbot.engine.state import Game, Override, State, freeze, revised, thaw
from forumbot.engine.status import state_line, status_text
from forumbot.engine.timeline import recount_until
from forumbot.engine.replacement import withdrawn
from forumbot.engine.work import Work
from forumbot.model import Input, Message, Where


KEPT = ("inputs", "edits", "voids", "told", "overrides", "rewrites")  # what the draft keeps whatever is undone


def saved(w: Work) -> Game:
    """The Game before an override, for its undo. What the draft keeps whatever is undone (KEPT: the inputs an
    undo folds again, the undo stack itself, ...) is left out."""
    kept = {name: getattr(w.g, name) for name in KEPT}
    for name in KEPT:
        setattr(w.g, name, type(kept[name])())
    try:
        return freeze(w.g)
    finally:
        for name, value in kept.items():
            setattr(w.g, name, value)


def restored(before: Game, now: State) -> State:
    """The draft back as it was before a refused command: `before`, with what the draft keeps (KEPT)."""
    draft = thaw(before)
    for name in KEPT:
        setattr(draft, name, getattr(now, name))
    return draft


def override(before: Game, rewrites: int, index: int, resolutions: int, name: str, said: str) -> Override:
    """The undo stack's entry of a command: the Game before it without the vote posts and aliases, which the
    draft's own give back (their first ones, and its `rewrites` from the `rewrites`-th on undone: `_from`). An
    `end-phase` is never undone (C-9): only its kind is kept, and (as for every command) its words, `said`."""
    if name == "EndPhase":
        return Override(None, index, resolutions, name, said=said)
    return Override(revised(before, posts=(), runoff_posts=(), aliases=MappingProxyType({})), index, resolutions,
                    name, len(before.posts), len(before.runoff_posts), len(before.aliases), rewrites, said)


def answer(w: Work, inp: Input, text: str) -> None:
    """The reply to a GM command; its first line is how the command turned out, which an undo may change."""
    pm(w, inp.at, inp.author, text, f"gm/{inp.id}")
    w.g.told[inp.id] = text.split("\n", 1)[0]


def undo(w: Work, inp: Input, gm: str, handle: Callable[[Work, Input], None]) -> None:
    """C-9: the last override reversed as if never given; everything since is handled again."""
    t = w.tb.t
    if not w.g.overrides:
        answer(w, inp, t.gm.command_refused("nothing_to_undo"))
        return
    last = w.g.overrides[-1]
    before = last.before
    # Refused, too, when the deadline it would restore has passed (an extend or pause undone too late):
    # the phase would close back in time, after inputs that came while it was still open.
    lapsed = before is not None and before.paused_at is None and before.phase.kind != "ended" \
        and before.phase.deadline <= inp.at
    why = (
        "undo_end_phase" if last.name == "EndPhase"
        else "undo_after_deadline" if last.resolutions != w.g.resolutions or before is None
        else "undo_deadline_passed" if lapsed
        else None
    )
    if why:
        answer(w, inp, t.gm.undo_refused(why, last.said))
        return
    assert before is not None  # else `why` refused it
    kept = freeze(w.g)
    offers = w.g.reserve.offers  # S-4: those the undone `замена НИК` made are withdrawn
    g = w.g
    g.overrides.pop()
    current = w.current_index()  # this undo's own input: the draft's last
    # The undone command is never given again, not even by an earlier undo handled again below, whose own
    # refold reaches back past it; the undos in between find anew what they undo.
    for k in range(last.index + 1, current):
        g.voids.pop(g.inputs[k].id, None)
    g.voids[g.inputs[current].id] = g.inputs[last.index].id
    state_before = state_line(g)
    out_before = {sid for sid, seat in g.seats.items() if not seat.alive}
    nicks_before = {sid: seat.nick for sid, seat in g.seats.items()}
    clock_before = (g.phase.label, g.phase.deadline, g.paused_at is not None)
    told = dict(g.told)  # what each GM command was told before the refold answers it again
    r, said = refold(w, _from(before, last, g), g.inputs[last.index + 1:current + 1], handle)
    ph = r.g.phase
    if r.g.paused_at is None and ph.kind != "ended" and ph.deadline <= inp.at:
        # Refolded, a later pause or extend no longer holds and the phase's deadline is behind us.
        w.g = thaw(kept)
        answer(w, inp, t.gm.undo_refused("undo_deadline_passed", last.said))
        return
    w.g = g = r.g
    w.log += r.log
    w.log.append(
        f"override by {gm} at {inp.at.isoformat()}: undo {last.name}; before: {state_before}; after: {state_line(g)}"
    )
    back_ids = [sid for sid, seat in g.seats.items() if seat.alive and sid in out_before]
    back = [nick(w, sid) for sid in back_ids]
    # M-11: an undone modkill gives the day back its vote, and the notice says so (issue 17 item 10)
    vote_again = bool(back) and ph.kind in ("day", "runoff") and w.tb.variant.modkill_cancels_vote \
        and not g.day_modkill
    # an undone `замена` gives a seat back to the account that held it: the post names both (issue 28 item 8)
    reseated = [(seat.nick, nicks_before[sid]) for sid, seat in g.seats.items()
                if sid in nicks_before and seat.nick != nicks_before[sid]]
    # the phase's deadline is news only where the undo moved it (an extend, a pause, a resume undone)
    moved = (ph.label, ph.deadline, g.paused_at is not None) != clock_before
    post(w, inp.at, Where.GAME, t.gm.undone(last.name, ph.label, ph.deadline, g.paused_at is not None, back, vote_again,
                                         reseated, moved), f"undo/{inp.id}")
    if moved:  # M-15: an undone extend in Setup moves when the conference closes back
        conference_moved(w, inp.at, f"undo/{inp.id}/conference")
    for sid in back_ids:
        pm(w, inp.at, sid, t.guide.modkill_undone(), f"back/{inp.id}/{sid}")
    for sid, seat in g.seats.items():  # the account the undone `замена` seated had its role PM: it is out again
        if sid in nicks_before and seat.nick != nicks_before[sid]:
            pm(w, inp.at, nicks_before[sid], t.guide.replacement_undone(seat.nick), f"unseated/{inp.id}/{sid}")
    withdrawn(w, offers, inp.at, f"undo/{inp.id}/withdrawn")
    answer(w, inp, t.gm.undo_done(last.name) + "\n" + status_text(w))
    tell_rederived(w, inp, told, said)


def refold(w: Work, draft: State, since: Sequence[Input], handle: Callable[[Work, Input], None]
           ) -> tuple[Work, dict[str, list[Message]]]:
    """The fold of the inputs `since` the undone override, up to the undo (their last), on `draft` (the Game saved
    before it, `_from`): a Work of its own, whose messages are its own. Returns it, with what handling each input
    again sent (by input id). An undo met here (a second undo walking back two) is an undo like any other."""
    r = Work(w.tb, draft, now=w.now)
    said: dict[str, list[Message]] = {}
    undo_input = since[-1]
    first = len(draft.inputs)
    for k, again in enumerate(since, first):
        for _, post_edited in (e for e in r.g.edits if e[0] == k):
            edited(r, post_edited.id, post_edited.author)  # C-11 edits that came in between, again
            check_majority(r, post_edited.edited_at or post_edited.at)  # R-12 as the fold checked it
        # the counts between are re-derived too, in their order with the inputs: the grid and what the
        # last count showed are then those of the game without the override (C-9)
        recount_until(r, undo_input.at if again is undo_input else again.at)
        r.g.inputs.append(again)
        if again is not undo_input and again.id not in r.g.voids.values():
            start = len(r.messages)
            handle(r, again)
            said[again.id] = _as_sent(r, start)
    return r, said


def _as_sent(r: Work, start: int) -> list[Message]:
    """The messages `r` took from its `start`-th on, each under the key it was sent with (`emit` numbers a key
    met twice: the numbering is the outbox's, done again when a message goes out)."""
    out = []
    for msg in islice(r.messages.values(), start, None):
        base, sep, n = msg.key.rpartition("#")
        out.append(replace(msg, key=base) if sep and n.isdigit() and base in r.messages else msg)
    return out


def _from(before: Game, last: Override, now: State) -> State:
    """The draft to fold again from: the saved Game, with what the fold keeps whatever is undone (the inputs up to
    the undone command's, the edits, the undos' voids, the verdicts told, the clock, the overrides left) and the reminders sent
    since (the players have them). Its vote posts and aliases are the first of the draft's, each post or alias
    changed in place since then back as it was (`Override`)."""
    draft = thaw(before)
    for name in KEPT:
        setattr(draft, name, getattr(now, name))
    draft.inputs = now.inputs[:last.index + 1]  # the refold appends the others as it handles them (refold)
    draft.clock = now.clock
    draft.reminded |= now.reminded
    draft.posts, draft.runoff_posts = now.posts[:last.posts], now.runoff_posts[:last.runoff_posts]
    draft.aliases = dict(islice(now.aliases.items(), last.aliases))
    for change in reversed(now.rewrites[last.rewrites:]):
        target = getattr(draft, change.field)
        if change.key in target if isinstance(change.key, str) else change.key < len(target):
            target[change.key] = change.old  # a post or alias there then
    draft.rewrites = now.rewrites[:last.rewrites]
    return draft


def tell_rederived(w: Work, undo_input: Input, told: dict[str, str], said: dict[str, list[Message]]) -> None:
    """C-9 (amended): a later GM command that the undo made turn out otherwise than it was `told` is told to the
    GMs and the thread, and what it now does (`said` on the refold: a replacement's role PM, a modkill's post)
    goes out."""
    t = w.tb.t
    for prior in w.g.inputs:
        if prior is None or prior.id not in said:  # not handled again (trimmed: checkpoint.trimmed; or voided)
            continue
        verdict = w.g.told.get(prior.id)
        if verdict is None or verdict == told.get(prior.id):
            continue
        key = f"undo/{undo_input.id}/rederived/{prior.id}"
        to_gms(w, undo_input.at, t.gm.rederived(prior.at, prior.text, verdict), key)
        post(w, undo_input.at, Where.GAME, t.gm.rederived_post(prior.at, verdict), f"{key}/post")
        w.log.append(f"undo {undo_input.id}: GM command {prior.id} now: {verdict}")
        for msg in said[prior.id]:
            if msg.key != f"gm/{prior.id}":  # its answer is the notice above
                emit(w, replace(msg, at=undo_input.at))
