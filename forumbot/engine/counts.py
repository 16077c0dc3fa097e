"""Ballots from the open day's vote posts, runoff votes and the vote count (C-3, C-6, C-11, M-7..M-10, H-3, H-4).

Vote posts are values: a flag an edit or a deletion sets makes a new post in the draft's list, so a saved Game
never changes under it."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Callable

from forumbot.engine.activity import below
from forumbot.engine.seats import alive_ids, nick, poster, target_nick
from forumbot.engine.speech import house_summary, post
from forumbot.engine.state import Game, rewrite, thaw
from forumbot.engine.table import Table
from forumbot.engine.work import Work
from forumbot.model import Agitation, Special, Target, Vote, Where
from forumbot.rules.ballots import Ballots, Tally, VotePost
from forumbot.rules.base import majority_of, plurality, settle

# the house rules a vote count restates (the opening post lists them all)
VOTE_RULES = frozenset({"vote_changes", "final_word", "vote_format", "pass_words", "lynch", "tie", "no_show"})
OTHERS = frozenset({"not_a_player", "dead_voter"})  # rejections of posts that were never the seat's own vote


def open_posts(w: Work) -> list[VotePost]:
    return w.g.runoff_posts if w.g.phase.kind == "runoff" else w.g.posts


def known(w: Work, posts: list[VotePost]) -> list[VotePost]:
    """C-13: the posts the bot had read when the message being made was made (`Work.knowing`): `posts` itself
    when it read them all, as the daemon's first fold of that moment had them."""
    by = w.known_by
    if by is None or not _read_after(w, posts, by):
        return posts
    return [p for p in posts if p.read_at is None or p.read_at <= by]


def _read_after(w: Work, posts: list[VotePost], by: datetime) -> bool:
    """Whether one of `posts` was first read after `by`. The latest read time is kept per list as it grows, as
    the tallies are: a GM's status after each of 2,000 `голос` reads each post once."""
    entry = w.read_latest.get(id(posts))
    if entry is None or entry[0] is not posts or entry[1] > len(posts):
        if len(w.read_latest) > 4:
            w.read_latest.clear()
        entry = (posts, 0, None)
    _, seen, latest = entry
    for p in posts[seen:]:
        if p.read_at is not None and (latest is None or p.read_at > latest):
            latest = p.read_at
    w.read_latest[id(posts)] = (posts, len(posts), latest)
    return latest is not None and latest > by


def ballots(w: Work, posts: list[VotePost]) -> Ballots:
    alive = {sid for sid, seat in w.g.seats.items() if seat.alive}
    # Resumed while only appends happened to this list and the alive set is the same: a GM command's status
    # and an hourly count re-read only the new posts (issue 19: 2,000 `голос` stay linear).
    key = id(posts)
    entry = w.tallies.get(key)
    if entry is None or entry[0] is not posts or entry[1].alive != alive or entry[1].seen > len(posts):
        if len(w.tallies) > 4:
            w.tallies.clear()
        variant = w.tb.variant
        entry = (posts, Tally(frozenset(alive), variant.vote_changes, variant.house.repeat_is_change))
        w.tallies[key] = entry
    return entry[1].feed(posts)


def counts(w: Work, voter: str, target: Target) -> bool:
    """A vote counts if its author and its target are alive (H-6: a vote for a modkilled player counts for nobody)."""
    if not w.g.seats[voter].alive:
        return False
    return isinstance(target, Special) or w.g.seats[target].alive


