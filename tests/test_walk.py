"""Issue 27: the three walks (one vote post, a GM's `модкилл` by PM, a night kill), from cron to what the bot
posts, measured rather than counted by hand.

The walk's input is new on the memory forum; one `forumbot tick` runs in-process (`cli.main`, as cron runs it)
while a profiler records the call stack at each moment that matters for that input (a Scenario's checkpoints, in
the order the tick meets them). The walk is the union of the forumbot/ and adapters/ files on those stacks: the
call chain a reader follows from the command line to each moment. docs/architecture.md lists each walk under its
own heading; the test prints each and holds the vote's to at most 20 files (issue 27, "Done means").
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from types import FrameType
from typing import Any, Callable

import pytest

sys.path.insert(0, str(Path(__file__).parent / "daemon"))  # the daemon tests' world (a folder, not a package)
from daemon_world import BOT, GM, T0, World, play  # noqa: E402

from adapters.memory.forum import MemoryForum  # noqa: E402
from forumbot.cli.main import main  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WALKED = (ROOT / "forumbot", ROOT / "adapters")
VOTE_LIMIT = 20
VOTER, VOTE = "М1", "голос Маф1"
MODKILL, MODKILLED = "модкилл М3", "М3"
SHOTS, SHOT_DEAD = (("Дон", "убить М2"), ("Маф2", "убить М2")), "М2"

_forum: MemoryForum | None = None


def shared_forum(**_: object) -> MemoryForum | None:
    """The engine the tick's config names (`test_walk:shared_forum`): the world's memory forum, which holds
    the game so far."""
    return _forum


def _ours(path: str) -> str | None:
    file = Path(path)
    for top in WALKED:
        if file.is_relative_to(top):
            return file.relative_to(ROOT).as_posix()
    return None


Holds = Callable[["Walk", FrameType, Any], bool]  # the walk so far, the frame, the returned value (None on a call)


@dataclass(frozen=True)
class Checkpoint:
    """A moment of the walk: a function of `where` (a file, or a folder ending in "/") called or returning
    (`event`) when `holds`; with `renders`, the string it returns is a text the bot will write, which the later
    moments (queued, delivered) look for."""

    moment: str
    event: str
    where: str
    function: str | None  # None: any function of `where`
    holds: Holds
    renders: bool = False

    def met(self, walk: Walk, file: str, frame: FrameType, event: str, arg: Any) -> bool:
        if event != self.event or (self.function is not None and frame.f_code.co_name != self.function):
            return False
        if not (file == self.where or self.where.endswith("/") and file.startswith(self.where)):
            return False
        return (event == "call" or arg is not None) and self.holds(walk, frame, arg)


def returns_an_input(walk: Walk, frame: FrameType, arg: Any) -> bool:
    """An adapter's fetch, or the store's read back: its first value lists one of the walk's inputs."""
    return any(item.id in walk.input_ids for item in arg[0])


def handed_an_input(parameter: str) -> Holds:
    def holds(walk: Walk, frame: FrameType, arg: Any) -> bool:
        items = frame.f_locals[parameter]
        return isinstance(items, list) and any(item.id in walk.input_ids for item in items)
    return holds


def reads_the_words(walk: Walk, frame: FrameType, arg: Any) -> bool:
    """A parse module, entered from outside it, returns on one of the walk's inputs' words."""
    return frame.f_locals.get("text") in walk.words and _ours(frame.f_back.f_code.co_filename) != _ours(
        frame.f_code.co_filename)


def called_from(function: str) -> Holds:
    return lambda walk, frame, arg: frame.f_back is not None and frame.f_back.f_code.co_name == function


def naming(nick: str) -> Holds:
    return lambda walk, frame, arg: isinstance(arg, str) and nick in arg


def holding_a_rendered_text(parameter: str) -> Holds:
    """A message (`enqueue`'s list) or a text (an adapter's `reply`, `send_pm`) holding a text the walk saw
    rendered."""
    def holds(walk: Walk, frame: FrameType, arg: Any) -> bool:
        value = frame.f_locals[parameter]
        texts = [m.text for m in value] if isinstance(value, list) else [value] if isinstance(value, str) else []
        return any(rendered in text for rendered in walk.rendered for text in texts)
    return holds


def fetched(function: str) -> Checkpoint:
    return Checkpoint(f"the adapter returns the input ({function})", "return", "adapters/", function,
                      returns_an_input)


