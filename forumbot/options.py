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

from forumbot.rules.house import house_findings
from forumbot.texts import TABLES

# A check: None when the value is fine, else what is wrong, in the table `t`'s language (issue 28: a Russian GM
# read «must be 'runoff' or 'nobody', got …» in check-config's Russian lines).
Check = Callable[[Any, Mapping[str, str]], "str | None"]


def got(value: Any) -> str:
    return repr(value)


def got_typed(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def number(low: float, high: float, unit: str, low_open: bool = False) -> Check:
    def check(value: Any, t: Mapping[str, str]) -> str | None:
        units = t[f"value.unit.{unit}"]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return t["value.number"].format(unit=units, got=got_typed(value))
        if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
            bound = t["config.more_than" if low_open else "config.at_least"].format(low=f"{low:g}")
            return t["value.number_range"].format(bound=bound, high=f"{high:g}", unit=units, got=got(value))
        return None
    return check


def choice(*allowed: str) -> Check:
    def check(value: Any, t: Mapping[str, str]) -> str | None:
        if value not in allowed or not isinstance(value, str):
            return t["value.choice"].format(choices=f" {t['or']} ".join(repr(a) for a in allowed), got=got(value))
        return None
    return check


def words(value: Any, t: Mapping[str, str]) -> str | None:
    if not isinstance(value, list) or not all(isinstance(w, str) and w.strip() for w in value):
        return t["value.words"].format(got=got(value))
    return None


def whole(low: int | None = None, high: int | None = None) -> Check:
    def check(value: Any, t: Mapping[str, str]) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return t["value.whole"].format(got=got_typed(value))
        if low is not None and high is not None and not low <= value <= high:
            return t["value.whole_range"].format(low=low, high=high, got=got(value))
        return None
    return check


def changes(value: Any, t: Mapping[str, str]) -> str | None:
    if value == "unlimited":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return t["value.changes"].format(got=got(value))
    return None


def one_word(value: Any, t: Mapping[str, str]) -> str | None:
    if not isinstance(value, str) or len(value.split()) != 1:
        return t["value.one_word"].format(got=got(value))
    return None


def table(value: Any, t: Mapping[str, str]) -> str | None:
    return None if isinstance(value, dict) else t["value.cast_table"].format(got=got_typed(value))


def string(value: Any, t: Mapping[str, str]) -> str | None:
    return None if isinstance(value, str) else t["value.string"].format(got=got_typed(value))


def flag(value: Any, t: Mapping[str, str]) -> str | None:
    return None if isinstance(value, bool) else t["value.flag"].format(got=got_typed(value))


@dataclass(frozen=True)
class Option:
    check: Check  # None when the value is fine, else what is wrong
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


def option_problems(variant: str, options: Mapping[str, Any], where: str = "options",
                    t: Mapping[str, str] = TABLES["en"]) -> list[str]:
    """One line per unknown option, option of another variant, or unreadable value, each naming the option, in the
    language of `t` (the GMs'; English for a transcript's replay)."""
    problems = []
    for name, value in options.items():
        option = OPTIONS.get(name)
        if option is None:
            problems.append(f"{where}.{name}: {unknown_option(name, t)}")
        elif option.variants and variant not in option.variants:
            problems.append(f"{where}.{name}: " + t["option.other_variant"].format(
                variant=variant, variants=", ".join(option.variants)))
        elif (wrong := option.check(value, t)) is not None:
            problems.append(f"{where}.{name}: {wrong}" + (f" ({option.clause})" if option.clause else ""))
    if not problems:  # what the variant cannot play among well-formed values (R-6 runoff, R-10 cast)
        problems = [f"{where}.{line}" for line in _house_problems(variant, options, t)]
    return problems


def _house_problems(variant: str, options: Mapping[str, Any], t: Mapping[str, str]) -> list[str]:
    """What the variant cannot play among well-formed values (R-6 runoff, R-10 cast, ...), in the words of `t`."""
    return [f"{option}: " + t[f"house.problem.{key}"].format(**fields) + f" ({clause})"
            for option, key, fields, clause in house_findings(variant, options)]


def unknown_option(name: str, t: Mapping[str, str] = TABLES["en"]) -> str:
    return t["option.unknown"] + closest(name, OPTIONS, t["config.did_you_mean"])


def closest(name: str, known: Any, template: str = " (did you mean {name!r}?)") -> str:
    """The `template` naming the nearest of `known` (' (did you mean 'x'?)'), or ''."""
    match = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return template.format(name=match[0]) if match else ""

