"""What the bot says about a sign-up (S-1..S-3): the opening post, the list, the close, the extension, the
cancellation, and its answers to the GMs' sign-up commands. Functions over `Texts` (its table and formatting)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types only: the sign-up's values and the texts, which never import this module
    from forumbot.engine.signup_values import SignupSetup, Standing
    from forumbot.texts import Texts


def opening(t: "Texts", s: "SignupSetup", closes: datetime) -> str:
    """S-1: the variant, the house options that differ, the count wanted, the close, how to join and leave."""
    return t.post(
        t.heading("signup.title", variant=t.T[f"signup.variant.{s.variant}"]),
        t.prose(t._("signup.wanted", count=t.count(s.seats, "player")),
                t._("signup.closes", at=t.time(closes)),
                t.T["signup.full_closes"] if s.close_when_full else ""),
        t.prose(*t.house_rules(s.house)) if s.house else "",
        t.section(t.T["signup.how.title"], [t.T["signup.how.join"], t.T["signup.how.leave"], t.T["signup.how.reserve"]]),
        t.prose(t._("signup.rules", link=t.f.link(s.rules_url, t.T["signup.rules.text"]))) if s.rules_url else "",
    )


def _places(t: "Texts", now: "Standing") -> list[str]:
    players = [f"{i}. {t.b(n)}" for i, n in enumerate(now.players, 1)]
    return [
        t.section(t.T["signup.list.players"], players) if players else t.prose(t.T["signup.list.none"]),
        t.section(t.T["signup.list.reserve"], [t.n(n) for n in now.reserve]) if now.reserve else "",
        t.prose(t._("signup.list.refused", names=t.plain_names(now.refused))) if now.refused else "",
    ]


def listing(t: "Texts", now: "Standing", s: "SignupSetup", closes: datetime) -> str:
    """S-2: the players with their order, the reserve, places left, the close."""
    return t.post(t.heading("signup.list.title"), *_places(t, now),
                  t.prose(t._("signup.list.left", count=t.count(now.left, "place")),
                          t._("signup.closes", at=t.time(closes))))


def closed(t: "Texts", now: "Standing", s: "SignupSetup", day_one: datetime) -> str:
    """S-3: the close with N players, who they are, when the roles go out and Day 1 opens."""
    return t.post(t.heading("signup.closed.title"), *_places(t, now),
                  t.prose(t.T["signup.closed.roles"], t._("signup.closed.day_one", at=t.time(day_one))))


def extended(t: "Texts", now: "Standing", s: "SignupSetup", closes: datetime) -> str:
    return t.post(t.heading("signup.extended.title"), *_places(t, now),
                  t.prose(t._("signup.extended", count=t.count(now.left, "place"), at=t.time(closes))))


def gm_extended(t: "Texts", now: "Standing", s: "SignupSetup", closes: datetime) -> str:
    return t._("signup.gm.extended", have=len(now.players), wanted=s.seats, at=t.time(closes))


def cancelled(t: "Texts", now: "Standing", s: "SignupSetup") -> str:
    return t.post(t.heading("signup.cancelled.title"),
                  t.prose(t._("signup.cancelled", have=len(now.players), wanted=s.seats)))


def gm_cancelled(t: "Texts", now: "Standing", s: "SignupSetup") -> str:
    return t._("signup.gm.cancelled", have=len(now.players), wanted=s.seats, names=t.plain_names(now.players))


def status(t: "Texts", now: "Standing", s: "SignupSetup", closes: datetime) -> str:
    return t.prose(t._("signup.gm.status", have=len(now.players), wanted=s.seats, at=t.time(closes)),
                   t._("signup.gm.players", names=t.plain_names(now.players)),
                   t._("signup.gm.reserve", names=t.plain_names(now.reserve)))


def refused(t: "Texts", code: str) -> str:
    return t._("gm.refused", why=t.T[f"signup.refuse.{code}"])


def done(t: "Texts", cmd: object, now: "Standing", s: "SignupSetup", closes: datetime) -> str:
    what = type(cmd).__name__
    nick = getattr(cmd, "nick", "")
    head = t._(f"signup.gm.done.{what}", nick=t.n(nick))
    return head + "\n" + status(t, now, s, closes)


def undone(t: "Texts", text: str) -> str:
    return t._("signup.gm.undone", command=t.excerpt(text))



def season_notice(t: "Texts", game: str, thread: str) -> str:
    """S-5: the once-only PM to the last game's players that the next sign-up is open."""
    return t._("season.notice", game=t.esc(game), thread=t.f.link(thread, t.esc(thread)))
