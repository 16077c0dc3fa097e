"""R-13 `lock_threads`: which locks a game owes (outbox/locks.py, derived from the phases resolved, never from the
fold), the options' checks, and what `probe --handshake` and `check-config --online` say about the bot's right to
lock, read without locking anything."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from adapters.memory.forum import MemoryForum
from forumbot.cli.check import _check_lock
from forumbot.texts import TABLES
from forumbot.errors import ForumUnavailable
from forumbot.model import Where
from forumbot.options import option_problems
from forumbot.outbox.locks import lock_messages
from forumbot.probe.handshake import FAILING, UNVERIFIED, VERIFIED, lock_flow

T = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
ON = {"lock_threads": True}
NIGHTS = {"lock_threads": True, "lock_game_thread_at_night": True}


def owed(options, labels, phase):
    resolved = [(label, T + timedelta(hours=12 * n)) for n, label in enumerate(labels)]
    return [(m.key, m.to, m.text, m.at) for m in lock_messages(options, resolved, phase)]


def test_r13_nothing_is_owed_without_lock_threads():
    assert owed({}, ["setup", "day 1", "night 1"], "day 2") == []
    assert owed({"lock_threads": False}, ["setup", "day 1"], "night 1") == []


def test_r13_a_days_deadline_closes_the_vote_thread_and_the_next_day_opens_it():
    assert owed(ON, ["setup", "day 1"], "night 1") == [("lock/vote/day 1", "vote", "lock", T + timedelta(hours=12))]
    assert [k for k, *_ in owed(ON, ["setup", "day 1", "night 1", "day 2"], "night 2")] == [
        "lock/vote/day 1", "unlock/vote/night 1", "lock/vote/day 2"]
    (unlock,) = [m for m in lock_messages(ON, [("night 1", T)], "day 2")]
    assert (unlock.where, unlock.to, unlock.text, unlock.at) == (Where.LOCK, "vote", "unlock", T)


def test_r13_the_start_of_day_one_and_a_runoff_touch_nothing():
    assert owed(ON, ["setup"], "day 1") == []
    assert owed(ON, ["setup", "day 1"], "runoff 1") == []  # the runoff is voted in the vote thread
    assert [k for k, *_ in owed(ON, ["setup", "day 1", "runoff 1"], "night 1")] == ["lock/vote/runoff 1"]


def test_r13_the_game_thread_closes_for_the_night_only_with_lock_game_thread_at_night():
    assert [k for k, *_ in owed(NIGHTS, ["setup", "day 1", "night 1"], "day 2")] == [
        "lock/vote/day 1", "lock/game/day 1", "unlock/vote/night 1", "unlock/game/night 1"]


def test_r13_a_game_over_keeps_the_vote_thread_closed_and_opens_the_game_thread():
    assert [k for k, *_ in owed(NIGHTS, ["day 3"], "ended")] == ["lock/vote/day 3"]  # no night follows
    assert [k for k, *_ in owed(NIGHTS, ["night 3"], "ended")] == ["unlock/game/night 3"]
    assert [k for k, *_ in owed(ON, ["night 3"], "ended")] == []


def test_r13_the_options_are_flags_and_the_night_one_needs_lock_threads():
    assert option_problems("moscow", NIGHTS) == []
    assert option_problems("free_hunt", ON) == []
    assert option_problems("moscow", {"lock_threads": "yes"}) == [
        "options.lock_threads: expected true or false, got str 'yes' (R-13)"]
    assert option_problems("moscow", {"lock_game_thread_at_night": True}) == [
        "options.lock_game_thread_at_night: only read with lock_threads = true (R-13)"]



def test_r13_the_handshake_says_whether_the_bot_may_lock_without_locking():
    forum = MemoryForum(bot="bot")
    flow = lock_flow(forum, "t/vote", True, "en")
    assert (flow.name, flow.status) == ("lock:t/vote", VERIFIED) and "nothing was locked" in flow.said
    forum.moderator = False
    assert lock_flow(forum, "t/vote", True, "en").status == FAILING
    assert "moderator" in lock_flow(forum, "t/vote", True, "ru").said.replace("модератора", "moderator")
    assert lock_flow(forum, "t/vote", False, "en").status == UNVERIFIED
    assert forum.lock_log == [] and not [c for c in forum.calls if c.startswith("lock_thread")]


def test_r13_the_handshake_fails_the_lock_on_an_engine_without_one():
    class NoLock:
        CAPABILITIES = frozenset()

    flow = lock_flow(NoLock(), "t/vote", True, "ru")
    assert flow.status == FAILING and flow.said == "на этом движке бот не умеет закрывать темы (lock_threads здесь не работает)"


@dataclass
class Game:
    name: str = "g1"
    vote_thread: str = "t/vote"
    options: dict = field(default_factory=lambda: dict(ON))


def test_r13_check_config_online_says_whether_the_bot_may_lock():
    forum = MemoryForum(bot="bot")
    wrong, unreachable, verified = [], [], []
    _check_lock(forum, Game(), wrong, unreachable, verified, TABLES["en"])
    assert (wrong, unreachable) == ([], []) and verified == [
        "verified: games.g1.options.lock_threads: the bot's account has the lock control on t/vote (nothing was locked)"]
    forum.moderator = False
    _check_lock(forum, Game(), wrong, unreachable, verified, TABLES["en"])
    assert wrong == ["games.g1.options.lock_threads: the bot's account has no lock control on t/vote: give it a "
                     "moderator's right in the game's forum, or set lock_threads = false"]
    forum.fail_next(ForumUnavailable("connection reset"))
    _check_lock(forum, Game(), [], unreachable, verified, TABLES["en"])
    assert unreachable == ["games.g1.options.lock_threads: cannot read the lock control on t/vote: connection reset"]
    assert forum.lock_log == []
