"""A daemon stopped across two deadlines resolves both, in order, on restart (issue 3, "Done means" 4)."""

from __future__ import annotations

import re

from daemon_world import STEPS, World, play


def unmarked(text: str) -> str:
    return re.sub(r"\n\n#fb:[0-9a-f]{8}$", "", text)


def test_stopped_across_day_and_night_deadlines_resolves_both_in_order(tmp_path):
    ref = World(tmp_path / "ref")
    play(ref, upto=5)
    w = World(tmp_path / "down")
    w.start()
    w.now = STEPS[0][0]
    w.tick()  # Setup goes out; then the daemon is down for two days while the game goes on
    for at, act in STEPS[1:6]:
        w.now = at
        act(w)
    w.restart()
    w.tick()
    texts = [text for _, text, _ in w.bot_posts("g1/game")]
    day = next(i for i, t in enumerate(texts) if "Итоги дня 1" in t)
    night = next(i for i, t in enumerate(texts) if "Итоги ночи 1" in t)
    assert day < night
    assert "Маф1" in texts[day] and "М2" in texts[night]  # the votes and the shot both counted
    # everything the uninterrupted daemon said was said, once, and nothing else (only the times differ, and
    # the markers of replies keyed by forum ids, which the memory forum hands out in another order here)
    assert sorted(unmarked(t) for _, t, _ in w.bot_posts()) == sorted(unmarked(t) for _, t, _ in ref.bot_posts())
    assert sorted((to, unmarked(t)) for to, t, _ in w.bot_pms()) == sorted(
        (to, unmarked(t)) for to, t, _ in ref.bot_pms())
    ref.close()
    w.close()
