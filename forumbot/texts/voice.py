"""The voice every part of the texts speaks in: one language's table, the board's formatting, the game's time
zone and the grammar helpers (plural forms, lists of names, times, headings, sections) the parts compose."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Callable, Mapping, Sequence
from zoneinfo import ZoneInfo

from forumbot.markup import Format
from forumbot.model import Rejection, Role, Special
from forumbot.parse.normalize import normalize, strip_markup
from forumbot.texts.ru import plural as russian_plural

# A quote the shell or the post left in a vote's text (H-3): shown as a word, never as markup.
_QUOTE = re.compile(r"\[quote\b|<blockquote\b", re.IGNORECASE)
# A long list goes into the board's spoiler, where it has one, beyond this many lines.
SPOILER_AFTER = 8


def zone_label(zone: ZoneInfo, at: datetime, table: Mapping[str, str]) -> str:
    """The zone as a reader knows it: the table's name for it (МСК), its abbreviation (CET), else UTC±H."""
    named = table.get(f"zone.{getattr(zone, 'key', '')}")
    if named:
        return named
    local = at.astimezone(zone)
    abbr = local.tzname() or ""
    if abbr.isalpha():
        return abbr
    offset = local.utcoffset() or timedelta()
    sign = "-" if offset < timedelta() else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60}" + (f":{minutes % 60:02d}" if minutes % 60 else "")


def duration_parts(length: timedelta) -> list[tuple[int, str]]:
    """Whole days, hours and minutes of a length (seconds and smaller are never shown)."""
    minutes = int(length.total_seconds()) // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    return [(n, unit) for n, unit in ((days, "day"), (hours, "hour"), (mins, "minute")) if n]


