"""What the bot says to GMs and about their commands (C-9): reports, answers, the status, pauses, modkills,
undos. A part of `Texts`; it speaks through the shared `Voice` (the table, the formatting, the zone)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Mapping, Sequence

from forumbot.model import (
    Alias, EndPhase, Extend, Modkill, Pause, Rejection, Replace, Resume, Role, Say, SetVote,
)
from forumbot.texts.guide import unquote as _unquote
from forumbot.texts.voice import Voice


# The GM commands `помощь|help` lists, in DESIGN.md's order; each has `help.grammar.*` and `help.what.*` texts.
HELP_COMMANDS = ("status", "modkill", "replace", "extend", "pause", "resume", "endphase", "setvote", "alias",
                 "say", "undo", "help")


class GmTexts:
    def __init__(self, v: Voice) -> None:
        self.v = v

    # --- reports to the GM and GM commands

    def dead_player_posted(self, nick: str, post_id: str) -> str:
        return self.v._("gm.dead_posted", nick=self.v.b(nick), id=self.v.esc(post_id))

    def runoff_post_reported(self, nick: str, post_id: str) -> str:
        return self.v._("gm.runoff_post", nick=self.v.b(nick), id=self.v.esc(post_id))

    def downtime_to_gm(self, label: str, gap: tuple[datetime, datetime], grace: timedelta, window: timedelta,
                       over: bool = False, why: str = "") -> str:
        """C-14: a disturbed deadline, told to the GMs once, when the day is already resolved: they may give the
        time back on the next day with `extend` (C-9); after the game's end nothing is left to extend. `why`: the
        autokill the gap waived, as the result post names it ("no_vote", "posts" or "no_vote_posts"; engine/
        downtime.py's `waived`), or "" when no rule makes anybody leave for either (issue 28: the PM said «за
        неявку» of an autokill for too few posts)."""
        said = self.v._("gm.downtime", phase=self.v.phase(label), gap=self.v.gap(*gap), grace=self.v.duration(grace),
                        window=self.v.duration(window))
        waived = self.v.T[f"gm.downtime.waived.{why or 'none'}"]
        return f"{said} {waived} {self.v.T['gm.downtime.over' if over else 'gm.downtime.next_day']}"

    def late_input(self, nick: str, where: str, stamped: datetime, phase: str, text: str) -> str:
        """C-13: an input read after the phase it was stamped in had been resolved; its results stand."""
        return self.v._("gm.late_input", nick=self.v.b(nick), where=self.v._(f"gm.late_where.{where}"),
                      at=self.v.time(stamped), phase=self.v.phase(phase), text=self.v.esc(text))

    def command_rejected(self, r: Rejection) -> str:
        if r.code == "unknown_command":
            # The GM sees the line as read (markup stripped, spaces joined) and where the commands are listed.
            return self.v._("gm.unknown_command", line=self.v.excerpt(r.detail), help=self.v.T["help.grammar.help"])
        return self.v._("gm.rejected", why=self.v.reason(r))

    def command_refused(self, code: str, cmd: object = None) -> str:
        """Why a command was not done; a refused `замена` names the account it was about (issue 28: «этот
        аккаунт» left the GM guessing which of the two names was meant)."""
        if isinstance(cmd, Replace) and cmd.new and f"gm.refuse.{code}.named" in self.v.T:
            return self.v._("gm.refused", why=self.v._(f"gm.refuse.{code}.named", nick=self.v.esc(cmd.new)))
        return self.v._("gm.refused", why=self.v.T[f"gm.refuse.{code}"])

    def undo_refused(self, code: str, command: str) -> str:
        """Why `отмена` was refused, naming the command it would have undone as the GM wrote it (issue 28: «отмена
        невозможна» left him to work out which of his commands was meant)."""
        return self.v._("gm.undo_refused", command=self.v.excerpt(command), why=self.v.T[f"gm.refuse_undo.{code}"])

    def command_done(self, cmd: object, label: str = "", deadline: datetime | None = None) -> str:
        """What a GM command changed, in words (issue 11 item 4). `label` and `deadline`: the phase as the
        command left it (for an end-phase, the phase it closed)."""
        return self.v._("gm.done", what=self.command_words(cmd, label, deadline))

    def command_words(self, cmd: object, label: str = "", deadline: datetime | None = None) -> str:
        at = self.v.deadline(deadline) if deadline is not None else "—"
        phase = self.v.phase(label) if label else ""
        if isinstance(cmd, Modkill):
            what = self.v._("done.modkill", nick=self.v.b(cmd.nick))
            reason = _unquote(cmd.reason)
            return what + (self.v._("done.reason", reason=self.v.esc(reason)) if reason else "")
        if isinstance(cmd, Replace) and not cmd.new:  # S-4: offered to the reserve
            return self.v._("done.offer", old=self.v.b(cmd.old))
        if isinstance(cmd, Replace):
            return self.v._("done.replace", old=self.v.b(cmd.old), new=self.v.b(cmd.new))
        if isinstance(cmd, Extend):
            return self.v._("done.extend", by=self.v.duration(cmd.by), phase=phase, at=at)
        if isinstance(cmd, Pause):
            return self.v._("done.pause", phase=phase)
        if isinstance(cmd, Resume):
            return self.v._("done.resume", phase=phase, at=at)
        if isinstance(cmd, EndPhase):
            return self.v._("done.endphase", phase=phase)
        if isinstance(cmd, SetVote):
            what = self.v._("done.setvote", voter=self.v.b(cmd.voter), target=self.v.target(cmd.vote.target, bold=True))
            if cmd.vote.runoff is not None:
                what += self.v._("done.setvote_runoff", target=self.v.target(cmd.vote.runoff, bold=True))
            return what
        if isinstance(cmd, Alias):
            return self.v._("done.alias", alias=self.v.esc(cmd.alias), nick=self.v.b(cmd.nick))
        if isinstance(cmd, Say):
            return self.v.T["done.say"]
        return self.v.T["done.other"]

    def undo_words(self, name: str) -> str:
        """The undone command as a noun (`продление`), from its class name."""
        return self.v.T.get(f"undo.{name.lower()}", self.v.T["undo.other"])

    def gm_help(self) -> str:
        """GM `помощь|help` (DESIGN.md, issue 11 item 3): every command as typed, with an example where it takes
        arguments. Nothing in it is user-supplied; it is never put in a spoiler, since the GM asked to read it."""
        items = []
        for name in HELP_COMMANDS:
            grammar, what = self.v.T[f"help.grammar.{name}"], self.v.T[f"help.what.{name}"]
            example = self.v.T.get(f"help.example.{name}")
            items.append(self.v._("help.line_example", grammar=grammar, what=what, example=example) if example
                         else self.v._("help.line", grammar=grammar, what=what))
        return self.v.post(self.v.heading("help.title"), self.v.f.items(items), self.v.prose(self.v.T["help.notes"]))

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
            lines = [self.v._("status.phase_paused", phase=self.v.phase(label), since=self.v.time(paused_at),
                            left=self.v.duration(max(deadline - paused_at, timedelta(0))))]
        elif deadline:
            lines = [self.v._("status.phase", phase=self.v.phase(label), at=self.v.deadline(deadline))]
        elif winner:  # «Фаза: игра окончена» beside «Игра окончена: победа города!» said it twice
            lines = []
        else:
            lines = [self.v._("status.phase_only", phase=self.v.phase(label))]
        if winner:
            lines.append(self.v._(f"end.{winner}"))
        if paused_at and not deadline:
            lines.append(self.v._("status.paused"))
        # after the end, who was alive when it ended, not «В игре 5 игроков» as if it still ran (issue 28)
        lines.append(self.v._("status.alive_at_end" if winner else "status.alive", count=self.v.count(len(alive), "player"),
                              names=self.v.plain_names(alive)))
        if votes:
            lines.append(self.v._("status.votes", votes="; ".join(f"{self.v.n(v)} → {self.v.target(t)}" for v, t in votes.items())))
        if missing:
            lines.append(self.v._("status.missing", moves="; ".join(f"{self.v.n(n)}: {self.v.T[f'kind.{k}']}" for n, k in missing)))
        if unconfirmed:
            lines.append(self.v._("status.unconfirmed", names=self.v.plain_names(unconfirmed)))
        if roles:
            # after the end the result post has made them public: «видны только ведущим» no longer holds
            lines.append(self.v._("status.roles_at_end" if winner else "status.roles", roles="; ".join(
                self.v._("end.role", nick=self.v.n(nick), role=self.v.role(role)) + ("" if alive else self.v._("end.out"))
                for nick, role, alive in roles)))
        if no_don and don_nominee:
            lines.append(self.v._("status.don_nominated", nick=self.v.n(don_nominee)))
        elif no_don:
            lines.append(self.v._("status.no_don"))
        return self.v.prose(*lines)

    def extended(self, label: str, deadline: datetime, by: timedelta | None = None) -> str:
        if by is None:
            return self.v._("gm.extended", phase=self.v.phase(label), at=self.v.deadline(deadline))
        return self.v._("gm.extended_by", phase=self.v.phase(label), by=self.v.duration(by), at=self.v.deadline(deadline))

    def paused(self) -> str:
        return self.v._("gm.paused")

    def resumed(self, label: str, deadline: datetime) -> str:
        return self.v._("gm.resumed", phase=self.v.phase(label), at=self.v.deadline(deadline))

    def modkilled(self, nick: str, role: Role | None, reason: str, tactical: bool, cancels_vote: bool) -> str:
        lines = [self.v._("modkill.tactical" if tactical else "modkill.gm", nick=self.v.b(nick))]
        if role is not None:
            lines.append(self.v._("role.revealed", role=self.v.role(role)))
        reason = _unquote(reason)
        if reason:
            lines.append(self.v._("modkill.reason", reason=self.v.esc(reason)))
        if cancels_vote:
            lines.append(self.v._("modkill.no_vote"))
        return self.v.prose(*lines)

    def night_news(self, n: int, deaths: Sequence[tuple[str, Role | None, str]], misfire: bool) -> str:
        """A night's result for the GMs' PM (issue 28): each death with its role and cause (the GMs know the roles),
        a misfire, or that nobody died."""
        said = [self.v._("gm.news.death", nick=self.v.n(nick), role=self.v.role(role) if role else "?",
                         cause=self.v._(f"gm.news.cause.{cause}")) for nick, role, cause in deaths]
        if misfire:
            said.append(self.v.T["gm.news.misfire"])
        return self.v._("gm.news.night", n=n, what="; ".join(said) or self.v.T["gm.news.quiet"])

    def game_over(self, winner: str) -> str:
        return self.v.T[f"end.{winner}"]

    def news(self, url: str, *lines: str) -> str:
        """The GMs' PM of a result (issue 28): its lines, then the way to the bot's post, the newest in the game
        thread `url` (the post's own address is known only once the forum holds it)."""
        thread = self.v.f.link(url, self.v.T["gm.news.thread"]) if url else self.v.T["gm.news.thread"]
        return self.v.prose(*lines, self.v._("gm.news.see", thread=thread))

    def replaced(self, old: str, new: str) -> str:
        return self.v._("gm.replaced", old=self.v.b(old), new=self.v.b(new))

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
            return self.v._("gm.undone_reseated", what=what, seats="; ".join(
                self.v._("undo.seat", nick=self.v.b(holder), instead=self.v.b(newcomer)) for holder, newcomer in reseated))
        if back:
            text = self.v._("gm.undone_back", what=what, names=self.v.names(back, bold=True))
            if vote_again and paused:  # no deadline runs while paused: the resume post will name it
                text = self.v.prose(text, self.v._("gm.undone_vote_paused", phase=self.v.phase(label)))
            elif vote_again:
                text = self.v.prose(text, self.v._("gm.undone_vote", phase=self.v.phase(label),
                                               at=self.v.deadline(deadline) if deadline else "—"))
            return text
        if not label or label.startswith("ended") or not moved:
            return self.v._("gm.undone", what=what)
        if paused:
            return self.v._("gm.undone_paused", what=what, phase=self.v.phase(label))
        return self.v._("gm.undone_until", what=what, phase=self.v.phase(label),
                      at=self.v.deadline(deadline) if deadline else "—")

    def undo_done(self, name: str) -> str:
        return self.v._("gm.done", what=self.v._("done.undo", what=self.undo_words(name)))

    def rederived(self, at: datetime, command: str, verdict: str) -> str:
        """C-9: an undo changed how a later GM command turned out; `verdict` is the new answer, already rendered."""
        return self.v._("gm.rederived", at=self.v.time(at), command=self.v.quoted(command), verdict=verdict)

    def rederived_post(self, at: datetime, verdict: str) -> str:
        return self.v._("gm.rederived_post", at=self.v.time(at), verdict=verdict)
