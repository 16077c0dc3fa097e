"""An unexpected error in one game or forum never ends the whole tick (issue 17 item 21).

A profile override that made extraction raise TypeError ended `forumbot tick` with a traceback: no game on any
forum was read, folded or delivered. Now that game (or that forum's games) is `broken` for the tick, named with
the error, the exit code is 2, and every other game is played as usual; the next tick tries again."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import BOT, CAST, World, game_toml

from adapters.memory.forum import MemoryForum
from forumbot.exit_codes import EXIT_CONFIG
from forumbot.cycle.daemon import Daemon, describe, exit_code


class Faulty(MemoryForum):
    """A memory forum whose reads of one game's thread, or of the inbox, raise what no handler expects."""

    bad_topic: str | None = None
    bad_inbox = False

    def fetch_posts(self, topic, after=None):
        if topic == self.bad_topic:
            raise TypeError("'NoneType' object is not subscriptable")
        return super().fetch_posts(topic, after)

    def fetch_pms(self, after=None):
        if self.bad_inbox:
            raise KeyError("pm_row")
        return super().fetch_pms(after)


def test_a_game_whose_read_raises_unexpectedly_is_broken_the_others_play_on(tmp_path):
    w = World(tmp_path, games=game_toml("g1") + game_toml("g2"))
    w.forum.__class__ = Faulty
    w.forum.bad_topic = "g1/game"
    w.start("g1")
    w.start("g2", seed=3)
    w.now += timedelta(minutes=1)
    report = w.tick()  # today: TypeError out of tick(), nothing done for g2
    outcome = {o.name: o for o in report.games}
    assert outcome["g1"].state == "broken" and outcome["g2"].state == "done"
    assert report.broken == {"g1": "g1: unexpected error: TypeError: 'NoneType' object is not subscriptable"}
    assert exit_code(report) == EXIT_CONFIG and "g1: unexpected error: TypeError" in describe(report)
    assert w.bot_posts("g1/game") == [] and len(w.bot_posts("g2/game")) == 1
    assert {to for to, _, _ in w.bot_pms()} == {n for n, _ in CAST}  # g2's role PMs went out
    w.forum.bad_topic = None
    w.now += timedelta(minutes=1)
    report = w.tick()  # the next tick plays g1 too
    assert {o.name: o.state for o in report.games} == {"g1": "done", "g2": "done"} and not report.broken
    assert len(w.bot_posts("g1/game")) == 1
    w.close()


def test_a_forum_whose_inbox_raises_unexpectedly_stops_its_games_only(tmp_path):
    other = Faulty(bot=BOT)
    other.bad_inbox = True
    games = (game_toml("g1").replace('forum = "main"', 'forum = "other"') + game_toml("g2", prefix="x")
             + f'\n[forums.other]\nengine = "memory"\nlogin = "{BOT}"\n')
    w = World(tmp_path, games=games)
    other.clock = lambda: w.now
    forums = {"main": w.forum, "other": other}
    w.daemon = Daemon(w.config, environ={}, fold=w.fold, clock=lambda: w.now, sleep=lambda s: None,
                      factory=lambda forum, env: forums[forum.name])
    w.daemons.append(w.daemon)
    w.start("g1")
    w.start("g2", seed=3)
    w.now += timedelta(minutes=1)
    report = w.tick()  # today: KeyError out of tick() before forum "main" is looked at
    outcome = {o.name: o for o in report.games}
    assert outcome["g1"].state == "broken" and outcome["g2"].state == "done"
    assert report.broken == {"g1": "g1: unexpected error: KeyError: 'pm_row'"}
    assert exit_code(report) == EXIT_CONFIG
    assert len(w.bot_posts("g2/game")) == 1 and other.posts_by(BOT) == []
    w.close()


def test_a_stopped_game_whose_closing_post_raises_unexpectedly_does_not_stop_the_next_game(tmp_path):
    from forumbot.games.stop import stop_game

    w = World(tmp_path, games=game_toml("g1") + game_toml("g2"))
    w.start("g1")
    w.start("g2", seed=3)
    stop_game(w.daemon.sessions, w.config, "g1", w.now, reason="тест")
    plain = w.forum.reply

    def reply(topic, text):
        if topic.startswith("g1/"):
            raise AttributeError("'NoneType' object has no attribute 'get'")
        return plain(topic, text)

    w.forum.reply = reply
    w.now += timedelta(minutes=1)
    report = w.tick()  # today: AttributeError out of tick(), g2 never played
    assert {o.name: o.state for o in report.games} == {"g1": "broken", "g2": "done"}
    assert "g1: unexpected error: AttributeError" in report.broken["g1"]
    assert len(w.bot_posts("g2/game")) == 1
    w.close()
