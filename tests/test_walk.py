"""Issue 27: the walk of one vote post, from cron to the posted count, measured rather than counted by hand.

A player's vote post is new on the memory forum; one `forumbot tick` runs in-process (`cli.main`, as cron runs it)
while a profiler records the call stack at each moment that matters for that vote (CHECKPOINTS, in the order
the tick meets them). The walk is the union of the forumbot/ and adapters/ files on those stacks: the call chain
a reader follows from the command line to each moment. docs/architecture.md ("The walk of one vote post") lists
it; the test prints it and holds it to at most 20 files (issue 27, "Done means").
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).parent / "daemon"))  # the daemon tests' world (a folder, not a package)
from daemon_world import BOT, T0, World, play  # noqa: E402

from adapters.memory.forum import MemoryForum  # noqa: E402
from forumbot.cli.main import main  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WALKED = (ROOT / "forumbot", ROOT / "adapters")
LIMIT = 20
VOTER, VOTE = "М1", "голос Маф1"

CHECKPOINTS = (
    "the adapter returns the post",      # a `fetch_posts` of adapters/ returns it
    "the post stored",                   # store/records.py's `store_posts` is handed it
    "the post read back for the fold",   # store/game.py's `Routing.collect` returns it as an input
    "the vote parsed",                   # parse/votes.py, entered from outside it, returns on its text
    "the count computed",                # engine/counts.py's `ballots`, for the count's text (`count_text`)
    "the count's text rendered",         # texts/'s `vote_count` returns it
    "the count queued",                  # outbox/store.py's `enqueue` is handed a message holding that text
    "the count delivered",               # an adapter's `reply` is handed it
)

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


@dataclass
class Walk:
    """Each checkpoint's stacks, as the files (of forumbot/ and adapters/) their frames run in, outermost first."""

    post_id: str  # the vote post's id on the forum
    count_text: str = ""  # the count as texts/ rendered it, once it has
    stacks: dict[str, list[list[str]]] = field(default_factory=dict)

    def files(self) -> list[str]:
        """The walk: every file on the stacks, in the order a reader meets them (checkpoint by checkpoint)."""
        return list(dict.fromkeys(file for point in CHECKPOINTS for stack in self.stacks.get(point, [])
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
        file = _ours(frame.f_code.co_filename)
        if file is None or event not in ("call", "return"):
            return
        name, local = frame.f_code.co_name, frame.f_locals
        if event == "return" and arg is not None:
            if file.startswith("adapters/") and name == "fetch_posts" and any(p.id == self.post_id for p in arg[0]):
                self.record(CHECKPOINTS[0], frame)
            elif file == "forumbot/store/game.py" and name == "collect" and any(i.id == self.post_id for i in arg[0]):
                self.record(CHECKPOINTS[2], frame)
            elif file == "forumbot/parse/votes.py" and local.get("text") == VOTE \
                    and _ours(frame.f_back.f_code.co_filename) != file:
                self.record(CHECKPOINTS[3], frame)
            elif file == "forumbot/engine/counts.py" and name == "ballots" \
                    and frame.f_back.f_code.co_name == "count_text":
                self.record(CHECKPOINTS[4], frame)
            elif file.startswith("forumbot/texts/") and name == "vote_count" and VOTER in arg:
                self.count_text = arg
                self.record(CHECKPOINTS[5], frame)
        elif event == "call":
            if file == "forumbot/store/records.py" and name == "store_posts" \
                    and isinstance(local["posts"], list) and any(p.id == self.post_id for p in local["posts"]):
                self.record(CHECKPOINTS[1], frame)
            elif file == "forumbot/outbox/store.py" and name == "enqueue" and self.count_text \
                    and isinstance(local["messages"], list) \
                    and any(self.count_text in m.text for m in local["messages"]):
                self.record(CHECKPOINTS[6], frame)
            elif file.startswith("adapters/") and name == "reply" and self.count_text \
                    and self.count_text in local["text"]:
                self.record(CHECKPOINTS[7], frame)


def walk_one_vote(tmp_path: Path) -> Walk:
    """Day 1 opened by a tick just after its second hour (no vote yet, so no count); a vote posted then; the tick
    just after the third hour, from the command line: it fetches the vote, folds it and posts the count due at
    the third hour, which shows it."""
    global _forum
    world = World(tmp_path)
    play(world, upto=1)  # the game started, every role confirmed
    world.now = T0 + timedelta(hours=2, minutes=1)  # past the second hour's count: the vote goes in the third's
    world.tick()
    post = world.post("vote", VOTER, VOTE, ago=timedelta(0))
    world.close()
    world.now = T0 + timedelta(hours=3, minutes=1)
    _forum = world.forum
    config = world.config_path.read_text(encoding="utf-8")
    world.config_path.write_text(config.replace('engine = "memory"', f'engine = "{__name__}:shared_forum"\n'
                                                                     'base_url = "http://forum.invalid"'),
                                 encoding="utf-8")
    walk = Walk(post.id)
    sys.setprofile(walk.profile)
    try:
        code = main(["-q", "tick", "-c", str(world.config_path)], clock=lambda: world.now)
    finally:
        sys.setprofile(None)
    assert code == 0
    return walk


def documented_walk() -> list[str]:
    """The files docs/architecture.md's "The walk of one vote post" lists, one numbered line each."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The walk of one vote post", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. `([^`]+\.py)`", section, flags=re.MULTILINE)


def test_a_vote_post_from_cron_to_the_posted_count_opens_at_most_20_files(tmp_path, capsys):
    """Issue 27: the walk, measured (C-6: the count that shows the vote is posted in the vote thread); the
    architecture document lists the files measured, in the order a reader meets them."""
    walk = walk_one_vote(tmp_path)
    files = walk.files()
    with capsys.disabled():
        print()
        for point in CHECKPOINTS:
            for stack in walk.stacks.get(point, []):
                print(f"{point}: {' > '.join(stack)}")
        print(f"the walk: {len(files)} files: {', '.join(files)}")
    assert [p for p in CHECKPOINTS if p not in walk.stacks] == []  # every moment met: the vote reached the count
    assert _forum is not None and any(walk.count_text in p.text for p in _forum.posts_by(BOT, "g1/vote"))
    assert len(files) <= LIMIT, files
    assert documented_walk() == files
