"""C-9's undo by refold: from the Game saved before the last override, the inputs handled since are folded again
without it, quietly; what then turns out otherwise is told (C-9 amended). An undo met while folding again (a
second undo walking back two) undoes anew what it finds. Its refusals are checks on values: the saved Game's
deadline, the resolutions since, and the refolded Game's deadline.

Nothing is undone past a resolution, so each one settles the stack (state.py's `settled`): of what it held only
the last override's kind and resolutions stay, for the reason a later undo is refused."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice
from types import MappingProxyType
from typing import Callable

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
    verdict = text.split("\n", 1)[0]
    if w.quiet:
        w.rederived[inp.id] = verdict
    else:
        w.g.told[inp.id] = verdict


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
    kept = (freeze(w.g), len(w.log), dict(w.rederived), dict(w.redo_msgs))
    offers = w.g.reserve.offers  # S-4: those the undone `замена НИК` made are withdrawn
    g = w.g
    g.overrides.pop()
    # The inputs between the command and this undo are handled again; an undo met while redoing (a
    # second undo walking back two) must find the indexes of the inputs it re-handles, not the last one.
    current = w.current_index()
    # The undone command is never given again, not even by an earlier undo re-handled below, whose own
    # redo reaches back past it; the undos in between find anew what they undo.
    for k in range(last.index + 1, current):
        g.voids.pop(g.inputs[k].id, None)
    g.voids[g.inputs[current].id] = g.inputs[last.index].id
    state_before = state_line(g)
    out_before = {sid for sid, seat in g.seats.items() if not seat.alive}
    nicks_before = {sid: seat.nick for sid, seat in g.seats.items()}
    clock_before = (g.phase.label, g.phase.deadline, g.paused_at is not None)
    w.g = _from(before, last, g)
    outer = (w.quiet, w.redo_at, w.capture)
    w.quiet = True
    try:
        for k in range(last.index + 1, current + 1):
            for _, post_edited in (e for e in w.g.edits if e[0] == k):
                edited(w, post_edited.id, post_edited.author)  # C-11 edits that came in between, again
                check_majority(w, post_edited.edited_at or post_edited.at)  # R-12 as the fold checked it
            w.capture = None
            # the counts between are re-derived too, in their order with the inputs: the grid and what the
            # last count showed are then those of the game without the override (C-9)
            recount_until(w, inp.at if k == current else w.g.inputs[k].at)
            if k < current and w.g.inputs[k].id not in w.g.voids.values():
                w.redo_at = k
                w.capture = []
                handle(w, w.g.inputs[k])
                w.redo_msgs[w.g.inputs[k].id] = w.capture
    finally:
        w.quiet, w.redo_at, w.capture = outer
    ph = w.g.phase
    if w.g.paused_at is None and ph.kind != "ended" and ph.deadline <= inp.at:
        # Refolded, a later pause or extend no longer holds and the phase's deadline is behind us.
        w.g = thaw(kept[0])
        del w.log[kept[1]:]
        w.rederived, w.redo_msgs = kept[2], kept[3]
        answer(w, inp, t.gm.undo_refused("undo_deadline_passed", last.said))
        return
    g = w.g
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
    if not w.quiet:
        tell_rederived(w, inp)


def _from(before: Game, last: Override, now: State) -> State:
    """The draft to fold again from: the saved Game, with what the fold keeps whatever is undone (the inputs and
    edits handled, the undos' voids, the verdicts told, the clock, the overrides left) and the reminders sent
    since (the players have them). Its vote posts and aliases are the first of the draft's, each post or alias
    changed in place since then back as it was (`Override`)."""
    draft = thaw(before)
    for name in KEPT:
        setattr(draft, name, getattr(now, name))
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


def tell_rederived(w: Work, undo_input: Input) -> None:
    """C-9 (amended): a later GM command that the undo made turn out otherwise is told to the GMs and the
    thread, and what it now does (a replacement's role PM, a modkill's post) goes out."""
    t = w.tb.t
    for prior in w.g.inputs:
        if prior is None:  # out of any undo's reach since a resolution (a tip's, checkpoint.trimmed)
            continue
        verdict = w.rederived.get(prior.id)
        if verdict is None or verdict == w.g.told.get(prior.id):
            continue
        w.g.told[prior.id] = verdict
        key = f"undo/{undo_input.id}/rederived/{prior.id}"
        to_gms(w, undo_input.at, t.gm.rederived(prior.at, prior.text, verdict), key)
        post(w, undo_input.at, Where.GAME, t.gm.rederived_post(prior.at, verdict), f"{key}/post")
        w.log.append(f"undo {undo_input.id}: GM command {prior.id} now: {verdict}")
        for msg in w.redo_msgs.get(prior.id, []):
            if msg.key != f"gm/{prior.id}":  # its answer is the notice above
                emit(w, replace(msg, at=undo_input.at))
    w.rederived.clear()
    w.redo_msgs.clear()