class Voice:
    def __init__(self, table: Mapping[str, str], escape: Callable[[str], str], zone: ZoneInfo,
                 fmt: Format | None = None, plural: Callable[[int], int] = russian_plural, spoiler: str = "") -> None:
        self.T = table
        self.esc = escape
        self.zone = zone
        self.f = fmt or Format()
        self.plural = plural
        self.spoiler_tag = "" if spoiler == "none" else spoiler


    def _(self, key: str, **kw: object) -> str:
        return self.T[key].format(**kw)

    def forms(self, n: int, word: str) -> str:
        return self.T[f"forms.{word}"].split("|")[self.plural(n)]

    def count(self, n: int, word: str) -> str:
        """`1 голос`, `2 голоса`, `5 голосов`, `21 голос`."""
        return f"{n} {self.forms(n, word)}"

    def verb(self, key: str, n: int) -> str:
        """The verb form agreeing with `n` subjects: the table's `verb.KEY` is `singular|plural`."""
        one, many = self.T[f"verb.{key}"].split("|")
        return one if n == 1 else many

    def time(self, at: datetime) -> str:
        local = at.astimezone(self.zone)
        return self._("time", date=local.strftime("%d.%m"), clock=local.strftime("%H:%M"),
                      zone=zone_label(self.zone, at, self.T))

    def deadline(self, at: datetime) -> str:
        """A deadline as `time` writes it, with its seconds where it has them: a `start` with seconds (15:00:36)
        keeps them in every deadline, and «15:00» would tell a player who posts at 15:00:20 he was late (stop 36:
        posts, pages and `статус` all write a deadline through this)."""
        local = at.astimezone(self.zone)
        if not local.second:
            return self.time(at)
        return self._("time", date=local.strftime("%d.%m"), clock=local.strftime("%H:%M:%S"),
                      zone=zone_label(self.zone, at, self.T))

    def zone_name(self, at: datetime) -> str:
        return zone_label(self.zone, at, self.T)

    def time_s(self, at: datetime) -> str:
        local = at.astimezone(self.zone)
        return self._("time", date=local.strftime("%d.%m"), clock=local.strftime("%H:%M:%S"),
                      zone=zone_label(self.zone, at, self.T))

    def ahead(self, at: datetime, now: datetime | None) -> str:
        """How long from `now` until `at` («через 9 ч»): whole hours, minutes in the last hour; "" once it has
        passed or when `now` is not known."""
        if now is None or at <= now:
            return ""
        left = at - now
        if left >= timedelta(hours=1):
            return self._("ahead.hours", n=left // timedelta(hours=1))
        return self._("ahead.minutes", n=max(1, left // timedelta(minutes=1)))

    def duration(self, length: timedelta) -> str:
        parts = duration_parts(length) or [(0, "minute")]
        return " ".join(self.count(n, unit) for n, unit in parts)

    def n(self, nick: str) -> str:
        return self.esc(nick)

    def b(self, nick: str) -> str:
        """A nickname in bold: the names a post is about."""
        return self.f.bold(self.esc(nick))

    def join(self, parts: Sequence[str]) -> str:
        """`А`, `А и Б`, `А, Б и В` (already rendered parts)."""
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + f" {self.T['and']} " + parts[-1]

    def names(self, nicks: Sequence[str], bold: bool = False) -> str:
        if not nicks:
            return self.T["nobody"]
        return self.join([self.b(x) if bold else self.n(x) for x in nicks])

    def plain_names(self, nicks: Sequence[str]) -> str:
        return ", ".join(self.n(x) for x in nicks) if nicks else self.T["nobody"]

    def role(self, role: Role | str) -> str:
        return self.T[f"role.{role}"]

    def target(self, t: str, bold: bool = False) -> str:
        if isinstance(t, Special):
            return self.f.bold(self.T[f"special.{t}"]) if bold else self.T[f"special.{t}"]
        return self.b(t) if bold else self.n(t)

    def reason(self, r: Rejection, shown: str = "", who: str = "") -> str:
        """Why a post or line was refused. The detail is left out where it would only repeat what the line
        already shows (the post's own text, its author): «X» — это не голос, not «X» — это не голос: «X»."""
        detail = strip_markup(r.detail)
        repeats = bool(detail) and normalize(detail) in {normalize(shown), normalize(who)} - {""}
        short = f"reject.{r.code}.short"
        if (repeats or not detail) and short in self.T:
            return self.T[short]
        return self._(f"reject.{r.code}", detail=self.esc(detail))

    def excerpt(self, text: str) -> str:
        return self.esc(self._excerpt(text))

    @staticmethod
    def _excerpt(text: str) -> str:
        one_line = " ".join(strip_markup(text).split())
        return one_line[:60] + ("…" if len(one_line) > 60 else "")

    def quoted(self, text: str) -> str:
        """A player's post quoted back: «text», marked when it held a quote (the quote is never shown)."""
        shown = self._("quoted", text=self.excerpt(text))
        return shown + self.T["with_quote"] if _QUOTE.search(text) else shown

    def heading(self, key: str, **kw: object) -> str:
        return self.f.bold(self._(key, **kw))

    def section(self, title: str, items: list[str]) -> str:
        """A titled list; a long one goes into the board's spoiler where it has one."""
        if not items:
            return ""
        body = self.f.items(items)
        if len(items) > SPOILER_AFTER and self.spoiler_tag:
            return self.f.spoiler(self.spoiler_tag, title, body)
        return self.f.lines([self.f.bold(title)]) + "\n" + ("\n" if self.f.name == "markdown" else "") + body

    def post(self, *blocks: str) -> str:
        return self.f.blocks(list(blocks))

    def prose(self, *lines: str) -> str:
        return self.f.lines(list(lines))

    def moves_short(self, moves: Sequence[str]) -> str:
        return ", ".join(self.T[f"grammar.{k}"] for k in moves if f"grammar.{k}" in self.T)

    def phase(self, label: str) -> str:
        kind, _, n = label.partition(" ")
        return self._(f"phase.{kind}", n=n)

    def gap(self, start: datetime, end: datetime) -> str:
        """C-14: «с 01.12 10:00 до 01.12 11:30 (МСК)», the zone once."""
        return self._("downtime.gap", start=self.clock(start), end=self.clock(end),
                      zone=self.zone_name(end))

    def clock(self, at: datetime) -> str:
        return at.astimezone(self.zone).strftime("%d.%m %H:%M")

    def edit_quoted(self, text: str, first: str = "") -> str:
        """An edited post as it reads now, with the text first stored beside it (C-11, issue 17 item 15)."""
        if not first or first == text:
            return self.quoted(text)
        return self._("count.edit_pair", now=self.quoted(text), first=self.quoted(first))
