"""`forumbot tick` that dies like a killed process at a named point of the cycle (crash injection).

    python tick_and_die.py CONFIG POINT [OCCURRENCE]

POINT is one of the tick's hook points (after_fetch, after_store, after_outbox, after_attempt, after_send);
at its OCCURRENCE-th passage the process ends with os._exit(137): no `finally`, no flush, no commit, exactly
what SIGKILL leaves behind. Exit 1 if the point was never reached.
"""

import os
import sys

from forumbot.config.load import load_config
from forumbot.cycle.daemon import Daemon


def main(config: str, point: str, occurrence: int) -> int:
    seen = 0

    def hook(name: str) -> None:
        nonlocal seen
        if name == point:
            seen += 1
            if seen == occurrence:
                os._exit(137)

    daemon = Daemon(load_config(config))
    daemon.cycle(hook)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1))
