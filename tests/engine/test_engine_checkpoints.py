"""Checkpoints at resolved deadlines (issue 19 item 3): a fold that starts at the latest checkpoint whose digest
still matches its inputs ends exactly where a whole fold ends, the whole GameRun compared; a checkpoint whose
inputs changed since (a post stored late, stamped before the deadline: C-13) is not used.

The games are tests/randomgames.py's: both variants, GM mixes with undo (C-9), pause, extend, setvote, replace,
modkill (C-10), end-phase, and late inputs (C-13). Each is played as ticks would play it: a first fold up to a
cut-off with the inputs stamped by then, then the fold of every input from the checkpoints the first one made."""

from __future__ import annotations

import dataclasses
import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from gamekit import START, Game  # noqa: E402
from randomgames import random_game  # noqa: E402

from forumbot import replay  # noqa: E402
from forumbot.engine.checkpoint import dumps, loads  # noqa: E402
from forumbot.engine.fold import run_from  # noqa: E402
from forumbot.game import run  # noqa: E402
from forumbot.model import Input, Where  # noqa: E402

GAMES = 60
ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = sorted([*(ROOT / "forumbot" / "examples").glob("*.json"),
                      *(ROOT / "fixtures" / "transcripts").glob("*.json"),
                      *(ROOT / "fixtures" / "transcripts" / "real").glob("*.json")])


def _ticked(setup, inputs, until, cut):  # type: ignore[no-untyped-def]
    """The checkpoints a fold up to `cut` makes with the inputs stamped by then, through the store's bytes."""
    _, made = run_from(setup, [i for i in inputs if i.at <= cut], cut, ())
    return [loads(dumps(cp)) for cp in made]


