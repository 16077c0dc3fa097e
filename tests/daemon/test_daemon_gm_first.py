"""issue 17 item 11: a GM's answer does not wait behind the players' PMs. At the forum's PM pace, ten
confirmations' answers took four minutes in Setup and the GM's `статус` came after them: PMs to the GMs go first
among the PMs due, each group in its order; posts keep their places."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import CAST, GM, world  # noqa: F401 (a fixture)

from forumbot.errors import FloodLimited


def _pace(w, allowed: int) -> None:
    """The forum takes `allowed` PMs, then its flood limit refuses the rest of this tick."""
    original, state = w.forum.send_pm, {"n": 0}

    def paced(to, subject, text):
        state["n"] += 1
        if state["n"] > allowed:
            raise FloodLimited("next pm allowed in 30 s", retry_after=30)
        return original(to, subject, text)

    w.forum.send_pm = paced


def test_the_gms_answer_goes_before_the_players_pms_due_with_it(world):
    w = world
    w.start()
    w.tick()  # the Setup post and the role PMs
    sent = len(w.bot_pms())
    w.now += timedelta(hours=1)
    for nick, _ in CAST:
        w.pm(nick, "подтверждаю", ago=timedelta(minutes=2))
    w.pm(GM, "статус", ago=timedelta(minutes=1))  # the last to arrive
    _pace(w, 1)
    w.tick()
    [(to, text, _)] = w.bot_pms()[sent:]
    assert to == GM and "Фаза: подготовка" in text
    w.forum.send_pm = type(w.forum).send_pm.__get__(w.forum)
    w.tick()  # the players' answers follow, in their order
    later = [to for to, _, _ in w.bot_pms()[sent + 1:]]
    assert GM not in later and len(later) >= 5 and later == [n for n, _ in CAST if n in later]
