"""One step of a game: `step(table, game, event)` and `advance(table, game, until)`, pure functions of values
(issue 19 item 1). Inside, a step writes to a draft of the Game (`thaw`) and hands back a new Game (`freeze`);
the Game it was given never changes. The fold (engine/fold.py) runs the same `handle` on one draft for the whole
game, freezing only what an undo needs.

Testing one step: build a position (engine/position.py parses one line into a Table and a Game), call `step` or
`advance`, assert on the Game returned and on the messages. A new kind of input is a branch in `handle`."""

from __future__ import annotations

from datetime import datetime

from forumbot import parse
from forumbot.engine.conference import shared_pm
from forumbot.engine.gm import command
from forumbot.engine.replacement import answer_offer, offer_to, reserve_post, undelivered
from forumbot.engine.state import Game, freeze, thaw
from forumbot.engine.status import status_text, summary
from forumbot.engine.speech import pm
from forumbot.engine.table import Table
from forumbot.engine.thread import game_post, parse_vote_words, vote_post
from forumbot.engine.night import player_pm
from forumbot.engine.timeline import advance_to
from forumbot.engine.undo import answer
from forumbot.engine.work import Work
from forumbot.model import Input, Message, Status, Where


def step(table: Table, game: Game, event: Input) -> tuple[Game, tuple[Message, ...], tuple[str, ...]]:
    """The game after `event`: what came due before it, then the event itself. Returns the new Game, the
    messages sent on the way (keys as the fold gives them when nothing came before) and the log's lines."""
    w = Work(table, thaw(game))
    advance_to(w, event.at)
    w.g.inputs.append(event)
    handle(w, event)
    return freeze(w.g), tuple(w.messages.values()), tuple(w.log)


def advance(table: Table, game: Game, until: datetime) -> tuple[Game, tuple[Message, ...], tuple[str, ...]]:
    """The game at `until`: every deadline, count and reminder due by then."""
    w = Work(table, thaw(game))
    advance_to(w, until)
    return freeze(w.g), tuple(w.messages.values()), tuple(w.log)


def handle(w: Work, inp: Input) -> None:
    """One input, at its time, on the draft (the timeline already advanced to it)."""
    with w.knowing(inp.read_at):  # C-13: what it answers shows the posts read by then (a GM's status)
        _handle(w, inp)


def _handle(w: Work, inp: Input) -> None:
    tb, g = w.tb, w.g
    if parse.account_key(inp.author) == tb.bot:
        return
    if g.phase.kind == "ended":
        _after_the_end(w, inp)
        return
    if inp.where is Where.PM:
        if parse.account_key(inp.author) in tb.gm_accounts:
            before = summary(w.g)
            command(w, inp, handle)
            w.commands.append((inp.id, before, summary(w.g)))  # the override log's state before and after (C-9)
        elif (offer := offer_to(w, inp.author)) is not None:  # S-4: a reserve player offered a seat
            answer_offer(w, inp, offer)
        else:
            player_pm(w, inp)
    elif inp.where is Where.SHARED:
        shared_pm(w, inp)
    elif inp.where is Where.UNDELIVERED:
        undelivered(w, inp)
    elif inp.where is Where.VOTE:
        vote_post(w, inp)
    elif inp.where is Where.SIGNUP:  # S-4: the sign-up thread's reserve words; anything else there is talk
        reserve_post(w, inp)
    elif not reserve_post(w, inp):
        game_post(w, inp)


def _after_the_end(w: Work, inp: Input) -> None:
    tb = w.tb
    w.log.append(f"after the end: {inp.where} from {inp.author} ignored")
    gm = inp.where is Where.PM and inp.author.casefold() in tb.gm_accounts
    if not gm:
        return
    w.commands.append((inp.id, summary(w.g), summary(w.g)))
    if isinstance(parse.parse_command(inp.text, w.matcher(), everyone=[],
                                        parse_vote=lambda text: parse_vote_words(w, text)), Status):
        # a GM asking after the end is told how it ended, with every role (issue 17 item 13)
        pm(w, inp.at, inp.author, status_text(w, roles=True), f"gm/{inp.id}")
    else:
        # C-9: every GM command is answered; one sent just after a modkill ended the game (an `отмена` of it,
        # say) would otherwise meet silence
        answer(w, inp, tb.t.gm.command_refused("game_ended"))
