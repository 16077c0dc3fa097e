"""C-15: a player asks the bot by PM for the vote count, his own vote or his role PM, and M-15's `конфа` line; and
S-5's `не писать`, which the season's notices read from the store (forumbot/cycle/season.py) and a game only
acknowledges. None of them changes the game, and none answers with anything the player was not already told: the
count is the public count's text at that moment, the vote is his own post, the role PM is made from what the Setup
told him (never from who is alive now: H-12's closed hunting would tell the town's count)."""

from __future__ import annotations

from datetime import timedelta

from forumbot.engine.conference import relay, relay_on
from forumbot.engine.counts import ballots, count_text, known, open_posts, runoff_votes
from forumbot.engine.seats import example_nick, partners, seat_moves, target_nick
from forumbot.engine.speech import pm
from forumbot.engine.work import Work
from forumbot.model import Input, Role
from forumbot.parse.queries import Query, conference_line, parse_query
from forumbot.parse.signup import says_no_notice

COUNT_EVERY = timedelta(minutes=10)  # C-15: at most one count a player in 10 minutes


def answered(w: Work, inp: Input, sid: str) -> bool:
    """Whether the PM was a question or a conference line, answered here; else it is read as moves (C-12)."""
    said = conference_line(inp.text) if relay_on(w) else None  # without a conference, read as moves as before
    query = parse_query(inp.text) if said is None else None
    if query is not None and isinstance(w.matcher().match(inp.text), str):
        query = None  # a player whose nickname is the word: a bare nickname stays a move (C-12)
    if said is not None:
        text = relay(w, inp, sid, said)
    elif query is not None:
        text = answer(w, inp, sid, query)
    elif opts_out(w, inp):
        text = w.tb.t.players.no_notice_taken()
    else:
        return False
    pm(w, inp.at, sid, text, f"pm/{inp.id}")
    return True


def opts_out(w: Work, inp: Input) -> bool:
    """A PM holding only `не писать` (`stop`), S-5; a player whose nickname is the word keeps it a move (C-12)."""
    return says_no_notice(inp.text) and not isinstance(w.matcher().match(inp.text), str)


def answer(w: Work, inp: Input, sid: str, query: Query) -> str:
    t = w.tb.t
    if query == "role":
        return role_again(w, sid)
    if w.g.phase.kind not in ("day", "runoff"):
        return t.players.asked_no_vote(w.g.phase.kind)
    if query == "my_vote":
        return my_vote(w, sid) if w.g.seats[sid].alive else t.players.you_are_dead()
    last = w.g.asked.get(sid)
    if last is not None and inp.at < last + COUNT_EVERY:
        return t.players.count_already_sent(last)
    w.g.asked[sid] = inp.at
    return t.guide.with_game_link(count_text(w, final=False), w.tb.setup.game_url)


def my_vote(w: Work, sid: str) -> str:
    """His vote as the count has it now, the post it came from and the changes he has left (R-1)."""
    g, t = w.g, w.tb.t
    posts = known(w, open_posts(w))
    found = ballots(w, posts)
    tally = w.tallies[id(posts)][1]
    post = found.final_posts.get(sid)
    if g.phase.kind == "runoff":
        target = runoff_votes(w, posts).get(sid)
        if post is None and target is not None:  # the RUNOFF part of his day vote (M-10)
            post = ballots(w, g.posts).final_posts.get(sid)
    else:
        target = found.final.get(sid)
    allowed = tally.changes_allowed
    if sid in tally.locked:
        left: int | None = 0
    elif allowed is None:
        left = None
    else:
        left = allowed - max(0, tally.changes[sid] - 1)
    # his last post not taken as a vote, when it came after the vote counted (C-15: what he sees in the count)
    order = {id(p): n for n, p in enumerate(posts)}
    mine = [(p, r) for p, r in found.rejected if p.voter == sid]
    last = mine[-1] if mine else None
    if last is not None and post is not None and order.get(id(post), -1) > order.get(id(last[0]), -1):
        last = None
    not_counted = (last[0].current or last[0].text, last[0].at, last[1]) if last is not None else None
    if target is None or post is None:
        return t.players.my_vote_none(left, not_counted)
    return t.players.my_vote(target_nick(w, target), post.current or post.text, post.at, left, post.by_gm,
                             not_counted)


def role_again(w: Work, sid: str) -> str:
    """The role PM again (C-2), with the moves the role was dealt: never what the game since would change."""
    g, variant = w.g, w.tb.variant
    seat = g.seats[sid]
    choose_don = g.phase.kind == "setup" and Role.DON in variant.roles \
        and not any(s.role is Role.DON for s in g.seats.values())
    maniac = any(s.role is Role.MANIAC for s in g.seats.values())
    moves = seat_moves(w, seat, maniac)
    return w.tb.t.players.role_pm(seat.role, partners(w, sid), choose_don, moves, example=example_nick(w, sid),
                          me=seat.nick)