def runoff_votes(w: Work, runoff_posts: list[VotePost] | None = None) -> dict[str, Target]:
    """M-10: a runoff vote cast in the runoff; else the RUNOFF part of the day vote, if it fits."""
    g = w.g
    fits: Callable[[Target], bool] = (
        (lambda t: t in (Special.HANG_ALL, Special.PARDON_ALL)) if g.hang_all
        else (lambda t: t in g.leaders)
    )
    votes: dict[str, Target] = {}
    for voter, vpost in ballots(w, g.posts).final_posts.items():
        if isinstance(vpost.parsed, Vote) and vpost.parsed.runoff is not None and fits(vpost.parsed.runoff):
            votes[voter] = vpost.parsed.runoff
        else:
            votes.pop(voter, None)
    votes.update(ballots(w, g.runoff_posts if runoff_posts is None else runoff_posts).final)
    return {v: t for v, t in votes.items() if g.seats[v].alive and fits(t)}


def tally(table: Table, game: Game) -> dict[str, Target]:
    """The open day's (or runoff's) count as the engine computes it: each vote that counts, voter's seat id ->
    target (a seat id or a `Special`), in the order the final votes were posted (C-3, M-8, M-10, H-4, H-6); a
    night's or Setup's is empty. Every post is counted, as at the deadline (C-13's `known` aside)."""
    w = Work(table, thaw(game))
    if w.g.phase.kind not in ("day", "runoff"):
        return {}
    posts = open_posts(w)
    found = ballots(w, posts)
    return found.in_post_order(counted(w, posts, found))


def counted(w: Work, posts: list[VotePost], found: Ballots) -> dict[str, Target]:
    """The votes that count among the open day's or runoff's `posts` (`found` is their ballots)."""
    if w.g.phase.kind == "runoff":
        return runoff_votes(w, posts)
    return {v: t for v, t in found.final.items() if counts(w, v, t)}


def edited(w: Work, post_id: str, author: str) -> None:
    """C-11: an edit stamped inside the post's day voids it (default) or changes nothing (first_seen)."""
    ph = w.g.phase
    which = {"day": "posts", "runoff": "runoff_posts"}.get(ph.kind)
    if which is None:
        return  # an edit after the post's day or runoff closed changes nothing
    posts: list[VotePost] = getattr(w.g, which)
    for n, p in enumerate(posts):
        if p.id == post_id:
            void = w.tb.edited_votes == "void" and not isinstance(p.parsed, Agitation)  # H-4: agitation stays
            # in place, what it was kept: an undo rebuilds an earlier Game's posts from these (C-9)
            rewrite(w.g, which, n, replace(p, edited=True, voided=True if void else p.voided))
            w.tallies.clear()  # a post already counted changed
            w.log.append(f"{ph.label}: vote post {post_id} by {author} edited")
            return


def drop_deleted(w: Work, posts: list[VotePost], at: datetime) -> None:
    """C-11: a post gone from the thread when the phase's posts are re-read at its deadline is no vote.

    H-4: like an edit, a deletion does not undo an agitation (the post was read by everyone)."""
    for n, p in enumerate(posts):
        if p.deleted_at is not None and p.deleted_at <= at and not isinstance(p.parsed, Agitation):
            posts[n] = replace(p, deleted=True)
            w.tallies.clear()
            w.log.append(f"{w.g.phase.label}: vote post {p.id} by {poster(w, p)} deleted")


def post_count(w: Work, at: datetime) -> bool:
    """C-6: the current count in the vote thread, only when it changed since the last one. C-13: it shows the
    posts read by the time the daemon first made it (recorded by its key); returns whether one stamped before it
    was left out, read only later (the next count on the grid shows it)."""
    g = w.g
    # Keyed by its tick, a count keeps its key when a late-fetched post changes an earlier one (outbox).
    key = f"{g.phase.label}/count/{at.astimezone(timezone.utc):%Y%m%dT%H%M%S}"
    with w.knowing(w.tb.resolved.get(key)):
        posts = known(w, open_posts(w))
        partial = posts is not open_posts(w)
        if not posts:
            return partial
        # Rendering a count is most of a quiet day's cost; skip it while nothing it shows has changed.
        signature = (len(posts), sum(p.voided or p.edited for p in posts),
                     tuple((s.nick, s.alive) for s in g.seats.values()), tuple(below(w, at)))
        if signature == g.count_signature:
            return partial
        g.count_signature = signature
        text = count_text(w, final=False, at=at)
    if text == g.last_count:
        return partial
    g.last_count = text
    post(w, at, Where.VOTE, w.tb.t.guide.with_game_link(text, w.tb.setup.game_url), key)
    w.computed.append((key, at))
    return partial


