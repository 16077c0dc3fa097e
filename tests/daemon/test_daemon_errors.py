"""Forum errors during a cycle (HTTP 500, timeouts, a login page instead of the thread) advance nothing and
lose nothing; the next good cycle catches up (issue 3, "Done means" 3)."""

from __future__ import annotations

import pytest
from daemon_world import BOT, GM, STEPS, World, game_toml, play, world  # noqa: F401  (fixture)
from sqlalchemy import func, select

from forumbot.exit_codes import EXIT_OK, EXIT_UNREACHABLE
from forumbot.cycle.daemon import exit_code
from forumbot.errors import FloodLimited, ForumUnavailable, LoginRequired
from forumbot.store.models import CursorRow, OutboxRow, InputRow


def snapshot(w: World) -> tuple:
    with w.daemon.sessions.begin() as s:
        return (
            s.scalar(select(func.count()).select_from(InputRow)),
            sorted(s.execute(select(CursorRow.stream, CursorRow.value)).all()),
            sorted(s.execute(select(OutboxRow.key, OutboxRow.status)).all()),
        )


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    w = World(tmp_path_factory.mktemp("reference"))
    play(w)
    state = w.state()
    w.close()
    return state


def finish(w: World, from_step: int) -> None:
    for at, act in STEPS[from_step:]:
        w.now = at
        act(w)
        w.tick()


def fail_then_recover(w: World, step: int, *errors) -> None:
    """Play up to `step`, make that step's tick meet `errors`, check it changed nothing, then play on."""
    play(w, upto=step - 1)
    at, act = STEPS[step]
    w.now = at
    act(w)
    before, forum_before = snapshot(w), w.state()
    w.forum.fail_next(*errors)
    report = w.tick()
    assert exit_code(report) == EXIT_UNREACHABLE
    assert snapshot(w) == before and w.state() == forum_before
    assert exit_code(w.tick()) == EXIT_OK  # the next good cycle catches up
    finish(w, step + 1)


@pytest.mark.parametrize("step", [2, 3, 4])
def test_http_500_on_every_retry_while_reading_changes_nothing(tmp_path, reference, step):
    w = World(tmp_path)
    retries = w.config.retries
    # inbox read fails on every attempt: the inbox is the first read of a cycle
    fail_then_recover(w, step, *[ForumUnavailable("HTTP 500")] * (retries + 1))
    assert w.state() == reference
    w.close()


def test_a_failing_thread_read_stops_the_game_before_the_fold(tmp_path, reference):
    w = World(tmp_path)
    play(w, upto=2)
    w.now = STEPS[3][0]  # Day 1's deadline has passed: a fold now would resolve it
    forum_before = w.state()
    # the inbox read succeeds, the game thread read times out on every attempt
    original = w.forum.fetch_posts
    calls = {"n": 0}

    def flaky(topic, after=None):
        calls["n"] += 1
        raise ForumUnavailable("timed out")

    w.forum.fetch_posts = flaky
    report = w.tick()
    assert exit_code(report) == EXIT_UNREACHABLE and calls["n"] == w.config.retries + 1
    assert w.state() == forum_before  # Day 1 was not resolved on a partial read
    w.forum.fetch_posts = original
    w.tick()
    finish(w, 4)
    assert w.state() == reference
    w.close()


def test_login_page_once_logs_in_again_within_the_cycle(tmp_path, reference):
    w = World(tmp_path)
    play(w, upto=1)
    w.now = STEPS[2][0]
    STEPS[2][1](w)
    w.forum.fail_next(LoginRequired("the forum served its login page"))
    assert exit_code(w.tick()) == EXIT_OK
    assert "login" in w.forum.calls
    finish(w, 3)
    assert w.state() == reference
    w.close()


def test_login_page_even_after_logging_in_changes_nothing(tmp_path, reference):
    w = World(tmp_path)
    fail_then_recover(w, 2, LoginRequired("login page"), LoginRequired("login page"))
    assert w.state() == reference
    w.close()


def test_timeout_after_the_forum_accepted_a_post_does_not_post_it_twice(tmp_path, reference):
    w = World(tmp_path)
    play(w, upto=2)
    w.now = STEPS[3][0]
    original = w.forum.reply
    state = {"done": False}

    def reply_then_time_out(topic, text):
        post_id = original(topic, text)
        if not state["done"]:
            state["done"] = True
            raise ForumUnavailable("read timed out")
        return post_id

    w.forum.reply = reply_then_time_out
    assert exit_code(w.tick()) == EXIT_UNREACHABLE
    w.tick()
    finish(w, 4)
    assert w.state() == reference
    w.close()


def test_flood_limit_while_delivering_goes_on_next_cycle(tmp_path, reference):
    w = World(tmp_path)
    w.start()
    w.now = STEPS[0][0]
    original = w.forum.send_pm
    state = {"n": 0}

    def flood_on_third(to, subject, text):
        state["n"] += 1
        if state["n"] == 3:
            raise FloodLimited("too soon", retry_after=15)
        return original(to, subject, text)

    w.forum.send_pm = flood_on_third
    report = w.tick()
    assert exit_code(report) == EXIT_OK  # routine: not an unreachable forum
    assert len(w.bot_pms()) == 2
    w.tick()
    finish(w, 1)
    assert sorted(p[:2] for p in w.bot_pms()) == sorted(p[:2] for p in reference[1])
    w.close()


