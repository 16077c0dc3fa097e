"""Retries of a forum call: exponential back-off for ForumUnavailable, one re-login for LoginRequired."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, TypeVar

from forumbot.forum.adapter import ForumAdapter
from forumbot.errors import FloodLimited, ForumError, FormRejected, LoginRequired, PageIncomplete
from forumbot.errors import ForumUnavailable

log = logging.getLogger("forumbot.tick")  # the tick's logger, as before the split: the log lines read the same

T = TypeVar("T")


@dataclass
class Retry:
    """Retries with exponential back-off for ForumUnavailable; one re-login for LoginRequired.

    A page served cut short (PageIncomplete) is retried `incomplete_attempts` times only: a page that stays cut
    is rarely whole seconds later, and the full back-off (5 + 10 + 20 s) per read would stretch a cron tick;
    the next cycle reads it again (issue 7 item 6 follow-up)."""

    attempts: int = 3
    backoff: float = 5.0
    sleep: Callable[[float], None] = time.sleep
    incomplete_attempts: int = 1

    def __call__(self, adapter: ForumAdapter, call: Callable[[], T]) -> T:
        logged_in = False
        tries = 0
        while True:
            try:
                return call()
            except LoginRequired:
                if logged_in:
                    raise
                logged_in = True
                log.info("session expired; logging in again")
                adapter.login()
            except (FloodLimited, FormRejected):
                raise
            except ForumError as e:
                limit = min(self.attempts, self.incomplete_attempts) if isinstance(e, PageIncomplete) else self.attempts
                if tries >= limit or not _transient(e):
                    raise
                delay = self.backoff * 2 ** tries
                tries += 1
                log.warning("forum error (%s); retry %d of %d in %.0f s", e, tries, self.attempts, delay)
                self.sleep(delay)


def _transient(error: ForumError) -> bool:
    return isinstance(error, ForumUnavailable)
