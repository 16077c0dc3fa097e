"""What the bot tells players beyond the phase posts (issue 17 items 6-10, 15): how to vote in this game, the
mafia's targets, the PMs to a player who is out or back, a GM-recorded vote and an edited post in the count.

A mixin of `Texts` (forumbot.texts), which gives it the table (`T`, `_`), escaping and the board's format; kept
apart so that module stays about the phases' posts.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Mapping, Sequence

from forumbot.markup import Format

_QUOTES = {'"': '"', "«": "»", "“": "”", "„": "“", "'": "'"}


def unquote(text: str) -> str:
    """A modkill reason as the GM meant it, without the quotes he typed around it."""
    text = text.strip()
    while len(text) >= 2 and _QUOTES.get(text[0]) == text[-1]:
        text = text[1:-1].strip()
    return text


class GuideTexts:
    """Methods of `Texts`; what they use of it is declared here."""

    T: Mapping[str, str]
    f: Format
    esc: Callable[[str], str]
    _: Callable[..., str]
    n: Callable[[str], str]
    b: Callable[[str], str]
    count: Callable[[int, str], str]
    time: Callable[[datetime], str]
    quoted: Callable[[str], str]
    prose: Callable[..., str]
    post: Callable[..., str]

    def how_to_vote(self, strict: bool, house: Any, runoff: bool, vote_url: str) -> list[str]:
        """How to vote, as this game's rules have it (M-7, M-8, M-10, H-3, H-4, R-1..R-4): where, what a vote
        is, how often it may change, the no-lynch word, the runoff part; `house` is the game's HouseRules."""
        lines = [self._("setup.vote.where", thread=self.f.link(vote_url, self.T["setup.vote.thread"])),
                 self.T["setup.vote.strict" if strict else "setup.vote.nick"]]
        changes = house.vote_changes
        lines.append(self.T["setup.vote.changes_unlimited"] if changes is None else
                     self.T["setup.vote.changes_none"] if changes == 0 else
                     self.T["setup.vote.changes_once"] if changes == 1 else
                     self._("setup.vote.changes", count=self.count(changes, "time")))
        words = house.pass_words if house.pass_words is not None else (() if strict else ("ннв",))
        quoted = [self._("quoted", text=self.esc(w)) for w in words]
        either = ", ".join(quoted[:-1]) + f" {self.T['or']} " + quoted[-1] if len(quoted) > 1 else "".join(quoted)
        lines.append(self._("setup.vote.pass", words=either)
                     if words else self.T["setup.vote.no_pass"])
        if house.final_word:
            lines.append(self._("house.final_word", word=self.esc(house.final_word)) + ".")
        if house.vote_format != "any":
            lines.append(self._(f"house.vote_format.{house.vote_format}", colors=", ".join(house.vote_colors)) + ".")
        if runoff:
            lines.append(self.T["setup.vote.runoff"])
        if strict:
            lines.append(self.T["setup.vote.agitation"])
        return lines

    def with_game_link(self, text: str, game_url: str) -> str:
        """A vote-thread post with the way to the game thread under it (issue 17 item 6); unchanged without a
        safe URL to link."""
        link = self.f.link(game_url, self.T["thread.game"])
        if link == self.T["thread.game"]:
            return text
        return self.post(text, self.prose(self._("thread.game_line", link=link)))

    def edit_quoted(self, text: str, first: str = "") -> str:
        """An edited post as it reads now, with the text first stored beside it (C-11, issue 17 item 15)."""
        if not first or first == text:
            return self.quoted(text)
        return self._("count.edit_pair", now=self.quoted(text), first=self.quoted(first))

    def _targets(self, targets: Sequence[tuple[str, str | None]]) -> str:
        return "; ".join(self._("mafia.target", nick=self.n(nick), target=self.b(target)) if target
                         else self._("mafia.no_target", nick=self.n(nick)) for nick, target in targets)

    def mafia_targets(self, targets: Sequence[tuple[str, str | None]]) -> str:
        """M-5, to a mafioso whose shot was accepted: the team's targets now, and that they must match."""
        chosen = {t for _, t in targets}
        verdict = "mafia.match" if len(chosen) == 1 and None not in chosen else "mafia.must_match"
        return self.prose(self._("mafia.targets", targets=self._targets(targets)), self.T[verdict])

    def partner_target(self, partner: str, target: str, targets: Sequence[tuple[str, str | None]]) -> str:
        """M-5, to the other living mafiosi when one names a new target: who, whom, and the team's targets."""
        return self.prose(self._("mafia.partner_target", nick=self.b(partner), target=self.b(target)),
                          self.mafia_targets(targets))

    def mafia_mismatch(self, targets: Sequence[tuple[str, str | None]]) -> str:
        """M-5, in a GM's `статус` by night: the mafia's targets when they do not (yet) match; else nothing."""
        chosen = {t for _, t in targets}
        if len(chosen) <= 1 and None not in chosen or chosen == {None}:
            return ""
        return self._("status.mafia_mismatch", targets=self._targets(targets))

    def you_are_modkilled(self, reason: str) -> str:
        """C-10, to the player a GM modkilled: out, why, and no last word (C-8)."""
        reason = unquote(reason)
        return self.prose(self.T["out.modkill"],
                          self._("modkill.reason", reason=self.esc(reason)) if reason else "", self.T["out.no_word"])

    def modkill_undone(self) -> str:
        return self._("out.modkill_undone")

    def replacement_undone(self, holder: str) -> str:
        """To the account an undone `замена` had seated (issue 28 item 8): it got a role PM and must learn that
        it no longer plays; `holder` plays the seat again."""
        return self._("out.replacement_undone", nick=self.n(holder))

    def you_are_out(self, cause: str, last_word: datetime | None) -> str:
        """To a player the vote or the night took out (the game-thread post stays the notice of record)."""
        key = {"vote": "out.vote", "runoff": "out.vote", "autokill": "out.autokill"}.get(cause, "out.night")
        word = self._("out.last_word", at=self.time(last_word)) if last_word else self.T["out.no_word"]
        return self.prose(self.T[key], word, self.T["out.see_thread"])
