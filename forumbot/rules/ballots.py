"""A day's ballots from its vote posts: who votes for whom, and every post that did not count, with why.

Shared by both variants; what differs is data: the vote-change limit (M-8: one change; H-3: unlimited).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime

from forumbot.model import Agitation, Rejection, Target, Vote


@dataclass(frozen=True)
class VotePost:
    """A vote-thread post (or GM `setvote`) of the open day or runoff, with what the parser made of it."""

    id: str
    voter: str  # seat id
    parsed: Vote | Agitation | Rejection
    text: str
    by_gm: bool = False
    voided: bool = False  # edited before the deadline (C-11)
    edited: bool = False  # the forum marked it edited before the deadline; the count names it (C-11)
    at: datetime | None = None  # when posted: the earliest instant the forum's time allows (C-1)
    at_latest: datetime | None = None  # the latest instant, where the forum shows the time only roughly (C-1)
    deleted_at: datetime | None = None  # gone from the thread by then (C-11)
    deleted: bool = False  # gone when the phase's posts were re-read at its deadline: no vote (C-11)
    final: bool = False  # the post held the final word; later posts that day are no votes
    current: str | None = None  # the post's text now, where an edit changed it since `text` was stored (C-11)
    read_at: datetime | None = None  # when the bot first read it (C-13): a count made before leaves it out

    def straddles(self, deadline: datetime) -> bool:
        """C-1: the forum's rough time allows both before and at/after the deadline; it counts as before."""
        return self.at is not None and self.at_latest is not None and self.at < deadline <= self.at_latest


@dataclass(frozen=True)
class Majority:
    """R-12: who holds the votes of more than half of the alive players, since the time of the post that made it,
    and the day's own deadline (in force again when a change of vote breaks the majority within the delay)."""

    holder: str  # seat id
    at: datetime
    scheduled: datetime


@dataclass
class Ballots:
    """The day's votes derived from its posts: final vote per voter and every post that did not count."""

    final: dict[str, Target]
    rejected: list[tuple[VotePost, Rejection]]
    ignored: list[tuple[VotePost, str]]  # valid but "limit" (M-8) or "agitation" (after one, H-4)
    voided: list[VotePost]
    agitators: list[str]
    deleted: list[VotePost] = field(default_factory=list)  # gone at the deadline re-read (C-11)
    final_posts: dict[str, VotePost] = field(default_factory=dict)  # the post behind each final vote
    position: dict[str, int] = field(default_factory=dict)  # voter -> index of his final vote's post

    def in_post_order(self, votes: dict[str, Target]) -> dict[str, Target]:
        """`votes` ordered by when each final vote was posted (R-6 "first_reached" reads the order)."""
        return dict(sorted(votes.items(), key=lambda kv: self.position.get(kv[0], -1)))


def count_ballots(
    posts: list[VotePost], alive: Collection[str], changes_allowed: int | None, repeat_is_change: bool = True
) -> Ballots:
    """Each alive voter's final vote (M-8, H-3, H-4), in post order; voided and rejected posts listed apart.

    An agitation (H-4) is a vote against its author and final. A GM `setvote` uses up no change (M-10). Voided
    (edited) and deleted posts use up none either (C-11). With R-1 set (`repeat_is_change` False) a vote for
    the target already voted for is no change; R-2: a vote with the final word locks the voter's vote.
    """
    return Tally(frozenset(alive), changes_allowed, repeat_is_change).feed(posts)


@dataclass
class Tally:
    """`count_ballots` as a resumable left fold: `feed` takes the posts appended since the last call, so a day
    of n posts each followed by a count (a GM `голос` is answered with the status) costs n steps, not n²/2.
    Only appends are seen: whoever changes a post already fed (an edit, a deletion) or the alive set starts a
    new Tally."""

    alive: frozenset[str]
    changes_allowed: int | None
    repeat_is_change: bool = True
    ballots: Ballots = field(default_factory=lambda: Ballots({}, [], [], [], []))
    changes: Counter[str] = field(default_factory=Counter)
    locked: set[str] = field(default_factory=set)
    seen: int = 0

    def feed(self, posts: list[VotePost]) -> Ballots:
        for index in range(self.seen, len(posts)):
            self.take(index, posts[index])
        self.seen = len(posts)
        return self.ballots

    def take(self, index: int, post: VotePost) -> None:
        b, final, locked, changes = self.ballots, self.ballots.final, self.locked, self.changes
        if post.deleted:  # C-11: as if never posted, so it uses up no vote change either
            b.deleted.append(post)
            return
        if post.voided:
            b.voided.append(post)
            return
        if isinstance(post.parsed, Rejection):
            b.rejected.append((post, post.parsed))
            return
        if post.voter not in self.alive:
            return
        if isinstance(post.parsed, Agitation):
            if post.voter not in locked:
                final[post.voter] = post.voter
                b.final_posts[post.voter] = post
                b.position[post.voter] = index
                locked.add(post.voter)
                b.agitators.append(post.voter)
            return
        if post.voter in locked:
            b.ignored.append((post, "final" if post.voter not in b.agitators else "agitation"))
            return
        repeat = not self.repeat_is_change and post.voter in final and final[post.voter] == post.parsed.target
        if repeat:
            if post.final:
                locked.add(post.voter)
            return
        if not post.by_gm and self.changes_allowed is not None:
            if changes[post.voter] > self.changes_allowed:
                b.ignored.append((post, "limit"))
                return
            changes[post.voter] += 1
        final[post.voter] = post.parsed.target
        b.final_posts[post.voter] = post
        b.position[post.voter] = index
        if post.final:
            locked.add(post.voter)
