"""A day (or runoff) as data: every vote post in time order with what it was read as and the running tally after
it, the final tally, who did not vote, the outcome (issue 20 item 1). Built from a DayRecord of the fold."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from forumbot.engine.history import DayRecord
from forumbot.model import Agitation, Rejection, Special, Vote
from forumbot.rules.ballots import count_ballots

SPECIALS = frozenset(str(s) for s in Special)


@dataclass(frozen=True)
class ShownTarget:
    """Whom a vote names: a nick, or a special word's code (`no_lynch`, `pardon_all`, `hang_all`)."""

    name: str
    special: bool = False


@dataclass(frozen=True)
class Row:
    post_id: str
    at: datetime
    voter: str  # nick
    text: str
    reading: str  # counted | changed | repeated | gm | agitation | rejected | ignored | voided | deleted | voter_out
    detail: str  # the rejection code or why it was ignored (limit, final, agitation)
    target: ShownTarget | None  # what the post named, where it named someone
    tally: tuple[tuple[ShownTarget, int], ...]  # the running tally after it, most votes first
    note: str = ""  # a rejection's detail (the fragment or names it was about), as the count post gives it
    seat: str = ""  # the seat's nick at the day's end, its lane: `voter` is who wrote the post (C-9's `замена`)

    @property
    def lane(self) -> str:
        return self.seat or self.voter

    @property
    def counted(self) -> bool:
        return self.reading in ("counted", "changed", "repeated", "gm", "agitation")


@dataclass(frozen=True)
class DayData:
    kind: str
    number: int
    opens: datetime
    closed: datetime | None
    rows: tuple[Row, ...]
    lanes: tuple[str, ...]  # the voters alive in the phase, in seat order
    final: tuple[tuple[ShownTarget, tuple[str, ...]], ...]  # target -> voters, most votes first
    vote_post: dict[str, str]  # voter -> id of the post behind his final vote
    not_voted: tuple[str, ...]
    majority: int
    lynch: str  # under "plurality" the distance to a majority decides nothing and is not shown
    deaths: tuple[tuple[str, str, str], ...]  # (nick, cause, role as announced or "")
    leaders: tuple[str, ...]
    cancelled: bool
    # issue 30 item 5: while the day is open with its leaders tied, what the tie does at the deadline:
    # (code, the tied leaders, who leaves under "first_reached")
    tie: tuple[str, tuple[str, ...], str] | None = None
    majority_ends_day: bool = False  # the majority ends this day early, so the page does not call it idle
    early: tuple[str, datetime] | None = None  # (holder, the majority post's time) once the day ended so
    waived_gap: tuple[datetime, datetime] | None = None  # C-14: no no-show left, the bot could not read then
    waived_why: str = ""  # C-14: the reason of the autokills that gap waived, as the result post said it
    autokill_why: Mapping[str, str] = field(default_factory=dict)  # nick -> why he left as an autokill (H-4, H-5, R-11)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.number}"

    @property
    def slug(self) -> str:
        return f"{self.kind}-{self.number}"


def day_data(record: DayRecord, left: Mapping[str, datetime] | None = None) -> DayData:
    """`left`: seat id -> when a modkill took it out of the game during this day or runoff (its announcement's
    time). Each row is read with the players alive at its post, as a count posted then read it (C-6, H-6); the
    final tally with those alive at the deadline."""
    nicks = record.nicks
    alive = set(record.alive)
    left = left or {}

    def alive_at(at: datetime | None) -> set[str]:
        return alive | {sid for sid, out in left.items() if at is None or at < out}

    def nicks_at(at: datetime | None) -> dict[str, str]:
        """C-9: each seat's nick at `at`: a seat replaced later that day is still its former player's."""
        then = dict(nicks)
        for sid, before, when in sorted(record.renamed, key=lambda r: r[2], reverse=True):
            if at is None or at < when:
                then[sid] = before
        return then

    def target_of(t: str, named: Mapping[str, str] = nicks) -> ShownTarget:
        return ShownTarget(t, True) if t in SPECIALS and t not in named else ShownTarget(named.get(t, t))

    posts = list(record.posts)
    full = count_ballots(posts, alive, record.changes_allowed, record.repeat_is_change)
    ignored = {id(p): why for p, why in full.ignored}
    rows: list[Row] = []
    before: dict = {}
    for i, post in enumerate(posts):
        then = alive_at(post.at)
        named = nicks_at(post.at)
        after = count_ballots(posts[: i + 1], then, record.changes_allowed, record.repeat_is_change).final
        voter = named.get(post.voter, post.voter)
        parsed = post.parsed
        target = None
        if isinstance(parsed, Vote):
            target = target_of(str(parsed.target), named)
        elif isinstance(parsed, Agitation):
            target = ShownTarget(voter)
        reading, detail = _reading(post, parsed, then, ignored, before, after)
        counted = {v: t for v, t in after.items() if _counts(t, then)}
        note = parsed.detail if isinstance(parsed, Rejection) else ""
        rows.append(Row(post.id, post.at or record.opens, voter, post.text, reading, detail, target,
                        _ranked(_tally(counted, lambda t: target_of(t, named))), note,
                        nicks.get(post.voter, post.voter)))
        before = after
    final: dict[ShownTarget, list[str]] = {}
    posted = [nicks[voter] for voter in sorted(record.votes, key=lambda v: full.position.get(v, -1))]
    for voter, t in sorted(record.votes.items(), key=lambda kv: full.position.get(kv[0], -1)):
        final.setdefault(target_of(t), []).append(nicks[voter])
    ranked = sorted(final.items(), key=lambda kv: (-len(kv[1]), kv[0].special, kv[0].name))
    lanes = tuple(nicks[sid] for sid in nicks if sid in alive)
    not_voted = tuple(nicks[sid] for sid in nicks if sid in alive and sid not in record.votes
                      and sid not in full.final)
    return DayData(
        kind=record.kind, number=record.number, opens=record.opens, closed=record.closed, rows=tuple(rows),
        lanes=lanes, final=tuple((t, tuple(v)) for t, v in ranked),
        vote_post={nicks[v]: p.id for v, p in full.final_posts.items() if v in record.votes},
        not_voted=not_voted, majority=len(alive) // 2 + 1, lynch=record.lynch,
        deaths=tuple((nicks[sid], cause, role) for sid, cause, role in _as_posted(record.deaths, record.leaders)),
        leaders=tuple(nicks.get(x, x) for x in record.leaders), cancelled=record.cancelled,
        tie=_tie(record, ranked, posted) if record.closed is None and record.kind == "day" else None,
        majority_ends_day=record.majority_ends_day,
        early=record.majority if record.closed is not None else None,
        autokill_why={nicks[sid]: why for sid, why in record.autokill_why},
        waived_gap=record.waived_gap, waived_why=record.waived_why,
    )


