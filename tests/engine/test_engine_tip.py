"""The tip (issue 19, "Done means": a quiet tick folds nothing, a new vote on Day 6 is one step): a fold that starts
where the last tick stopped ends exactly where a whole fold ends, the whole GameRun compared, over tests/randomgames.py's
games (both variants, GM mixes with undo (C-9), pause, extend, setvote, replace, modkill (C-10), end-phase, late
inputs (C-13)) and every bundled transcript, played as ticks play them: each tick folds every input stamped by then
from the tip (and the checkpoints) the one before it made, through the store's bytes."""

from __future__ import annotations

import dataclasses
import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import START, Game  # noqa: E402
from randomgames import random_game  # noqa: E402
from test_engine_checkpoints import TRANSCRIPTS  # noqa: E402

from forumbot import replay  # noqa: E402
from forumbot.engine import fold  # noqa: E402
from forumbot.engine.checkpoint import Tip, dumps, loads  # noqa: E402
from forumbot.engine.tip import run_tipped, tip_holds  # noqa: E402
from forumbot.game import run  # noqa: E402
from forumbot.model import Input, Where  # noqa: E402
from forumbot.store.inputs import StoredInputs  # noqa: E402

GAMES = 40


def _ticks(setup, inputs, cuts, checked=False, loads_=None, whole=None):  # type: ignore[no-untyped-def]
    """Fold at each cut as the daemon would (the inputs stamped by then, the stored tip and checkpoints), and
    assert each tick's GameRun is the whole fold's. Returns how many ticks started from the tip.

    `checked`: as the daemon reads a stored game (forumbot/store/inputs.py), the inputs the tip saw are vouched
    for and loaded only when the fold reads them (each load appended to `loads_`). `whole`: the whole folds by
    cut, filled on the first pass and compared on the next (the whole fold is the costly half of the test)."""
    tip, stored, from_tip = None, [], 0
    whole = {} if whole is None else whole
    for k, cut in enumerate(cuts):
        # every other tick has stored inputs stamped after its `until` too (read while it ran: the grace)
        seen = [i for i in inputs if i.at <= cut + timedelta(minutes=40 * (k % 2))]
        given = seen
        if checked and tip is not None:
            start = tip.seen
            given = StoredInputs(seen[start:], None, start,
                                 lambda: loads_.append(1) or seen[:start])  # type: ignore[union-attr]  # noqa: B023
        asked = []
        got, made, new = run_tipped(setup, given, cut, tip, lambda: asked.append(1) or stored,  # noqa: B023
                                    checked and tip is not None)
        if k not in whole:
            whole[k] = run(setup, seen, cut)
        assert got == whole[k], cut
        from_tip += not asked
        stored = (stored + [loads(dumps(cp)) for cp in made])[-3:]
        if new is not None:
            tip = loads(dumps(new), Tip)
    return from_tip