def test_a_tick_stopped_by_the_flood_limit_says_what_it_deferred(tmp_path, caplog):
    """A flood deferral is routine (issue 8 item 4): the tick's summary says how many messages wait and when it
    tries again, and logs no error; the next tick sends them."""
    from forumbot.cycle.summary import tick_summary

    w = World(tmp_path)
    w.start()
    w.now = STEPS[0][0]
    original = w.forum.send_pm
    state = {"n": 0}

    def flood_on_third(to, subject, text):
        state["n"] += 1
        if state["n"] == 3:
            raise FloodLimited("next pm allowed in 45 s", retry_after=45)
        return original(to, subject, text)

    w.forum.send_pm = flood_on_third
    with caplog.at_level("INFO"):
        report = w.tick()
    [line] = tick_summary(w.daemon.sessions, report)
    with w.daemon.sessions.begin() as s:
        owed = s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "pending"))
    assert owed > 0
    # the setup post and two role PMs went out before the flood
    assert f"отправлено: 3, отложено из-за флуд-лимита форума: {owed}, следующая попытка через 45 с (" in line, line
    assert "ошибка форума" not in line, line
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
    assert "deferred by the forum's flood limit" in caplog.text
    w.tick()
    [line] = tick_summary(w.daemon.sessions, report := w.tick())
    assert "отложено" not in line
    w.close()


def test_forum_that_cannot_log_in_is_reported_unreachable(world):
    # the memory adapter keeps no cookie jar, so each cycle logs in first
    world.start()
    world.now = STEPS[0][0]
    world.forum.fail_next(*[ForumUnavailable("connection refused")] * 10)
    report = world.tick()
    assert exit_code(report) == EXIT_UNREACHABLE and world.state() == ([], [])



def test_a_post_held_by_a_flood_limit_does_not_hold_the_check_pms_after_it(tmp_path, reference):
    """Night 1 resolves: the result post and the Sheriff's and Don's check PMs are due in one tick. MyBB and
    SMF time posts and PMs apart, so a PM that must wait must not hold the night's result for a whole cron
    interval, nor a post the checks; within a kind the order stays. The next tick sends what waited, once."""
    w = World(tmp_path)
    play(w, upto=4)
    w.now, act = STEPS[5]
    act(w)
    posts, pms = len(w.bot_posts()), len(w.bot_pms())
    original = w.forum.reply

    def flood(*args, **kwargs):
        raise FloodLimited("too soon", retry_after=60)

    w.forum.reply = flood
    report = w.tick()
    assert exit_code(report) == EXIT_OK
    assert len(w.bot_posts()) == posts and len(w.bot_pms()) > pms, "the check PMs went out meanwhile"
    w.forum.reply = original
    w.tick()
    finish(w, 6)
    assert sorted(w.bot_posts()) == sorted(reference[0]) and sorted(p[:2] for p in w.bot_pms()) == sorted(
        p[:2] for p in reference[1])
    w.close()


def test_a_pm_held_by_a_flood_limit_does_not_hold_the_post_after_it(tmp_path):
    """`замена` owes the new player his role PM, then the thread its notice, then the GM his answer: with the
    PM timer running, the notice goes now and both PMs next tick, each once, the GM's answer first (issue 17
    item 11: PMs to the GMs go ahead of the players' PMs due with them)."""
    w = World(tmp_path)
    play(w, upto=4)
    w.pm(GM, "замена М4 Новичок")
    posts, pms = set(w.bot_posts()), len(w.bot_pms())
    original = w.forum.send_pm

    def flood(*args, **kwargs):
        raise FloodLimited("too soon", retry_after=60)

    w.forum.send_pm = flood
    w.tick()
    new_posts = set(w.bot_posts()) - posts
    assert len(new_posts) == 1 and "Новичок" in str(new_posts) and len(w.bot_pms()) == pms
    w.forum.send_pm = original
    w.tick()
    w.tick()
    sent = [to for to, _, _ in w.bot_pms()[pms:]]
    # and the replaced account its notice that it is out (issue 28), after the new player's role PM
    assert sent == [GM, "Новичок", "М4"] and len(w.bot_posts()) == len(posts) + 1
    w.close()


def test_in_shadow_mode_a_gms_pm_waits_behind_the_digest_a_flood_limit_held(tmp_path):
    """Shadow mode sends the GM a digest of what would be posted, then his own command's answer: both PMs. A
    flood limit on the digest holds the answer too, so the GM reads them in the order they were due."""
    w = World(tmp_path, games=game_toml("g1", mode="shadow"))
    play(w, upto=1)
    w.now, _ = STEPS[2]
    w.pm(GM, "статус")  # its answer is due after the digest of what the fold would post
    original, refused = w.forum.send_pm, []

    def digest_flooded_once(to, subject, text):
        if subject.startswith("[shadow]") and not refused:
            refused.append(text)
            raise FloodLimited("too soon", retry_after=60)
        return original(to, subject, text)

    w.forum.send_pm = digest_flooded_once
    w.tick()
    assert refused, "no digest was due"
    assert not any("Фаза:" in p.pm.text for p in w.forum.pms), "the answer went out ahead of the digest held before it"
    w.tick()
    kinds = ["digest" if p.pm.subject.startswith("[shadow]") else "answer" for p in w.forum.pms
             if p.pm.author == BOT and (p.pm.subject.startswith("[shadow]") or "Фаза:" in p.pm.text)]
    assert kinds[-1] == "answer" and kinds.count("answer") == 1 and len(kinds) > 1, kinds  # the digests first
    w.close()
