"""A read cut short resolves no deadline (issue 7 item 9): when the adapter says a page came back incomplete, the
tick stops that game's cycle before the fold; the next whole read catches up, as if nothing had happened."""

from __future__ import annotations

from daemon_world import STEPS, World, play
from sqlalchemy import select

from forumbot.exit_codes import EXIT_OK, EXIT_UNREACHABLE
from forumbot.cycle.daemon import exit_code
from forumbot.errors import PageIncomplete
from forumbot.store.models import OutboxRow

DAY_1_RESOLVES = 3


def outbox(w: World) -> list:
    with w.daemon.sessions.begin() as s:
        return sorted(s.execute(select(OutboxRow.key, OutboxRow.status)).all())


def test_a_vote_thread_cut_short_at_the_deadline_resolves_nothing_until_read_whole(tmp_path):
    reference = World(tmp_path / "reference")
    play(reference)
    expected = reference.state()
    reference.close()

    w = World(tmp_path / "cut")
    play(w, upto=DAY_1_RESOLVES - 1)
    at, act = STEPS[DAY_1_RESOLVES]
    w.now = at
    act(w)
    before, queued = w.state(), outbox(w)
    whole = w.forum.fetch_posts

    def cut_vote_thread(topic, after=None):
        if topic.endswith("/vote"):
            raise PageIncomplete("phpbb: viewtopic.php?t=3 came back incomplete (20480 bytes, no end of page)")
        return whole(topic, after)

    w.forum.fetch_posts = cut_vote_thread
    report = w.tick()
    assert exit_code(report) == EXIT_UNREACHABLE
    assert w.state() == before and outbox(w) == queued  # no day result, nothing new to send
    w.forum.fetch_posts = whole
    assert exit_code(w.tick()) == EXIT_OK
    for at, act in STEPS[DAY_1_RESOLVES + 1:]:
        w.now = at
        act(w)
        w.tick()
    assert w.state() == expected
    w.close()
