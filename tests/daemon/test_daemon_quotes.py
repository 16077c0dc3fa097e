"""H-3 / M-7 end to end: the adapter removes a quote from a post's text and marks the post `quoted`; the store
keeps the mark and the fold sees the vote-thread post as one with a quote, so it is no vote."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import CAST, T0, World
from sqlalchemy import select

from forumbot.store.models import InputRow
from forumbot.store.game import fold_game


def _died(w: World, nick: str):
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    died = next(p.died for p in run.result.players if p.nick == nick)
    return (died.phase, died.cause) if died else None


def test_H3_M7_a_vote_post_with_a_removed_quote_is_no_vote_through_tick(tmp_path):
    w = World(tmp_path)
    w.start()
    w.now = T0 - timedelta(hours=20)
    for nick, _ in CAST:
        w.pm(nick, "подтверждаю")
    w.tick()
    w.now = T0 + timedelta(hours=2)
    at = w.now - timedelta(minutes=1)
    for nick in ("Шериф", "М1"):
        w.forum.add_post("g1/vote", nick, "Маф1", at)
    # a quote of someone's post and a bare name: the adapter hands back only the name, marked quoted
    quoting = [w.forum.add_post("g1/vote", nick, "Маф1", at, quoted=True) for nick in ("М2", "М3")]
    for nick in ("Дон", "Маф1", "Маф2"):
        w.forum.add_post("g1/vote", nick, "М1", at)
    # a quote in the game thread is just talk
    w.forum.add_post("g1/game", "М4", "согласен", at, quoted=True)
    w.tick()
    with w.daemon.sessions.begin() as s:
        rows = {r.item_id: r for r in s.scalars(select(InputRow).where(InputRow.kind == "post"))}
    assert all(rows[p.id].quoted and rows[p.id].first_quoted for p in quoting)
    assert rows[quoting[0].id].text == "Маф1"  # the text as the adapter gave it
    w.now = T0 + timedelta(hours=24, minutes=1)
    w.tick()
    # М2 and М3 cast no vote: М1 leads 3 to 2 (with their votes Маф1 would have led 4 to 3)
    assert _died(w, "М1") == ("day 1", "vote") and _died(w, "Маф1") is None
    texts = [t.replace("[b]", "").replace("[/b]", "") for _, t, _ in w.bot_posts()]
    assert any("Не засчитано: М2 «Маф1» (с цитатой) — это не голос: в голосе должен быть только ник одного игрока, "
               "без других слов и цитат." in t for t in texts)  # said once, no markup
    w.close()


def test_H3_M7_without_the_quote_the_same_posts_are_votes(tmp_path):
    """The control: the same game with the posts unquoted lynches Маф1."""
    w = World(tmp_path)
    w.start()
    w.now = T0 - timedelta(hours=20)
    for nick, _ in CAST:
        w.pm(nick, "подтверждаю")
    w.tick()
    w.now = T0 + timedelta(hours=2)
    at = w.now - timedelta(minutes=1)
    for nick in ("Шериф", "М1", "М2", "М3"):
        w.forum.add_post("g1/vote", nick, "Маф1", at)
    for nick in ("Дон", "Маф1", "Маф2"):
        w.forum.add_post("g1/vote", nick, "М1", at)
    w.tick()
    w.now = T0 + timedelta(hours=24, minutes=1)
    w.tick()
    assert _died(w, "Маф1") == ("day 1", "vote") and _died(w, "М1") is None
    w.close()
