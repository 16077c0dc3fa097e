"""What the tests that drive `forumbot tick` processes read in its summary line (forumbot/cycle/summary.py), built
from the bot's own texts (`summary.*` in forumbot/texts, both languages): one reading of the line for the live games,
the emulators' games and the stock-limit runs, so that new words change the patterns with them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from forumbot.texts import TABLES

JOIN = ", "  # summary.py joins a game's parts so


def _pattern(template: str, **groups: str) -> str:
    """`template` as a regular expression: its words escaped, each `{name}` replaced by `groups[name]`."""
    out, at = [], 0
    for field in re.finditer(r"\{(\w+)\}", template):
        out += [re.escape(template[at:field.start()]), groups[field.group(1)]]
        at = field.end()
    return "".join(out) + re.escape(template[at:])


# a game's line that queued and sent nothing, in either language
IDLE_SUMMARY = re.compile("|".join(
    r"(?<!\d)" + re.escape(t["summary.queued"].format(n=0) + JOIN + t["summary.sent"].format(n=0)) + r"(?!\d)"
    for t in TABLES.values()))

_DEFERRED = [re.compile(
    _pattern(t["summary.sent"], n=r"(?P<sent>\d+)") + re.escape(JOIN)
    + _pattern(t["summary.deferred"], n=r"(?P<waiting>\d+)", error="(?P<error>.*?)",
               when="(?:" + _pattern(t["summary.next_try"], seconds=r"(?P<retry>\d+)") + ")?"))
    for t in TABLES.values()]


@dataclass(frozen=True)
class Deferred:
    """A game's line when the forum's flood limit held messages back: sent this tick, still waiting, the next try
    in seconds (0 when the line names none) and the forum's error."""

    sent: int
    waiting: int
    retry: float
    error: str


def deferred(out: str) -> Deferred | None:
    """The first deferral a tick's output reports, in either language, or None."""
    for pattern in _DEFERRED:
        if (m := pattern.search(out)) is not None:
            return Deferred(int(m["sent"]), int(m["waiting"]), float(m["retry"] or 0), m["error"])
    return None
