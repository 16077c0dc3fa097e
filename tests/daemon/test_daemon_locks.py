"""R-13: with lock_threads the bot closes the vote thread at each day's deadline and opens it when the next day
starts (with lock_game_thread_at_night the game thread for the night too), as outbox rows done once; a refusal is
told to the GMs by PM once and changes nothing in the game. The scripted Moscow game of daemon_world: Day 1
resolves into Night 1 (T0+24h), Night 1 into Day 2 (T0+36h)."""

from __future__ import annotations

from daemon_world import GM, STEPS, World, game_toml, play
from sqlalchemy import select

from forumbot.games.status import game_status
from forumbot.store.models import OutboxRow, InputRow

DAY1_END, NIGHT1_END = STEPS[3][0], STEPS[5][0]


def locking(tmp_path, night: bool = False) -> World:
    options = "\n[games.g1.options]\nlock_threads = true\n" + ("lock_game_thread_at_night = true\n" if night else "")
    return World(tmp_path, games=game_toml("g1") + options)


def statuses(w: World) -> dict[str, str]:
    with w.daemon.sessions.begin() as s:
        return {r.key: r.status for r in s.scalars(select(OutboxRow).where(OutboxRow.where == "lock"))}


def test_r13_the_vote_thread_closes_at_the_days_deadline_and_opens_with_the_next_day(tmp_path):
    w = locking(tmp_path)
    play(w, upto=3)  # Day 1 resolved
    assert w.forum.locked == {"g1/vote"}
    assert [(t, locked) for t, locked, _ in w.forum.lock_log] == [("g1/vote", True)]
    # the day's result is posted before the thread closes
    last_reply = max(i for i, c in enumerate(w.forum.calls) if c.startswith("reply"))
    assert w.forum.calls.index("lock_thread g1/vote lock") > last_reply
    w.tick()  # a later tick locks nothing again: the row is sent
    assert len(w.forum.lock_log) == 1 and statuses(w) == {"lock/vote/day 1": "sent"}
    for at, act in STEPS[4:6]:
        w.now = at
        act(w)
        w.tick()
    assert w.forum.locked == set() and [locked for _, locked, _ in w.forum.lock_log] == [True, False]
    assert statuses(w) == {"lock/vote/day 1": "sent", "unlock/vote/night 1": "sent"}
    w.close()


def test_r13_the_vote_thread_opens_before_the_days_opening_post(tmp_path):
    w = locking(tmp_path)
    play(w, upto=5)  # Night 1 resolved: Day 2 opens
    after_night = w.forum.calls[w.forum.calls.index("lock_thread g1/vote unlock"):]
    assert any(c.startswith("reply g1/") for c in after_night)  # the posts of Day 2's opening come after it
    w.close()


def test_r13_with_lock_game_thread_at_night_the_game_thread_closes_for_the_night(tmp_path):
    w = locking(tmp_path, night=True)
    play(w, upto=3)
    assert w.forum.locked == {"g1/vote", "g1/game"}
    play_on(w, 4, 5)
    assert w.forum.locked == set()
    assert sorted(statuses(w)) == ["lock/game/day 1", "lock/vote/day 1", "unlock/game/night 1",
                                   "unlock/vote/night 1"]
    w.close()


def play_on(w: World, first: int, last: int) -> None:
    for at, act in STEPS[first:last + 1]:
        w.now = at
        act(w)
        w.tick()


def test_r13_a_refused_lock_is_told_to_the_gms_once_and_the_game_goes_on(tmp_path):
    w = locking(tmp_path)
    w.forum.moderator = False
    play(w, upto=3)
    notices = [t for to, t, _ in w.bot_pms() if to == GM and "R-13" in t]
    assert len(notices) == 1 and "Форум не дал боту закрыть тему голосования" in notices[0]
    assert "memory: not a moderator of g1/vote" in notices[0]
    play_on(w, 4, 6)  # the unlock at Day 2 is refused too: only logged
    assert len([t for to, t, _ in w.bot_pms() if to == GM and "R-13" in t]) == 1
    assert statuses(w) == {"lock/vote/day 1": "refused", "unlock/vote/night 1": "refused"}
    assert w.forum.lock_log == []
    status = game_status(w.daemon.sessions, w.config, "g1")
    assert "форум отказал, не отправлено: lock/vote/day 1 (закрытие или открытие темы)" in status
    # the game went on as without the option: Day 2 opened in the game thread
    assert any("День 2" in t or "день 2" in t.casefold() for _, t, _ in w.bot_posts("g1/game"))
    w.close()


def test_r13_a_post_in_a_closed_thread_is_read_as_usual(tmp_path):
    w = locking(tmp_path)
    play(w, upto=3)
    assert "g1/vote" in w.forum.locked
    w.now = STEPS[4][0]
    w.post("vote", "М3", "я мирный, если что")  # a moderator's view: the post arrived in the closed thread
    w.tick()
    assert any(c == "fetch_posts g1/vote" for c in w.forum.calls[-6:])
    with w.daemon.sessions.begin() as s:
        stored = [(r.topic, r.author) for r in s.scalars(select(InputRow).where(InputRow.kind == "post"))]
    assert stored.count(("g1/vote", "М3")) == 2  # the Day 1 vote and the night's post
    w.close()


def test_r13_without_lock_threads_nothing_is_locked_or_asked(tmp_path):
    w = World(tmp_path)
    play(w)
    assert not [c for c in w.forum.calls if "lock" in c] and statuses(w) == {}
    w.close()
