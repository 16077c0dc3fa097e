"""R-11 through the daemon: the deadline re-read reads the game thread too when a post minimum is set (C-11), so a
game-thread post a moderator deleted before the deadline stops counting, and an edit changes no count."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import CAST, T0, World, game_toml
from sqlalchemy import select

from forumbot.store.game import fold_game
from forumbot.store.models import InputRow

DEADLINE = T0 + timedelta(hours=24)
OPTIONS = '\n[games.g1.options]\npost_minimum = 1\npost_minimum_action = "autokill"\n'


def _day(w: World) -> dict[str, object]:
    """Every player votes `ннв` and writes one game-thread post."""
    w.start()
    w.now = T0 - timedelta(hours=20)
    for nick, _ in CAST:
        w.pm(nick, "подтверждаю")
    w.tick()
    w.now = T0 + timedelta(hours=2)
    posts = {nick: w.post("game", nick, f"Я {nick}, и я мирный") for nick, _ in CAST}
    for nick, _ in CAST:
        w.post("vote", nick, "ннв")
    w.tick()
    return posts


def _died(w: World, nick: str):
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    died = next(p.died for p in run.result.players if p.nick == nick)
    return (died.phase, died.cause) if died else None


def _deleted_at(w: World, item_id: str):
    with w.daemon.sessions.begin() as s:
        return s.scalar(select(InputRow.deleted_at).where(InputRow.item_id == item_id, InputRow.topic == "g1/game"))


def test_r11_a_game_post_deleted_before_the_deadline_is_seen_gone_by_the_reread_and_stops_counting(tmp_path):
    """R-11 / C-11: the re-read at the deadline covers the game thread; the deleted post no longer counts, so its
    author, below the minimum, leaves as an autokill; an edited post still counts by the text first stored."""
    w = World(tmp_path, games=game_toml("g1") + OPTIONS)
    posts = _day(w)
    w.now = T0 + timedelta(hours=5)
    w.forum.delete_post(posts["М4"].id)  # a moderator removes it
    w.forum.edit_post(posts["М5"].id, "[quote]x[/quote]", w.now - timedelta(minutes=5))  # quotes only now
    w.tick()
    assert _deleted_at(w, posts["М4"].id) is None  # an ordinary cycle does not see a deletion
    for minutes in range(120, 0, -20):  # cron ran through the 2 h before the deadline: no C-14 gap waives R-11
        w.now = DEADLINE - timedelta(minutes=minutes)
        w.tick()
    w.now = DEADLINE + timedelta(minutes=1)
    w.tick()
    assert _deleted_at(w, posts["М4"].id) == DEADLINE
    assert _died(w, "М4") == ("day 1", "autokill")
    assert _died(w, "М5") is None
    w.close()


def test_r11_without_a_post_minimum_the_game_thread_is_not_reread(tmp_path):
    """R-11 off: the deadline re-read stays the vote thread's alone (no extra reads of the game thread)."""
    w = World(tmp_path)
    posts = _day(w)
    w.now = T0 + timedelta(hours=5)
    w.forum.delete_post(posts["М4"].id)
    w.tick()
    w.now = DEADLINE + timedelta(minutes=1)
    w.tick()
    assert _deleted_at(w, posts["М4"].id) is None
    assert _died(w, "М4") is None
    w.close()
