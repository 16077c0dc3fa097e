"""Typed access to one TOML table of the configuration, recording each problem (with its place) instead of
raising, so that loading names every problem at once."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any

from forumbot.options import closest


class Reader:
    """Typed access to one TOML table, recording a problem (with the table's path) instead of raising."""

    def __init__(self, table: dict, where: str, problems: list[str]) -> None:
        self.table, self.where, self.problems = table, where, problems
        self.used: set[str] = set()

    def problem(self, key: str, what: str) -> None:
        self.problems.append(f"{self.where}.{key}: {what}" if key else f"{self.where}: {what}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None, required: bool = False) -> Any:
        self.used.add(key)
        if key not in self.table:
            if required:
                self.problem(key, "missing")
            return default
        value = self.table[key]
        # bool is an int in Python; a `true` where a number belongs is still a mistake
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
            self.problem(key, f"expected {_kind_name(kind)}, got {type(value).__name__} {value!r}")
            return default
        return value

    def number(self, key: str, default: Any, low: float, high: float, integer: bool = False,
               low_open: bool = False) -> Any:
        """A finite number within [low, high] (or (low, high]), else a problem and `default`."""
        value = self.get(key, int if integer else (int, float), None)
        if value is None:
            return default
        if not math.isfinite(value) or value < low or value > high or (low_open and value == low):
            bound = f"more than {low:g}" if low_open else f"at least {low:g}"
            self.problem(key, f"must be {bound} and at most {high:g}, got {value!r}")
            return default
        return value

    def unknown(self, known: Any) -> None:
        for key in sorted(set(self.table) - set(known)):
            self.problem(key, "unknown setting" + closest(key, known))

    def rest(self) -> dict[str, Any]:
        return {k: v for k, v in self.table.items() if k not in self.used}


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false", list: "a list",
             dict: "a table", datetime: "a date-time", date: "a date"}
    kinds = [k for k in _as_tuple(kind) if not (k is int and float in _as_tuple(kind))]  # "a number" says both
    return " or ".join(names.get(k, k.__name__) for k in kinds)
