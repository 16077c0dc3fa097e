"""Typed access to one TOML table of the configuration, recording each problem (with its place) instead of
raising, so that loading names every problem at once."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any, Mapping

from forumbot.options import closest


class Reader:
    """Typed access to one TOML table, recording a problem (with the table's path) instead of raising, in the GMs'
    language `t` (issue 28 item 2: check-config is the first thing a GM runs)."""

    def __init__(self, table: dict, where: str, problems: list[str], t: Mapping[str, str]) -> None:
        self.table, self.where, self.problems, self.t = table, where, problems, t
        self.used: set[str] = set()

    def problem(self, key: str, what: str) -> None:
        self.problems.append(f"{self.where}.{key}: {what}" if key else f"{self.where}: {what}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None, required: bool = False) -> Any:
        self.used.add(key)
        if key not in self.table:
            if required:
                self.problem(key, self.t["config.missing"])
            return default
        value = self.table[key]
        # bool is an int in Python; a `true` where a number belongs is still a mistake
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
            self.problem(key, self.t["config.expected"].format(kind=_kind_name(kind, self.t),
                                                              got=f"{type(value).__name__} {value!r}"))
            return default
        return value

    def number(self, key: str, default: Any, low: float, high: float, integer: bool = False,
               low_open: bool = False) -> Any:
        """A finite number within [low, high] (or (low, high]), else a problem and `default`."""
        value = self.get(key, int if integer else (int, float), None)
        if value is None:
            return default
        if not math.isfinite(value) or value < low or value > high or (low_open and value == low):
            bound = self.t["config.more_than" if low_open else "config.at_least"].format(low=f"{low:g}")
            self.problem(key, self.t["config.range"].format(bound=bound, high=f"{high:g}", got=repr(value)))
            return default
        return value

    def unknown(self, known: Any) -> None:
        for key in sorted(set(self.table) - set(known)):
            self.problem(key, self.t["config.unknown_setting"] + closest(key, known, self.t["config.did_you_mean"]))

    def rest(self) -> dict[str, Any]:
        return {k: v for k, v in self.table.items() if k not in self.used}


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...], t: Mapping[str, str]) -> str:
    kinds = [k for k in _as_tuple(kind) if not (k is int and float in _as_tuple(kind))]  # "a number" says both
    return f" {t['or']} ".join(t.get(f"config.kind.{k.__name__}", k.__name__) for k in kinds)
