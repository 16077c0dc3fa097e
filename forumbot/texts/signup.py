"""What the bot says about a sign-up (S-1..S-3): the opening post, the list, the close, the extension, the
cancellation, and its answers to the GMs' sign-up commands."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol, Sequence

from forumbot.texts.phases import PhaseTexts
from forumbot.texts.voice import Voice


class SignupSetup(Protocol):
    """What the texts read of a sign-up's setup (the engine's `SignupSetup`)."""
    @property
    def variant(self) -> str: ...
    @property
    def seats(self) -> int: ...
    @property
    def close_when_full(self) -> bool: ...
    @property
    def house(self) -> Sequence[tuple[str, Any]]: ...
    @property
    def rules_url(self) -> str: ...


class Standing(Protocol):
    """What the texts read of the list at a moment (the engine's `Standing`)."""
    @property
    def players(self) -> Sequence[str]: ...
    @property
    def reserve(self) -> Sequence[str]: ...
    @property
    def refused(self) -> Sequence[str]: ...
    @property
    def left(self) -> int: ...


class SignupTexts:
    def __init__(self, v: Voice, phases: PhaseTexts) -> None:
        self.v = v
        self.phases = phases

    def opening(self, s: SignupSetup, closes: datetime) -> str:
        """S-1: the variant, the house options that differ, the count wanted, the close, how to join and leave."""
        return self.v.post(
            self.v.heading("signup.title", variant=self.v.T[f"signup.variant.{s.variant}"]),
            self.v.prose(self.v._("signup.wanted", count=self.v.count(s.seats, "player")),
                    self.v._("signup.closes", at=self.v.deadline(closes)),
                    self.v.T["signup.full_closes"] if s.close_when_full else ""),
            self.v.prose(*self.phases.house_rules(s.house)) if s.house else "",
            self.v.section(self.v.T["signup.how.title"], [self.v.T["signup.how.join"], self.v.T["signup.how.leave"], self.v.T["signup.how.reserve"]]),
            self.v.prose(self.v._("signup.rules", link=self.v.f.link(s.rules_url, self.v.T["signup.rules.text"]))) if s.rules_url else "",
        )

    def _places(self, now: Standing) -> list[str]:
        players = [f"{i}. {self.v.b(n)}" for i, n in enumerate(now.players, 1)]
        return [
            self.v.section(self.v.T["signup.list.players"], players) if players else self.v.prose(self.v.T["signup.list.none"]),
            self.v.section(self.v.T["signup.list.reserve"], [self.v.n(n) for n in now.reserve]) if now.reserve else "",
            self.v.prose(self.v._("signup.list.refused", names=self.v.plain_names(now.refused))) if now.refused else "",
        ]

    def listing(self, now: Standing, s: SignupSetup, closes: datetime) -> str:
        """S-2: the players with their order, the reserve, places left, the close."""
        return self.v.post(self.v.heading("signup.list.title"), *self._places(now),
                      self.v.prose(self.v._("signup.list.left", count=self.v.count(now.left, "place")),
                              self.v._("signup.closes", at=self.v.deadline(closes))))

    def closed(self, now: Standing, s: SignupSetup, day_one: datetime) -> str:
        """S-3: the close with N players, who they are, when the roles go out and Day 1 opens."""
        return self.v.post(self.v.heading("signup.closed.title"), *self._places(now),
                      self.v.prose(self.v.T["signup.closed.roles"], self.v._("signup.closed.day_one", at=self.v.deadline(day_one))))

    def extended(self, now: Standing, s: SignupSetup, closes: datetime) -> str:
        return self.v.post(self.v.heading("signup.extended.title"), *self._places(now),
                      self.v.prose(self.v._("signup.extended", count=self.v.count(now.left, "place"), at=self.v.deadline(closes))))

    def gm_extended(self, now: Standing, s: SignupSetup, closes: datetime) -> str:
        return self.v._("signup.gm.extended", have=len(now.players), wanted=s.seats, at=self.v.deadline(closes))

    def cancelled(self, now: Standing, s: SignupSetup) -> str:
        return self.v.post(self.v.heading("signup.cancelled.title"),
                      self.v.prose(self.v._("signup.cancelled", have=len(now.players), wanted=s.seats)))

    def gm_cancelled(self, now: Standing, s: SignupSetup) -> str:
        return self.v._("signup.gm.cancelled", have=len(now.players), wanted=s.seats, names=self.v.plain_names(now.players))

    def status(self, now: Standing, s: SignupSetup, closes: datetime) -> str:
        return self.v.prose(self.v._("signup.gm.status", have=len(now.players), wanted=s.seats, at=self.v.deadline(closes)),
                       self.v._("signup.gm.players", names=self.v.plain_names(now.players)),
                       self.v._("signup.gm.reserve", names=self.v.plain_names(now.reserve)))

    def refused(self, code: str) -> str:
        return self.v._("gm.refused", why=self.v.T[f"signup.refuse.{code}"])

    def done(self, cmd: object, now: Standing, s: SignupSetup, closes: datetime) -> str:
        what = type(cmd).__name__
        nick = getattr(cmd, "nick", "")
        head = self.v._(f"signup.gm.done.{what}", nick=self.v.n(nick))
        return head + "\n" + self.status(now, s, closes)

    def undone(self, text: str) -> str:
        return self.v._("signup.gm.undone", command=self.v.excerpt(text))


    def season_notice(self, game: str, thread: str) -> str:
        """S-5: the once-only PM to the last game's players that the next sign-up is open."""
        return self.v._("season.notice", game=self.v.esc(game), thread=self.v.f.link(thread, self.v.esc(thread)))
