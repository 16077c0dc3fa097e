"""What the bot says, in Russian (default) or English. Every player-supplied string goes through `escape`.

Texts are templates in one table per language (`ru.py`, `en.py`); this module only assembles them, so a new
language is a new table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Mapping, Sequence
from zoneinfo import ZoneInfo

from forumbot.errors import SetupError
from forumbot.model import MoveKind, Rejection, Role, Special
from forumbot.texts import en, ru

TABLES = {"ru": ru.T, "en": en.T}


def get_texts(language: str, escape: Callable[[str], str], timezone: str) -> "Texts":
    if language not in TABLES:
        raise SetupError(f"unknown language {language!r}; known: {', '.join(sorted(TABLES))}")
    try:
        zone = ZoneInfo(timezone)
    except (KeyError, ValueError):
        raise SetupError(f"unknown time zone {timezone!r}") from None
    return Texts(TABLES[language], escape, zone)


class Texts:
    def __init__(self, table: Mapping[str, str], escape: Callable[[str], str], zone: ZoneInfo) -> None:
        self.T = table
        self.esc = escape
        self.zone = zone

    # --- helpers

    def _(self, key: str, **kw: object) -> str:
        return self.T[key].format(**kw)

    def time(self, at: datetime) -> str:
        return at.astimezone(self.zone).strftime("%d.%m.%Y %H:%M")

    def time_s(self, at: datetime) -> str:
        return at.astimezone(self.zone).strftime("%d.%m.%Y %H:%M:%S")

    def n(self, nick: str) -> str:
        return self.esc(nick)

    def names(self, nicks: Sequence[str]) -> str:
        return ", ".join(self.n(x) for x in nicks) if nicks else self.T["nobody"]

    def role(self, role: Role | str) -> str:
        return self.T[f"role.{role}"]

    def target(self, t: str) -> str:
        return self.T[f"special.{t}"] if isinstance(t, Special) else self.n(t)

    def reason(self, r: Rejection) -> str:
        return self._(f"reject.{r.code}", detail=self.esc(r.detail))

    def excerpt(self, text: str) -> str:
        one_line = " ".join(text.split())
        return self.esc(one_line[:60] + ("…" if len(one_line) > 60 else ""))

    # --- setup

    def setup_post(self, nicks: Sequence[str], start: datetime, commitment: str,
                   house: Sequence[tuple[str, Any]] = ()) -> str:
        lines = [self._("setup.title")] + [f"{i}. {self.n(x)}" for i, x in enumerate(nicks, 1)]
        lines.append(self._("setup.start", at=self.time(start)))
        lines.extend(self.house_rules(house))
        lines.append(self._("setup.commitment", hash=commitment))
        return "\n".join(lines)

    def house_rules(self, house: Sequence[tuple[str, Any]]) -> list[str]:
        """The house rules in force (RULES.md R), one line each; nothing when the variant's clauses hold."""
        if not house:
            return []
        lines = [self._("house.title")]
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
            elif name == "draw_at":
                line = self._("house.draw_at.off") if value == 0 else self._("house.draw_at", n=value)
            elif name == "cast":
                line = self._("house.cast", roles=", ".join(f"{n} {self.role(r)}" for r, n in value.items()))
            else:
                line = self._(f"house.{name}.{value}")
            lines.append(f"— {line}.")
        return lines

    def role_pm(self, role: Role, partners: Sequence[str], choose_don: bool) -> str:
        """`choose_don`: the mafia pick their Don by PM before Day 1 (M-1)."""
        lines = [self._("role.pm", role=self.role(role))]
        if partners:
            lines.append(self._("role.partners", names=self.names(partners)))
            if choose_don and role is Role.MAFIA:
                lines.append(self._("role.choose_don"))
        lines.append(self._("role.confirm"))
        return "\n".join(lines)

    def don_chosen(self, nick: str, how: str) -> str:
        return self._(f"don.{how}", nick=self.n(nick))

    def unconfirmed_to_gm(self, nicks: Sequence[str]) -> str:
        return self._("gm.unconfirmed", names=self.names(nicks)) if nicks else self._("gm.all_confirmed")

    def confirm_reminder(self) -> str:
        return self._("remind.confirm")

    def confirmed(self) -> str:
        return self._("pm.confirmed")

    # --- phases

    def day_opens(self, n: int, deadline: datetime, alive: Sequence[str]) -> str:
        return self._("day.opens", n=n, at=self.time(deadline), alive=self.names(alive))

    def night_opens(self, n: int, deadline: datetime) -> str:
        return self._("night.opens", n=n, at=self.time(deadline))

    def vote_count(
        self, label: str, votes: Mapping[str, str], not_voted: Sequence[str],
        rejected: Sequence[tuple[str, str, Rejection]], ignored: Sequence[tuple[str, str, str]],
        voided: Sequence[tuple[str, str]], agitators: Sequence[str], final: bool,
        edited_kept: Sequence[tuple[str, str]] = (),
        deleted: Sequence[tuple[str, str]] = (),
        rough: Sequence[tuple[str, str, datetime, datetime]] = (),
        house: Sequence[tuple[str, Any]] = (),
    ) -> str:
        tally: dict[str, list[str]] = {}
        for voter, target in votes.items():
            tally.setdefault(target, []).append(voter)
        title = self._("count.final" if final else "count.title", phase=self.phase(label))
        lines = [title] + self.house_rules(house)
        for target, voters in sorted(tally.items(), key=lambda kv: (-len(kv[1]), str(kv[0]))):
            lines.append(f"{self.target(target)} — {len(voters)}: {self.names(voters)}")
        if not tally:
            lines.append(self._("count.none"))
        lines.append(self._("count.not_voted", names=self.names(not_voted)))
        for nick in agitators:
            lines.append(self._("count.agitation", nick=self.n(nick)))
        for nick, text, why in rejected:
            lines.append(self._("count.rejected", nick=self.n(nick), text=self.excerpt(text), why=self.reason(why)))
        for nick, text, why in ignored:
            lines.append(self._(f"count.ignored.{why}", nick=self.n(nick), text=self.excerpt(text)))
        for nick, text in voided:
            lines.append(self._("count.edited", nick=self.n(nick), text=self.excerpt(text)))
        for nick, text in edited_kept:  # C-11: the count names every edited post, counted or not
            lines.append(self._("count.edited_kept", nick=self.n(nick), text=self.excerpt(text)))
        for nick, text in deleted:  # C-11: gone from the thread at the deadline re-read
            lines.append(self._("count.deleted", nick=self.n(nick), text=self.excerpt(text)))
        for nick, text, earliest, latest in rough:  # C-1: a rough time across the deadline counts before it
            lines.append(self._("count.rough", nick=self.n(nick), text=self.excerpt(text),
                                earliest=self.time_s(earliest), latest=self.time_s(latest)))
        return "\n".join(lines)

    def phase(self, label: str) -> str:
        kind, _, n = label.partition(" ")
        return self._(f"phase.{kind}", n=n)

    def day_result(self, n: int, outcome, autokills, revealed, lw_deadline) -> str:  # type: ignore[no-untyped-def]
        lines = [self._("day.result", n=n)]
        for kill in autokills:
            nick, role = revealed(kill.nick)
            if role is None:  # closed roles (M-2, R-9) with an autokill
                lines.append(self._("day.autokill_closed", nick=self.n(nick)))
            else:
                lines.append(self._("day.autokill", nick=self.n(nick), role=self.role(role)))
        if autokills:
            lines.append(self._("day.no_vote_after_autokill"))
        for kill in outcome.deaths:
            nick, role = revealed(kill.nick)
            lines.append(self._("day.hanged_role" if role else "day.hanged", nick=self.n(nick), role=self.role(role) if role else ""))
        if outcome.deaths and lw_deadline is not None:
            lines.append(self._("lastword.until", at=self.time(lw_deadline)))
        if outcome.reason in ("all_no_lynch", "no_votes", "tie", "day1_single", "no_majority", "tie_all", "tie_first"):
            names = self.names([revealed(x)[0] for x in outcome.pardoned])
            lines.append(self._(f"day.{outcome.reason}", names=names))
        return "\n".join(lines)

    def day_cancelled_by_modkill(self, n: int) -> str:
        return self._("day.modkill_no_vote", n=n)

    def runoff_opens(self, n: int, leaders: Sequence[str], hang_all: bool, deadline: datetime) -> str:
        how = self._("runoff.hang_all" if hang_all else "runoff.among")
        return self._("runoff.opens", n=n, names=self.names(leaders), how=how, at=self.time(deadline))

    def runoff_cancelled(self, n: int) -> str:
        return self._("runoff.cancelled", n=n)

    def runoff_result(self, n: int, outcome, nick, lw_deadline) -> str:  # type: ignore[no-untyped-def]
        lines = [self._("runoff.result", n=n)]
        if outcome.deaths:
            lines.append(self._("runoff.hanged", names=self.names([nick(k.nick) for k in outcome.deaths])))
            if lw_deadline is not None:
                lines.append(self._("lastword.until", at=self.time(lw_deadline)))
        else:
            lines.append(self._(f"runoff.{outcome.reason}", names=self.names([nick(x) for x in outcome.pardoned])))
        return "\n".join(lines)

    def night_result(self, n: int, report, revealed, open_roles: bool, lw_deadline) -> str:  # type: ignore[no-untyped-def]
        lines = [self._("night.result", n=n)]
        for kill in report.deaths:
            nick, role = revealed(kill.nick)
            key = f"night.death.{kill.cause}" if open_roles else "night.death"
            lines.append(self._(key, nick=self.n(nick), role=self.role(role) if role else ""))
        if report.misfire:
            lines.append(self._("night.misfire"))
        if not report.deaths and not report.misfire:
            lines.append(self._("night.quiet"))
        if report.deaths and lw_deadline is not None:
            lines.append(self._("lastword.until", at=self.time(lw_deadline)))
        return "\n".join(lines)

    def check_result(self, target: str, result: str) -> str:
        word = self._(f"check.{result}") if result in ("town", "mafia") else self.role(result)
        return self._("check.result", nick=self.n(target), result=word)

    def game_over(self, winner: str, why: str, roles: Sequence[tuple[str, Role, bool]], seed: int) -> str:
        lines = [self._(f"end.{winner}")]
        if why:
            lines.append(self._(f"end.why.{why}"))
        lines.append(self._("end.roles"))
        for nick, role, alive in roles:
            lines.append(f"{self.n(nick)} — {self.role(role)}" + ("" if alive else f" ({self.T['dead']})"))
        lines.append(self._("end.seed", seed=seed))
        return "\n".join(lines)

    def stopped(self, reason: str, roles: Sequence[tuple[str, Role, bool]], seed: int) -> str:
        """`forumbot game stop`: the game ends with no winner, roles and seed revealed as at a real end."""
        lines = [self._("end.stopped")]
        if reason.strip():
            lines.append(self.esc(reason.strip()))
        lines.append(self._("end.roles"))
        for nick, role, alive in roles:
            lines.append(f"{self.n(nick)} — {self.role(role)}" + ("" if alive else f" ({self.T['dead']})"))
        lines.append(self._("end.seed", seed=seed))
        return "\n".join(lines)

    # --- PMs answering players

    def accepted(self, kind: MoveKind, target: str | None, extra: object = None) -> str:
        if kind is MoveKind.HUNT:
            return self._("move.hunt", nick=self.n(target or ""), guess=self.role(extra))  # type: ignore[arg-type]
        if kind is MoveKind.SHOT and extra:
            return self._("move.shot_by", nick=self.n(target or ""), by=self.n(str(extra)))
        return self._(f"move.{kind}", nick=self.n(target or ""))

    def refused(self, code: str, *args: object) -> str:
        return self._(f"refuse.{code}", arg=self.esc(str(args[0])) if args else "")

    def rejected_line(self, text: str, reason: Rejection, moves: Sequence[str], example: str = "",
                      me: str = "", bare: str | None = None, explain: bool = True) -> str:
        """C-12: what was not understood and why; with `explain`, the sender's own possible `moves` (grammar
        keys: check, shot, shot_by, heal, hunt, don), each with an example naming `example` (another player)
        and `me` (the sender), and what a bare nickname would be (`bare`, a move kind)."""
        lines = [self._("pm.not_understood", text=self.excerpt(text), why=self.reason(reason))]
        if not explain:
            return "\n".join(lines)
        expected = [
            self._("pm.grammar_example", grammar=self.T[f"grammar.{k}"],
                   example=self._(f"example.{k}", nick=self.n(example), me=self.n(me)))
            for k in moves if f"grammar.{k}" in self.T
        ]
        if expected:
            lines.append(self._("pm.expected", grammar="; ".join(expected)))
            if bare is not None:
                lines.append(self._("pm.bare", kind=self.T[f"kind.{bare}"]))
        else:
            lines.append(self._("pm.no_moves"))
        return "\n".join(lines)

    def you_are_dead(self) -> str:
        return self._("pm.dead")

    def hunting_closed(self) -> str:
        return self._("refuse.hunting_closed", arg="")

    def vote_reminder(self, deadline: datetime, autokill: bool) -> str:
        return self._("remind.vote_autokill" if autokill else "remind.vote", at=self.time(deadline))

    def move_reminder(self, deadline: datetime, missing: Sequence[MoveKind]) -> str:
        return self._("remind.moves", at=self.time(deadline), moves=", ".join(self.T[f"kind.{k}"] for k in missing))

    # --- reports to the GM and GM commands

    def dead_player_posted(self, nick: str, post_id: str) -> str:
        return self._("gm.dead_posted", nick=self.n(nick), id=self.esc(post_id))

    def runoff_post_reported(self, nick: str, post_id: str) -> str:
        return self._("gm.runoff_post", nick=self.n(nick), id=self.esc(post_id))

    def command_rejected(self, r: Rejection) -> str:
        return self._("gm.rejected", why=self.reason(r))

    def command_refused(self, code: str) -> str:
        return self._("gm.refused", why=self.T[f"gm.refuse.{code}"])

    def command_done(self, what: str) -> str:
        return self._("gm.done", what=self.esc(what))

    def status(self, label: str, deadline: datetime | None, paused: bool, alive: Sequence[str],
               votes: Mapping[str, str], missing: Sequence[tuple[str, str]]) -> str:
        lines = [self._("status.phase", phase=self.phase(label), at=self.time(deadline) if deadline else "—")]
        if paused:
            lines.append(self._("status.paused"))
        lines.append(self._("status.alive", n=len(alive), names=self.names(alive)))
        if votes:
            lines.append(self._("status.votes", votes="; ".join(f"{self.n(v)} → {self.target(t)}" for v, t in votes.items())))
        if missing:
            lines.append(self._("status.missing", moves="; ".join(f"{self.n(n)}: {self.T[f'kind.{k}']}" for n, k in missing)))
        return "\n".join(lines)

    def extended(self, label: str, deadline: datetime) -> str:
        return self._("gm.extended", phase=self.phase(label), at=self.time(deadline))

    def paused(self) -> str:
        return self._("gm.paused")

    def resumed(self, label: str, deadline: datetime) -> str:
        return self._("gm.resumed", phase=self.phase(label), at=self.time(deadline))

    def modkilled(self, nick: str, role: Role | None, reason: str, tactical: bool, cancels_vote: bool) -> str:
        lines = [self._("modkill.tactical" if tactical else "modkill.gm", nick=self.n(nick))]
        if role is not None:
            lines.append(self._("modkill.role", role=self.role(role)))
        if reason:
            lines.append(self._("modkill.reason", reason=self.esc(reason)))
        if cancels_vote:
            lines.append(self._("modkill.no_vote"))
        return "\n".join(lines)

    def replaced(self, old: str, new: str) -> str:
        return self._("gm.replaced", old=self.n(old), new=self.n(new))

    def undone(self, name: str) -> str:
        return self._("gm.undone", what=self.esc(name.lower()))

    def rederived(self, at: datetime, command: str, verdict: str) -> str:
        """C-9: an undo changed how a later GM command turned out; `verdict` is the new answer, already rendered."""
        return self._("gm.rederived", at=self.time(at), command=self.excerpt(command), verdict=verdict)

    def rederived_post(self, at: datetime, verdict: str) -> str:
        return self._("gm.rederived_post", at=self.time(at), verdict=verdict)