def count_text(w: Work, final: bool, at: datetime | None = None) -> str:
    """The count at `at` (an interim one's time; the deadline when None)."""
    ph = w.g.phase
    posts = open_posts(w) if final else known(w, open_posts(w))  # C-13: a deadline's posts were all read by it
    found = ballots(w, posts)
    votes = counted(w, posts, found)
    not_voted = [nick(w, s) for s in alive_ids(w) if s not in votes and s not in found.final]
    # straddles() holds only with both times known; the two `is not None` say so to the type checker
    rough = [(poster(w, p), p.text, p.at, p.at_latest) for p in posts
             if p.straddles(ph.deadline) and not p.deleted and p.at is not None and p.at_latest is not None]
    # Issue 17 item 9: a GM `голос` is named as his, and a rejected post of that voter's before it as replaced
    by_gm = {v: p for v, p in found.final_posts.items() if p.by_gm}
    order = {id(p): i for i, p in enumerate(posts)}
    replaced = [(p, r) for p, r in found.rejected if p.voter in by_gm and r.code not in OTHERS
                and order[id(p)] < order[id(by_gm[p.voter])]]
    # C-11: an edited post quoted by its text now, the text first stored beside it (item 15)
    def edit(p: VotePost) -> tuple[str, str, str]:
        return poster(w, p), p.current or p.text, p.text if p.current else ""
    replaced_ids = {id(q) for q, _ in replaced}
    return w.tb.t.phases.vote_count(
        ph.label, {nick(w, v): target_nick(w, t) for v, t in votes.items()}, not_voted,
        [(poster(w, p), p.text, r) for p, r in found.rejected if id(p) not in replaced_ids],
        [(poster(w, p), p.text, why) for p, why in found.ignored],
        [edit(p) for p in found.voided],
        [nick(w, a) for a in found.agitators], final,
        edited_kept=[edit(p) for p in posts if p.edited and not p.voided and not p.deleted],
        deleted=[(poster(w, p), p.text) for p in found.deleted],
        rough=rough, house=house_summary(w, VOTE_RULES),
        by_gm=[nick(w, v) for v in by_gm], replaced=[(poster(w, p), p.text) for p, _ in replaced],
        # H-4 (amended): a deleted agitation still counts, and the final count names it as deleted
        deleted_agitation=[(poster(w, p), p.text) for p in posts
                           if final and isinstance(p.parsed, Agitation) and p.deleted_at is not None],
        **(how_far(w, found.in_post_order(votes)) if ph.kind == "day" else {}),
        few_posts=below(w, ph.deadline if at is None else at), post_minimum=w.tb.variant.house.post_minimum,
        until=ph.deadline,
    )


def how_far(w: Work, votes: dict[str, Target]) -> dict[str, Any]:
    """Issue 30 item 5: how many votes make a majority of the alive players (each candidate's L-n follows), and,
    when the leaders are tied, what the tie would do at the deadline (R-5, R-6). `votes` in post order."""
    alive = alive_ids(w)
    house = w.tb.variant.house
    out: dict[str, Any] = {"majority": (majority_of(len(alive)), len(alive)),
                           "majority_decides": house.lynch == "majority" or house.majority_ends_day}
    leaders, _ = plurality(votes)
    if len(leaders) > 1:
        code = "no_majority" if house.lynch == "majority" else house.tie
        first = ""
        if code == "first_reached":
            outcome = settle(votes, alive, "plurality", "first_reached")
            first = nick(w, outcome.deaths[0].nick) if outcome and outcome.deaths else ""
        out["tie"] = (code, [nick(w, x) for x in leaders], first)
    return out
