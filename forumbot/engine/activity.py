"""Activity: the posts each alive player owes the game thread in a day (R-11 `post_minimum`).

Every seat's game-thread post is kept as a `GamePost` (`State.thread_posts`, the pages read them too); the vote
count lists who is still below N, the reminder PM goes out once before the deadline, and at the deadline
`activity_leavers` decides who leaves for too few posts and who is only warned. Everything is read from the
inputs the fold was given, so a replay and an export give the same bytes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from forumbot.engine.seats import alive_ids, nick
from forumbot.engine.speech import pm
from forumbot.engine.work import Work
from forumbot.model import Input
from forumbot.parse.normalize import QUOTES, drop_blocks, normalize, strip_markup


@dataclass(frozen=True)
class GamePost:
    """A seat's post in the game thread as the forum showed it: for R-11's count (a day's posts of alive players,
    `counts`) and for the public pages (the activity table, the ISO page: never a deleted one)."""

    id: str
    seat: str
    at: datetime
    phase: str  # the phase it was handled in ("day 1", "night 1", ...)
    counts: bool  # an alive player's day post, long enough after the quotes and formatting are gone
    deleted_at: datetime | None = None  # seen gone from the thread then (C-11's re-read)
    read_at: datetime | None = None  # C-13: when the bot first read it


def counted_length(text: str) -> int:
    """The post's length as R-11 measures it: quotes dropped, then C-4's normalisation (formatting, NFKC, case,
    white space, surrounding punctuation)."""
    return len(normalize(strip_markup(drop_blocks(text, QUOTES))))


def on(w: Work) -> bool:
    return w.tb.variant.house.post_minimum > 0


def note_thread_post(w: Work, sid: str, inp: Input) -> None:
    """A seat's game-thread post. R-11 counts an alive player's post in a day (not a runoff) by the text first
    stored, so an edit never changes a count."""
    g = w.g
    counts = False
    if on(w) and g.phase.kind == "day" and g.seats[sid].alive:
        text = inp.first_text if inp.first_text is not None else inp.text
        counts = counted_length(text) >= w.tb.variant.house.post_minimum_chars
    g.thread_posts.append(GamePost(inp.id, sid, inp.at, g.phase.label, counts, inp.deleted_at, inp.read_at))


def day_posts(w: Work) -> list[GamePost]:
    """The open phase's posts: the newest ones, since posts are noted in the order the fold handles them."""
    posts = w.g.thread_posts
    label = w.g.phase.label
    start = len(posts)
    while start > 0 and posts[start - 1].phase == label:
        start -= 1
    return posts[start:]


def posts_by_seat(w: Work, at: datetime) -> dict[str, int]:
    """Each alive player's counted posts of the open day at `at`: a post seen gone by then no longer counts
    (C-11), and a message made at one moment counts only the posts read by then (C-13, `Work.knowing`)."""
    by = w.known_by
    tally = {sid: 0 for sid in alive_ids(w)}
    for p in day_posts(w):
        if not p.counts or p.seat not in tally:
            continue
        if p.deleted_at is not None and p.deleted_at <= at:
            continue
        if by is not None and p.read_at is not None and p.read_at > by:
            continue
        tally[p.seat] += 1
    return tally


def below(w: Work, at: datetime) -> list[tuple[str, int]]:
    """(nick, posts) of every alive player still below the minimum, in seat order: what each count lists."""
    if not on(w) or w.g.phase.kind != "day":
        return []
    n = w.tb.variant.house.post_minimum
    return [(nick(w, sid), got) for sid, got in posts_by_seat(w, at).items() if got < n]


def activity_leavers(w: Work, at: datetime) -> tuple[list[str], list[str]]:
    """R-11 at the day's deadline: (seats that leave as an autokill, seats only warned), in seat order.

    The one place that decides who leaves for too few posts: a deadline where nobody may leave for it (C-14's
    disturbed deadline) turns every leaver here into a warning. `warn_then_autokill` warns a player the first
    time in the game and autokills him from the second on."""
    if not on(w):
        return [], []
    house = w.tb.variant.house
    short = [sid for sid, got in posts_by_seat(w, at).items() if got < house.post_minimum]
    action = house.post_minimum_action
    if action == "autokill":
        return short, []
    if action == "warn_then_autokill":
        leave = [sid for sid in short if sid in w.g.activity_warned]
        warned = [sid for sid in short if sid not in w.g.activity_warned]
        w.g.activity_warned.update(warned)
        return leave, warned
    return [], short


def reminder_due(w: Work) -> tuple[datetime, str] | None:
    """When the open day's activity reminder is due, and its key (once a day: `State.reminded`)."""
    g = w.g
    ph = g.phase
    hours = w.tb.variant.house.post_minimum_reminder_hours
    if not on(w) or ph.kind != "day" or hours <= 0:
        return None
    key = f"activity:{ph.label}"
    at = ph.deadline - timedelta(hours=hours)
    if key in g.reminded or at <= ph.opens:
        return None
    if ph.majority is not None and ph.deadline <= ph.majority.at:  # R-12 without a delay: the day is over
        return None
    return at, key


def remind(w: Work, at: datetime) -> None:
    """One PM to each alive player still below the minimum (R-11). During a majority's delay (R-12) the day ends
    at the delay's end only if the majority holds, else at its own deadline: the PM names both."""
    ph = w.g.phase
    need = w.tb.variant.house.post_minimum
    held = ph.majority
    early = ph.deadline if held is not None and ph.deadline < held.scheduled else None
    deadline = held.scheduled if held is not None else ph.deadline
    for sid, got in posts_by_seat(w, at).items():
        if got < need:
            pm(w, at, sid, w.tb.t.activity.post_minimum_reminder(got, need, deadline, early),
               f"{ph.label}/remind/posts/{sid}")

