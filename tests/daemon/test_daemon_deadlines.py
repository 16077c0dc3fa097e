"""A daemon stopped across deadlines resolves them, in order, on restart (issue 3, "Done means" 4); a phase that
would have opened and ended while it was down opens when it is back (C-14, issue 26 item 6)."""

from __future__ import annotations

from datetime import timedelta

from daemon_world import STEPS, T0, World
from forumbot.texts import get_texts
from forumbot.store.game import fold_game


def test_stopped_across_day_and_night_deadlines_resolves_the_day_and_opens_the_night_when_back(tmp_path):
    w = World(tmp_path / "down")
    w.start()
    for at, act in STEPS[:3]:  # Setup, the confirmations, Day 1 open with its votes read
        w.now = at
        act(w)
        w.tick()
    for at, act in STEPS[3:6]:  # then the daemon is down past Day 1's deadline and the whole of Night 1
        w.now = at
        act(w)
    back = w.now
    w.restart()
    w.tick()
    texts = [text for _, text, at in w.bot_posts("g1/game") if at >= back]
    day = next(i for i, t in enumerate(texts) if "Итоги дня 1" in t)
    assert "Маф1" in texts[day]  # the votes counted at the day's own deadline
    assert not any("Итоги ночи 1" in t for t in texts)  # C-14: the night never opened, so it is not over
    t = get_texts("ru", lambda s: s, "Europe/Moscow")
    opening = next(i for i, text in enumerate(texts) if "Наступила ночь 1" in text)
    assert day <= opening and t.phases.late_opening(T0 + timedelta(hours=24), back) in texts[opening]
    run = fold_game(w.daemon.sessions, w.config, "g1", w.now)
    assert (run.phase, run.phase_opens, run.next_deadline) == ("night 1", back, back + timedelta(hours=12))
    w.now = back + timedelta(hours=12, minutes=1)
    w.tick()
    night = [text for _, text, at in w.bot_posts("g1/game") if at > back and "Итоги ночи 1" in text]
    assert len(night) == 1 and "М2" in night[0]  # the shot sent while the bot was down counted, once
    w.close()
