"""GM commands sent by PM (C-9, DESIGN.md "GM commands")."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Mapping
from datetime import timedelta

from forumbot.model import (
    Agitation,
    Alias,
    Command,
    EndPhase,
    Extend,
    Help,
    Modkill,
    Pause,
    Rejection,
    Replace,
    Resume,
    Say,
    SetVote,
    Status,
    Undo,
    Vote,
)
from forumbot.parse.nicknames import NickMatcher
from forumbot.parse.normalize import WHITE_SPACE, Spans, keyword_form, normalize, strip_markup
from forumbot.parse.votes import PASS_FORMS

COMMAND_WORDS: Mapping[str, tuple[str, ...]] = {
    "status": ("status", "статус"),
    "modkill": ("modkill", "модкилл"),
    "replace": ("replace", "замена"),
    "extend": ("extend", "продлить"),
    "pause": ("pause", "пауза"),
    "resume": ("resume", "продолжить"),
    "end-phase": ("end-phase", "конец-фазы", "endphase", "end_phase"),
    "setvote": ("setvote", "голос"),
    "alias": ("alias", "алиас"),
    "say": ("say", "сказать"),
    "undo": ("undo", "отмена"),
    "help": ("help", "помощь"),
}
_COMMANDS = {keyword_form(word): name for name, words in COMMAND_WORDS.items() for word in words}
_NO_ARGUMENT: Mapping[str, Command] = {
    "status": Status(),
    "pause": Pause(),
    "resume": Resume(),
    "end-phase": EndPhase(),
    "undo": Undo(),
    "help": Help(),
}

_MINUTE_WORDS = ("m", "min", "mins", "minute", "minutes", "м", "мин", "минута", "минуту", "минуты", "минут")
DURATION_UNITS: Mapping[timedelta, tuple[str, ...]] = {
    timedelta(days=1): ("d", "day", "days", "д", "дн", "день", "дня", "дней", "сут", "сутки", "суток"),
    timedelta(hours=1): ("h", "hr", "hrs", "hour", "hours", "ч", "час", "часа", "часов"),
    timedelta(minutes=1): _MINUTE_WORDS,
}
_UNITS = {word: unit for unit, words in DURATION_UNITS.items() for word in words}
_DURATION_PART = re.compile(r"(\d+(?:[.,]\d+)?)\s*([^\W\d_]+)\.?\s*")

_QUOTES = {'"': '"', "«": "»", "“": "”", "„": "“"}
_WORD = re.compile(r"\S+")


MAX_EXTEND = timedelta(days=30)  # no phase is sanely extended further; bigger numbers would overflow datetimes
MIN_EXTEND = timedelta(minutes=1)  # deadlines are shown to the minute: less would change nothing anyone sees
# Caps on what a GM command puts into a post or PM (issue 17 item 22): a `сказать` is a post of its own, a
# modkill's reason a line of one, every other argument a name or a word.
MAX_SAY = 10_000
MAX_REASON = 500
MAX_TEXT = 200


def read_duration(text: str) -> timedelta | Rejection:
    """`30m`, `12ч`, `2h30m`, `90 мин`, `1д 12ч` as a timedelta in (0, MAX_EXTEND]; else why not."""
    # Not normalize(): it would strip a leading minus sign as punctuation.
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    negative = text.startswith("-")
    body = text[1:].lstrip() if negative else text
    hours, pos = 0.0, 0
    # Each part is matched where the last one ended: finditer would search the rest of the text for the
    # next match from every position, quadratic in a run of digits (issue 7 item 13).
    while pos < len(body):
        m = _DURATION_PART.match(body, pos)
        unit = _UNITS.get(m.group(2)) if m is not None else None
        if m is None or unit is None:
            return Rejection("bad_duration", text)
        # float hours first: a timedelta of "999999999999д" would raise OverflowError, not compare
        hours += float(m.group(1).replace(",", ".")) * (unit / timedelta(hours=1))
        pos = m.end()
    if not body:
        return Rejection("bad_duration", text)
    if negative:
        return Rejection("duration_not_positive", text)
    if hours > MAX_EXTEND / timedelta(hours=1):
        return Rejection("duration_too_long", text)
    total = timedelta(hours=hours)
    if total <= timedelta():  # "0м", or "0.000000001м" rounding to nothing
        return Rejection("duration_not_positive", text)
    if total < MIN_EXTEND:
        return Rejection("duration_too_short", text)
    return total


def parse_duration(text: str) -> timedelta | None:
    """A duration `read_duration` accepts, or None."""
    found = read_duration(text)
    return None if isinstance(found, Rejection) else found


def _quoted(text: str) -> tuple[str, str] | Rejection | None:
    """(inside, after) when `text` starts with a quoted part; None when it does not start with a quote."""
    text = text.lstrip()
    if not text or text[0] not in _QUOTES:
        return None
    close = text.find(_QUOTES[text[0]], 1)
    if close < 0 and text[0] == "„":
        close = text.find("”", 1)
    if close < 0:
        return Rejection("quote_unclosed", text)
    return text[1:close], text[close + 1 :].strip()


def _word_ends(text: str, keep: int) -> list[int]:
    """Where the first k words of `text` end, for k from the most that leave `keep` words over down to one."""
    spans = [m.span() for m in _WORD.finditer(text)]
    return [spans[k - 1][1] for k in range(len(spans) - keep, 0, -1)]


class _Reader:
    def __init__(self, matcher: NickMatcher, everyone: Collection[str]) -> None:
        self.matcher = matcher
        self.everyone = everyone

    def nick(self, text: str) -> str | Rejection:
        return self.matcher.match(text, allowed=self.everyone)

    def leading_nick(self, text: str, keep: int, word: str) -> list[tuple[str, str]] | Rejection:
        """Ways to read a nickname at the start of `text` with the rest after it, best first.

        A quoted nickname is the only reading; otherwise the longest run of words naming a player wins,
        so "modkill Кот Баюн спам" names Кот Баюн when he plays. Of the runs naming the same player only
        the longest and the shortest are kept: the others differ from them by words that normalise to
        nothing ("Маша ! ! !"), and keeping them all made a long command quadratic (issue 7 item 13).
        """
        quoted = _quoted(text)
        if isinstance(quoted, Rejection):
            return quoted
        if quoted is not None:
            found = self.nick(quoted[0])
            return found if isinstance(found, Rejection) else [(found, quoted[1])]
        ends = _word_ends(text, keep)
        if not ends:
            return Rejection("missing_argument", word)
        spans = Spans(text, WHITE_SPACE, self.matcher.key_limit)
        runs: dict[str, list[int]] = {}
        ambiguous: Rejection | None = None
        for end in ends:
            found = self.matcher.match_key(spans.key(0, end), self.everyone)
            if isinstance(found, str):
                runs.setdefault(found, []).append(end)
            elif found.code == "ambiguous_name":
                ambiguous = ambiguous or found
        if runs:
            kept = sorted({(end, nick) for nick, at in runs.items() for end in (at[0], at[-1])}, reverse=True)
            return [(nick, text[end:].strip()) for end, nick in kept]
        if ambiguous is not None:
            return ambiguous
        found = self.nick(text[: ends[-1]])  # no run names a player: the rejection quotes the longest
        return found if isinstance(found, Rejection) else [(found, text[ends[-1] :].strip())]


def _first_line(text: str) -> tuple[int, list[str]] | None:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if normalize(strip_markup(line)):
            return i, lines
    return None


def _say_text(raw_line: str, stripped_line: str, following: list[str]) -> str:
    """Everything after the command word, as written (markup kept: the bot posts it)."""
    raw = raw_line.split(maxsplit=1)
    if raw and keyword_form(raw[0]) in _COMMANDS:
        first = raw[1] if len(raw) > 1 else ""
    else:  # the command word itself was formatted: keep the rest of the line without its markup
        first = stripped_line.split(" ", 1)[1] if " " in stripped_line else ""
    return "\n".join([first, *following]).strip()


def parse_command(
    text: str,
    matcher: NickMatcher,
    *,
    everyone: Collection[str],
    parse_vote: Callable[[str], Vote | Agitation | Rejection],
    pass_words: Collection[str] = (),
) -> Command | Rejection:
    """A GM's PM as a command; the first non-empty line holds it. `pass_words`: the game's own no-lynch words
    (R-4), which no alias may be."""
    found = _first_line(text)
    if found is None:
        return Rejection("empty")
    index, lines = found
    line = " ".join(strip_markup(lines[index]).split())
    words = line.split(" ")
    word, rest = words[0], " ".join(words[1:])
    name = _COMMANDS.get(keyword_form(word))
    if name is None and len(words) > 1 and _COMMANDS.get(keyword_form(f"{word}-{words[1]}")) == "end-phase":
        name, word, rest = "end-phase", f"{word} {words[1]}", " ".join(words[2:])
    if name is None:
        return Rejection("unknown_command", line)
    if name in _NO_ARGUMENT:
        return _NO_ARGUMENT[name]
    if name == "say":
        said = _say_text(lines[index], line, lines[index + 1 :])
        if len(said) > MAX_SAY:
            return Rejection("say_too_long", str(MAX_SAY))
        return Say(said) if said else Rejection("missing_argument", word)
    if not normalize(rest):
        return Rejection("missing_argument", word)
    # Read no further than a name, a reason and what separates them could take: every part past its cap is
    # refused anyway, and a rejection would quote the text back.
    if len(rest) > (MAX_TEXT + MAX_REASON if name == "modkill" else 2 * MAX_TEXT) + 8:
        return Rejection("reason_too_long" if name == "modkill" else "text_too_long",
                         str(MAX_REASON if name == "modkill" else MAX_TEXT))
    reader = _Reader(matcher, everyone)
    if name == "extend":
        duration = read_duration(rest)
        return Rejection(duration.code, rest) if isinstance(duration, Rejection) else Extend(duration)
    if name == "modkill":
        readings = reader.leading_nick(rest, 0, word)
        if isinstance(readings, Rejection):
            return readings
        nick, reason = readings[0]
        reason = "\n".join([reason, *(strip_markup(ln).strip() for ln in lines[index + 1 :])]).strip()
        return Rejection("reason_too_long", str(MAX_REASON)) if len(reason) > MAX_REASON else Modkill(nick, reason)
    if name == "replace":
        return _replace(reader, rest, word)
    if name == "setvote":
        return _setvote(reader, rest, word, parse_vote)
    return _alias(reader, rest, word, PASS_FORMS | {keyword_form(w) for w in pass_words})


def _replace(reader: _Reader, rest: str, word: str) -> Replace | Rejection:
    readings = reader.leading_nick(rest, 1, word)
    if isinstance(readings, Rejection):
        alone = reader.leading_nick(rest, 0, word)  # S-4: `замена НИК` alone offers the seat to the reserve
        if isinstance(alone, Rejection):
            return alone  # one word naming nobody: told so, not "an argument is missing"
        return Replace(alone[0][0], "") if not alone[0][1] else readings
    old, new_text = readings[0]
    quoted = _quoted(new_text)
    if isinstance(quoted, Rejection):
        return quoted
    new = quoted[0].strip() if quoted is not None else new_text
    if not new:
        return Rejection("missing_argument", word)
    return _name_refusal(new) or Replace(old, new)


def _name_refusal(name: str) -> Rejection | None:
    """A new name or alias too long to be one, or one that shows nothing (zero-width, markup or spaces only)."""
    if len(name) > MAX_TEXT:
        return Rejection("text_too_long", str(MAX_TEXT))
    if not normalize(strip_markup(name)):
        return Rejection("invisible_name", name)
    return None


def _setvote(
    reader: _Reader, rest: str, word: str, parse_vote: Callable[[str], Vote | Agitation | Rejection]
) -> SetVote | Rejection:
    readings = reader.leading_nick(rest, 1, word)
    if isinstance(readings, Rejection):
        return readings
    first: Rejection | None = None
    for voter, target in readings:
        if not target:
            first = first or Rejection("missing_argument", word)
            continue
        if len(target) > MAX_TEXT:
            first = first or Rejection("text_too_long", str(MAX_TEXT))
            continue
        vote = parse_vote(target)
        if isinstance(vote, Vote):
            return SetVote(voter, vote)
        first = first or (vote if isinstance(vote, Rejection) else Rejection("not_a_vote", target))
    assert first is not None
    return first


def _alias(reader: _Reader, rest: str, word: str, reserved: Collection[str]) -> Alias | Rejection:
    quoted = _quoted(rest)
    if isinstance(quoted, Rejection):
        return quoted
    if quoted is not None:
        alias, nick_text = quoted[0].strip(), quoted[1]
        if not alias or not normalize(nick_text):
            return Rejection("missing_argument", word)
        nick = reader.nick(nick_text)
        return nick if isinstance(nick, Rejection) else _new_alias(alias, nick, reserved)
    # The shortest alias that leaves a player's name after it: the longest name wins.
    ends = _word_ends(rest, 1)[::-1]
    if not ends:
        return Rejection("missing_argument", word)
    spans = Spans(rest, WHITE_SPACE, reader.matcher.key_limit)
    for end in ends:
        nick = reader.matcher.match_key(spans.key(end, len(rest)), reader.everyone)
        if isinstance(nick, str):
            return _new_alias(rest[:end], nick, reserved)
    nick = reader.nick(rest[ends[0] :].strip())  # no split leaves a name: the rejection quotes the longest rest
    return nick if isinstance(nick, Rejection) else _new_alias(rest[: ends[0]], nick, reserved)


def _new_alias(alias: str, nick: str, reserved: Collection[str]) -> Alias | Rejection:
    """An alias that would never be read as a name is refused: an invisible one, or a pass word ("ннв",
    "помиловать всех"), which a vote reads as that word before any name."""
    refusal = _name_refusal(alias)
    if refusal is not None:
        return refusal
    if keyword_form(alias) in reserved:
        return Rejection("alias_reserved", alias)
    return Alias(alias, nick)
