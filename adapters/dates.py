"""Forum dates as people read them, turned into aware datetimes.

Handles what phpBB and MyBB print in Russian and English:
  "26 ноя 2026, 15:07", "Thu Nov 26, 2026 3:07 pm", "26.11.2026, 15:07", "11-29-2025, 10:12 AM",
  "Сегодня, 12:30", "Вчера в 09:00", "Today, 02:17", "6 часов назад", "менее 1 минуты назад", "5 minutes ago",
  and ISO 8601. Local times are read in the zone the forum shows the bot's account (`tz`); relative ones count
  back from `now` (the server's Date header where there is one).

Many of these say a time only roughly: "1 минуту назад" is anything from 60 to 119 s ago, "15:07" any second
of that minute. `forum_date_span` gives the whole range the words allow (C-1: a post's stamp is that range).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, timezone
from typing import NamedTuple
from zoneinfo import ZoneInfo

MONTHS = {
    "янв": 1, "фев": 2, "мар": 3, "апр": 4, "май": 5, "мая": 5, "июн": 6, "июл": 7, "авг": 8, "сен": 9,
    "окт": 10, "ноя": 11, "дек": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
    "nov": 11, "dec": 12,
}
_TODAY = ("сегодня", "today")
_YESTERDAY = ("вчера", "yesterday")

_UNITS = [  # stem -> seconds; Russian stems cover every plural form ("минуты", "минут", "часов", "часа")
    ("сек", 1), ("мин", 60), ("час", 3600), ("дн", 86400), ("ден", 86400), ("недел", 604800),
    ("second", 1), ("minute", 60), ("min", 60), ("hour", 3600), ("day", 86400), ("week", 604800),
]
_TIME = r"(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?"
_RE_TIME = re.compile(_TIME, re.IGNORECASE)
_RE_DMY_NAME = re.compile(r"(\d{1,2})\s+([^\W\d_]{3,})\.?,?\s+(\d{4})", re.UNICODE)
_RE_MDY_NAME = re.compile(r"([^\W\d_]{3,})\.?\s+(\d{1,2}),?\s+(\d{4})", re.UNICODE)
_RE_NUMERIC = re.compile(r"(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})")
_RE_AGO = re.compile(r"(менее|less than)?\s*(\d+|an?|одн\w*)?\s*([^\W\d_]+)\.?\s+(назад|ago)", re.IGNORECASE)
# XenForo's a_moment_ago: under a minute before now
_RE_MOMENT = re.compile(r"^(только что|a moment ago|just now)$", re.IGNORECASE)


def parse_iso(value: str) -> datetime:
    dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


def _clock(text: str) -> time | None:
    m = _RE_TIME.search(text)
    if not m:
        return None
    hour, minute, sec = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    ampm = (m.group(4) or "").lower().replace(".", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    return time(hour, minute, sec)


def _calendar_day(text: str, numeric_order: str) -> date | None:
    m = _RE_DMY_NAME.search(text)
    if m and m.group(2)[:3].lower() in MONTHS:
        return date(int(m.group(3)), MONTHS[m.group(2)[:3].lower()], int(m.group(1)))
    m = _RE_MDY_NAME.search(text)
    if m and m.group(1)[:3].lower() in MONTHS:
        return date(int(m.group(3)), MONTHS[m.group(1)[:3].lower()], int(m.group(2)))
    m = _RE_NUMERIC.search(text)
    if m:
        a, b, c = int(m.group(1)), int(m.group(3)), int(m.group(4))
        if m.group(1).__len__() == 4:  # Y-m-d
            return date(a, b, c)
        if c < 100:
            c += 2000
        # MyBB's stock format is m-d-Y; "." and the Russian packs use d.m.Y.
        if numeric_order == "mdy" or (m.group(2) == "-" and numeric_order == "auto"):
            return date(c, a, b)
        return date(c, b, a)
    return None


class Span(NamedTuple):
    """The instants a printed date allows, both inclusive and aware UTC; equal when the date is exact."""

    earliest: datetime
    latest: datetime

    @property
    def rough(self) -> bool:
        return self.latest > self.earliest


def parse_forum_date(text: str, tz: ZoneInfo | timezone, now: datetime, numeric_order: str = "auto") -> datetime | None:
    """An aware UTC datetime for a date as the forum prints it, or None if it is not a date.

    One reading of it: a relative date counts back its whole units ("1 минуту назад": 60 s before `now`),
    a clock time is the start of its minute. Post and PM stamps use `forum_date_span` (C-1)."""
    found = _read(text, tz, now, numeric_order)
    return None if found is None else found[0]


def forum_date_span(text: str, tz: ZoneInfo | timezone, now: datetime, numeric_order: str = "auto") -> Span | None:
    """The range of instants a date as the forum prints it allows (C-1), or None if it is not a date.

    "N units ago" is from N+1 units to N units before `now` (the forum rounds the elapsed time down); a time
    to the minute is that minute's 60 seconds; a date without a time is its whole day; seconds are exact."""
    found = _read(text, tz, now, numeric_order)
    if found is None:
        return None
    at, width, relative = found
    if relative:
        return Span(at - width, at)
    if width <= timedelta(seconds=1):
        return Span(at, at)
    # Nothing on a page was written after the page was served: a time shown to the minute, read within that
    # minute, ends now (so a GM's `конец-фазы` read at once is not held back to the minute's end).
    return Span(at, max(at, min(at + width - timedelta(seconds=1), now)))


