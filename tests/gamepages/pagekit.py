"""Building a game's pages in tests: from a transcript, or from a gamekit story."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from forumbot import replay
from forumbot.pages.site import GamePages, build_game, build_index

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                  "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--lang=ru")


def from_transcript(path: Path, name: str, **kw) -> GamePages:  # type: ignore[no-untyped-def]
    transcript = replay.load(path)
    run, _ = replay.replay(transcript)
    return GamePages(name, transcript.setup, run, **kw)


def site(g: GamePages) -> dict[str, bytes]:
    files = build_game(g)
    doc = json.loads(files[f"{g.name}/game.json"])
    files["index.html"] = build_index([doc], g.setup.language, g.setup.schedule.timezone)
    return files


def chromium(args: list[str]) -> subprocess.CompletedProcess[str]:
    """Headless Chromium (installed by .ci/provision; under FORUMBOT_REQUIRE_LIVE=1 its absence fails)."""
    binary = shutil.which("chromium")
    if binary is None:
        if os.environ.get("FORUMBOT_REQUIRE_LIVE") == "1":
            pytest.fail("chromium is not installed (Debian package chromium, .ci/provision)")
        pytest.skip("chromium is not installed")
    return subprocess.run([binary, *CHROMIUM_FLAGS, *args], capture_output=True, text=True, check=True)
