"""Players' posts awaiting a moderator's approval, as a bot that moderates the forum sees them (forumbot.cycle.held_posts).

The scripted Day 1 hangs Маф1 (7 votes to 3). Five of the seven then change their votes to М1 in posts the forum
holds for approval: the bot, a moderator, reads them marked held (MemoryForum's `held`, as the HTML adapters mark
phpBB's, SMF's, MyBB's and Invision's and XenForo's API its `moderated` posts). Counted, they would hang М1.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from daemon_world import GM, STEPS, T0, play, world  # noqa: F401 (a fixture)
from sqlalchemy import select

from forumbot.store.models import InputRow
from forumbot.store.game import fold_game

CHANGED = ("Шериф", "М2", "М3", "М4", "М5")
DEADLINE = T0 + timedelta(hours=24)
TOLD = "ждёт одобрения модератора"


def _hold_votes(w) -> list:
    """Day 1, two hours after the scripted votes: the five changed votes, each held for approval."""
    play(w, upto=2)
    w.now = T0 + timedelta(hours=4)
    return [w.forum.add_post("g1/vote", nick, "М1", w.now - timedelta(seconds=30), held=True) for nick in CHANGED]


def _told(w) -> list[str]:
    return [text for to, text, *_ in w.bot_pms() if to == GM and TOLD in text]


def _stored(w, ids: list[str]) -> dict[str, datetime]:
    with w.daemon.sessions.begin() as session:
        return dict(session.execute(select(InputRow.item_id, InputRow.first_seen_at).where(
            InputRow.kind == "post", InputRow.item_id.in_(ids))).all())


def _hanged(w) -> dict[str, str]:
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    return {p.nick: p.died.phase for p in run.result.players if p.died}


def test_C3_a_held_vote_is_no_vote_and_each_GM_is_told_once(world):
    w = world
    held = _hold_votes(w)
    w.tick()
    w.now += timedelta(minutes=30)
    w.tick()  # the same held posts read again: nothing stored, nobody told twice
    assert _stored(w, [p.id for p in held]) == {}
    told = _told(w)
    assert len(told) == len(CHANGED)  # one PM per held post, however many ticks read it
    assert all(any(p.id in t and p.author in t for t in told) for p in held)
    w.now = STEPS[3][0]
    w.tick()  # Day 1 resolves with the posts still held: the players' thread shows 7 to 3
    assert _hanged(w) == {"Маф1": "day 1"}  # counted, the held votes would have hanged М1
    assert len(_told(w)) == len(CHANGED)


def test_C1_a_vote_approved_before_the_deadline_counts_from_the_tick_that_reads_it(world):
    w = world
    held = _hold_votes(w)
    w.tick()
    w.now = T0 + timedelta(hours=6)
    for post in held:
        w.forum.approve_post(post.id)
    read = w.now
    w.tick()
    # stored as new posts when first read visible (not at the tick that saw them held), never as edits
    assert _stored(w, [p.id for p in held]) == {p.id: read for p in held}
    with w.daemon.sessions.begin() as session:
        assert not session.scalars(select(InputRow.id).where(
            InputRow.item_id.in_([p.id for p in held]), InputRow.edit_count > 0)).all()
    w.now = STEPS[3][0]
    w.tick()
    assert _hanged(w) == {"М1": "day 1"}  # 8 to 2 with the approved votes, at their stamps (C-1, M-8)
    assert len(_told(w)) == len(CHANGED)  # approval tells nobody again


def test_C13_a_vote_approved_after_the_deadline_leaves_the_announced_day_as_it_was(world):
    w = world
    held = _hold_votes(w)
    w.tick()
    w.now = STEPS[3][0]
    w.tick()  # Day 1 resolved and announced while the posts were held
    assert _hanged(w) == {"Маф1": "day 1"}
    w.now = DEADLINE + timedelta(minutes=30)
    for post in held:
        w.forum.approve_post(post.id)
    w.tick()
    w.now += timedelta(minutes=5)
    w.tick()
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert {p.nick: p.died.phase for p in run.result.players if p.died} == {"Маф1": "day 1"}
    assert sorted(item for item, *_ in run.late) == sorted(p.id for p in held)
    assert {phase for _, phase, *_ in run.late} == {"day 1"}
    late_pms = [text for to, text, *_ in w.bot_pms() if to == GM and "Прочитано после итогов" in text]
    assert len(late_pms) == len(CHANGED)  # C-13's one PM per late input, on top of the held notices


def test_C11_a_vote_approved_off_the_last_page_is_read_by_the_re_read_before_the_deadline(world):
    """Approved once its page has left the thread's last page: the ordinary tick does not see it, the vote
    thread's re-read before the deadline does, and the day counts it."""
    w = world
    w.forum.page_size = 3
    held = _hold_votes(w)
    w.tick()
    w.now = T0 + timedelta(hours=5)
    for n in range(6):  # a non-player's chatter pushes the held posts off the last page (C-3: no votes)
        w.forum.add_post("g1/vote", "Зритель", f"привет {n}", w.now - timedelta(minutes=10 - n))
    w.tick()
    w.now = T0 + timedelta(hours=6)
    for post in held:
        w.forum.approve_post(post.id)
    w.tick()
    assert _stored(w, [p.id for p in held]) == {}  # not on the pages an ordinary tick reads
    w.now = STEPS[3][0]
    w.tick()
    assert _stored(w, [p.id for p in held]) == {p.id: w.now for p in held}
    assert _hanged(w) == {"М1": "day 1"}
    assert len(_told(w)) == len(CHANGED)