def stored(function: str, parameter: str) -> Checkpoint:
    return Checkpoint(f"the input stored ({function})", "call", "forumbot/store/records.py", function,
                      handed_an_input(parameter))


READ_BACK = Checkpoint("the input read back for the fold", "return", "forumbot/store/game.py", "collect",
                       returns_an_input)
QUEUED = Checkpoint("the text queued", "call", "forumbot/outbox/store.py", "enqueue",
                    holding_a_rendered_text("messages"))
POSTED = Checkpoint("the text posted", "call", "adapters/", "reply", holding_a_rendered_text("text"))
SENT = Checkpoint("the text sent by PM", "call", "adapters/", "send_pm", holding_a_rendered_text("text"))


@dataclass
class Walk:
    """Each checkpoint's stacks, as the files (of forumbot/ and adapters/) their frames run in, outermost first."""

    checkpoints: tuple[Checkpoint, ...]
    input_ids: frozenset[str]  # the walk's inputs' ids on the forum
    words: frozenset[str]  # their texts
    rendered: list[str] = field(default_factory=list)  # the texts the bot will write, as texts/ rendered them
    stacks: dict[str, list[list[str]]] = field(default_factory=dict)

    def files(self) -> list[str]:
        """The walk: every file on the stacks, in the order a reader meets them (checkpoint by checkpoint)."""
        return list(dict.fromkeys(file for point in self.checkpoints for stack in self.stacks.get(point.moment, [])
                                  for file in stack))

    def record(self, point: str, frame: FrameType | None) -> None:
        files: list[str] = []
        while frame is not None:
            file = _ours(frame.f_code.co_filename)
            if file is not None and (not files or files[-1] != file):
                files.append(file)
            frame = frame.f_back
        self.stacks.setdefault(point, []).append(files[::-1])

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        file = _ours(frame.f_code.co_filename)
        if file is None:
            return
        for point in self.checkpoints:
            if point.met(self, file, frame, event, arg):
                if point.renders:
                    self.rendered.append(arg)
                self.record(point.moment, frame)


@dataclass(frozen=True)
class Scenario:
    """A walk: its heading in docs/architecture.md, its moments, the game up to its tick (`prepare` returns the
    inputs the tick will fetch, having set the world's clock to the tick's moment) and the topic the bot posts
    its outcome in."""

    heading: str
    checkpoints: tuple[Checkpoint, ...]
    prepare: Callable[[World], list[Any]]
    topic: str


def _a_vote(world: World) -> list[Any]:
    """Day 1 opened by a tick just after its second hour (no vote yet, so no count); a vote posted then; the tick
    just after the third hour fetches the vote, folds it and posts the count due at the third hour, which shows
    it."""
    play(world, upto=1)  # the game started, every role confirmed
    world.now = T0 + timedelta(hours=2, minutes=1)  # past the second hour's count: the vote goes in the third's
    world.tick()
    post = world.post("vote", VOTER, VOTE, ago=timedelta(0))
    world.now = T0 + timedelta(hours=3, minutes=1)
    return [post]


def _a_modkill(world: World) -> list[Any]:
    """Day 1 with its votes in; the GM's `модкилл` PM; the tick half an hour later fetches it, applies it,
    announces it in the game thread and answers the GM (C-9, C-10)."""
    play(world, upto=2)
    world.now = T0 + timedelta(hours=2, minutes=30)
    return [world.pm(GM, MODKILL)]


def _a_night_kill(world: World) -> list[Any]:
    """Night 1 (Day 1 resolved); the mafia's shots by PM an hour before its end; the tick just after its end
    fetches them, resolves the night (M-5) and posts its result in the game thread."""
    play(world, upto=3)
    world.now = T0 + timedelta(hours=35)
    shots = [world.pm(nick, text) for nick, text in SHOTS]
    world.now = T0 + timedelta(hours=36, minutes=1)
    return shots


