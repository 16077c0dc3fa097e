"""Vote-thread posts into ballots, runoff votes and vote counts (C-3, C-6, C-11, M-7..M-10, H-3, H-4)."""

from __future__ import annotations

from datetime import datetime, timezone

from forumbot import parse
from forumbot.model import (
    Agitation,
    Input,
    Rejection,
    Special,
    Target,
    Vote,
    Where,
)
from forumbot.rules.ballots import Ballots, Tally, VotePost
from forumbot.rules.house import defaults

# the house rules a vote count restates (the opening post lists them all)
VOTE_RULES = frozenset({"vote_changes", "final_word", "vote_format", "pass_words", "lynch", "tie", "no_show"})
OTHERS = frozenset({"not_a_player", "dead_voter"})  # rejections of posts that were never the seat's own vote


class VotesMixin:
    """Engine methods for the vote thread; state and helpers come from the Engine."""

    def _vote_post(self, inp: Input) -> None:
        ph = self.s.phase
        sid = self._seat_of(inp.author)
        if ph.kind not in ("day", "runoff"):
            self.log.append(f"{ph.label}: vote-thread post {inp.id} by {inp.author} outside a day: not a vote")
            return
        text = inp.first_text if inp.first_text is not None else inp.text
        if sid is None:
            voter, parsed = inp.author, Rejection("not_a_player", inp.author)
        elif not self.s.seats[sid].alive:
            voter, parsed = sid, Rejection("dead_voter", self._nick(sid))
        else:
            voter, (parsed, final) = sid, self._parse_vote(text)
        post = VotePost(inp.id, voter, parsed, text, at=inp.at, at_latest=inp.at_latest, deleted_at=inp.deleted_at,
                        final=final if sid is not None and self.s.seats[sid].alive else False,
                        current=inp.text if inp.first_text is not None and inp.text != text else None)
        (self.s.runoff_posts if ph.kind == "runoff" else self.s.posts).append(post)
        if isinstance(post.parsed, Agitation):
            self.s.agitations[sid] += 1
            self.log.append(f"{ph.label}: agitation by {inp.author} ({post.parsed.marker}), #{self.s.agitations[sid]}")
            if self.s.agitations[sid] > 1:
                self.s.doomed.add(sid)  # type: ignore[arg-type]

    def _parse_vote(self, text: str) -> tuple[Vote | Agitation | Rejection, bool]:
        """The post read with the game's house rules (R-2..R-4) around the variant's grammar; and if final (R-2)."""
        house = self.variant.house
        parsed, final = parse.house_vote(
            text, lambda t: self._read_vote(t, self.markers), house.final_word, house.vote_format, house.vote_colors,
            house.pass_words if self.s.phase.kind == "day" else None,
        )
        return self._to_seat_ids(parsed), final

    def _read_vote(self, text: str, markers: tuple[str, ...]) -> Vote | Agitation | Rejection:
        """The open day's (or runoff's) vote grammar, naming players by their current nicks."""
        alive = self._alive_nicks()
        if self.variant.vote_grammar == "strict":
            return parse.parse_hunt_vote(text, self.matcher, alive, markers)
        if self.s.phase.kind == "runoff":
            leaders = None if self.s.hang_all else [self._nick(x) for x in self.s.leaders]
            return parse.parse_runoff_vote(text, self.matcher, alive, leaders)
        return parse.parse_moscow_vote(text, self.matcher, alive)

    def _to_seat_ids(self, parsed):  # type: ignore[no-untyped-def]
        if isinstance(parsed, Vote):
            return Vote(self._target_id(parsed.target), self._target_id(parsed.runoff) if parsed.runoff is not None else None)
        return parsed

    def _target_id(self, target: Target) -> Target:
        return target if isinstance(target, Special) else self.s.accounts.get(target, target)

    def _edited(self, inp: Input) -> None:
        """C-11: an edit stamped inside the post's day voids it (default) or changes nothing (first_seen)."""
        ph = self.s.phase
        open_posts = {"day": self.s.posts, "runoff": self.s.runoff_posts}.get(ph.kind, [])
        for post in open_posts:  # an edit after the post's day or runoff closed changes nothing
            if post.id == inp.id:
                post.edited = True
                self.tallies.clear()  # a post already counted changed
                if self.edited_votes == "void" and not isinstance(post.parsed, Agitation):
                    post.voided = True  # H-4: an edit does not undo an agitation
                self.log.append(f"{self.s.phase.label}: vote post {inp.id} by {inp.author} edited")
                return

    def _drop_deleted(self, posts: list[VotePost], at: datetime) -> None:
        """C-11: a post gone from the thread when the phase's posts are re-read at its deadline is no vote.

        H-4: like an edit, a deletion does not undo an agitation (the post was read by everyone)."""
        for post in posts:
            if post.deleted_at is not None and post.deleted_at <= at and not isinstance(post.parsed, Agitation):
                post.deleted = True
                self.tallies.clear()
                self.log.append(f"{self.s.phase.label}: vote post {post.id} by {self._poster(post)} deleted")

    def _ballots(self, posts: list[VotePost]) -> Ballots:
        alive = {sid for sid, seat in self.s.seats.items() if seat.alive}
        # Resumed while only appends happened to this list and the alive set is the same: a GM command's status
        # and an hourly count re-read only the new posts (issue 19: 2,000 `голос` stay linear).
        key = id(posts)
        entry = self.tallies.get(key)
        if entry is None or entry[0] is not posts or entry[1].alive != alive or entry[1].seen > len(posts):
            if len(self.tallies) > 4:
                self.tallies.clear()
            entry = (posts, Tally(frozenset(alive), self.variant.vote_changes, self.variant.house.repeat_is_change))
            self.tallies[key] = entry
        return entry[1].feed(posts)

    def _counts(self, voter: str, target: Target) -> bool:
        """A vote counts if its author and its target are alive (H-6: a vote for a modkilled player counts for nobody)."""
        if not self.s.seats[voter].alive:
            return False
        return isinstance(target, Special) or self.s.seats[target].alive

    def _runoff_votes(self) -> dict[str, Target]:
        """M-10: a runoff vote cast in the runoff; else the RUNOFF part of the day vote, if it fits."""
        fits = (
            (lambda t: t in (Special.HANG_ALL, Special.PARDON_ALL)) if self.s.hang_all
            else (lambda t: t in self.s.leaders)
        )
        votes: dict[str, Target] = {}
        for voter, post in self._ballots(self.s.posts).final_posts.items():
            if isinstance(post.parsed, Vote) and post.parsed.runoff is not None and fits(post.parsed.runoff):
                votes[voter] = post.parsed.runoff
            else:
                votes.pop(voter, None)
        votes.update(self._ballots(self.s.runoff_posts).final)
        return {v: t for v, t in votes.items() if self.s.seats[v].alive and fits(t)}

    def _post_count(self, at: datetime) -> None:
        """C-6: the current count in the vote thread, only when it changed since the last one."""
        ph = self.s.phase
        posts = self.s.runoff_posts if ph.kind == "runoff" else self.s.posts
        if not posts:
            return
        # Rendering a count is most of a quiet day's cost; skip it while nothing it shows has changed.
        signature = (len(posts), sum(p.voided or p.edited for p in posts),
                     tuple((s.nick, s.alive) for s in self.s.seats.values()))
        if signature == self.s.count_signature:
            return
        self.s.count_signature = signature
        text = self._count_text(final=False)
        if text == self.s.last_count:
            return
        self.s.last_count = text
        # Keyed by its tick, a count keeps its key when a late-fetched post changes an earlier one (outbox).
        self._post(at, Where.VOTE, self.t.with_game_link(text, self.setup.game_url),
                   f"{ph.label}/count/{at.astimezone(timezone.utc):%Y%m%dT%H%M%S}")

    def _count_text(self, final: bool) -> str:
        ph = self.s.phase
        posts = self.s.runoff_posts if ph.kind == "runoff" else self.s.posts
        ballots = self._ballots(posts)
        if ph.kind == "runoff":
            votes = self._runoff_votes()
        else:
            votes = {v: t for v, t in ballots.final.items() if self._counts(v, t)}
        not_voted = [self._nick(s) for s in self._alive_ids() if s not in votes and s not in ballots.final]
        rough = [(self._poster(p), p.text, p.at, p.at_latest) for p in posts
                 if p.straddles(ph.deadline) and not p.deleted]
        # Issue 17 item 9: a GM `голос` is named as his, and a rejected post of that voter's before it as replaced
        by_gm = {v: p for v, p in ballots.final_posts.items() if p.by_gm}
        order = {id(p): i for i, p in enumerate(posts)}
        replaced = [(p, r) for p, r in ballots.rejected if p.voter in by_gm and r.code not in OTHERS
                    and order[id(p)] < order[id(by_gm[p.voter])]]
        # C-11: an edited post quoted by its text now, the text first stored beside it (item 15)
        edit = lambda p: (self._poster(p), p.current or p.text, p.text if p.current else "")  # noqa: E731
        return self.t.vote_count(
            ph.label, {self._nick(v): self._target_nick(t) for v, t in votes.items()}, not_voted,
            [(self._poster(p), p.text, r) for p, r in ballots.rejected if id(p) not in {id(q) for q, _ in replaced}],
            [(self._poster(p), p.text, why) for p, why in ballots.ignored],
            [edit(p) for p in ballots.voided],
            [self._nick(a) for a in ballots.agitators], final,
            edited_kept=[edit(p) for p in posts if p.edited and not p.voided and not p.deleted],
            deleted=[(self._poster(p), p.text) for p in ballots.deleted],
            rough=rough, house=self._house_summary(VOTE_RULES),
            by_gm=[self._nick(v) for v in by_gm], replaced=[(self._poster(p), p.text) for p, _ in replaced],
            # H-4 (amended): a deleted agitation still counts, and the final count names it as deleted
            deleted_agitation=[(self._poster(p), p.text) for p in posts
                               if final and isinstance(p.parsed, Agitation) and p.deleted_at is not None],
        )

    def _house_summary(self, only: frozenset[str] | None = None) -> list[tuple[str, object]]:
        """The house rules in force that differ from the variant's clauses (RULES.md R), for the texts."""
        summary = self.variant.house.summary(defaults(self.variant.name))
        return [(k, v) for k, v in summary if only is None or k in only]
