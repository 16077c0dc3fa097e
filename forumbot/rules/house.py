"""House rules (RULES.md section R) as data a variant reads: one value per option, the variant's clause by default.

`configure` returns the variant with its house rules set; the engine and the variant's own functions read these
fields, never the raw options. Pure: no I/O.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from forumbot.errors import SetupError
from forumbot.model import ROLE_TEAM, Role, Team

TIES = ("runoff", "nobody", "all", "first_reached")
NO_SHOWS = ("nothing", "autokill", "self_vote")
POST_MINIMUM_ACTIONS = ("warn", "autokill", "warn_then_autokill")
CAST_ROLES: dict[str, tuple[str, ...]] = {"moscow": ("mafia", "don", "sheriff"), "free_hunt": ("mafia", "doctor", "maniac")}
CAST_PLAYERS = (7, 30)


@dataclass(frozen=True)
class HouseRules:
    vote_changes: int | None  # R-1 (None: unlimited)
    repeat_is_change: bool  # M-8 counts every valid vote; R-1 set: a repeat of the same target is no change
    final_word: str | None
    vote_format: str  # "any", "bold", "color"
    vote_colors: tuple[str, ...]
    pass_words: tuple[str, ...] | None  # R-4; None: the variant's own ("ннв" in Moscow, none in Free Hunt)
    lynch: str  # "plurality" or "majority"
    tie: str
    no_show: str
    draw_at: int
    open_roles: bool
    cast: Mapping[str, int] | None  # counts of the variant's special roles, the rest civilians
    post_minimum: int = 0  # game-thread posts each alive player owes a day; 0: off
    post_minimum_chars: int = 1  # the shortest post that counts, in characters after C-4 normalisation
    post_minimum_action: str = "warn"  # one of POST_MINIMUM_ACTIONS
    post_minimum_reminder_hours: float = 3  # the reminder PM this long before the day's deadline
    majority_ends_day: bool = False  # a day ends as soon as one player holds a majority of the alive
    majority_delay: float = 0  # minutes after the majority-making post, unless the majority breaks first

    def summary(self, defaults: "HouseRules") -> list[tuple[str, Any]]:
        """(option, value) for every house rule that differs from the variant's clause, in RULES.md order."""
        out: list[tuple[str, Any]] = []
        for name in ("vote_changes", "final_word", "vote_format", "pass_words", "lynch", "tie", "no_show",
                     "draw_at", "open_roles", "cast", "post_minimum", "majority_ends_day", "majority_delay"):
            value = getattr(self, name)
            if name == "post_minimum":  # R-11, off by default: a game without it lists nothing new
                if value:
                    out.append((name, (value, self.post_minimum_chars, self.post_minimum_action)))
            elif value != getattr(defaults, name):
                out.append((name, (value, self.vote_colors) if name == "vote_format" else value))
        return out


def defaults(variant: str) -> HouseRules:
    moscow = variant == "moscow"
    return HouseRules(
        vote_changes=1 if moscow else None, repeat_is_change=True, final_word=None, vote_format="any",
        vote_colors=(), pass_words=None, lynch="plurality",
        tie="runoff" if moscow else "nobody", no_show="nothing" if moscow else "autokill",
        draw_at=4 if moscow else 0, open_roles=not moscow, cast=None,
    )


def house_rules(variant: str, options: Mapping[str, Any]) -> HouseRules:
    """The house rules an options table sets; raises SetupError naming an option the variant cannot play (the
    options' check, forumbot/options.py, says why in the GMs' words before a game gets here)."""
    base = defaults(variant)
    found = house_findings(variant, options)
    if found:
        option, _, _, clause = found[0]
        raise SetupError.told("setup.rule.not_playable",
                              "{option}: not playable in the {variant} variant with these options ({clause})",
                              option=option, variant=variant, clause=clause)
    changes = options.get("vote_changes", base.vote_changes)
    return HouseRules(
        vote_changes=None if changes == "unlimited" else changes,
        repeat_is_change="vote_changes" not in options,
        final_word=options.get("final_word", base.final_word),
        vote_format=options.get("vote_format", base.vote_format),
        vote_colors=tuple(c.lower() for c in options.get("vote_colors", ())),
        pass_words=tuple(options["pass_words"]) if "pass_words" in options else None,
        lynch=options.get("lynch", base.lynch),
        tie=options.get("tie", base.tie),
        no_show=options.get("no_show", base.no_show),
        draw_at=options.get("draw_at", base.draw_at),
        open_roles={"open": True, "closed": False}.get(options.get("roles", ""), base.open_roles),
        cast=dict(options["cast"]) if "cast" in options else None,
        post_minimum=options.get("post_minimum", base.post_minimum),
        post_minimum_chars=options.get("post_minimum_chars", base.post_minimum_chars),
        post_minimum_action=options.get("post_minimum_action", base.post_minimum_action),
        post_minimum_reminder_hours=options.get("post_minimum_reminder_hours", base.post_minimum_reminder_hours),
        majority_ends_day=bool(options.get("majority_ends_day", False)),
        majority_delay=options.get("majority_delay", 0),
    )