def _as_posted(deaths: tuple[tuple[str, str, str], ...],
               leaders: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """The day's deaths in the order its result post named them: a hang-all runoff's leaders (M-10) as the
    runoff's own list has them («Игру покидают: М6 и Шериф»), not the seats' order (issue 28, stop 35)."""
    return tuple(sorted(deaths, key=lambda death: leaders.index(death[0]) if death[0] in leaders else len(leaders)))


def lead(day: DayData) -> tuple[ShownTarget, int, int, ShownTarget | None] | None:
    """Issue 28 item 11, what players open an open day's page for: (the leader, his votes, his margin over the
    next, the next or None); None without votes or with the leaders tied (the tie's own line says that)."""
    if not day.final:
        return None
    (first, voters), rest = day.final[0], day.final[1:]
    second = rest[0] if rest else None
    if second is not None and len(second[1]) == len(voters):
        return None
    return first, len(voters), len(voters) - (len(second[1]) if second else 0), second[0] if second else None


def _tie(record: DayRecord, ranked: list,
         posted: list[str]) -> tuple[str, tuple[str, ...], str] | None:
    """Issue 30 item 5, as the count post says it: the open day's tied leaders and what R-6 (or R-5's majority)
    does with them at the deadline; `ranked` is the final tally, most votes first, each target's voters in the
    order their final votes were posted, as `posted` (so under "first_reached" the leader whose top-th voter
    posted first leaves)."""
    named = [(t.name, voters) for t, voters in ranked if not t.special]
    if len(named) < 2 or len(named[1][1]) != len(named[0][1]):
        return None
    top = len(named[0][1])
    leaders = tuple(sorted(name for name, voters in named if len(voters) == top))
    code = "no_majority" if record.lynch == "majority" else record.tie
    first = ""
    if code == "first_reached":
        reached = {name: voters[top - 1] for name, voters in named if len(voters) == top}
        first = min(reached, key=lambda name: posted.index(reached[name]))
    return code, leaders, first


def _reading(post, parsed, alive, ignored, before, after) -> tuple[str, str]:
    if post.deleted:
        return "deleted", ""
    if post.voided:
        return "voided", ""
    if isinstance(parsed, Rejection):
        return "rejected", parsed.code
    if post.voter not in alive:
        return "voter_out", ""
    if id(post) in ignored:
        return "ignored", ignored[id(post)]
    if isinstance(parsed, Agitation):
        return "agitation", parsed.marker
    if post.by_gm:
        return "gm", ""
    if post.voter not in before:
        return "counted", ""
    return ("repeated" if before[post.voter] == after.get(post.voter) else "changed"), ""


def _counts(target: object, alive: set[str]) -> bool:
    return isinstance(target, Special) or target in alive


def _tally(votes: dict, target_of) -> dict[ShownTarget, int]:
    tally: dict[ShownTarget, int] = {}
    for t in votes.values():
        key = target_of(str(t))
        tally[key] = tally.get(key, 0) + 1
    return tally


def _ranked(tally: dict[ShownTarget, int]) -> tuple[tuple[ShownTarget, int], ...]:
    return tuple(sorted(tally.items(), key=lambda kv: (-kv[1], kv[0].special, kv[0].name)))