@pytest.mark.parametrize("chunk", range(4))
def test_issue19_a_fold_from_the_tip_is_the_whole_fold(chunk: int) -> None:
    """Also with the inputs the tip saw vouched for and loaded only when read (as the daemon reads a stored game):
    the same GameRun, and most ticks never read them. Both ways are checked against one whole fold per cut."""
    used = {False: 0, True: 0}
    loaded: list[int] = []
    ticks = 0
    for n in range(chunk, GAMES, 4):
        setup, inputs, until = random_game(n)
        inputs.sort(key=lambda i: i.at)  # as the store gives them (stored_game.load_game)
        times = sorted({i.at for i in inputs})
        step = max(1, len(times) // 12)
        cuts = sorted({*times[::step], *(t + timedelta(minutes=7) for t in times[1::step]), until})
        whole: dict[int, object] = {}
        for checked in (False, True):
            used[checked] += _ticks(setup, inputs, cuts, checked, loaded, whole)
        ticks += len(cuts)
    assert used[False] >= GAMES // 4 and used[True] >= GAMES // 4  # most ticks did start from the tip
    # only a tick that resolves a deadline (its checkpoint) or cannot use the tip reads them all
    assert len(loaded) < ticks / 3  # 186 of 1,134 ticks over the 40 games


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_issue19_every_transcript_folds_alike_from_its_tips(path: Path) -> None:
    t = replay.load(path)
    inputs = sorted(t.events, key=lambda i: i.at)
    times = sorted({i.at for i in inputs})
    end = t.until or times[-1] + timedelta(days=3)  # a transcript without `until` plays to its end
    _ticks(t.setup, inputs, [*times[:: max(1, len(times) // 8)], end])


def _moscow() -> tuple[Game, list[Input]]:
    g = Game.moscow()
    for voter in ("М1", "М2", "М3"):
        g.vote("day 1", "+1h", voter, "М6")
    g.pm("night 1", "+1h", "Дон", "убить М1")
    return g, sorted(g.events, key=lambda i: i.at)


def test_issue19_a_quiet_tick_folds_nothing(monkeypatch) -> None:
    """Nothing new and nothing due since the tip: no step, no advance, the tip stands (None: nothing to store)."""
    g, inputs = _moscow()
    setup, cut = g.setup(), g.at("night 1", "+2h")
    first, _, tip = run_tipped(setup, inputs, cut, None, lambda: ())
    assert tip is not None
    later = cut + timedelta(hours=1)
    whole = run(setup, inputs, later)
    monkeypatch.setattr(fold, "handle", lambda *a: pytest.fail("a step on a quiet tick"))
    monkeypatch.setattr(fold, "advance_to", lambda *a: pytest.fail("an advance on a quiet tick"))
    again, made, new = run_tipped(setup, inputs, later, tip, lambda: pytest.fail("checkpoints asked for"))
    assert (again, made, new) == (whole, (), None) and again == first


def test_issue19_one_new_vote_is_one_step_from_the_tip(monkeypatch) -> None:
    g, inputs = _moscow()
    setup, cut = g.setup(), g.at("day 2", "+1h")
    _, _, tip = run_tipped(setup, inputs, cut, None, lambda: ())
    vote = Input(g.at("day 2", "+2h"), Where.VOTE, "М2", "М3", id="new-vote")
    until = g.at("day 2", "+3h")
    whole = run(setup, inputs + [vote], until)
    steps = []
    real = fold.handle
    monkeypatch.setattr(fold, "handle", lambda w, inp: steps.append(inp.id) or real(w, inp))
    got, _, new = run_tipped(setup, inputs + [vote], until, tip, lambda: pytest.fail("checkpoints asked for"))
    assert steps == ["new-vote"] and got == whole
    assert new is not None and new.seen == len(inputs) + 1


def test_issue19_C13_a_late_stored_input_before_the_tip_invalidates_it() -> None:
    """A vote stored after the tip was made, stamped before its `until` (a moderated post approved later, an old
    store without read times): the tip no longer holds, the fold starts from the checkpoints, and the vote counts
    as the whole fold counts it."""
    g, inputs = _moscow()
    setup, cut = g.setup(), g.at("day 1", "+3h")
    _, made, tip = run_tipped(setup, inputs, cut, None, lambda: ())
    late = Input(g.at("day 1", "+2h"), Where.VOTE, "М4", "М5", id="late-vote")
    now = sorted(inputs + [late], key=lambda i: i.at)
    assert not tip_holds(setup, now, cut + timedelta(hours=1), tip)
    asked = []
    until = g.at("night 1", "+2h")
    got, _, _ = run_tipped(setup, now, until, tip, lambda: asked.append(1) or made)
    assert asked and got == run(setup, now, until) != run(setup, inputs, until)


def test_issue19_C13_an_edited_or_deleted_input_invalidates_the_tip() -> None:
    g, inputs = _moscow()
    setup, cut = g.setup(), g.at("day 1", "+3h")
    _, _, tip = run_tipped(setup, inputs, cut, None, lambda: ())
    assert tip_holds(setup, inputs, cut, tip)
    for change in ({"text": "М2"}, {"deleted_at": cut}, {"edited_at": cut}, {"read_at": cut}):
        changed = [dataclasses.replace(inputs[0], **change)] + inputs[1:]
        assert not tip_holds(setup, changed, cut, tip), change
    assert not tip_holds(setup, inputs, cut - timedelta(minutes=1), tip)  # a fold never starts after `until`


def test_issue19_C13_a_resolution_recorded_after_the_tip_keeps_it() -> None:
    """The daemon records the phases a tick resolved after its fold (C-13): that record is later than every input
    the tip saw was read, so it makes none of them late and the tip holds; one recorded before some input was
    read could, so the tip is not used."""
    g, inputs = _moscow()
    inputs = [dataclasses.replace(i, read_at=i.at + timedelta(minutes=1)) for i in inputs]
    setup, cut = g.setup(), g.at("night 1", "+2h")
    _, _, tip = run_tipped(setup, inputs, cut, None, lambda: ())
    record = lambda at: dataclasses.replace(setup, schedule=dataclasses.replace(  # noqa: E731
        setup.schedule, resolved=(("day 1", at),)))
    assert tip_holds(record(cut), inputs, cut, tip)
    assert not tip_holds(record(g.at("day 1", "+1h")), inputs, cut, tip)
    until = cut + timedelta(hours=2)
    assert run_tipped(record(cut), inputs, until, tip, lambda: ())[0] == run(record(cut), inputs, until)


def test_issue19_no_tip_when_the_inputs_are_not_in_time_order() -> None:
    """An input's index is part of how the fold orders it: a tip is made and used only over a prefix."""
    g, inputs = _moscow()
    setup, cut = g.setup(), g.at("day 1", "+3h")
    mixed = inputs[::-1]  # the night's kill first
    got, _, tip = run_tipped(setup, mixed, cut, None, lambda: ())
    assert tip is None and got == run(setup, mixed, cut)
    assert START < cut


def test_issue19_C9_a_tip_keeps_only_the_inputs_an_undo_can_reach() -> None:
    """A tip does not carry every input the game handled: those before the last resolution are out of any undo's
    reach (C-9 refuses an undo across a deadline) and are None in its Game, every index kept. An override given
    after that resolution and undone from a tip read back from bytes (its own inputs kept) ends as the whole fold."""
    g, _ = _moscow()
    for voter in ("М4", "М5"):
        g.vote("day 2", "+1h", voter, "М6")
    g.gm("day 2", "+2h", "продлить 2ч")
    g.vote("day 2", "+3h", "М2", "М5")
    inputs = sorted(g.events, key=lambda i: i.at)
    setup, cut = g.setup(), g.at("day 2", "+3h")
    _, _, tip = run_tipped(setup, inputs, cut, None, lambda: ())
    assert tip is not None
    tip = loads(dumps(tip), Tip)
    handled = tip.state.game.inputs
    reach = tip.state.game.overrides[-1].index
    assert handled[reach].text == "продлить 2ч" and all(i is not None for i in handled[reach:])
    assert reach > 0 and all(i is None for i in handled[:reach])
    undo = Input(g.at("day 2", "+4h"), Where.PM, "ГМ", "отмена", id="undo")
    until = g.at("night 2", "+1h")
    got, _, _ = run_tipped(setup, inputs + [undo], until, tip, lambda: pytest.fail("checkpoints asked for"))
    assert got == run(setup, inputs + [undo], until)
    assert any(m.key == "undo/undo" for m in got.messages)  # the undo was done, not refused
