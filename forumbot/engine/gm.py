"""GM commands by PM (C-9, C-10, DESIGN.md): each answered, logged with the game before and after, and undoable.

A command that changes the game saves the Game just before it (`Override.before`, a value: nothing is copied
deeply); its undo folds again from there (engine/undo.py). A refused command leaves the game as it was."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Callable

from forumbot import parse
from forumbot.engine.conference import conference_moved
from forumbot.engine.majority import check_majority, shifted
from forumbot.engine.phases import modkill
from forumbot.engine.replacement import offer_seat, replace_account
from forumbot.engine.seats import to_seat_ids
from forumbot.engine.speech import pm, post
from forumbot.engine.state import rewrite
from forumbot.engine.status import describe, state_line, status_text
from forumbot.engine.thread import parse_vote_words
from forumbot.engine.timeline import resolve
from forumbot.engine.undo import answer, override, restored, saved, undo
from forumbot.engine.work import Work
from forumbot.model import (
    Alias, EndPhase, Extend, Help, Input, Modkill, Pause, Rejection, Replace, Resume, Say, SetVote, Status, Undo,
    Vote, Where,
)
from forumbot.parse.commands import MAX_EXTEND
from forumbot.rules.ballots import VotePost


def command(w: Work, inp: Input, handle: Callable[[Work, Input], None]) -> None:
    gm = inp.author
    key = f"gm/{inp.id}"
    t = w.tb.t
    cmd = parse.parse_command(
        inp.text, w.matcher(), everyone=[s.nick for s in w.g.seats.values()],
        parse_vote=lambda text: parse_vote_words(w, text), pass_words=w.tb.variant.house.pass_words or (),
    )
    if isinstance(cmd, Rejection):
        answer(w, inp, t.gm.command_rejected(cmd))
        return
    if isinstance(cmd, Replace) and cmd.new.casefold() in {a.casefold() for a in inp.missing_accounts}:
        # the forum said, when the bot stored this PM, that it has no such account (issue 7 item 2)
        pm(w, inp.at, gm, t.gm.command_refused("no_account", cmd), key)
        return
    if isinstance(cmd, Status):
        pm(w, inp.at, gm, status_text(w, roles=True), key)
        return
    if isinstance(cmd, Help):  # like status: only an answer, nothing for an undo to take back
        pm(w, inp.at, gm, t.gm.gm_help(), key)
        return
    if isinstance(cmd, Undo):
        undo(w, inp, gm, handle)
        return
    before, rewrites = saved(w), len(w.g.rewrites)
    refusal = apply(w, cmd, inp.at, gm, inp.id)
    if refusal:
        w.g = restored(before, w.g)  # a refusal comes before any change; the inputs and verdicts are the draft's
        answer(w, inp, t.gm.command_refused(refusal, cmd))
        return
    # An end-phase resolves a phase itself: its results are out, so it cannot be undone (C-9).
    resolutions = before.resolutions if isinstance(cmd, EndPhase) else w.g.resolutions
    w.g.overrides.append(override(before, rewrites, w.current_index(), resolutions, type(cmd).__name__,
                                     inp.text))
    w.log.append(
        f"override by {gm} at {inp.at.isoformat()}: {describe(cmd)}; before: {state_line(before)}; "
        f"after: {state_line(w.g)}"
    )
    # An end-phase is told by the phase it closed; every other command by the phase as it left it.
    shown = before.phase if isinstance(cmd, EndPhase) else w.g.phase
    done = t.gm.command_done(cmd, shown.label, shown.deadline)
    answer(w, inp, done + "\n" + status_text(w))


def apply(w: Work, cmd, at: datetime, gm: str, cmd_id: str) -> str | None:  # type: ignore[no-untyped-def]
    """The command's change to the game, or why it is refused (before anything changed)."""
    g, t = w.g, w.tb.t
    ph = g.phase
    if isinstance(cmd, Modkill):
        sid = g.accounts[cmd.nick]
        if not g.seats[sid].alive:
            return "already_dead"
        modkill(w, sid, at, cmd.reason, by=gm)
    elif isinstance(cmd, Replace):
        return replace_account(w, cmd, at, cmd_id) if cmd.new else offer_seat(w, cmd.old, at, cmd_id)  # S-4
    elif isinstance(cmd, Extend):
        # Bounded so that no later deadline arithmetic can overflow, whatever the GM typed (issue 7 item 19).
        if not timedelta() < cmd.by <= MAX_EXTEND:
            return "extend_not_positive" if cmd.by <= timedelta() else "extend_too_far"
        if g.paused_at is None and ph.deadline - at + cmd.by > MAX_EXTEND:
            return "extend_too_far"
        if g.paused_at is not None and ph.deadline - g.paused_at + cmd.by > MAX_EXTEND:
            return "extend_too_far"
        g.phase = ph = shifted(ph, cmd.by)
        post(w, at, Where.GAME, t.gm.extended(ph.label, ph.deadline, cmd.by), f"gm/{cmd_id}/post")
        conference_moved(w, at, f"gm/{cmd_id}/conference")  # M-15: open until Day 1 opens, now later
    elif isinstance(cmd, Pause):
        if g.paused_at is not None:
            return "already_paused"
        g.paused_at = at
        post(w, at, Where.GAME, t.gm.paused(), f"gm/{cmd_id}/post")
    elif isinstance(cmd, Resume):
        if g.paused_at is None:
            return "not_paused"
        g.phase = ph = shifted(ph, at - g.paused_at)
        if g.next_count is not None:
            g.next_count += at - g.paused_at
        g.paused_at = None
        post(w, at, Where.GAME, t.gm.resumed(ph.label, ph.deadline), f"gm/{cmd_id}/post")
        conference_moved(w, at, f"gm/{cmd_id}/conference")
    elif isinstance(cmd, EndPhase):
        if g.paused_at is not None:
            return "paused"
        g.phase = replace(ph, deadline=at)
        w.gm_closing = True  # C-14: a deadline a GM chose is not judged for downtime
        try:
            resolve(w, at)
        finally:
            w.gm_closing = False
    elif isinstance(cmd, SetVote):
        if ph.kind not in ("day", "runoff"):
            return "not_day"
        voter = g.accounts[cmd.voter]
        if not g.seats[voter].alive:
            return "voter_dead"
        vote = to_seat_ids(w, cmd.vote)
        if ph.kind == "runoff":
            vote = Vote(vote.runoff if vote.runoff is not None else vote.target)
        posts = g.runoff_posts if ph.kind == "runoff" else g.posts
        read_at = g.inputs[w.current_index()].read_at  # the command's (C-13: a count made before leaves it out)
        posts.append(VotePost(f"gm/{cmd_id}", voter, vote, "", by_gm=True, read_at=read_at))
        check_majority(w, at)  # a GM's vote counts toward a majority like a post
    elif isinstance(cmd, Alias):
        found = w.matcher().match(cmd.alias)
        if isinstance(found, str):
            return "alias_taken"
        rewrite(g, "aliases", cmd.alias, g.accounts[cmd.nick])  # what it named kept, if it was one (C-9)
    elif isinstance(cmd, Say):
        post(w, at, Where.GAME, cmd.text, f"gm/{cmd_id}/post")
    return None