def _read(text: str, tz: ZoneInfo | timezone, now: datetime, numeric_order: str) -> tuple[datetime, timedelta, bool] | None:
    """(the reading, the unit the text counts in, whether it counts back from now) for a printed date."""
    s = " ".join(text.split())
    if not s:
        return None
    low = s.lower()
    if re.match(r"^\d{4}-\d{2}-\d{2}[t ]\d", low):
        try:
            dt = datetime.fromisoformat(s.replace("Z", "+00:00"))
            return (dt if dt.tzinfo else dt.replace(tzinfo=tz)).astimezone(timezone.utc), timedelta(seconds=1), False
        except ValueError:
            pass
    if _RE_MOMENT.match(low):
        return now.astimezone(timezone.utc), timedelta(seconds=59), True
    m = _RE_AGO.search(low)
    if m:
        seconds = _unit_seconds(m.group(3))
        if seconds:
            n_raw = m.group(2) or "1"
            n = int(n_raw) if n_raw.isdigit() else 1
            if m.group(1):  # "less than 1 minute ago"
                n = 0
            return (now - timedelta(seconds=n * seconds)).astimezone(timezone.utc), timedelta(seconds=seconds), True
    local_now = now.astimezone(tz)
    day: date | None
    if any(w in low for w in _TODAY):
        day = local_now.date()
    elif any(w in low for w in _YESTERDAY):
        day = local_now.date() - timedelta(days=1)
    else:
        day = _calendar_day(s, numeric_order)
    if day is None:
        return None
    m = _RE_TIME.search(_strip_date(s))
    clock = _clock(_strip_date(s)) or time(0, 0)
    width = timedelta(days=1) if m is None else timedelta(minutes=1) if m.group(3) is None else timedelta(seconds=1)
    return datetime.combine(day, clock, tzinfo=tz).astimezone(timezone.utc), width, False


def _strip_date(s: str) -> str:
    """The text without its numeric date, so "26.11.2026, 15:07" does not read 26.11 as a time."""
    return _RE_NUMERIC.sub(" ", s)


def _unit_seconds(word: str) -> int | None:
    w = word.lower()
    for stem, seconds in _UNITS:
        if w.startswith(stem):
            return seconds
    return None


# What a GM can do about relative times, per engine (issue 7 item 7): `check-config --online` says it.
_ROUGH_FIX = {
    "mybb": "MyBB prints the last 12 hours as relative words; the Russian language pack drops the exact time MyBB "
            "keeps in their title: in Admin CP → Configuration → Languages, edit the board's language, global.lang.php, "
            "and set rel_time to <span title=\"{5}{6}\">{1}{2} {3} {4}</span> (MyBB's English default), "
            "which makes every relative time exact to the minute",
    "phpbb": "in UCP → Board preferences → Global settings, choose a date format without relative dates "
             "(no \"|\" in it) for the bot's account",
}


def rough_times_warning(engine: str, spans: list[tuple[datetime, datetime | None]]) -> str | None:
    """A warning when a page showed a post's time only to within more than a minute (relative words), or None.

    `spans`: each post's (earliest, latest) as read; latest None for an exact time. Whole-minute times (60 s)
    are the forum's ordinary precision and need no warning."""
    wide = [latest - earliest for earliest, latest in spans if latest is not None]
    if not any(width > timedelta(seconds=59) for width in wide):
        return None
    fix = next((how for name, how in _ROUGH_FIX.items() if name in engine.lower()),
               "switch relative dates off in the board's date settings")
    return ("the board shows post times only roughly (relative words such as \"5 минут назад\"); forumbot counts "
            "such a post by the range the words allow (C-1), which a deadline can split. To show exact times: " + fix)
