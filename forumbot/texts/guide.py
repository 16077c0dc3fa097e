"""What the bot tells players beyond the phase posts (issue 17 items 6-10, 15): how to vote in this game, the
mafia's targets, the PMs to a player who is out or back, a GM-recorded vote and an edited post in the count.

A mixin of `Texts` (forumbot.texts), which gives it the table (`T`, `_`), escaping and the board's format; kept
apart so that module stays about the phases' posts.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Mapping, Sequence

from forumbot.markup import Format
from forumbot.texts.voice import Voice

_QUOTES = {'"': '"', "«": "»", "“": "”", "„": "“", "'": "'"}


def unquote(text: str) -> str:
    """A modkill reason as the GM meant it, without the quotes he typed around it."""
    text = text.strip()
    while len(text) >= 2 and _QUOTES.get(text[0]) == text[-1]:
        text = text[1:-1].strip()
    return text


class GuideTexts:
    def __init__(self, v: Voice) -> None:
        self.v = v

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
        lines = [self.v._("setup.vote.where", thread=self.v.f.link(vote_url, self.v.T["setup.vote.thread"])),
                 self.v.T["setup.vote.strict" if strict else "setup.vote.nick"]]
        changes = house.vote_changes
        lines.append(self.v.T["setup.vote.changes_unlimited"] if changes is None else
                     self.v.T["setup.vote.changes_none"] if changes == 0 else
                     self.v.T["setup.vote.changes_once"] if changes == 1 else
                     self.v._("setup.vote.changes", count=self.v.count(changes, "time")))
        words = house.pass_words if house.pass_words is not None else (() if strict else ("ннв",))
        quoted = [self.v._("quoted", text=self.v.esc(w)) for w in words]
        either = ", ".join(quoted[:-1]) + f" {self.v.T['or']} " + quoted[-1] if len(quoted) > 1 else "".join(quoted)
        lines.append(self.v._("setup.vote.pass", words=either)
                     if words else self.v.T["setup.vote.no_pass"])
        if house.final_word:
            lines.append(self.v._("house.final_word", word=self.v.esc(house.final_word)) + ".")
        if house.vote_format != "any":
            lines.append(self.v._(f"house.vote_format.{house.vote_format}", colors=", ".join(house.vote_colors)) + ".")
        if runoff:
            lines.append(self.v.T["setup.vote.runoff"])
        if strict:
            lines.append(self.v.T["setup.vote.agitation"])
        return lines

    def with_game_link(self, text: str, game_url: str) -> str:
        """A vote-thread post with the way to the game thread under it (issue 17 item 6); unchanged without a
        safe URL to link."""
        link = self.v.f.link(game_url, self.v.T["thread.game"])
        if link == self.v.T["thread.game"]:
            return text
        return self.v.post(text, self.v.prose(self.v._("thread.game_line", link=link)))

    def _targets(self, targets: Sequence[tuple[str, str | None]]) -> str:
        return "; ".join(self.v._("mafia.target", nick=self.v.n(nick), target=self.v.b(target)) if target
                         else self.v._("mafia.no_target", nick=self.v.n(nick)) for nick, target in targets)

    def mafia_targets(self, targets: Sequence[tuple[str, str | None]]) -> str:
        """M-5, to a mafioso whose shot was accepted: the team's targets now, and that they must match."""
        chosen = {t for _, t in targets}
        verdict = "mafia.match" if len(chosen) == 1 and None not in chosen else "mafia.must_match"
        return self.v.prose(self.v._("mafia.targets", targets=self._targets(targets)), self.v.T[verdict])

    def partner_target(self, partner: str, target: str, targets: Sequence[tuple[str, str | None]]) -> str:
        """M-5, to the other living mafiosi when one names a new target: who, whom, and the team's targets."""
        return self.v.prose(self.v._("mafia.partner_target", nick=self.v.b(partner), target=self.v.b(target)),
                          self.mafia_targets(targets))

    def mafia_mismatch(self, targets: Sequence[tuple[str, str | None]]) -> str:
        """M-5, in a GM's `статус` by night: the mafia's targets when they do not (yet) match; else nothing."""
        chosen = {t for _, t in targets}
        if len(chosen) <= 1 and None not in chosen or chosen == {None}:
            return ""
        return self.v._("status.mafia_mismatch", targets=self._targets(targets))

    def you_are_modkilled(self, reason: str) -> str:
        """C-10, to the player a GM modkilled: out, why, and no last word (C-8)."""
        reason = unquote(reason)
        return self.v.prose(self.v.T["out.modkill"],
                          self.v._("modkill.reason", reason=self.v.esc(reason)) if reason else "", self.v.T["out.no_word"])

    def modkill_undone(self) -> str:
        return self.v._("out.modkill_undone")

    def you_are_replaced(self, new: str) -> str:
        """To the account a GM's `замена` (or a reserve's accepted offer, S-4) took the seat from (issue 28)."""
        return self.v._("out.replaced", nick=self.v.n(new))

    def replacement_undone(self, holder: str) -> str:
        """To the account an undone `замена` had seated (issue 28 item 8): it got a role PM and must learn that
        it no longer plays; `holder` plays the seat again."""
        return self.v._("out.replacement_undone", nick=self.v.n(holder))

    def you_are_out(self, cause: str, last_word: datetime | None) -> str:
        """To a player the vote or the night took out (the game-thread post stays the notice of record)."""
        key = {"vote": "out.vote", "runoff": "out.vote", "autokill": "out.autokill"}.get(cause, "out.night")
        word = self.v._("out.last_word", at=self.v.deadline(last_word)) if last_word else self.v.T["out.no_word"]
        return self.v.prose(self.v.T[key], word, self.v.T["out.see_thread"])
