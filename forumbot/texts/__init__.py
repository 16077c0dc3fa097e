"""What the bot says, in Russian (default) or English. Every player-supplied string goes through `escape`.

Texts are templates in one table per language (`ru.py`, `en.py`); this module only assembles them, so a new
language is a new table. Grammar is by construction (issue 11 item 2): a nickname only ever stands where the
sentence needs the nominative (after a dash or a colon, or as the subject), counts take their plural form from
the table's `forms.*` entries, verbs agree with the number of names, and no text uses a past tense that would
give a player a gender. Formatting is the board's own (BBCode or Markdown), through `forumbot.markup.Format`.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any, Callable, Mapping, Sequence
from zoneinfo import ZoneInfo

from forumbot.errors import SetupError
from forumbot.markup import Format, get_format
from forumbot.model import Rejection, Role, Special
from forumbot.parse.normalize import normalize, strip_markup
from forumbot.texts import en, ru
from forumbot.texts.activity import ActivityTexts
from forumbot.texts.ending import EndingTexts
from forumbot.texts.gm import GmTexts
from forumbot.texts.guide import GuideTexts
from forumbot.texts.player_pms import PlayerTexts

TABLES = {"ru": ru.T, "en": en.T}
PLURALS: dict[str, Callable[[int], int]] = {"ru": ru.plural, "en": en.plural}


def gm_language(languages: Sequence[str]) -> str:
    """The language the GMs' own tools speak (check-config, probe; issue 28 item 4), given their games' languages:
    English when every game is played in English, else Russian, the games' default."""
    return "en" if languages and all(lang == "en" for lang in languages) else "ru"

# A quote the shell or the post left in a vote's text (H-3): shown as a word, never as markup.
_QUOTE = re.compile(r"\[quote\b|<blockquote\b", re.IGNORECASE)
# A long list goes into the board's spoiler, where it has one, beyond this many lines.
SPOILER_AFTER = 8


def get_texts(language: str, escape: Callable[[str], str], timezone: str, markup: str = "bbcode",
              spoiler: str = "") -> "Texts":
    if language not in TABLES:
        raise SetupError(f"unknown language {language!r}; known: {', '.join(sorted(TABLES))}")
    try:
        zone = ZoneInfo(timezone)
    except (KeyError, ValueError):
        raise SetupError(f"unknown time zone {timezone!r}") from None
    return Texts(TABLES[language], escape, zone, get_format(markup), PLURALS[language], spoiler)


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


