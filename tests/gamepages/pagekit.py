"""Building a game's pages in tests: from a transcript, or from a gamekit story."""

from __future__ import annotations

import json
from pathlib import Path

from forumbot import replay
from forumbot.pages.site import GamePages, build_game, build_index

ROOT = Path(__file__).resolve().parents[2]


def from_transcript(path: Path, name: str, **kw) -> GamePages:  # type: ignore[no-untyped-def]
    transcript = replay.load(path)
    run, _ = replay.replay(transcript)
    return GamePages(name, transcript.setup, run, **kw)


def site(g: GamePages) -> dict[str, bytes]:
    files = build_game(g)
    doc = json.loads(files[f"{g.name}/game.json"])
    files["index.html"] = build_index([doc], g.setup.language, g.setup.schedule.timezone)
    return files