@pytest.mark.parametrize("chunk", range(4))
def test_issue19_a_fold_from_a_checkpoint_is_the_whole_fold(chunk: int) -> None:
    used = 0
    for n in range(chunk, GAMES, 4):
        setup, inputs, until = random_game(n)
        inputs.sort(key=lambda i: i.at)  # as the store gives them (tick.load_game): later ones come after
        whole = run(setup, inputs, until)
        cut = START + (until - START) * (0.3 + 0.1 * (n % 5))
        checkpoints = _ticked(setup, inputs, until, cut)
        resumed, made = run_from(setup, inputs, until, checkpoints)
        assert resumed == whole, f"game {n}"
        if checkpoints:  # started at the latest: the deadlines up to it were not resolved again
            used += not made or made[0].at > checkpoints[-1].at
        # and once more from the checkpoints of the whole fold (a quiet tick: nothing new)
        again, _ = run_from(setup, inputs, until, made)
        assert again == whole, f"game {n}"
    assert used >= GAMES // 8  # most resumed folds did start from a checkpoint


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_issue19_every_transcript_folds_alike_from_its_checkpoints(path: Path) -> None:
    t = replay.load(path)
    inputs = sorted(t.events, key=lambda i: i.at)
    whole = run(t.setup, inputs, t.until)
    times = sorted({i.at for i in inputs})
    for cut in times[len(times) // 3:: max(1, len(times) // 3)]:
        checkpoints = _ticked(t.setup, inputs, t.until, cut)
        assert run_from(t.setup, inputs, t.until, checkpoints)[0] == whole


def test_issue19_C13_a_checkpoint_whose_inputs_changed_is_not_used() -> None:
    """A vote stored after Day 1 was resolved, stamped inside it, with no read time (an old store): the checkpoint
    at Day 1's deadline no longer matches, and the fold from Setup counts the vote as a whole fold does."""
    g = Game.moscow()
    for voter in ("М1", "М2", "М3"):
        g.vote("day 1", "+1h", voter, "М6")
    g.pm("night 1", "+1h", "Дон", "убить М1")
    setup, until = g.setup(), g.at("night 1", "+2h")
    _, made = run_from(setup, g.events, until, ())
    assert [cp.label for cp in made] == ["setup", "day 1"]
    stored_late = Input(g.at("day 1", "+2h"), Where.VOTE, "М4", "М5", id="late-vote")
    events = g.events + [stored_late]
    resumed, _ = run_from(setup, events, until, made)
    assert resumed == run(setup, events, until)
    assert resumed != run(setup, g.events, until)  # the vote changed Day 1's count: the checkpoint was not used


def test_issue19_a_checkpoint_read_back_from_bytes_is_the_same_game() -> None:
    setup, inputs, until = random_game(3)
    _, made = run_from(setup, inputs, until, ())
    assert made
    for cp in made:
        back = loads(dumps(cp))
        assert back == cp and back.game == cp.game
    assert loads(b"not a checkpoint") is None


def test_issue19_checkpoints_are_bounded_by_until() -> None:
    """A checkpoint later than `until` is never used: the fold stops before it."""
    setup, inputs, until = random_game(5)
    _, made = run_from(setup, inputs, until, ())
    early = made[1].at - timedelta(minutes=1) if len(made) > 1 else START
    assert run_from(setup, inputs, early, made)[0] == run(setup, inputs, early)
    assert all(dataclasses.is_dataclass(cp) for cp in made)


def test_issue19_C13_a_phase_resolved_since_keeps_the_earlier_checkpoints() -> None:
    """The daemon records each phase's resolution (C-13) after the fold that resolved it: the setup the next tick
    folds says one phase more, and the checkpoints of the phases before it still match."""
    g = Game.moscow()
    g.vote("day 1", "+1h", "М1", "М2")
    g.pm("night 1", "+1h", "Дон", "убить М1")
    first = g.setup()
    day1 = g.at("day 1", "+24h")
    first = dataclasses.replace(first, schedule=dataclasses.replace(
        first.schedule, resolved=(("setup", START + timedelta(seconds=5)), ("day 1", day1 + timedelta(seconds=5)))))
    _, made = run_from(first, g.events, g.at("night 1", "+2h"), ())
    later = dataclasses.replace(first, schedule=dataclasses.replace(
        first.schedule, resolved=first.schedule.resolved + (("night 1", g.at("night 1", "+12h5s")),)))
    until = g.at("day 2", "+1h")
    resumed, remade = run_from(later, g.events, until, made)
    assert resumed == run(later, g.events, until)
    assert [cp.label for cp in remade] == ["night 1"]  # started at Day 1's checkpoint


def test_issue19_the_checkpoint_version_covers_every_module_a_fold_runs() -> None:
    """A checkpoint written by other code is never used: its digest covers the source of every forumbot module
    the fold imports (a new one outside these would let a stale checkpoint through)."""
    import subprocess

    from forumbot.engine import checkpoint

    code = ("import sys, forumbot.engine.fold; print(' '.join(sorted(m.__file__ for n, m in sys.modules.items() "
            "if n.startswith('forumbot') and getattr(m, '__file__', None))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    root = Path(checkpoint.__file__).resolve().parent.parent
    covered = {str(p.resolve()) for p in checkpoint._sources(root)}
    assert sorted(f for f in loaded if str(Path(f).resolve()) not in covered) == []


@pytest.mark.parametrize("name", ["os.system", "builtins.eval", "subprocess.Popen", "forumbot.store.models.OutboxRow",
                                  "forumbot.config.types.Config", "forumbot.engine.fold.run_from"])
def test_issue27_a_stored_checkpoint_naming_anything_but_engine_values_is_never_built(name: str) -> None:
    """A checkpoint is read from the bot's database as plain data (engine/plain.py), never a pickle: one naming
    anything but a dataclass or enum of the fold's own modules (a command, eval, a shell class whose constructor
    may open files or the network, an engine function) is refused and nothing of it runs; the fold then starts
    from Setup."""
    import json
    import zlib

    from forumbot.engine.plain import PlainError, from_plain

    for data in (["o", name, ["t", "touch /tmp/x"]], ["e", name, "x"]):
        with pytest.raises(PlainError, match="may not name"):
            from_plain(data)
        assert loads(zlib.compress(json.dumps(data).encode())) is None


def test_issue27_a_checkpoint_is_plain_json_that_reads_back_equal() -> None:
    """Checkpoints and tips are stored as plain JSON: what is read back is the same value, maps, sets, times
    and their zones included; a value with no plain form is refused when written, never stored half."""
    import json
    from datetime import datetime, timedelta, timezone
    from types import MappingProxyType
    from zoneinfo import ZoneInfo

    from forumbot.engine.plain import PlainError, from_plain, to_plain

    value = (MappingProxyType({"a": frozenset({"x"}), 2: [datetime(2026, 1, 1, tzinfo=ZoneInfo("Europe/Moscow"))]}),
             {datetime(2026, 1, 1, tzinfo=timezone.utc), datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=3)))})
    back = from_plain(json.loads(json.dumps(to_plain(value))))
    assert dict(back[0]) == dict(value[0]) and back[1] == value[1] and type(back[0]) is MappingProxyType
    assert {d.tzinfo for d in back[1]} == {d.tzinfo for d in value[1]}
    assert back[0][2][0].tzinfo is ZoneInfo("Europe/Moscow")
    with pytest.raises(PlainError, match="no plain form"):
        to_plain(object())