class Texts(GuideTexts, PlayerTexts, GmTexts, EndingTexts, ActivityTexts):
    def __init__(self, table: Mapping[str, str], escape: Callable[[str], str], zone: ZoneInfo,
                 fmt: Format | None = None, plural: Callable[[int], int] = ru.plural, spoiler: str = "") -> None:
        self.T = table
        self.esc = escape
        self.zone = zone
        self.f = fmt or Format()
        self.plural = plural
        self.spoiler_tag = "" if spoiler == "none" else spoiler

    # --- helpers

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

    def zone_name(self, at: datetime) -> str:
        return zone_label(self.zone, at, self.T)

    def time_s(self, at: datetime) -> str:
        local = at.astimezone(self.zone)
        return self._("time", date=local.strftime("%d.%m"), clock=local.strftime("%H:%M:%S"),
                      zone=zone_label(self.zone, at, self.T))

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

    # --- setup

    def setup_post(self, nicks: Sequence[str], start: datetime, commitment: str,
                   house: Sequence[tuple[str, Any]] = (), how_to_vote: Sequence[str] = ()) -> str:
        """C-2's opening post. `how_to_vote` (see `how_to_vote`) and `house`, the rules in force, are what a
        player needs before Day 1 (issue 17 item 6)."""
        return self.post(
            self.heading("setup.title"),
            self.f.items([self.b(x) for x in nicks]) if self.f.name == "markdown"
            else self.f.items([f"{i}. {self.b(x)}" for i, x in enumerate(nicks, 1)]),
            self.prose(self._("setup.start", at=self.time(start))),
            self.section(self.T["setup.vote.title"], list(how_to_vote)) if how_to_vote else "",
            self.prose(*self.house_rules(house, "setup.rules.title")) if house else "",
            self.prose(self._("setup.commitment", hash=commitment), self.T["setup.how_to_check"]),
            self.prose(self.T["setup.marker"]),
        )

    def house_rules(self, house: Sequence[tuple[str, Any]], title: str = "house.title") -> list[str]:
        """The house rules in force (RULES.md R), one line each; nothing when the variant's clauses hold."""
        if not house:
            return []
        lines = [self._(title)]
        for name, value in house:
            if name == "vote_changes":
                line = (self._("house.vote_changes.unlimited") if value is None else
                        self._("house.vote_changes.none") if value == 0 else self._("house.vote_changes", n=value))
            elif name == "final_word":
                line = self._("house.final_word", word=self.esc(value))
            elif name == "vote_format":
                fmt, colors = value
                line = self._(f"house.vote_format.{fmt}", colors=", ".join(colors))
            elif name == "pass_words":
                line = self._("house.pass_words", words=", ".join(f"«{self.esc(w)}»" for w in value))
            elif name == "majority_delay":
                line = self._("house.majority_delay", n=f"{value:g}")
            elif name == "draw_at":
                line = self._("house.draw_at.off") if value == 0 else self._("house.draw_at", n=value)
            elif name == "post_minimum":
                line = self.post_minimum_rule(*value)
            elif name == "cast":
                # a role the cast leaves out (`maniac = 0`) is not named; the civilians are the rest
                items = [self._("house.cast.item", role=self.role(r), n=n) for r, n in value.items() if n]
                line = self._("house.cast", roles=", ".join(items + [self.T["house.cast.rest"]]))
            else:
                line = self._(f"house.{name}.{value}")
            lines.append(f"— {line}.")
        return lines

    def unconfirmed_to_gm(self, nicks: Sequence[str]) -> str:
        return self._("gm.unconfirmed", names=self.names(nicks)) if nicks else self._("gm.all_confirmed")

    # --- phases

    def day_opens(self, n: int, deadline: datetime, alive: Sequence[str], late: str | None = None,
                  vote_url: str = "") -> str:
        """The day's opening post; the vote thread is a link where its URL is safe to link (C-3: votes live there,
        issue 28 item 9), else named in words."""
        thread = self.f.link(vote_url, self.T["setup.vote.thread"]) if vote_url else self.T["setup.vote.thread"]
        return self.post(
            self.heading("day.opens", n=n),
            *([self.prose(late)] if late else []),
            self.prose(self._("day.vote_until", at=self.time(deadline), thread=thread)),
            self.prose(self._("day.alive", count=self.count(len(alive), "player"), alive=self.plain_names(alive))),
        )

    def night_opens(self, n: int, deadline: datetime, moves: Sequence[str] = (), late: str | None = None) -> str:
        lines = [self._("night.moves_until", at=self.time(deadline))]
        if moves:
            lines.append(self._("night.how", moves=self.moves_short(moves)))
        return self.post(self.heading("night.opens", n=n), *([self.prose(late)] if late else []), self.prose(*lines))

    def late_opening(self, due: datetime, opens: datetime) -> str:
        """C-14: a phase opened when the bot came back, not when it was due; every later deadline moves too."""
        return self._("phase.opens_late", due=self.time(due), opens=self.time(opens), shift=self.duration(opens - due))

    def vote_count(
        self, label: str, votes: Mapping[str, str], not_voted: Sequence[str],
        rejected: Sequence[tuple[str, str, Rejection]], ignored: Sequence[tuple[str, str, str]],
        voided: Sequence[tuple[str, str, str]], agitators: Sequence[str], final: bool,
        edited_kept: Sequence[tuple[str, str, str]] = (),
        deleted: Sequence[tuple[str, str]] = (),
        rough: Sequence[tuple[str, str, datetime, datetime]] = (),
        house: Sequence[tuple[str, Any]] = (),
        by_gm: Sequence[str] = (),
        replaced: Sequence[tuple[str, str]] = (),
        deleted_agitation: Sequence[tuple[str, str]] = (),
        majority: tuple[int, int] | None = None,
        tie: tuple[str, Sequence[str], str] | None = None,
        few_posts: Sequence[tuple[str, int]] = (), post_minimum: int = 0, majority_decides: bool = True,
    ) -> str:
        """C-6: one line per candidate (most votes first) with who voted, then who has not voted, then every
        post not counted, or counted with a note, and why. Issue 30 item 5: with `majority` (the votes that make
        a majority, the alive players) how many that is and each candidate's distance to it (L-n); with `tie`
        (R-6's code, the tied leaders, who would leave under "first_reached") what the tie would do at the
        deadline, in an interim count (the final one is followed by the result)."""
        tally: dict[str, list[str]] = {}
        for voter, target in votes.items():
            tally.setdefault(target, []).append(voter)
        title = self.heading("count.final" if final else "count.title", phase=self.phase(label))
        house_block = self.prose(*self.house_rules(house)) if house else ""
        marked = lambda v: self.n(v) + (self.T["count.by_gm"] if v in by_gm else "")  # noqa: E731
        lines = [
            self._("count.line" if majority is None or isinstance(target, Special) else "count.line_to",
                   target=self.target(target, bold=True), count=self.count(len(voters), "vote"),
                   voters=", ".join(marked(v) for v in voters),
                   left=max(majority[0] - len(voters), 0) if majority else 0)
            for target, voters in sorted(tally.items(), key=lambda kv: (-len(kv[1]), str(kv[0])))
        ]
        tally_block = self.f.items(lines) if lines else self.prose(self._("count.none"))
        # R-5 plurality (without R-12): the majority decides nothing, and a bare «Большинство — 6 из 10» with L-n
        # beside each name read as if it did (issue 28)
        majority_key = "count.majority" if majority_decides else "count.majority.plurality"
        majority_block = self.prose(self._(majority_key, need=majority[0], alive=majority[1])) if majority else ""
        tie_block = self.prose(self._(f"count.tie.{tie[0]}", names=self.names(tie[1], bold=True),
                                      first=self.b(tie[2]))) if tie and not final else ""
        not_voted_block = self.prose(self._("count.not_voted", count=len(not_voted), names=self.plain_names(not_voted))) \
            if not_voted else ""
        notes: list[str] = []
        for nick in agitators:
            notes.append(self._("count.agitation", nick=self.b(nick)))
        for nick, text in deleted_agitation:  # H-4: read, so it counts, though gone from the thread
            notes.append(self._("count.agitation_deleted", nick=self.b(nick), text=self.quoted(text)))
        for nick, text in replaced:
            notes.append(self._("count.replaced", nick=self.b(nick), text=self.quoted(text)))
        for nick, text, why in rejected:
            notes.append(self._("count.rejected", nick=self.b(nick), text=self.quoted(text),
                                why=self.reason(why, shown=self._excerpt(text), who=nick)))
        for nick, text, why in ignored:
            notes.append(self._(f"count.ignored.{why}", nick=self.b(nick), text=self.quoted(text)))
        for nick, text, *first in voided:
            notes.append(self._("count.edited", nick=self.b(nick), text=self.edit_quoted(text, *first)))
        for nick, text, *first in edited_kept:  # C-11: the count names every edited post, counted or not
            notes.append(self._("count.edited_kept", nick=self.b(nick), text=self.edit_quoted(text, *first)))
        for nick, text in deleted:  # C-11: gone from the thread at the deadline re-read
            notes.append(self._("count.deleted", nick=self.b(nick), text=self.quoted(text)))
        for nick, text, earliest, latest in rough:  # C-1: a rough time across the deadline counts before it
            notes.append(self._("count.rough", nick=self.b(nick), text=self.quoted(text),
                                earliest=self.time_s(earliest), latest=self.time_s(latest)))
        return self.post(title, house_block, majority_block, tally_block, tie_block, not_voted_block,
                         self.few_posts_block(few_posts, post_minimum),
                         self.section(self.T["count.notes"], notes))

    def phase(self, label: str) -> str:
        kind, _, n = label.partition(" ")
        return self._(f"phase.{kind}", n=n)

    def day_result(self, n: int, outcome, autokills, revealed, lw_deadline,  # type: ignore[no-untyped-def]
                   why: Mapping[str, str] | None = None, majority: tuple[str, datetime] | None = None,
                   downtime: tuple[datetime, datetime] | None = None) -> str:
        """`why`: seat -> "agitation", "no_vote", "posts" or "no_vote_posts", the reason each autokill is for (H-4,
        H-5, R-11). `majority`: who held the majority that ended the day early and that post's time (R-12);
        `downtime`: the gap that disturbed this deadline, when it waived the no-show rule (C-14)."""
        lines = [self._("day.ended_at_majority", nick=self.b(majority[0]), at=self.time(majority[1]))] \
            if majority else []
        lines += [self._("day.downtime", gap=self.gap(*downtime))] if downtime else []
        lines += self.autokill_lines(autokills, revealed, why)
        if autokills:
            lines.append(self._("day.no_vote_after_autokill"))
        for kill in outcome.deaths:
            nick, role = revealed(kill.nick)
            lines.append(self._("day.hanged", nick=self.b(nick)))
            if role:
                lines.append(self._("role.revealed", role=self.role(role)))
        if outcome.deaths and lw_deadline is not None:
            lines.append(self._("lastword.until", at=self.time(lw_deadline)))
        if outcome.reason not in ("vote", "autokill") and f"day.{outcome.reason}" in self.T:  # house rules add reasons
            pardoned = [revealed(x)[0] for x in outcome.pardoned]
            lines.append(self._(f"day.{outcome.reason}", names=self.names(pardoned, bold=True)))
        return self.post(self.heading("day.result", n=n), self.prose(*lines))

    def autokill_lines(self, autokills, revealed, why: Mapping[str, str] | None = None) -> list[str]:  # type: ignore[no-untyped-def]
        lines = []
        for kill in autokills:
            nick, role = revealed(kill.nick)
            reason = self.T[f"autokill.{(why or {}).get(kill.nick, 'no_vote')}"]
            lines.append(self._("day.autokill", nick=self.b(nick), why=reason))
            if role:
                lines.append(self._("role.revealed", role=self.role(role)))
        return lines

    def day_cancelled_by_modkill(self, n: int, autokills=(), revealed=None,  # type: ignore[no-untyped-def]
                                 why: Mapping[str, str] | None = None) -> str:
        """M-11's day without a vote; R-11's autokills for too few posts still happen at its deadline."""
        lines = [self._("day.modkill_no_vote", n=n), *self.autokill_lines(autokills, revealed, why)]
        return self.post(self.heading("day.result", n=n), self.prose(*lines))

    def runoff_opens(self, n: int, leaders: Sequence[str], hang_all: bool, deadline: datetime,
                     late: str | None = None) -> str:
        how = self._("runoff.hang_all" if hang_all else "runoff.among")
        return self.post(
            self.heading("runoff.title", n=n),
            *([self.prose(late)] if late else []),
            self.prose(self._("runoff.tie", names=self.names(leaders, bold=True)),
                       self._("runoff.speeches"), self._("runoff.vote", how=how, at=self.time(deadline))),
        )

    def runoff_cancelled(self, n: int) -> str:
        return self.post(self.heading("runoff.result", n=n), self.prose(self._("runoff.cancelled", n=n)))

    def runoff_result(self, n: int, outcome, nick, lw_deadline) -> str:  # type: ignore[no-untyped-def]
        lines = []
        if outcome.deaths:
            gone = [nick(k.nick) for k in outcome.deaths]
            lines.append(self._("runoff.hanged", verb=self.verb("leaves", len(gone)), names=self.names(gone, bold=True)))
            if lw_deadline is not None:
                lines.append(self._("lastword.until", at=self.time(lw_deadline)))
        else:
            lines.append(self._(f"runoff.{outcome.reason}", names=self.names([nick(x) for x in outcome.pardoned], bold=True)))
        return self.post(self.heading("runoff.result", n=n), self.prose(*lines))

    def night_result(self, n: int, report, revealed, open_roles: bool, lw_deadline) -> str:  # type: ignore[no-untyped-def]
        lines = []
        for kill in report.deaths:
            nick, role = revealed(kill.nick)
            key = f"night.death.{kill.cause}" if open_roles else "night.death"
            lines.append(self._(key, nick=self.b(nick), role=self.role(role) if role else ""))
        if report.misfire:
            lines.append(self._("night.misfire"))
        if not report.deaths and not report.misfire:
            lines.append(self._("night.quiet"))
        if report.deaths and lw_deadline is not None:
            lines.append(self._("lastword.until", at=self.time(lw_deadline)))
        return self.post(self.heading("night.result", n=n), self.prose(*lines))

    def check_result(self, target: str, result: str) -> str:
        word = self._(f"check.{result}") if result in ("town", "mafia") else self.role(result)
        return self._("check.result", nick=self.b(target), result=self.f.bold(word))