# What a variant cannot play among well-formed values: (the option, a text key `house.problem.*` of the texts'
# tables, its fields, the clause). Rules import no texts: forumbot/options.py words them in the GMs' language.
Finding = tuple[str, str, dict[str, Any], str]


def house_findings(variant: str, options: Mapping[str, Any]) -> list[Finding]:
    problems: list[Finding] = []
    if variant != "moscow" and options.get("tie") == "runoff":
        problems.append(("tie", "runoff_moscow_only", {}, "R-6"))
    if options.get("vote_format") == "color" and not options.get("vote_colors"):
        problems.append(("vote_colors", "colors_needed", {}, "R-3"))
    if "vote_colors" in options and options.get("vote_format") != "color":
        problems.append(("vote_colors", "colors_unread", {}, "R-3"))
    post_minimum_set = [k for k in ("post_minimum_chars", "post_minimum_action", "post_minimum_reminder_hours")
                        if k in options]
    if post_minimum_set and not options.get("post_minimum"):
        problems.append((post_minimum_set[0], "needs_post_minimum", {}, "R-11"))
    if "majority_delay" in options and not options.get("majority_ends_day"):
        problems.append(("majority_delay", "needs_majority_ends_day", {}, "R-12"))
    if options.get("lock_game_thread_at_night") and not options.get("lock_threads"):
        problems.append(("lock_game_thread_at_night", "needs_lock_threads", {}, "R-13"))
    if "cast" in options:
        if variant == "free_hunt" and ("mafia" in options or "maniac" in options):
            problems.append(("cast", "cast_or_counts", {}, "R-10"))
        wrong = cast_problem(variant, options["cast"])
        if wrong:
            problems.append(("cast", *wrong, "R-10"))
    return problems


def cast_problem(variant: str, cast: Any) -> tuple[str, dict[str, Any]] | None:
    """R-10: what is wrong with a cast table, as a text key and its fields."""
    allowed = ", ".join(CAST_ROLES.get(variant, ()))
    if not isinstance(cast, Mapping):
        return "cast_table", {"allowed": allowed, "got": repr(cast)}
    for role, n in cast.items():
        if role not in CAST_ROLES.get(variant, ()):
            return "cast_role", {"role": repr(role), "variant": variant, "allowed": allowed}
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            return "cast_count", {"role": role, "got": repr(n)}
    if variant == "moscow" and cast.get("don", 1) != 1:
        return "cast_one_don", {}
    if variant == "moscow" and cast.get("sheriff", 1) > 1 or variant == "free_hunt" and (
        cast.get("doctor", 1) > 1 or cast.get("maniac", 0) > 1
    ):
        return "cast_single_roles", {}
    return None


def cast_roles(variant: str, cast: Mapping[str, int], n_players: int) -> list[Role]:
    """R-10: the full cast for n players (Moscow deals the Don as a mafioso: the mafia choose him, M-1)."""
    lo, hi = CAST_PLAYERS
    if not lo <= n_players <= hi:
        raise SetupError.told("setup.rule.cast_players", "option cast plays {low} to {high} players, got {n} (R-10)",
                              low=lo, high=hi, n=n_players)
    full = {"don": 1, "sheriff": 1, "doctor": 1, "maniac": 0}
    counts = Counter({Role(r): cast.get(r, full.get(r, 0)) for r in CAST_ROLES[variant]})
    if variant == "moscow":
        counts = Counter({Role.MAFIA: counts[Role.MAFIA] + counts[Role.DON], Role.SHERIFF: counts[Role.SHERIFF]})
    special = sum(counts.values())
    roles = [r for r, n in sorted(counts.items()) for _ in range(n)] + [Role.CIVILIAN] * (n_players - special)
    bad = sum(1 for r in roles if ROLE_TEAM[r] is not Team.TOWN)
    mafia = sum(1 for r in roles if ROLE_TEAM[r] is Team.MAFIA)
    if special > n_players or mafia < 1 or n_players - bad <= bad:
        raise SetupError.told(
            "setup.rule.cast_balance",
            "option cast {cast} with {n} players needs at least one mafia member and more town than bad players (R-10)",
            cast=dict(cast), n=n_players)
    return roles


def expected_cast(variant: str, cast: Mapping[str, int], n_players: int) -> Counter[Role]:
    """The cast given in full must hold (the Don as himself)."""
    roles = Counter(cast_roles(variant, cast, n_players))
    if variant == "moscow":
        roles[Role.MAFIA] -= 1
        roles[Role.DON] += 1
    return +roles


def configure(variant: Any, options: Mapping[str, Any]) -> Any:
    """The variant playing these house rules: a copy whose data fields follow them."""
    house = house_rules(variant.name, options)
    out = copy.copy(variant)
    out.house = house
    out.vote_changes = house.vote_changes
    out.open_roles = house.open_roles
    out.no_show_autokill = house.no_show == "autokill"
    out.has_runoff = house.tie == "runoff"
    return out
