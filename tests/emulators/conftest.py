"""The engine emulators (issue 18 item 3) are plain modules of this folder: tests import them by name."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
