"""The engine's own tests (issue 27 item 4): one step on a position (`forumbot.engine.position`), the fold, the
undo, checkpoints and tips, and the clause stories replayed from Setup (tests/gamekit.py). gamekit and
randomgames live one folder up, imported by name as the rest of the suite does."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
