"""C-11 through the daemon (issue 26 item 3): a moderator deletes the FIRST vote post of a day (or the first two,
or every post of the day, or one alone on its page). The deadline's re-read (and a GM's `конец-фазы`, which
re-reads the same way) starts at the first post of the day still on the forum: exactly the deleted posts are
gone, every other vote counts (M-7, M-8) and the player with the most votes leaves (M-9). On today's main
the re-read, started at the deleted post, found nothing there and marked every post but the last gone: all the
day's votes void and «никто не уходит»."""

from __future__ import annotations

from datetime import timedelta

import pytest
from daemon_world import CAST, GM, T0, World
from sqlalchemy import select

from forumbot.errors import PostGone
from forumbot.store.models import InputRow
from forumbot.store.game import fold_game

DEADLINE = T0 + timedelta(hours=24)
# 9 votes: М6's first (deleted in every case), then Маф1 5 to М1 3
VOTES = [("М6", "М1"), ("Шериф", "Маф1"), ("М1", "Маф1"), ("М2", "Маф1"), ("М3", "Маф1"), ("М5", "Маф1"),
         ("Дон", "М1"), ("Маф1", "М1"), ("Маф2", "М1")]


def _day(w: World) -> list[str]:
    """Setup confirmed, Day 1 opened, the 9 votes posted and stored; their post ids, in order."""
    w.start()
    w.now = T0 - timedelta(hours=20)
    for nick, _ in CAST:
        w.pm(nick, "подтверждаю")
    w.tick()
    w.now = T0 + timedelta(hours=2)
    ids = []
    for n, (voter, target) in enumerate(VOTES):
        ids.append(w.post("vote", voter, target, ago=timedelta(minutes=30 - n)).id)
    w.tick()
    return ids


def _died(w: World, nick: str):
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    died = next(p.died for p in run.result.players if p.nick == nick)
    return (died.phase, died.cause) if died else None


def _deleted(w: World) -> set[str]:
    with w.daemon.sessions.begin() as s:
        return set(s.scalars(select(InputRow.item_id).where(InputRow.deleted_at.is_not(None))))


def _result_text(w: World) -> str:
    texts = [t.replace("[b]", "").replace("[/b]", "") for _, t, _ in w.bot_posts("g1/game")]
    return next(t for t in texts if t.startswith("Итоговый подсчёт голосов (день 1)"))


@pytest.mark.parametrize("how", ["deadline", "end-phase"])
def test_C11_issue26_item3_the_first_vote_post_of_the_day_deleted_only_it_is_void(tmp_path, how):
    w = World(tmp_path)
    ids = _day(w)
    w.now = T0 + timedelta(hours=5)
    w.forum.delete_post(ids[0])  # a moderator removes the day's first vote post
    w.tick()
    if how == "end-phase":
        w.now = T0 + timedelta(hours=6)
        w.pm(GM, "конец-фазы")
        w.now = T0 + timedelta(hours=6, minutes=2)
    else:
        w.now = DEADLINE + timedelta(minutes=1)
    w.tick()
    assert _deleted(w) == {ids[0]}  # C-11: that post is gone, and nothing else
    assert _died(w, "Маф1") == ("day 1", "vote")  # M-9: 5 to 3, every other vote counted
    result = _result_text(w)
    assert "Не засчитано: М6 «М1» — сообщение удалено из темы." in result
    assert "никто не уходит" not in result.lower()
    w.close()


def test_C11_issue26_item3_the_first_two_vote_posts_deleted(tmp_path):
    w = World(tmp_path)
    ids = _day(w)
    w.now = T0 + timedelta(hours=5)
    w.forum.delete_post(ids[0])
    w.forum.delete_post(ids[1])  # Шериф's vote for Маф1 too: 4 to 3
    w.now = DEADLINE + timedelta(minutes=1)
    w.tick()
    assert _deleted(w) == {ids[0], ids[1]}
    assert _died(w, "Маф1") == ("day 1", "vote")
    w.close()


@pytest.mark.parametrize("opener", [False, True])
def test_C11_issue26_item3_every_post_of_the_day_deleted(tmp_path, opener):
    """The 9 votes and the bot's interim count after them, all deleted: no post of the day is left to start the
    re-read at. Each one's own link says it is gone; with a post before the day (the thread's opener), the
    re-read starts there and shows none of them."""
    w = World(tmp_path)
    if opener:
        w.forum.add_post("g1/vote", GM, "Тема голосования.", T0 - timedelta(days=2))
    ids = _day(w)
    day = [p.id for p in w.forum.topics["g1/vote"] if p.posted_at >= T0]
    assert set(ids) < set(day)  # the bot's count follows the votes
    w.now = T0 + timedelta(hours=5)
    for post_id in day:
        w.forum.delete_post(post_id)
    w.now = DEADLINE + timedelta(minutes=1)
    w.tick()
    assert _deleted(w) == set(ids)  # every stored one (the count was never read back)
    assert _died(w, "Маф1") is None and _died(w, "М1") is None  # no vote left: nobody is lynched
    w.close()


def test_C11_issue26_item3_a_deleted_first_post_alone_on_its_page(tmp_path):
    """One post a page: the deleted vote's page is gone with it; the re-read starts at the next post's page."""
    w = World(tmp_path)
    w.forum.page_size = 1
    ids = _day(w)
    w.now = T0 + timedelta(hours=5)
    w.forum.delete_post(ids[0])
    w.now = DEADLINE + timedelta(minutes=1)
    w.tick()
    assert _deleted(w) == {ids[0]}
    assert _died(w, "Маф1") == ("day 1", "vote")
    assert "Не засчитано: М6 «М1» — сообщение удалено из темы." in _result_text(w)
    w.close()


def test_C11_issue26_item3_links_that_all_answer_gone_wipe_no_vote(tmp_path, caplog):
    """Every post link answering "gone", the thread's earlier post's too (links broken, not posts deleted: the
    ordinary read still shows them): nothing is marked deleted, the daemon's log says the re-read could not start,
    and the day is resolved on the votes stored. A wrongly wiped day is worse than a missed deletion."""
    caplog.set_level("WARNING", logger="forumbot.tick")
    w = World(tmp_path)
    w.forum.add_post("g1/vote", GM, "Тема голосования.", T0 - timedelta(days=2))
    _day(w)

    def broken(topic, post_id, ids=()):
        raise PostGone(f"post {post_id}: HTTP 404")

    w.forum.reread_from = broken
    w.now = DEADLINE + timedelta(minutes=1)
    w.tick()
    assert _deleted(w) == set()
    assert _died(w, "Маф1") == ("day 1", "vote")  # 5 to 4, М6's vote for М1 counted
    assert any("no post of the vote thread could be re-read from" in r.getMessage() for r in caplog.records)
    w.close()