VOTE_WALK = Scenario(
    "The walk of one vote post, from cron to the posted count",
    (
        fetched("fetch_posts"),
        stored("store_posts", "posts"),
        READ_BACK,
        Checkpoint("the vote parsed", "return", "forumbot/parse/votes.py", None, reads_the_words),
        Checkpoint("the count computed", "return", "forumbot/engine/counts.py", "ballots", called_from("count_text")),
        Checkpoint("the count's text rendered", "return", "forumbot/texts/", "vote_count", naming(VOTER), renders=True),
        QUEUED,
        POSTED,
    ),
    _a_vote, "g1/vote",
)
MODKILL_WALK = Scenario(
    "The walk of a GM's модкилл by PM, from cron to the announcement",
    (
        fetched("fetch_pms"),
        stored("store_pms", "pms"),
        READ_BACK,
        Checkpoint("the command parsed", "return", "forumbot/parse/commands.py", None, reads_the_words),
        Checkpoint("the modkill applied", "call", "forumbot/engine/phases.py", "kill", called_from("modkill")),
        Checkpoint("the announcement rendered", "return", "forumbot/texts/", "modkilled", naming(MODKILLED),
                   renders=True),
        Checkpoint("the GM's answer rendered", "return", "forumbot/texts/", "command_done", naming(MODKILLED),
                   renders=True),
        QUEUED,
        POSTED,
        SENT,
    ),
    _a_modkill, "g1/game",
)
NIGHT_WALK = Scenario(
    "The walk of a night kill, from the mafia's shot PMs to the night's result post",
    (
        fetched("fetch_pms"),
        stored("store_pms", "pms"),
        READ_BACK,
        Checkpoint("the shot parsed", "return", "forumbot/parse/moves.py", None, reads_the_words),
        Checkpoint("the night resolved", "return", "forumbot/rules/", "night",
                   lambda walk, frame, arg: any(death.cause == "mafia" for death in arg.deaths)),
        Checkpoint("the result's text rendered", "return", "forumbot/texts/", "night_result", naming(SHOT_DEAD),
                   renders=True),
        QUEUED,
        POSTED,
    ),
    _a_night_kill, "g1/game",
)


def measure(scenario: Scenario, tmp_path: Path) -> Walk:
    """The game played up to the scenario's tick by the world's daemon; that tick run from the command line
    under the profiler."""
    global _forum
    world = World(tmp_path)
    inputs = scenario.prepare(world)
    world.close()
    _forum = world.forum
    config = world.config_path.read_text(encoding="utf-8")
    world.config_path.write_text(config.replace('engine = "memory"', f'engine = "{__name__}:shared_forum"\n'
                                                                     'base_url = "http://forum.invalid"'),
                                 encoding="utf-8")
    walk = Walk(scenario.checkpoints, frozenset(i.id for i in inputs), frozenset(i.text for i in inputs))
    sys.setprofile(walk.profile)
    try:
        code = main(["-q", "tick", "-c", str(world.config_path)], clock=lambda: world.now)
    finally:
        sys.setprofile(None)
    assert code == 0
    return walk


def documented_walk(heading: str) -> list[str]:
    """The files docs/architecture.md lists under the heading, one numbered line each."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. `([^`]+\.py)`", section, flags=re.MULTILINE)


def measured_and_documented(scenario: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The walk measured and printed; every moment met, the outcome on the forum, the document's list the
    measured one, in the order a reader meets them."""
    walk = measure(scenario, tmp_path)
    files = walk.files()
    with capsys.disabled():
        print(f"\n{scenario.heading}:")
        for point in scenario.checkpoints:
            for stack in walk.stacks.get(point.moment, []):
                print(f"{point.moment}: {' > '.join(stack)}")
        print(f"the walk: {len(files)} files: {', '.join(files)}")
    assert [p.moment for p in scenario.checkpoints if p.moment not in walk.stacks] == []  # every moment met
    assert _forum is not None and any(rendered in p.text for p in _forum.posts_by(BOT, scenario.topic)
                                      for rendered in walk.rendered)
    assert documented_walk(scenario.heading) == files
    return files


def test_a_vote_post_from_cron_to_the_posted_count_opens_at_most_20_files(tmp_path, capsys):
    """Issue 27: the walk, measured (C-6: the count that shows the vote is posted in the vote thread)."""
    files = measured_and_documented(VOTE_WALK, tmp_path, capsys)
    assert len(files) <= VOTE_LIMIT, files


def test_a_gm_modkill_by_pm_from_cron_to_the_announcement_is_the_documented_walk(tmp_path, capsys):
    """Issue 27: the walk, measured (C-9: a GM command by PM, answered; C-10: the modkill announced in the game
    thread)."""
    measured_and_documented(MODKILL_WALK, tmp_path, capsys)


def test_a_night_kill_from_the_shot_pms_to_the_result_post_is_the_documented_walk(tmp_path, capsys):
    """Issue 27: the walk, measured (C-5, M-5: the mafia's agreed shot by PM kills; the night's result in the game
    thread)."""
    measured_and_documented(NIGHT_WALK, tmp_path, capsys)
