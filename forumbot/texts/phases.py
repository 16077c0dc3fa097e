"""What the bot posts in the game thread as the game goes: the setup post, the phases' openings and results,
the vote count, the night's outcome."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Mapping, Protocol, Sequence

from forumbot.model import Rejection, Role, Special
from forumbot.texts.activity import ActivityTexts
from forumbot.texts.voice import Voice


class Kill(Protocol):
    """A death the results name (the rules' `Kill`)."""
    @property
    def nick(self) -> str: ...
    @property
    def cause(self) -> str: ...


class DayOutcome(Protocol):
    """What a day's or a run-off's vote decided (the rules' `DayOutcome`)."""
    @property
    def deaths(self) -> Sequence[Kill]: ...
    @property
    def pardoned(self) -> Sequence[str]: ...
    @property
    def reason(self) -> str: ...


class NightReport(Protocol):
    """What a night did (the rules' `NightReport`)."""
    @property
    def deaths(self) -> Sequence[Kill]: ...
    @property
    def misfire(self) -> bool: ...


# A seat's nickname now and, where roles are open, its role.
Revealed = Callable[[str], tuple[str, Role | None]]


class PhaseTexts:
    def __init__(self, v: Voice, activity: ActivityTexts) -> None:
        self.v = v
        self.activity = activity

    # --- setup

    def setup_post(self, nicks: Sequence[str], start: datetime, commitment: str,
                   house: Sequence[tuple[str, Any]] = (), how_to_vote: Sequence[str] = ()) -> str:
        """C-2's opening post. `how_to_vote` (see `how_to_vote`) and `house`, the rules in force, are what a
        player needs before Day 1 (issue 17 item 6)."""
        return self.v.post(
            self.v.heading("setup.title"),
            self.v.f.items([self.v.b(x) for x in nicks]) if self.v.f.name == "markdown"
            else self.v.f.items([f"{i}. {self.v.b(x)}" for i, x in enumerate(nicks, 1)]),
            self.v.prose(self.v._("setup.start", at=self.v.deadline(start))),
            self.v.section(self.v.T["setup.vote.title"], list(how_to_vote)) if how_to_vote else "",
            self.v.prose(*self.house_rules(house, "setup.rules.title")) if house else "",
            self.v.prose(self.v._("setup.commitment", hash=commitment), self.v.T["setup.how_to_check"]),
            self.v.prose(self.v.T["setup.marker"]),
        )

    def house_rules(self, house: Sequence[tuple[str, Any]], title: str = "house.title") -> list[str]:
        """The house rules in force (RULES.md R), one line each; nothing when the variant's clauses hold."""
        if not house:
            return []
        lines = [self.v._(title)]
        for name, value in house:
            if name == "vote_changes":
                line = (self.v._("house.vote_changes.unlimited") if value is None else
                        self.v._("house.vote_changes.none") if value == 0 else self.v._("house.vote_changes", n=value))
            elif name == "final_word":
                line = self.v._("house.final_word", word=self.v.esc(value))
            elif name == "vote_format":
                fmt, colors = value
                line = self.v._(f"house.vote_format.{fmt}", colors=", ".join(colors))
            elif name == "pass_words":
                line = self.v._("house.pass_words", words=", ".join(f"«{self.v.esc(w)}»" for w in value))
            elif name == "majority_delay":
                line = self.v._("house.majority_delay", n=f"{value:g}")
            elif name == "draw_at":
                line = self.v._("house.draw_at.off") if value == 0 else self.v._("house.draw_at", n=value)
            elif name == "post_minimum":
                line = self.activity.post_minimum_rule(*value)
            elif name == "cast":
                # a role the cast leaves out (`maniac = 0`) is not named; the civilians are the rest
                items = [self.v._("house.cast.item", role=self.v.role(r), n=n) for r, n in value.items() if n]
                line = self.v._("house.cast", roles=", ".join(items + [self.v.T["house.cast.rest"]]))
            else:
                line = self.v._(f"house.{name}.{value}")
            lines.append(f"— {line}.")
        return lines

    def unconfirmed_to_gm(self, nicks: Sequence[str]) -> str:
        return self.v._("gm.unconfirmed", names=self.v.names(nicks)) if nicks else self.v._("gm.all_confirmed")

    # --- phases

    def day_opens(self, n: int, deadline: datetime, alive: Sequence[str], late: str | None = None,
                  vote_url: str = "") -> str:
        """The day's opening post; the vote thread is a link where its URL is safe to link (C-3: votes live there,
        issue 28 item 9), else named in words."""
        thread = self.v.f.link(vote_url, self.v.T["setup.vote.thread"]) if vote_url else self.v.T["setup.vote.thread"]
        return self.v.post(
            self.v.heading("day.opens", n=n),
            *([self.v.prose(late)] if late else []),
            self.v.prose(self.v._("day.vote_until", at=self.v.deadline(deadline), thread=thread)),
            self.v.prose(self.v._("day.alive", count=self.v.count(len(alive), "player"), alive=self.v.plain_names(alive))),
        )

    def night_opens(self, n: int, deadline: datetime, moves: Sequence[str] = (), late: str | None = None) -> str:
        lines = [self.v._("night.moves_until", at=self.v.deadline(deadline))]
        if moves:
            lines.append(self.v._("night.how", moves=self.v.moves_short(moves)))
        return self.v.post(self.v.heading("night.opens", n=n), *([self.v.prose(late)] if late else []), self.v.prose(*lines))

    def late_opening(self, due: datetime, opens: datetime) -> str:
        """C-14: a phase opened when the bot came back, not when it was due; every later deadline moves too."""
        return self.v._("phase.opens_late", due=self.v.deadline(due), opens=self.v.deadline(opens), shift=self.v.duration(opens - due))

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
        until: datetime | None = None,
    ) -> str:
        """C-6: one line per candidate (most votes first) with who voted, then who has not voted, then every
        post not counted, or counted with a note, and why. Issue 30 item 5: with `majority` (the votes that make
        a majority, the alive players) how many that is and each candidate's distance to it (L-n); with `tie`
        (R-6's code, the tied leaders, who would leave under "first_reached") what the tie would do at the
        deadline, in an interim count (the final one is followed by the result). `until`: the phase's deadline,
        said under an interim count's title (issue 28's walk-through: the count never said when the vote ends)."""
        tally: dict[str, list[str]] = {}
        for voter, target in votes.items():
            tally.setdefault(target, []).append(voter)
        title = self.v.heading("count.final" if final else "count.title", phase=self.v.phase(label))
        house_block = self.v.prose(*self.house_rules(house)) if house else ""
        until_block = self.v.prose(self.v._("count.until", at=self.v.deadline(until))) if until and not final else ""

        def marked(voter: str) -> str:
            return self.v.n(voter) + (self.v.T["count.by_gm"] if voter in by_gm else "")

        lines = [
            self.v._("count.line" if majority is None or isinstance(target, Special) else "count.line_to",
                   target=self.v.target(target, bold=True), count=self.v.count(len(voters), "vote"),
                   voters=", ".join(marked(v) for v in voters),
                   left=max(majority[0] - len(voters), 0) if majority else 0)
            for target, voters in sorted(tally.items(), key=lambda kv: (-len(kv[1]), str(kv[0])))
        ]
        tally_block = self.v.f.items(lines) if lines else self.v.prose(self.v._("count.none"))
        # R-5 plurality (without R-12): the majority decides nothing, and a bare «Большинство — 6 из 10» with L-n
        # beside each name read as if it did (issue 28)
        majority_key = "count.majority" if majority_decides else "count.majority.plurality"
        majority_block = self.v.prose(self.v._(majority_key, need=majority[0], alive=majority[1])) if majority else ""
        tie_block = self.v.prose(self.v._(f"count.tie.{tie[0]}", names=self.v.names(tie[1], bold=True),
                                      first=self.v.b(tie[2]))) if tie and not final else ""
        not_voted_block = self.v.prose(self.v._("count.not_voted", count=len(not_voted), names=self.v.plain_names(not_voted))) \
            if not_voted else ""
        notes: list[str] = []
        for nick in agitators:
            notes.append(self.v._("count.agitation", nick=self.v.b(nick)))
        for nick, text in deleted_agitation:  # H-4: read, so it counts, though gone from the thread
            notes.append(self.v._("count.agitation_deleted", nick=self.v.b(nick), text=self.v.quoted(text)))
        for nick, text in replaced:
            notes.append(self.v._("count.replaced", nick=self.v.b(nick), text=self.v.quoted(text)))
        for nick, text, rejection in rejected:
            notes.append(self.v._("count.rejected", nick=self.v.b(nick), text=self.v.quoted(text),
                                why=self.v.reason(rejection, shown=self.v._excerpt(text), who=nick)))
        for nick, text, why in ignored:
            notes.append(self.v._(f"count.ignored.{why}", nick=self.v.b(nick), text=self.v.quoted(text)))
        for nick, text, *first in voided:
            notes.append(self.v._("count.edited", nick=self.v.b(nick), text=self.v.edit_quoted(text, *first)))
        for nick, text, *first in edited_kept:  # C-11: the count names every edited post, counted or not
            notes.append(self.v._("count.edited_kept", nick=self.v.b(nick), text=self.v.edit_quoted(text, *first)))
        for nick, text in deleted:  # C-11: gone from the thread at the deadline re-read
            notes.append(self.v._("count.deleted", nick=self.v.b(nick), text=self.v.quoted(text)))
        for nick, text, earliest, latest in rough:  # C-1: a rough time across the deadline counts before it
            notes.append(self.v._("count.rough", nick=self.v.b(nick), text=self.v.quoted(text),
                                earliest=self.v.time_s(earliest), latest=self.v.time_s(latest)))
        return self.v.post(title, until_block, house_block, majority_block, tally_block, tie_block, not_voted_block,
                         self.activity.few_posts_block(few_posts, post_minimum),
                         self.v.section(self.v.T["count.notes"], notes))

    def downtime_waiver(self, gap: tuple[datetime, datetime], why: str = "no_vote") -> str:
        """C-14's line of a day's result: the autokill the outage waived, by its reason (H-5/R-7's missing vote,
        R-11's too few posts, or both), and the gap."""
        return self.v._("day.downtime" if why == "no_vote" else f"day.downtime.{why}", gap=self.v.gap(*gap))

    def day_result(self, n: int, outcome: DayOutcome, autokills: Sequence[Kill], revealed: Revealed,
                   lw_deadline: datetime | None,
                   why: Mapping[str, str] | None = None, majority: tuple[str, datetime] | None = None,
                   downtime: tuple[datetime, datetime] | None = None, downtime_why: str = "no_vote") -> str:
        """`why`: seat -> "agitation", "no_vote", "posts" or "no_vote_posts", the reason each autokill is for (H-4,
        H-5, R-11). `majority`: who held the majority that ended the day early and that post's time (R-12);
        `downtime`: the gap that disturbed this deadline, when it waived an autokill (C-14), and `downtime_why` that
        autokill's reason ("no_vote", "posts" or "no_vote_posts")."""
        lines = [self.v._("day.ended_at_majority", nick=self.v.b(majority[0]), at=self.v.time(majority[1]))] \
            if majority else []
        lines += [self.downtime_waiver(downtime, downtime_why)] if downtime else []
        lines += self.autokill_lines(autokills, revealed, why)
        if autokills:
            lines.append(self.v._("day.no_vote_after_autokill"))
        for kill in outcome.deaths:
            nick, role = revealed(kill.nick)
            lines.append(self.v._("day.hanged", nick=self.v.b(nick)))
            if role:
                lines.append(self.v._("role.revealed", role=self.v.role(role)))
        if outcome.deaths and lw_deadline is not None:
            lines.append(self.v._("lastword.until", at=self.v.deadline(lw_deadline)))
        if outcome.reason not in ("vote", "autokill") and f"day.{outcome.reason}" in self.v.T:  # house rules add reasons
            pardoned = [revealed(x)[0] for x in outcome.pardoned]
            lines.append(self.v._(f"day.{outcome.reason}", names=self.v.names(pardoned, bold=True)))
        return self.v.post(self.v.heading("day.result", n=n), self.v.prose(*lines))

    def autokill_lines(self, autokills: Sequence[Kill], revealed: Revealed | None,
                       why: Mapping[str, str] | None = None) -> list[str]:
        lines: list[str] = []
        for kill in autokills:
            nick, role = revealed(kill.nick) if revealed else (kill.nick, None)
            reason = self.v.T[f"autokill.{(why or {}).get(kill.nick, 'no_vote')}"]
            lines.append(self.v._("day.autokill", nick=self.v.b(nick), why=reason))
            if role:
                lines.append(self.v._("role.revealed", role=self.v.role(role)))
        return lines

    def day_cancelled_by_modkill(self, n: int, autokills: Sequence[Kill] = (), revealed: Revealed | None = None,
                                 why: Mapping[str, str] | None = None) -> str:
        """M-11's day without a vote; R-11's autokills for too few posts still happen at its deadline."""
        lines = [self.v._("day.modkill_no_vote", n=n), *self.autokill_lines(autokills, revealed, why)]
        return self.v.post(self.v.heading("day.result", n=n), self.v.prose(*lines))

    def runoff_opens(self, n: int, leaders: Sequence[str], hang_all: bool, deadline: datetime,
                     late: str | None = None, vote_url: str = "") -> str:
        """The runoff's opening post; the vote thread linked as in the day's (C-3, issue 28's walk-through)."""
        how = self.v._("runoff.hang_all" if hang_all else "runoff.among")
        thread = self.v.f.link(vote_url, self.v.T["setup.vote.thread"]) if vote_url else self.v.T["setup.vote.thread"]
        return self.v.post(
            self.v.heading("runoff.title", n=n),
            *([self.v.prose(late)] if late else []),
            self.v.prose(self.v._("runoff.tie", names=self.v.names(leaders, bold=True)),
                       self.v._("runoff.speeches"),
                       self.v._("runoff.vote", how=how, at=self.v.deadline(deadline), thread=thread)),
        )

    def runoff_cancelled(self, n: int) -> str:
        return self.v.post(self.v.heading("runoff.result", n=n), self.v.prose(self.v._("runoff.cancelled", n=n)))

    def runoff_result(self, n: int, outcome: DayOutcome, nick: Callable[[str], str], lw_deadline: datetime | None) -> str:
        lines = []
        if outcome.deaths:
            gone = [nick(k.nick) for k in outcome.deaths]
            lines.append(self.v._("runoff.hanged", verb=self.v.verb("leaves", len(gone)), names=self.v.names(gone, bold=True)))
            if lw_deadline is not None:
                lines.append(self.v._("lastword.until", at=self.v.deadline(lw_deadline)))
        else:
            lines.append(self.v._(f"runoff.{outcome.reason}", names=self.v.names([nick(x) for x in outcome.pardoned], bold=True)))
        return self.v.post(self.v.heading("runoff.result", n=n), self.v.prose(*lines))

    def night_result(self, n: int, report: NightReport, revealed: Revealed, open_roles: bool,
                     lw_deadline: datetime | None) -> str:
        lines = []
        for kill in report.deaths:
            nick, role = revealed(kill.nick)
            key = f"night.death.{kill.cause}" if open_roles else "night.death"
            lines.append(self.v._(key, nick=self.v.b(nick), role=self.v.role(role) if role else ""))
        if report.misfire:
            lines.append(self.v._("night.misfire"))
        if not report.deaths and not report.misfire:
            lines.append(self.v._("night.quiet"))
        if report.deaths and lw_deadline is not None:
            lines.append(self.v._("lastword.until", at=self.v.deadline(lw_deadline)))
        return self.v.post(self.v.heading("night.result", n=n), self.v.prose(*lines))

    def check_result(self, target: str, result: str) -> str:
        word = self.v._(f"check.{result}") if result in ("town", "mafia") else self.v.role(result)
        return self.v._("check.result", nick=self.v.b(target), result=self.v.f.bold(word))
