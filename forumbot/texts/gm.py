"""What the bot says to GMs and about their commands (C-9): reports, answers, the status, pauses, modkills,
undos. A part of `Texts`, which builds on it; every method reads the table and formatting `Texts` sets up."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Mapping, Sequence

from forumbot.model import (
    Alias, EndPhase, Extend, Modkill, Pause, Rejection, Replace, Resume, Role, Say, SetVote,
)
from forumbot.texts.guide import unquote as _unquote


# The GM commands `помощь|help` lists, in DESIGN.md's order; each has `help.grammar.*` and `help.what.*` texts.
HELP_COMMANDS = ("status", "modkill", "replace", "extend", "pause", "resume", "endphase", "setvote", "alias",
                 "say", "undo", "help")


class GmTexts:
    # --- reports to the GM and GM commands

    def dead_player_posted(self, nick: str, post_id: str) -> str:
        return self._("gm.dead_posted", nick=self.b(nick), id=self.esc(post_id))

    def runoff_post_reported(self, nick: str, post_id: str) -> str:
        return self._("gm.runoff_post", nick=self.b(nick), id=self.esc(post_id))

    def gap(self, start: datetime, end: datetime) -> str:
        """C-14: «с 01.12 10:00 до 01.12 11:30 (МСК)», the zone once."""
        return self._("downtime.gap", start=self.clock(start), end=self.clock(end),
                      zone=self.zone_name(end))

    def clock(self, at: datetime) -> str:
        return at.astimezone(self.zone).strftime("%d.%m %H:%M")

    def downtime_to_gm(self, label: str, gap: tuple[datetime, datetime], grace: timedelta, window: timedelta) -> str:
        """C-14: a disturbed deadline, told to the GMs once; they may give the time back with `extend` (C-9)."""
        return self._("gm.downtime", phase=self.phase(label), gap=self.gap(*gap), grace=self.duration(grace),
                      window=self.duration(window))

    def late_input(self, nick: str, where: str, stamped: datetime, phase: str, text: str) -> str:
        """C-13: an input read after the phase it was stamped in had been resolved; its results stand."""
        return self._("gm.late_input", nick=self.b(nick), where=self._(f"gm.late_where.{where}"),
                      at=self.time(stamped), phase=self.phase(phase), text=self.esc(text))

    def command_rejected(self, r: Rejection) -> str:
        if r.code == "unknown_command":
            # The GM sees the line as read (markup stripped, spaces joined) and where the commands are listed.
            return self._("gm.unknown_command", line=self.excerpt(r.detail), help=self.T["help.grammar.help"])
        return self._("gm.rejected", why=self.reason(r))

    def command_refused(self, code: str, cmd: object = None) -> str:
        """Why a command was not done; a refused `замена` names the account it was about (issue 28: «этот
        аккаунт» left the GM guessing which of the two names was meant)."""
        if isinstance(cmd, Replace) and cmd.new and f"gm.refuse.{code}.named" in self.T:
            return self._("gm.refused", why=self._(f"gm.refuse.{code}.named", nick=self.esc(cmd.new)))
        return self._("gm.refused", why=self.T[f"gm.refuse.{code}"])

    def command_done(self, cmd: object, label: str = "", deadline: datetime | None = None) -> str:
        """What a GM command changed, in words (issue 11 item 4). `label` and `deadline`: the phase as the
        command left it (for an end-phase, the phase it closed)."""
        return self._("gm.done", what=self.command_words(cmd, label, deadline))

    def command_words(self, cmd: object, label: str = "", deadline: datetime | None = None) -> str:
        at = self.time(deadline) if deadline is not None else "—"
        phase = self.phase(label) if label else ""
        if isinstance(cmd, Modkill):
            what = self._("done.modkill", nick=self.b(cmd.nick))
            reason = _unquote(cmd.reason)
            return what + (self._("done.reason", reason=self.esc(reason)) if reason else "")
        if isinstance(cmd, Replace) and not cmd.new:  # S-4: offered to the reserve
            return self._("done.offer", old=self.b(cmd.old))
        if isinstance(cmd, Replace):
            return self._("done.replace", old=self.b(cmd.old), new=self.b(cmd.new))
        if isinstance(cmd, Extend):
            return self._("done.extend", by=self.duration(cmd.by), phase=phase, at=at)
        if isinstance(cmd, Pause):
            return self._("done.pause", phase=phase)
        if isinstance(cmd, Resume):
            return self._("done.resume", phase=phase, at=at)
        if isinstance(cmd, EndPhase):
            return self._("done.endphase", phase=phase)
        if isinstance(cmd, SetVote):
            what = self._("done.setvote", voter=self.b(cmd.voter), target=self.target(cmd.vote.target, bold=True))
            if cmd.vote.runoff is not None:
                what += self._("done.setvote_runoff", target=self.target(cmd.vote.runoff, bold=True))
            return what
        if isinstance(cmd, Alias):
            return self._("done.alias", alias=self.esc(cmd.alias), nick=self.b(cmd.nick))
        if isinstance(cmd, Say):
            return self.T["done.say"]
        return self.T["done.other"]

    def undo_words(self, name: str) -> str:
        """The undone command as a noun (`продление`), from its class name."""
        return self.T.get(f"undo.{name.lower()}", self.T["undo.other"])

    def gm_help(self) -> str:
        """GM `помощь|help` (DESIGN.md, issue 11 item 3): every command as typed, with an example where it takes
        arguments. Nothing in it is user-supplied; it is never put in a spoiler, since the GM asked to read it."""
        items = []
        for name in HELP_COMMANDS:
            grammar, what = self.T[f"help.grammar.{name}"], self.T[f"help.what.{name}"]
            example = self.T.get(f"help.example.{name}")
            items.append(self._("help.line_example", grammar=grammar, what=what, example=example) if example
                         else self._("help.line", grammar=grammar, what=what))
        return self.post(self.heading("help.title"), self.f.items(items), self.prose(self.T["help.notes"]))

    def status(self, label: str, deadline: datetime | None, paused_at: datetime | None, alive: Sequence[str],
               votes: Mapping[str, str], missing: Sequence[tuple[str, str]], unconfirmed: Sequence[str] = (),
               roles: Sequence[tuple[str, Role, bool]] = (), no_don: bool = False, winner: str | None = None,
               don_nominee: str = "") -> str:
        """A GM's `статус`. `roles` (nick, role, alive) per seat: GMs are trusted with them (issue 17 item 13),
        `no_don` when the variant has a Don and the mafia have not chosen him yet (M-1), with `don_nominee` the
        mafioso the last nomination names, `winner` once over.
        While paused the deadline is not a time yet (C-1: the resume shifts it by the pause), so the GM is told
        what is left of the phase instead."""
        if deadline and paused_at:
            lines = [self._("status.phase_paused", phase=self.phase(label), since=self.time(paused_at),
                            left=self.duration(max(deadline - paused_at, timedelta(0))))]
        elif deadline:
            lines = [self._("status.phase", phase=self.phase(label), at=self.time(deadline))]
        else:
            lines = [self._("status.phase_only", phase=self.phase(label))]
        if winner:
            lines.append(self._(f"end.{winner}"))
        if paused_at and not deadline:
            lines.append(self._("status.paused"))
        lines.append(self._("status.alive", count=self.count(len(alive), "player"), names=self.plain_names(alive)))
        if votes:
            lines.append(self._("status.votes", votes="; ".join(f"{self.n(v)} → {self.target(t)}" for v, t in votes.items())))
        if missing:
            lines.append(self._("status.missing", moves="; ".join(f"{self.n(n)}: {self.T[f'kind.{k}']}" for n, k in missing)))
        if unconfirmed:
            lines.append(self._("status.unconfirmed", names=self.plain_names(unconfirmed)))
        if roles:
            lines.append(self._("status.roles", roles="; ".join(
                self._("end.role", nick=self.n(nick), role=self.role(role)) + ("" if alive else self._("end.out"))
                for nick, role, alive in roles)))
        if no_don and don_nominee:
            lines.append(self._("status.don_nominated", nick=self.n(don_nominee)))
        elif no_don:
            lines.append(self._("status.no_don"))
        return self.prose(*lines)

    def extended(self, label: str, deadline: datetime, by: timedelta | None = None) -> str:
        if by is None:
            return self._("gm.extended", phase=self.phase(label), at=self.time(deadline))
        return self._("gm.extended_by", phase=self.phase(label), by=self.duration(by), at=self.time(deadline))

    def paused(self) -> str:
        return self._("gm.paused")

    def resumed(self, label: str, deadline: datetime) -> str:
        return self._("gm.resumed", phase=self.phase(label), at=self.time(deadline))

    def modkilled(self, nick: str, role: Role | None, reason: str, tactical: bool, cancels_vote: bool) -> str:
        lines = [self._("modkill.tactical" if tactical else "modkill.gm", nick=self.b(nick))]
        if role is not None:
            lines.append(self._("role.revealed", role=self.role(role)))
        reason = _unquote(reason)
        if reason:
            lines.append(self._("modkill.reason", reason=self.esc(reason)))
        if cancels_vote:
            lines.append(self._("modkill.no_vote"))
        return self.prose(*lines)

    def replaced(self, old: str, new: str) -> str:
        return self._("gm.replaced", old=self.b(old), new=self.b(new))

    def undone(self, name: str, label: str = "", deadline: datetime | None = None, paused: bool = False,
               back: Sequence[str] = (), vote_again: bool = False, reseated: Sequence[tuple[str, str]] = (),
               moved: bool = True) -> str:
        """C-9: the public notice of an undo: what was undone and where the game stands now. `back`: the players
        the undo put back in the game (an undone modkill): that, not the unchanged deadline, is the news; with
        `vote_again`, the day's vote the modkill had cancelled is on again (M-11). `reseated` (who holds the seat
        again, who held it): an undone replacement. `moved`: the undo changed the phase's deadline or pause; an
        unchanged one is not announced as if it were («снова до» read as a new deadline)."""
        what = self.undo_words(name)
        if reseated:
            return self._("gm.undone_reseated", what=what, seats="; ".join(
                self._("undo.seat", nick=self.b(holder), instead=self.b(newcomer)) for holder, newcomer in reseated))
        if back:
            text = self._("gm.undone_back", what=what, names=self.names(back, bold=True))
            if vote_again and paused:  # no deadline runs while paused: the resume post will name it
                text = self.prose(text, self._("gm.undone_vote_paused", phase=self.phase(label)))
            elif vote_again:
                text = self.prose(text, self._("gm.undone_vote", phase=self.phase(label),
                                               at=self.time(deadline) if deadline else "—"))
            return text
        if not label or label.startswith("ended") or not moved:
            return self._("gm.undone", what=what)
        if paused:
            return self._("gm.undone_paused", what=what, phase=self.phase(label))
        return self._("gm.undone_until", what=what, phase=self.phase(label),
                      at=self.time(deadline) if deadline else "—")

    def undo_done(self, name: str) -> str:
        return self._("gm.done", what=self._("done.undo", what=self.undo_words(name)))

    def rederived(self, at: datetime, command: str, verdict: str) -> str:
        """C-9: an undo changed how a later GM command turned out; `verdict` is the new answer, already rendered."""
        return self._("gm.rederived", at=self.time(at), command=self.quoted(command), verdict=verdict)

    def rederived_post(self, at: datetime, verdict: str) -> str:
        return self._("gm.rederived_post", at=self.time(at), verdict=verdict)
