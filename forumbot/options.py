"""The game options a setup may carry (`[games.NAME.options]`, a transcript's "options"): the one list.

The config, `replay` and the engine read options by these names; anything else is refused by name (RULES.md R:
"an unknown option or value is refused with a clear error, never ignored"), with the closest known name
suggested. Pure: no I/O.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from forumbot.rules.house import house_problems

def number(low: float, high: float, unit: str, low_open: bool = False) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"expected a number of {unit}, got {type(value).__name__} {value!r}"
        if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
            bound = f"more than {low:g}" if low_open else f"at least {low:g}"
            return f"must be {bound} and at most {high:g} {unit}, got {value!r}"
        return None
    return check


def choice(*allowed: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value not in allowed or not isinstance(value, str):
            return f"must be {' or '.join(repr(a) for a in allowed)}, got {value!r}"
        return None
    return check


def words(value: Any) -> str | None:
    if not isinstance(value, list) or not all(isinstance(w, str) and w.strip() for w in value):
        return f"expected a list of non-empty words, got {value!r}"
    return None


def whole(low: int | None = None, high: int | None = None) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected a whole number, got {type(value).__name__} {value!r}"
        if low is not None and high is not None and not low <= value <= high:
            return f"must be from {low} to {high}, got {value!r}"
        return None
    return check


def changes(value: Any) -> str | None:
    if value == "unlimited":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return f"must be a whole number of at least 0 or 'unlimited', got {value!r}"
    return None


def one_word(value: Any) -> str | None:
    if not isinstance(value, str) or len(value.split()) != 1:
        return f"expected one word, got {value!r}"
    return None


def table(value: Any) -> str | None:
    return None if isinstance(value, dict) else f"expected a table of role counts, got {type(value).__name__} {value!r}"


def string(value: Any) -> str | None:
    return None if isinstance(value, str) else f"expected a string, got {type(value).__name__} {value!r}"


def flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"expected true or false, got {type(value).__name__} {value!r}"


@dataclass(frozen=True)
class Option:
    check: Callable[[Any], str | None]  # None when the value is fine, else what is wrong
    variants: tuple[str, ...] = ()  # () = every variant
    clause: str = ""


OPTIONS: dict[str, Option] = {
    "edited_votes": Option(choice("void", "first_seen"), clause="C-11"),
    # at least a minute: a zero interval would schedule vote counts forever at one instant
    "vote_count_minutes": Option(number(1, 7 * 24 * 60, "minutes")),
    "remind_hours": Option(number(0, 24 * 365, "hours")),  # 0: no reminders
    "agitation_markers": Option(words),
    # the board's spoiler tag for long lists in the bot's posts (issue 11 item 1): BBCode [spoiler] or Discourse's [details]
    "spoiler": Option(choice("none", "spoiler", "details")),
    "mafia": Option(whole(), ("free_hunt",), "H-1"),
    "maniac": Option(flag, ("free_hunt",), "H-1"),
    # RULES.md section R: house rules; left out, the variant's clause holds (rules/house.py reads them)
    "vote_changes": Option(changes, clause="R-1"),
    "final_word": Option(one_word, clause="R-2"),
    "vote_format": Option(choice("any", "bold", "color"), clause="R-3"),
    "vote_colors": Option(words, clause="R-3"),
    "pass_words": Option(words, clause="R-4"),
    "lynch": Option(choice("plurality", "majority"), clause="R-5"),
    "tie": Option(choice("runoff", "nobody", "all", "first_reached"), clause="R-6"),
    "no_show": Option(choice("nothing", "autokill", "self_vote"), clause="R-7"),
    "draw_at": Option(whole(0, 30), clause="R-8"),
    "roles": Option(choice("closed", "open"), clause="R-9"),
    "cast": Option(table, clause="R-10"),
    # a day ends as soon as one player holds a majority of the alive (after `majority_delay` minutes)
    "majority_ends_day": Option(flag, clause="R-12"),
    "majority_delay": Option(number(0, 7 * 24 * 60, "minutes"), clause="R-12"),
    # C-14: a deadline is disturbed when the bot could not read the game's threads for longer than
    # `downtime_grace` minutes of the `downtime_window` minutes before it
    "downtime_grace": Option(number(1, 366 * 24 * 60, "minutes"), clause="C-14"),
    "downtime_window": Option(number(1, 366 * 24 * 60, "minutes"), clause="C-14"),
    # M-15: the mafia conference during Setup: one PM to all the mafia, or relayed by the bot ("none": the GM runs
    # it by hand)
    "conference": Option(choice("conversation", "relay", "none"), ("moscow",), "M-15"),
    "post_minimum": Option(whole(0, 1000), clause="R-11"),
    "post_minimum_chars": Option(whole(1, 100_000), clause="R-11"),
    "post_minimum_action": Option(choice("warn", "autokill", "warn_then_autokill"), clause="R-11"),
    "post_minimum_reminder_hours": Option(number(0, 24 * 365, "hours"), clause="R-11"),  # 0: no reminder
    # the bot, a moderator of the game's forum, closes the vote thread between days (outbox/locks.py)
    "lock_threads": Option(flag, clause="R-13"),
    "lock_game_thread_at_night": Option(flag, clause="R-13"),
}


def option_problems(variant: str, options: Mapping[str, Any], where: str = "options") -> list[str]:
    """One line per unknown option, option of another variant, or unreadable value, each naming the option."""
    problems = []
    for name, value in options.items():
        option = OPTIONS.get(name)
        if option is None:
            problems.append(f"{where}.{name}: {unknown_option(name)}")
        elif option.variants and variant not in option.variants:
            problems.append(f"{where}.{name}: not an option of {variant} (only of {', '.join(option.variants)})")
        elif (wrong := option.check(value)) is not None:
            problems.append(f"{where}.{name}: {wrong}" + (f" ({option.clause})" if option.clause else ""))
    if not problems:  # what the variant cannot play among well-formed values (R-6 runoff, R-10 cast)
        problems = [f"{where}.{line}" for line in house_problems(variant, options)]
    return problems


def unknown_option(name: str) -> str:
    return "unknown option" + closest(name, OPTIONS)


def closest(name: str, known: Any, template: str = " (did you mean {name!r}?)") -> str:
    """The `template` naming the nearest of `known` (' (did you mean 'x'?)'), or ''."""
    match = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return template.format(name=match[0]) if match else ""

